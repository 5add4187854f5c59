//! The wait tools' engine (`github_wait_for_run`, `github_wait_for_checks`, `circleci_wait_for_pipeline`): follow a
//! target's shared poll loop ([`shared`]) until it finished, the timeout passed, the server drains or the upstream
//! keeps failing; report progress on the way ([`crate::tools::progress`]); answer a typed [`WaitResult`]. A
//! cancelled call (`notifications/cancelled`, a closed stream or stdin, `tasks/cancel`) drops its follower, and a
//! loop nobody follows stops before its next request.

pub(crate) mod model;
pub(crate) mod shared;

use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::model::CallToolResult;
use rmcp::service::{RequestContext, RoleServer};
use schemars::JsonSchema;
use serde::Deserialize;

pub use model::{JobKind, StopReason, WaitJob, WaitResult};

use crate::app::App;
use crate::args::ArgumentError;
use crate::tools::progress::{ProgressUpdate, Reporter};
use model::Observed;
use shared::{PollError, Poller, Sample};

/// Default `timeoutSeconds`.
pub const DEFAULT_TIMEOUT_SECONDS: u64 = 600;
/// Largest `timeoutSeconds`.
pub const MAX_TIMEOUT_SECONDS: u64 = 3600;
/// Largest `failedLogTail`.
pub const MAX_FAILED_LOG_TAIL: u64 = 500;
/// How long past `timeoutSeconds` a wait still waits for its first poll's answer (so that `timeoutSeconds: 0`
/// answers the current state).
const FIRST_POLL_GRACE: Duration = Duration::from_secs(30);

/// The arguments every wait tool takes (spliced into its own).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WaitArgs {
    /// Seconds (default 600; 0: the current state).
    #[schemars(range(max = 3600))]
    #[serde(default, deserialize_with = "crate::args::integer::optional")]
    pub timeout_seconds: Option<u64>,
    /// Log lines of each failed job to include (default 0).
    #[schemars(range(max = 500))]
    #[serde(default, deserialize_with = "crate::args::integer::optional")]
    pub failed_log_tail: Option<u64>,
}

impl mcp_results::splice::ArgGroup for WaitArgs {
    const NAMES: &'static [&'static str] = &["timeoutSeconds", "failedLogTail"];
    const BEFORE: Option<&'static str> = None;
}

/// A wait tool's own arguments `A` plus [`WaitArgs`].
pub type WithWait<A> = mcp_results::splice::Spliced<A, WaitArgs>;

/// [`WaitArgs`] checked.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WaitOptions {
    /// How long to wait.
    pub timeout: Duration,
    /// Log lines per failed job (0: none).
    pub failed_log_tail: usize,
}

impl WaitArgs {
    /// Checks the ranges for `tool`.
    pub(crate) fn check(&self, tool: &'static str) -> Result<WaitOptions, ArgumentError> {
        crate::args::check_range(tool, "timeoutSeconds", self.timeout_seconds, 0, MAX_TIMEOUT_SECONDS)?;
        crate::args::check_range(tool, "failedLogTail", self.failed_log_tail, 0, MAX_FAILED_LOG_TAIL)?;
        Ok(WaitOptions {
            timeout: Duration::from_secs(self.timeout_seconds.unwrap_or(DEFAULT_TIMEOUT_SECONDS)),
            failed_log_tail: usize::try_from(self.failed_log_tail.unwrap_or(0)).unwrap_or(0),
        })
    }
}

/// What one wait is on: its description for results, and its key for shared polls.
#[derive(Debug, Clone)]
pub(crate) struct Target {
    /// e.g. `workflow run 2802600146 of octo-org/octo-repo`.
    pub description: String,
    /// Shared-poll key: equal for every wait on the same thing with the same credential.
    pub key: String,
}

