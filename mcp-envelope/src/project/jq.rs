//! The jq dialect, run by jaq with its standard library (CONTRACT §4).
//!
//! Definitions: `jaq_core::defs()` + `jaq_std::defs()` + `jaq_json::defs()`;
//! native filters: `jaq_core::funs()` + `jaq_std::funs()` + `jaq_json::funs()`
//! (regex filters such as `test`, `match`, `sub` included). Two natives are
//! made safe for a server:
//!
//! - `env` would expose the server's environment (credentials): it is
//!   replaced by a filter that fails with a clear message;
//! - `halt` / `halt_error`: jaq's `unwrap_valr` calls `process::exit` on a
//!   halt; this module never uses it and turns a halt into a runtime error.
//!
//! `input`/`inputs` and module imports (`import`/`include`) are not available.

use jaq_core::box_iter::box_once;
use jaq_core::load::{Arena, File, Loader, lex, parse};
use jaq_core::native::Fun;
use jaq_core::{Compiler, Ctx, DataT, Error, Exn, Native, Vars, compile};
use jaq_json::Val;

/// Data kind of the compiled filter. Unlike `jaq_core::data::JustLut<Val>` it
/// carries no `Val` (which holds `Rc`), so a compiled program is `Send + Sync`.
pub(crate) struct JsonData;

impl DataT for JsonData {
    type V<'a> = Val;
    type Data<'a> = &'a jaq_core::Lut<JsonData>;
}

/// A compiled jq program.
#[derive(Clone)]
pub(crate) struct JqProgram {
    filter: std::sync::Arc<jaq_core::Filter<JsonData>>,
}

impl std::fmt::Debug for JqProgram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JqProgram")
    }
}

const ENV_DISABLED: &str =
    "`env` and `$ENV` are not available in a projection (they would expose the server's environment)";

fn natives() -> impl Iterator<Item = Fun<JsonData>> {
    let env: Fun<JsonData> = (
        "env",
        Box::new([]),
        Native::new(|_cv| box_once(Err(Exn::from(Error::str(ENV_DISABLED))))),
    );
    jaq_core::funs()
        .chain(jaq_std::funs())
        .chain(jaq_json::funs())
        .filter(|(name, args, _)| !(*name == "env" && args.is_empty()))
        .chain(std::iter::once(env))
}

/// Why a program with `def` is refused.
const NO_DEF: &str = "user-defined functions (`def`) are not allowed: a recursive `def` can recurse without end and \
                      jaq has no depth budget; use the built-in functions (map, select, recurse, reduce, ...)";

/// Whether `code` defines a function (`def name: ...;`) anywhere, string interpolations included. jaq has no
/// step or depth budget, so `def f: 1 + f; f` would overflow any stack and abort the process; every built-in
/// recursion is bounded by its input instead. Code that does not lex is left to the loader's error.
fn defines_functions(code: &str) -> bool {
    fn any_def(tokens: &[lex::Token<&str>]) -> bool {
        tokens.iter().any(|lex::Token(text, tok)| match tok {
            lex::Tok::Word => *text == "def",
            lex::Tok::Block(inner) => any_def(inner),
            lex::Tok::Str(parts) => parts.iter().any(|part| match part {
                lex::StrPart::Term(term) => any_def(std::slice::from_ref(term)),
                _ => false,
            }),
            _ => false,
        })
    }
    lex::Lexer::new(code).lex().is_ok_and(|tokens| any_def(&tokens))
}

impl JqProgram {
    /// Compile `code` as a jq program. The error is a one-line description.
    pub(crate) fn compile(code: &str) -> Result<Self, String> {
        if defines_functions(code) {
            return Err(NO_DEF.to_string());
        }
        let defs = jaq_core::defs().chain(jaq_std::defs()).chain(jaq_json::defs());
        let loader = Loader::new(defs);
        let arena = Arena::default();
        let modules = loader
            .load(&arena, File { code, path: () })
            .map_err(|errs| describe_load_errors(code, errs))?;
        let filter = Compiler::default()
            .with_funs(natives())
            .compile(modules)
            .map_err(describe_compile_errors)?;
        Ok(Self {
            filter: std::sync::Arc::new(filter),
        })
    }

