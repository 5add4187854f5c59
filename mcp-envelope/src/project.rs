//! The `jq` projection (private module: its items are re-exported at the crate root, and the concern is documented on `project`).

mod convert;
mod data;
mod formats;
mod jmespath;
mod jq;
mod regex;

use serde_json::Value;

use self::jmespath::JmesPathProgram;
use self::jq::{JqCompileError, JqProgram};

/// Longest accepted expression, in bytes (64 KiB).
pub const MAX_EXPRESSION_BYTES: usize = 65_536;
/// Outputs counted before giving up on an expression that yields several:
/// the error then says "at least this many".
pub const MAX_COUNTED_OUTPUTS: usize = 1_000;
/// Deepest nesting (arrays/objects) accepted in a jq result.
pub const MAX_RESULT_DEPTH: usize = 512;
/// Size in bytes of the stack that compiling and applying a projection run
/// on: 256 MiB in optimized builds, 1 GiB in unoptimized (debug) builds, whose
/// frames are several times larger. Address space reserved per call (one
/// `mmap`), memory committed only for the part actually used. Measured: every
/// nesting shape of [`MAX_EXPRESSION_BYTES`] fits (see the tests). If the
/// reservation itself fails, the call panics (`stacker`).
pub const PROJECTION_STACK_BYTES: usize = if cfg!(debug_assertions) {
    1024 * 1024 * 1024
} else {
    256 * 1024 * 1024
};

/// Which language a [`Projection`] was compiled as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// A jq program, run by jaq.
    Jq,
    /// A JMESPath expression (fallback when the text is not valid jq).
    JmesPath,
}

/// A projection failure; each is an `isError` result whose text is the
/// `Display` of this error.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProjectionError {
    /// The expression is longer than [`MAX_EXPRESSION_BYTES`].
    #[error("the jq expression is {bytes} bytes long; the limit is {limit} bytes. Use a shorter expression")]
    TooLong {
        /// Length of the expression in bytes.
        bytes: usize,
        /// The limit in bytes.
        limit: usize,
    },
    /// The expression compiles neither as jq nor as JMESPath; names both errors.
    #[error(
        "the jq expression is not valid jq ({jq}) nor valid JMESPath ({jmespath}). Fix the expression, e.g. `.workflow_runs | map(.id)` in jq"
    )]
    Compile {
        /// Why jq (jaq) rejected it.
        jq: String,
        /// Why JMESPath rejected it.
        jmespath: String,
    },
    /// The expression parses as jq but cannot run: it names an undefined
    /// filter or variable (`lenght/0 is not defined`), defines a function
    /// (`def`, refused: see [`project`]) or imports a module. Found before
    /// anything is sent upstream; JMESPath is not tried.
    #[error("the jq expression cannot run: {message}. Fix the expression, e.g. `.workflow_runs | map(.id)`")]
    Jq {
        /// jq's error, e.g. `lenght/0 is not defined`.
        message: String,
    },
    /// The program failed while running; `message` is jq's (or JMESPath's) own.
    #[error("the jq expression failed on this result: {message}")]
    Runtime {
        /// The error message of the program.
        message: String,
    },
    /// The program produced zero or several outputs; exactly one is required.
    /// `count` is capped at [`MAX_COUNTED_OUTPUTS`] ("at least" then).
    #[error("{}", output_count_message(*count))]
    OutputCount {
        /// Number of outputs produced (0, or >= 2; at most [`MAX_COUNTED_OUTPUTS`]).
        count: usize,
    },
    /// The result nests arrays/objects deeper than [`MAX_RESULT_DEPTH`].
    #[error("the jq expression produced a value nested deeper than {limit} levels. Project a flatter value")]
    TooDeep {
        /// The depth limit.
        limit: usize,
    },
}

fn output_count_message(count: usize) -> String {
    let how_many = match count {
        0 => "no output".to_owned(),
        c if c >= MAX_COUNTED_OUTPUTS => format!("at least {c} outputs"),
        c => format!("{c} outputs"),
    };
    format!(
        "the jq expression produced {how_many}, but it must produce exactly one value. \
         Wrap the filter in [ ] to collect its outputs into one array, e.g. `[.workflow_runs[] | .id]`"
    )
}

