//! CI job logs as data: GitHub Actions job logs and CircleCI step output, filtered as they stream in.
//!
//! - [`LogsData`] and its parts: the data of the log tools (`{jobs: [{job, steps: [{…, lines: [{n, time, text,
//!   kind}]}], totalLines}]}`);
//! - [`line`](mod@line): one line's timestamp, kind and plain text (GitHub's format, ANSI codes removed);
//! - [`StepClock`]: which GitHub step a line belongs to (the jobs API's step start times);
//! - [`Scanner`]: one streaming pass keeping the tail or the `grep` matches of the selected steps ([`Options`]);
//! - [`JobPlan`]: a job's steps from the vendor's JSON, which steps keep lines, the assembled result.
//!
//! This module is the one path to the items of its private submodules.

mod clock;
mod grep;
mod hay;
pub mod line;
mod model;
mod plan;
mod scan;

pub use clock::{SECOND_PREFIX, StepClock};
pub use grep::Grep;
pub use model::{JobInfo, JobLog, LineKind, LogLine, LogsData, StepLog};
pub use plan::{ActionOutput, JobPlan, StepChoice, StepMeta, is_failed, is_failed_job};
pub use scan::{BLOCK_BYTES, Options, Scanned, Scanner, StepLines};

impl JobPlan {
    /// A scanner for this job's log with `options`, keeping lines of the `selected` steps; GitHub jobs assign
    /// lines to steps by time.
    pub fn scanner(&self, options: Options, selected: &[bool], by_time: bool) -> Scanner {
        let clock = by_time.then(|| StepClock::new(&self.steps.iter().map(|s| s.started_at).collect::<Vec<_>>()));
        Scanner::new(options, selected, clock)
    }
}

#[cfg(test)]
mod tests;
