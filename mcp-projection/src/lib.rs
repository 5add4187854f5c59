//! Where a caller's `jq` projection runs (CONTRACT §4, see `docs/CONTRACT.md`): one seam, [`ProjectionRunner`], and
//! its runners.
//!
//! | runner | where the program runs | risk |
//! |---|---|---|
//! | [`InProcess`] | a blocking thread of the host's tokio runtime | jaq has no step or memory budget: `last(range(1e15))` never ends and `[range(1e12)]` grows until the host is killed. Only for trusted programs. |
//!
//! A result pipeline (e.g. `mcp-results`) holds an `Arc<dyn ProjectionRunner>` and never knows which runner it has,
//! as ripgrep's searcher never knows which regex engine its `Matcher` is.

mod in_process;
mod runner;

pub use in_process::InProcess;
pub use runner::{ProjectionRunner, RunError, Unprojected};
