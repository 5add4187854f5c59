//! What a wait tool answers (`data`, typed fully in its `outputSchema`) and what one poll observes.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The result of `github_wait_for_run`, `github_wait_for_checks` and `circleci_wait_for_pipeline`.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WaitResult {
    /// What was waited for, e.g. `workflow run 2802600146 of octo-org/octo-repo`.
    pub target: String,
    /// Why the wait ended: `finished` when everything waited for finished.
    pub stopped_by: StopReason,
    /// True when timeoutSeconds passed before it finished.
    pub timed_out: bool,
    /// The overall state as last seen: GitHub's status (queued, in_progress, completed, ...), CircleCI's pipeline
    /// or workflow state, or for checks pending / completed.
    pub state: String,
    /// The overall conclusion once finished: success, failure, cancelled, neutral, ... (CircleCI: success, failed,
    /// error, canceled, on_hold, ...); null while not finished, or when nothing reported on the commit.
    pub conclusion: Option<String>,
    /// The web page of what was waited for; null for checks and when unknown.
    pub url: Option<String>,
    /// How long it ran (to now while running), in milliseconds, by the vendor's clock; null when unknown.
    pub duration_ms: Option<u64>,
    /// How long this call waited, in milliseconds.
    pub waited_ms: u64,
    /// Upstream polls seen by this wait (a poll shared with other callers counts once for each).
    pub polls: u64,
    /// CircleCI: the project (circleci_get_job_logs's projectSlug); null for GitHub.
    pub project_slug: Option<String>,
    /// Every job, check or workflow as last seen; the failed ones carry their log tails when asked.
    pub jobs: Vec<WaitJob>,
    /// The last upstream error when the wait ended because of it (stoppedBy upstream_error), else null.
    pub last_error: Option<String>,
}

/// Why a wait ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// Everything finished.
    Finished,
    /// timeoutSeconds passed first.
    Timeout,
    /// The server is shutting down; call again (on another replica).
    Shutdown,
    /// The upstream kept failing (retried within the usual bounds); lastError says how.
    UpstreamError,
}

/// One job, check or workflow.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WaitJob {
    /// What it is.
    pub kind: JobKind,
    /// Its id at the vendor, as a string (a GitHub job or check run id, a commit status id, a CircleCI job or
    /// workflow id).
    pub id: String,
    /// Its name (a commit status: its context).
    pub name: String,
    /// Its state: GitHub's status (queued, in_progress, completed, ...), a commit status's state (pending,
    /// success, failure, error), CircleCI's status.
    pub status: String,
    /// Its conclusion once finished (success, failure, cancelled, skipped, ...; CircleCI: success, failed, ...);
    /// null while running.
    pub conclusion: Option<String>,
    /// True once it finished (not serialized: conclusion is set then).
    #[serde(skip)]
    #[schemars(skip)]
    pub finished: bool,
    /// True when it finished without success (failure, cancelled, timed_out, error, failed, ...).
    pub failed: bool,
    /// Its web page; null when the vendor gives none.
    pub url: Option<String>,
    /// When it started (RFC 3339; not serialized).
    #[serde(skip)]
    #[schemars(skip)]
    pub started_at: Option<String>,
    /// When it finished (RFC 3339; not serialized: the settle time of checks reads it).
    #[serde(skip)]
    #[schemars(skip)]
    pub finished_at: Option<String>,
    /// GitHub Actions job id: github_get_job_logs's jobId. Null for other checks.
    pub job_id: Option<u64>,
    /// GitHub Actions workflow run id: github_get_job_logs's runId, github_wait_for_run's runId. Null otherwise.
    pub run_id: Option<u64>,
    /// CircleCI job number: circleci_get_job_logs's jobNumber. Null otherwise.
    pub job_number: Option<u64>,
    /// CircleCI project slug (not serialized: the result's projectSlug).
    #[serde(skip)]
    #[schemars(skip)]
    pub project_slug: Option<String>,
    /// The last failedLogTail lines of its log (failed steps) when asked and it failed; null otherwise.
    pub log_tail: Option<Vec<String>>,
    /// Why logTail could not be read, when it could not; null otherwise.
    pub log_error: Option<String>,
}

/// What a [`WaitJob`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum JobKind {
    /// A GitHub Actions job.
    Job,
    /// A GitHub check run (an Actions job's check run has the job's id).
    CheckRun,
    /// A GitHub commit status.
    Status,
    /// A CircleCI workflow.
    Workflow,
    /// A CircleCI job.
    CircleciJob,
}

impl WaitJob {
    /// A job of `kind` with `id`, `name` and `status`; the rest unset.
    pub(crate) fn new(
        kind: JobKind,
        id: impl Into<String>,
        name: impl Into<String>,
        status: impl Into<String>,
    ) -> Self {
        WaitJob {
            kind,
            id: id.into(),
            name: name.into(),
            status: status.into(),
            conclusion: None,
            finished: false,
            failed: false,
            url: None,
            started_at: None,
            finished_at: None,
            job_id: None,
            run_id: None,
            job_number: None,
            project_slug: None,
            log_tail: None,
            log_error: None,
        }
    }
}

/// What one poll saw: the overall state and every job.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Observed {
    /// Everything finished (the wait ends).
    pub done: bool,
    /// [`WaitResult::state`].
    pub state: String,
    /// [`WaitResult::conclusion`].
    pub conclusion: Option<String>,
    /// [`WaitResult::url`].
    pub url: Option<String>,
    /// [`WaitResult::started_at`].
    pub started_at: Option<String>,
    /// [`WaitResult::finished_at`].
    pub finished_at: Option<String>,
    /// [`WaitResult::jobs`].
    pub jobs: Vec<WaitJob>,
}

impl Observed {
    /// Jobs finished, of all.
    pub(crate) fn progress(&self) -> (u64, u64) {
        let done = self.jobs.iter().filter(|job| job.finished).count() as u64;
        (done, self.jobs.len() as u64)
    }

    /// The progress message: `in_progress: 3 of 7 jobs done`.
    pub(crate) fn message(&self) -> String {
        let (done, total) = self.progress();
        format!("{}: {done} of {total} done", self.state)
    }
}

/// Milliseconds between two RFC 3339 times, when both parse and `to` is not before `from`.
pub(crate) fn millis_between(from: &str, to: &str) -> Option<u64> {
    let from: jiff::Timestamp = from.parse().ok()?;
    let to: jiff::Timestamp = to.parse().ok()?;
    let span = to.duration_since(from);
    u64::try_from(span.as_millis()).ok()
}

/// Milliseconds from an RFC 3339 time to now, when it parses and is not in the future.
pub(crate) fn millis_since(from: &str) -> Option<u64> {
    millis_between(from, &jiff::Timestamp::now().to_string())
}