#[derive(Debug, Clone)]
enum Program {
    Jq(JqProgram),
    JmesPath(JmesPathProgram),
}

/// A compiled `jq` expression (jq, or JMESPath as a fallback). `Send + Sync`;
/// compile once, apply to many values. Dropping one compiled from a very
/// deeply nested JMESPath expression recurses per level on the caller's stack;
/// [`project`] compiles, applies and drops on the large stack (see the
/// [`project`]'s docs).
#[derive(Debug, Clone)]
pub struct Projection {
    program: Program,
}

impl Projection {
    /// Compile `expr`. `Ok(None)` for an empty or whitespace-only expression
    /// (no projection).
    ///
    /// # Errors
    /// [`ProjectionError::TooLong`] over [`MAX_EXPRESSION_BYTES`];
    /// [`ProjectionError::Compile`] (naming the jq and the JMESPath error)
    /// when it is neither valid jq nor valid JMESPath;
    /// [`ProjectionError::Jq`] when it parses as jq but cannot run.
    pub fn compile(expr: &str) -> Result<Option<Projection>, ProjectionError> {
        stacker::grow(PROJECTION_STACK_BYTES, || Self::compile_here(expr))
    }

    /// [`Projection::compile`] on the current stack.
    fn compile_here(expr: &str) -> Result<Option<Projection>, ProjectionError> {
        if expr.len() > MAX_EXPRESSION_BYTES {
            return Err(ProjectionError::TooLong {
                bytes: expr.len(),
                limit: MAX_EXPRESSION_BYTES,
            });
        }
        if expr.trim().is_empty() {
            return Ok(None);
        }
        let jq_error = match JqProgram::compile(expr) {
            Ok(program) => {
                return Ok(Some(Projection {
                    program: Program::Jq(program),
                }));
            }
            Err(JqCompileError::Invalid(message)) => return Err(ProjectionError::Jq { message }),
            Err(JqCompileError::Syntax(e)) => e,
        };
        match JmesPathProgram::compile(expr) {
            Ok(program) => Ok(Some(Projection {
                program: Program::JmesPath(program),
            })),
            Err(jmespath) => Err(ProjectionError::Compile { jq: jq_error, jmespath }),
        }
    }

    /// The language the expression was compiled as.
    pub fn dialect(&self) -> Dialect {
        match self.program {
            Program::Jq(_) => Dialect::Jq,
            Program::JmesPath(_) => Dialect::JmesPath,
        }
    }

    /// Run the projection on `data` (the upstream body) and return its single
    /// output. See [`project`] about runaway programs.
    ///
    /// # Errors
    /// [`ProjectionError::Runtime`] with the program's message,
    /// [`ProjectionError::OutputCount`] for zero or several outputs,
    /// [`ProjectionError::TooDeep`] for a result nested deeper than
    /// [`MAX_RESULT_DEPTH`].
    pub fn apply(&self, data: Value) -> Result<Value, ProjectionError> {
        stacker::grow(PROJECTION_STACK_BYTES, move || self.apply_here(data))
    }

    /// [`Projection::apply`] on the current stack.
    fn apply_here(&self, data: Value) -> Result<Value, ProjectionError> {
        match &self.program {
            Program::JmesPath(program) => program
                .run(data)
                .map_err(|message| ProjectionError::Runtime { message }),
            Program::Jq(program) => {
                let (mut outputs, more) = program
                    .run(convert::to_val(data), MAX_COUNTED_OUTPUTS)
                    .map_err(|message| ProjectionError::Runtime { message })?;
                if outputs.len() != 1 || more {
                    return Err(ProjectionError::OutputCount { count: outputs.len() });
                }
                let Some(output) = outputs.pop() else {
                    return Err(ProjectionError::OutputCount { count: 0 });
                };
                convert::from_val(output, MAX_RESULT_DEPTH).map_err(|_| ProjectionError::TooDeep {
                    limit: MAX_RESULT_DEPTH,
                })
            }
        }
    }
}

