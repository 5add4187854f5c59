//! The seam: [`ProjectionRunner`] and what a failed run gives back.

use serde_json::Value;

/// Why a projection gave no value. `Display` is the text of the tool's `isError` result: it says what to do.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    /// The expression failed to compile or run, or gave zero or several outputs: the
    /// [`mcp_envelope::ProjectionError`] text.
    #[error("The jq expression failed: {0}")]
    Projection(String),
    /// The program ran longer than the runner's wall-clock limit and was stopped.
    #[error(
        "the jq program was stopped: it ran longer than {seconds} s. Simplify it (e.g. a smaller range, no endless \
         repeat/recurse) or select less data"
    )]
    TimedOut {
        /// The limit, seconds.
        seconds: u64,
    },
    /// The program's process ended without an answer: over its memory or CPU limit, or crashed.
    #[error(
        "the jq program was stopped: it used more than {mib} MiB of memory or {cpu_seconds} s of CPU, or crashed \
         ({how}). Simplify it (e.g. do not build very large arrays or strings) or select less data"
    )]
    Stopped {
        /// The memory limit, MiB.
        mib: u64,
        /// The CPU-time limit, seconds.
        cpu_seconds: u64,
        /// How the process ended (e.g. `signal: 6 (SIGABRT)`).
        how: String,
    },
    /// Every worker stayed busy for the runner's wall-clock limit: too many projections at once.
    #[error(
        "the jq projection did not start: every jq worker stayed busy for {seconds} s. Try again later, or project \
         less data at a time"
    )]
    Busy {
        /// How long the call waited, seconds.
        seconds: u64,
    },
    /// The projected value is larger than the runner's output cap as JSON.
    #[error("the jq program's result is larger than {mib} MiB as JSON. Select less data")]
    OutputTooLarge {
        /// The cap, MiB.
        mib: u64,
    },
    /// The runner could not start or feed the program, or got an unreadable answer (a defect or a broken install).
    #[error("Internal error while running the jq projection: {0}")]
    Internal(String),
}

/// A projection that gave no value: why, and the data it was given, unchanged (a write tool shows it unprojected).
#[derive(Debug)]
pub struct Unprojected {
    /// Why.
    pub error: RunError,
    /// The input, as passed to [`ProjectionRunner::project`].
    pub data: Value,
}

/// Runs a caller's `jq` (or JMESPath fallback) expression over a tool's `data`, with
/// [`mcp_envelope::project()`] semantics: exactly one output value, numbers keep their literal digits.
///
/// Implementations decide where the program runs and what limits it has; callers treat every runner alike.
#[async_trait::async_trait]
pub trait ProjectionRunner: Send + Sync + std::fmt::Debug {
    /// `data` projected by `jq`. A blank `jq` returns `data` unchanged without running anything.
    ///
    /// # Errors
    /// [`Unprojected`] with the input back and a [`RunError`] saying why (a bad expression, a limit, a crash).
    async fn project(&self, data: Value, jq: &str) -> Result<Value, Unprojected>;
}
