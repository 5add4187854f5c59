//! Where a caller's `jq` projection runs: one seam, [`ProjectionRunner`], and
//! its runners.
//!
//! | runner | where the program runs | risk |
//! |---|---|---|
//! | [`InProcess`] | a blocking thread of the host's tokio runtime | jaq has no step or memory budget: `last(range(1e15))` never ends and `[range(1e12)]` grows until the host is killed. Only for trusted programs. |
//! | [`Isolated`] | a pool of long-lived worker processes ([`worker`]), each with an address-space and a per-projection CPU limit, an empty environment, killed at a wall-clock timeout and replaced | a runaway costs at most one worker's limits for at most the timeout; the caller gets a [`RunError`] saying what to do and the next call is served normally. |
//!
//! A result pipeline (e.g. `mcp-results`) holds an `Arc<dyn ProjectionRunner>` and never knows which runner it has,
//! as ripgrep's searcher never knows which regex engine its `Matcher` is.
//!
//! The isolated runner needs a worker program: the `mcp-jq-worker` binary of this crate ([`WorkerProgram::Path`]),
//! or the host's own executable calling [`worker::run_if_requested`] first thing in `main`
//! ([`WorkerProgram::CurrentExe`], what the bundled `mcp-devtools` server does).

mod in_process;
mod isolated;
pub mod protocol;
mod runner;
pub mod worker;

pub use in_process::InProcess;
pub use isolated::{
    BASE_ADDRESS_SPACE_BYTES, CPU_GRACE_SECONDS, DEFAULT_MAX_MEMORY_BYTES, DEFAULT_MAX_OUTPUT_BYTES,
    DEFAULT_MAX_REQUESTS_PER_WORKER, DEFAULT_TIMEOUT, HEAVY_BYTES, Isolated, IsolatedConfig, WorkerProgram,
};
pub use runner::{ProjectionRunner, RunError, Unprojected};

/// The README's usage snippet, compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