/// Waits for `target` (polled by a poller from `make` unless a loop already polls it) as the call `cx`.
///
/// Errors: an `isError` result when the first poll found no such target (the upstream's 404, naming it).
pub(crate) async fn wait<P: Poller>(
    app: &Arc<App>,
    cx: &RequestContext<RoleServer>,
    target: Target,
    options: WaitOptions,
    make: impl Fn() -> P,
) -> Result<WaitResult, CallToolResult> {
    let started = Instant::now();
    let deadline = started + options.timeout;
    let mut reporter = Reporter::new(cx, app.config.wait.heartbeat);
    reporter
        .report(ProgressUpdate {
            progress: 0,
            total: None,
            message: format!("waiting for {}", target.description),
        })
        .await;
    let mut follower = app.waits.follow(app, &target.key, &make);
    let mut seen_seq = 0;
    let mut polls = 0;
    let mut last: Option<Arc<Sample>> = None;
    loop {
        let current = follower.borrow_and_update().clone();
        if let Some(sample) = current
            && sample.seq != seen_seq
        {
            seen_seq = sample.seq;
            polls += 1;
            match &sample.outcome {
                Ok(observed) => {
                    let (done, total) = observed.progress();
                    reporter
                        .report(ProgressUpdate {
                            progress: done,
                            total: Some(total),
                            message: observed.message(),
                        })
                        .await;
                    if observed.done {
                        return Ok(finish(&target, observed, StopReason::Finished, started, polls, None));
                    }
                }
                Err(PollError::NotFound(text)) if sample.last_seen.is_none() => {
                    return Err(mcp_results::coded_error(text.clone(), "not_found"));
                }
                Err(err) if sample.failed_in_row >= app.config.wait.max_failed_polls => {
                    let error = Some(err.text().to_owned());
                    return Ok(stopped(
                        &target,
                        &sample,
                        StopReason::UpstreamError,
                        started,
                        polls,
                        error,
                    ));
                }
                Err(_) => {}
            }
            last = Some(sample);
        }
        let limit = if last.is_some() {
            deadline
        } else {
            deadline + FIRST_POLL_GRACE
        };
        tokio::select! {
            changed = follower.changed() => {
                if changed.is_err() && follower.borrow().as_ref().is_none_or(|s| s.seq == seen_seq) {
                    // The loop ended without a sample this wait has not seen (its last follower left just as
                    // this one came): start or join a new one.
                    follower = app.waits.follow(app, &target.key, &make);
                }
            }
            () = tokio::time::sleep_until(limit.into()) => {
                return Ok(stopped_or_empty(&target, last.as_deref(), StopReason::Timeout, started, polls));
            }
            () = tokio::time::sleep(reporter.until_heartbeat()) => reporter.heartbeat().await,
            () = app.shutdown.cancelled() => {
                return Ok(stopped_or_empty(&target, last.as_deref(), StopReason::Shutdown, started, polls));
            }
        }
    }
}

/// The `outputSchema` of the wait tools: the envelope of a [`WaitResult`] (no `jq`: `data` is always one).
pub(crate) fn output_schema() -> std::sync::Arc<rmcp::model::JsonObject> {
    crate::tools::typed_output_schema::<WaitResult>()
}

/// The result of a wait that saw `observed` last and stopped for `reason`.
fn finish(
    target: &Target,
    observed: &Observed,
    reason: StopReason,
    started: Instant,
    polls: u64,
    last_error: Option<String>,
) -> WaitResult {
    let duration_ms = observed
        .started_at
        .as_deref()
        .and_then(|from| match &observed.finished_at {
            Some(to) => model::millis_between(from, to),
            None => model::millis_since(from),
        });
    WaitResult {
        target: target.description.clone(),
        stopped_by: reason,
        timed_out: reason == StopReason::Timeout,
        state: observed.state.clone(),
        conclusion: observed.conclusion.clone(),
        url: observed.url.clone(),
        duration_ms,
        waited_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        polls,
        project_slug: None,
        jobs: observed.jobs.clone(),
        last_error,
    }
}

/// The result of a wait that stopped on `sample` (its state, or the last state seen before its error).
fn stopped(
    target: &Target,
    sample: &Sample,
    reason: StopReason,
    started: Instant,
    polls: u64,
    last_error: Option<String>,
) -> WaitResult {
    let seen = match &sample.outcome {
        Ok(observed) => Some(observed.clone()),
        Err(_) => sample.last_seen.clone(),
    };
    match seen {
        Some(observed) => finish(target, &observed, reason, started, polls, last_error),
        None => finish(target, &unknown(), reason, started, polls, last_error),
    }
}

/// [`stopped`] on the last sample, or with nothing seen when there was none.
fn stopped_or_empty(
    target: &Target,
    last: Option<&Sample>,
    reason: StopReason,
    started: Instant,
    polls: u64,
) -> WaitResult {
    match last {
        Some(sample) => {
            let error = sample.outcome.as_ref().err().map(|err| err.text().to_owned());
            stopped(target, sample, reason, started, polls, error)
        }
        None => finish(target, &unknown(), reason, started, polls, None),
    }
}

/// The state of a target no poll has answered for yet.
fn unknown() -> Observed {
    Observed {
        done: false,
        state: "unknown".to_owned(),
        conclusion: None,
        url: None,
        started_at: None,
        finished_at: None,
        jobs: Vec::new(),
    }
}