/// Apply an optional expression to `data`: `None`, empty or whitespace-only
/// returns `data` unchanged; otherwise [`Projection::compile`] then
/// [`Projection::apply`].
///
/// # Errors
/// Any [`ProjectionError`] from compiling or applying.
///
/// The `jq` projection.
///
/// An expression is compiled as a jq program (run by jaq with the jq standard
/// library, adjusted to jq 1.8.1: see `jq_defs.jq`); only if it does not
/// *parse* as jq but compiles as JMESPath, it runs as JMESPath (so
/// `workflow_runs[*].id` gives `[30433642]`). Text that parses as jq but names
/// an undefined filter (`lenght`) is a jq error, [`ProjectionError::Jq`]. It applies to `data` only.
/// Exactly one output is the result; zero or several are an error that says
/// how many and suggests wrapping the filter in `[ ]`. Numbers keep every
/// digit (integers never go through `f64`; see `convert`).
///
/// # Runaway programs
/// jaq has no step, time or memory budget, so a program such as
/// `last(range(1e15))` runs until it is stopped and `[range(1e12)]` or
/// `"x" * 1000000000` until it runs out of memory (an allocation failure
/// aborts the process). This module limits what it can without preemption:
/// the expression length ([`MAX_EXPRESSION_BYTES`]), the number of outputs it
/// collects ([`MAX_COUNTED_OUTPUTS`]; an endless stream like `repeat(1)` stops
/// there), and the nesting depth of the result ([`MAX_RESULT_DEPTH`]). Time
/// and memory it cannot bound: a server that applies programs from callers
/// should run the projection in a separate process it can kill and limit (a
/// thread with a timeout only stops the *waiting*). The `mcp-devtools` server
/// does so through `mcp_projection::Isolated`: pooled `--jq-worker` children
/// with `setrlimit` limits on address space and CPU time, killed at the
/// timeout.
///
/// # Stack depth
/// jaq (and the JMESPath parser) recurse once per nesting level of the
/// expression and of the values, using up to a few KiB of stack per level, so
/// `[[[[…]]]]`, `1+1+1+…` or `-----1` of a few thousand bytes overflowed a
/// 2 MiB thread stack and aborted the whole process (found by fuzzing, see
/// `FUZZING.md`). [`Projection::compile`] and [`Projection::apply`] therefore
/// run on a separate stack of [`PROJECTION_STACK_BYTES`] (reserved address
/// space, committed only as it is used; via the `stacker` crate), which holds
/// any expression up to [`MAX_EXPRESSION_BYTES`]. What no stack size can
/// hold is *unbounded recursion at run time*, which only a user-defined
/// function can express (`def f: 1 + f; f`): expressions that define functions
/// are therefore refused at compile time (a [`ProjectionError::Jq`] that says
/// so); every built-in recursion is bounded by its input.
///
/// ```
/// use mcp_envelope::project;
/// use serde_json::json;
///
/// let body = json!({"workflow_runs": [{"id": 30433642, "conclusion": "failure"}]});
/// assert_eq!(project(body.clone(), Some(".workflow_runs | map(.id)"))?, json!([30433642]));
/// assert_eq!(project(body.clone(), Some("workflow_runs[*].id"))?, json!([30433642])); // JMESPath
/// assert_eq!(project(body.clone(), Some("  "))?, body); // blank = no projection
/// # Ok::<(), mcp_envelope::ProjectionError>(())
/// ```
pub fn project(data: Value, expr: Option<&str>) -> Result<Value, ProjectionError> {
    let Some(expr) = expr else {
        return Ok(data);
    };
    // One large stack for compiling, applying and dropping the program (a
    // deep JMESPath syntax tree is also dropped recursively).
    stacker::grow(PROJECTION_STACK_BYTES, move || match Projection::compile_here(expr)? {
        Some(projection) => projection.apply_here(data),
        None => Ok(data),
    })
}

#[cfg(test)]
mod tests;