    /// Run the program on `input`, collecting at most `max_outputs` outputs.
    /// Returns the outputs and whether more were left uncounted.
    pub(crate) fn run(&self, input: Val, max_outputs: usize) -> Result<(Vec<Val>, bool), String> {
        let ctx = Ctx::<JsonData>::new(&self.filter.lut, Vars::new([]));
        let mut outputs = self.filter.id.run((ctx, input));
        let mut values = Vec::new();
        for item in outputs.by_ref() {
            match item {
                Ok(v) => values.push(v),
                Err(exn) => return Err(describe_exception(exn)),
            }
            if values.len() >= max_outputs {
                let more = outputs.next().is_some();
                return Ok((values, more));
            }
        }
        Ok((values, false))
    }
}

fn describe_exception(exn: Exn<'_, Val>) -> String {
    match exn.get_err() {
        Ok(err) => error_message(err),
        Err(exn) => match exn.get_halt() {
            Ok(code) => format!("halt({code}) is not supported in a projection"),
            Err(_) => "uncaught jq exception (break outside its label?)".to_owned(),
        },
    }
}

/// jq's message for an error value: `error("text")` gives `text`; other
/// values are shown as JSON.
fn error_message(err: Error<Val>) -> String {
    let text = err.to_string();
    match err.into_val() {
        Val::TStr(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        _ => text,
    }
}

/// Byte offset of `part` (a sub-slice of `code`) within `code`.
fn offset_in(code: &str, part: &str) -> usize {
    let start = code.as_ptr() as usize;
    let at = part.as_ptr() as usize;
    at.checked_sub(start).filter(|o| *o <= code.len()).unwrap_or(0)
}

fn near(code: &str, part: &str) -> String {
    let offset = offset_in(code, part);
    let snippet: String = part.chars().take(20).collect();
    if snippet.is_empty() {
        format!("at byte {offset} (end of expression)")
    } else {
        format!("at byte {offset} (near `{snippet}`)")
    }
}

fn lex_expect(expect: &lex::Expect<&str>) -> String {
    match expect {
        lex::Expect::Delim(d) => match *d {
            "(" => "closing parenthesis".to_owned(),
            "[" => "closing bracket".to_owned(),
            "{" => "closing brace".to_owned(),
            "\"" => "closing quote".to_owned(),
            other => format!("closing delimiter for `{other}`"),
        },
        other => other.as_str().to_owned(),
    }
}

fn describe_load_errors(code: &str, errs: Vec<(File<&str, ()>, jaq_core::load::Error<&str>)>) -> String {
    let mut parts = Vec::new();
    for (_file, err) in errs {
        match err {
            jaq_core::load::Error::Io(items) => {
                for (path, msg) in items {
                    parts.push(format!("cannot load module `{path}`: {msg}"));
                }
            }
            jaq_core::load::Error::Lex(items) => {
                for (expect, rest) in items {
                    parts.push(format!("expected {} {}", lex_expect(&expect), near(code, rest)));
                }
            }
            jaq_core::load::Error::Parse(items) => {
                for (expect, found) in items {
                    parts.push(parse_error(code, &expect, found));
                }
            }
        }
    }
    if parts.is_empty() {
        "syntax error".to_owned()
    } else {
        parts.join("; ")
    }
}

fn parse_error(code: &str, expect: &parse::Expect<&str>, found: &str) -> String {
    if found.is_empty() {
        format!("expected {} at the end of the expression", expect.as_str())
    } else {
        format!("expected {} {}", expect.as_str(), near(code, found))
    }
}

fn describe_compile_errors(errs: compile::Errors<&str, ()>) -> String {
    let mut parts = Vec::new();
    for (_file, items) in errs {
        for (name, undefined) in items {
            let what = match undefined {
                compile::Undefined::Filter(arity) => format!("filter `{name}/{arity}`"),
                other => format!("{} `{name}`", other.as_str()),
            };
            parts.push(format!("undefined {what}"));
        }
    }
    if parts.is_empty() {
        "compile error".to_owned()
    } else {
        parts.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn program_is_send_sync() {
        assert_send_sync::<JqProgram>();
    }

    #[test]
    fn compile_error_messages() {
        let e = JqProgram::compile("workflow_runs[*].id").err().unwrap_or_default();
        assert!(!e.is_empty());
        let e = JqProgram::compile("foo").err().unwrap_or_default();
        assert!(e.contains("undefined filter `foo/0`"), "{e}");
        let e = JqProgram::compile(".a | (").err().unwrap_or_default();
        assert!(e.contains("expected"), "{e}");
    }
}
