//! `github_wait_for_run` and `github_wait_for_checks`: a workflow run until it completed, a commit's check runs
//! and commit statuses until none is pending (and none appeared within the settle time), polled politely
//! (conditional requests, GitHub's `X-Poll-Interval` and rate-limit headers; [`crate::tools::wait`]).
//! See <https://docs.github.com/rest/actions/workflow-runs#get-a-workflow-run>,
//! <https://docs.github.com/rest/checks/runs#list-check-runs-for-a-git-reference> and
//! <https://docs.github.com/rest/commits/statuses#get-the-combined-status-for-a-specific-reference>.

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use adapters_github::{GithubClient, GithubError, Pace};
use rmcp::model::CallToolResult;
use rmcp::service::{RequestContext, RoleServer};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::checks::{check_run, commit_status, pull_head, ref_segment, text};
use crate::app::App;
use crate::args::ArgumentError;
use crate::logs::is_failed;
use crate::tools::wait::model::Observed;
use crate::tools::wait::shared::{PollError, Polled, Poller};
use crate::tools::wait::{self, JobKind, Target, WaitJob, WaitOptions, WaitResult, WithWait};

/// Tool name.
pub const WAIT_FOR_RUN: &str = "github_wait_for_run";
/// Tool name.
pub const WAIT_FOR_CHECKS: &str = "github_wait_for_checks";

/// Arguments of `github_wait_for_run`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WaitForRunArgs {
    #[schemars(description = "")]
    /// Repository owner.
    #[schemars(length(max = crate::args::MAX_NAME_CHARS))]
    pub owner: String,
    #[schemars(description = "")]
    /// Repository name.
    #[schemars(length(max = crate::args::MAX_NAME_CHARS))]
    pub repo: String,
    #[schemars(description = "")]
    /// Workflow run id.
    #[serde(deserialize_with = "crate::args::integer::required")]
    pub run_id: u64,
}

/// Arguments of `github_wait_for_checks`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WaitForChecksArgs {
    #[schemars(description = "")]
    /// Repository owner.
    #[schemars(length(max = crate::args::MAX_NAME_CHARS))]
    pub owner: String,
    #[schemars(description = "")]
    /// Repository name.
    #[schemars(length(max = crate::args::MAX_NAME_CHARS))]
    pub repo: String,
    /// Commit SHA, branch or tag.
    #[serde(rename = "ref")]
    #[schemars(length(max = crate::args::MAX_FILTER_CHARS))]
    pub git_ref: Option<String>,
    /// Or a pull request: its head commit.
    #[serde(default, deserialize_with = "crate::args::integer::optional")]
    pub pull_number: Option<u64>,
}

/// Runs `github_wait_for_run`.
pub(super) async fn for_run(
    app: &Arc<App>,
    cx: &RequestContext<RoleServer>,
    args: WithWait<WaitForRunArgs>,
) -> Result<WaitResult, CallToolResult> {
    let options = args.group.check(WAIT_FOR_RUN).map_err(ArgumentError::into_result)?;
    let github = client(app, WAIT_FOR_RUN)?;
    let WaitForRunArgs { owner, repo, run_id } = args.args;
    let repo_path = format!("repos/{owner}/{repo}");
    let target = Target {
        description: format!("workflow run {run_id} of {owner}/{repo}"),
        key: format!("github {} {repo_path} run {run_id}", github.api_base()),
    };
    let make = || RunPoller {
        description: target.description.clone(),
        run: Conditional::new(format!("{repo_path}/actions/runs/{run_id}")),
        jobs: Conditional::new(format!(
            "{repo_path}/actions/runs/{run_id}/jobs?filter=latest&per_page=100"
        )),
    };
    let result = wait::wait(app, cx, target.clone(), options, make).await?;
    Ok(with_tails(github, &owner, &repo, result, options).await)
}

/// Runs `github_wait_for_checks`.
pub(super) async fn for_checks(
    app: &Arc<App>,
    cx: &RequestContext<RoleServer>,
    args: WithWait<WaitForChecksArgs>,
) -> Result<WaitResult, CallToolResult> {
    let options = args.group.check(WAIT_FOR_CHECKS).map_err(ArgumentError::into_result)?;
    let github = client(app, WAIT_FOR_CHECKS)?;
    let WaitForChecksArgs {
        owner,
        repo,
        git_ref,
        pull_number,
    } = args.args;
    let repo_path = format!("repos/{owner}/{repo}");
    let (git_ref, what) = match (git_ref.filter(|r| !r.trim().is_empty()), pull_number) {
        (Some(git_ref), None) => (git_ref.clone(), format!("ref {git_ref} of {owner}/{repo}")),
        (None, Some(number)) => {
            let (sha, _) = pull_head(github, &repo_path, number).await.map_err(|err| {
                crate::tools::record_upstream_status(err.status());
                let text = format!("{WAIT_FOR_CHECKS} failed: pull request #{number} of {owner}/{repo}: {err}");
                mcp_results::error_with_meta(text, err.info().to_meta())
            })?;
            (
                sha.clone(),
                format!("pull request #{number} of {owner}/{repo} (head {sha})"),
            )
        }
        _ => {
            return Err(ArgumentError::new(
                WAIT_FOR_CHECKS,
                "give exactly one of ref (a commit SHA, branch or tag) and pullNumber",
            )
            .into_result());
        }
    };
    let encoded = ref_segment(&git_ref);
    let target = Target {
        description: format!("the checks of {what}"),
        key: format!("github {} {repo_path} checks {git_ref}", github.api_base()),
    };
    let settle = app.config.wait.settle;
    let make = || ChecksPoller {
        commit: what.clone(),
        started: Instant::now(),
        settle,
        check_runs: Conditional::new(format!(
            "{repo_path}/commits/{encoded}/check-runs?filter=latest&per_page=100"
        )),
        statuses: Conditional::new(format!("{repo_path}/commits/{encoded}/status?per_page=100")),
        stable_since: None,
        ids: Vec::new(),
    };
    let result = wait::wait(app, cx, target.clone(), options, make).await?;
    Ok(with_tails(github, &owner, &repo, result, options).await)
}

/// The GitHub client, or the tool's setup error.
#[expect(clippy::result_large_err, reason = "the error is the tool's answer, returned as is")]
fn client<'a>(app: &'a App, tool: &str) -> Result<&'a GithubClient, CallToolResult> {
    app.github
        .as_ref()
        .map_err(|setup| crate::tools::unusable_client(tool, setup))
}

/// Adds the log tails of the failed Actions jobs when `options` asks for them.
async fn with_tails(
    github: &GithubClient,
    owner: &str,
    repo: &str,
    mut result: WaitResult,
    options: WaitOptions,
) -> WaitResult {
    if options.failed_log_tail == 0 {
        return result;
    }
    for job in result.jobs.iter_mut().filter(|job| job.failed) {
        if let Some(job_id) = job.job_id {
            match super::logs::failed_tail(github, owner, repo, job_id, options.failed_log_tail).await {
                Ok(lines) => job.log_tail = Some(lines),
                Err(err) => job.log_error = Some(err),
            }
        }
    }
    result
}

/// One resource polled with `If-None-Match`: its path, last `ETag` and last body.
struct Conditional {
    path: String,
    etag: Option<String>,
    body: Option<Value>,
}

impl Conditional {
    fn new(path: String) -> Self {
        Conditional {
            path,
            etag: None,
            body: None,
        }
    }

    /// Polls the resource; its current body (the last one on a 304) and GitHub's pace.
    async fn poll(&mut self, github: &GithubClient) -> Result<(&Value, Pace), GithubError> {
        let polled = github.poll(&self.path, self.etag.as_deref()).await?;
        if let Some(body) = polled.body {
            self.body = Some(body);
        }
        self.etag = polled.etag;
        Ok((self.body.get_or_insert(Value::Null), polled.pace))
    }
}

/// The stricter of two paces (the longer poll interval, the fewer requests left).
fn merge(a: Pace, b: Pace) -> Pace {
    match (not_before(a), not_before(b)) {
        (Some(x), Some(y)) if x >= y => a,
        (Some(_), None) => a,
        _ => b,
    }
}

/// How long until `reset_at` (epoch seconds), plus a second.
fn until_reset(reset_at: u64) -> Duration {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs();
    Duration::from_secs(reset_at.saturating_sub(now) + 1)
}

/// How long to wait before the next poll, from GitHub's pace: `X-Poll-Interval`, or the reset when no request is
/// left.
fn not_before(pace: Pace) -> Option<Duration> {
    let reset = match (pace.remaining, pace.reset_at) {
        (Some(0), Some(reset_at)) => Some(until_reset(reset_at)),
        _ => None,
    };
    match (pace.poll_interval, reset) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    }
}

/// A poll error: `NotFound` naming `what` for a 404 (or GitHub's 422 `No commit found for SHA`), else the error's
/// text (a rate limit waits for its reset).
fn poll_error(what: &str, err: &GithubError) -> (PollError, Option<Duration>) {
    if matches!(err.status(), Some(404 | 422)) {
        return (PollError::NotFound(format!("{what} was not found: {err}")), None);
    }
    let wait = match err {
        GithubError::RateLimited {
            reset_at,
            retry_after_secs,
            ..
        } => retry_after_secs
            .map(Duration::from_secs)
            .or_else(|| reset_at.map(until_reset)),
        _ => None,
    };
    (PollError::Failed(err.to_string()), wait)
}

/// Polls one workflow run and its jobs.
struct RunPoller {
    description: String,
    run: Conditional,
    jobs: Conditional,
}

impl Poller for RunPoller {
    async fn poll(&mut self, app: &App) -> Polled {
        let Ok(github) = app.github.as_ref() else {
            return failed(
                PollError::Failed("the GitHub client is not configured".to_owned()),
                None,
            );
        };
        // One request per poll while jobs run: the jobs list (conditional). The run itself is read first (an
        // unknown run is named), then again only once no job is left running (its conclusion), or while it has no
        // job yet.
        let mut pace = Pace::default();
        let first = self.run.body.is_none();
        if first {
            match self.run.poll(github).await {
                Ok((_, answered)) => pace = answered,
                Err(err) => {
                    let (err, wait) = poll_error(&self.description, &err);
                    return failed(err, wait);
                }
            }
        }
        let jobs = match self.jobs.poll(github).await {
            Ok((jobs, answered)) => {
                pace = merge(pace, answered);
                jobs.clone()
            }
            Err(err) => {
                let (err, wait) = poll_error(&format!("the jobs of {}", self.description), &err);
                return failed(err, wait);
            }
        };
        let listed = jobs["jobs"].as_array().map(Vec::as_slice).unwrap_or_default();
        let running = listed.iter().any(|job| job["status"] != "completed");
        let run_finished = self.run.body.as_ref().is_some_and(|run| run["status"] == "completed");
        if (listed.is_empty() || !running) && !run_finished && !first {
            match self.run.poll(github).await {
                Ok((_, answered)) => pace = merge(pace, answered),
                Err(err) => {
                    let (err, wait) = poll_error(&self.description, &err);
                    return failed(err, wait);
                }
            }
        }
        let run = self.run.body.clone().unwrap_or(Value::Null);
        let done = run["status"] == "completed";
        let observed = Observed {
            done,
            state: text(&run["status"]).unwrap_or_else(|| "unknown".to_owned()),
            conclusion: text(&run["conclusion"]),
            url: text(&run["html_url"]),
            started_at: text(&run["run_started_at"]).or_else(|| text(&run["created_at"])),
            finished_at: if done { text(&run["updated_at"]) } else { None },
            jobs: jobs["jobs"].as_array().into_iter().flatten().map(actions_job).collect(),
        };
        Polled {
            outcome: Ok(Some(observed)),
            not_before: not_before(pace),
        }
    }
}

fn failed(err: PollError, wait: Option<Duration>) -> Polled {
    Polled {
        outcome: Err(err),
        not_before: wait,
    }
}

/// An Actions job of the jobs API.
fn actions_job(job: &Value) -> WaitJob {
    let id = job["id"].as_u64();
    let mut entry = WaitJob::new(
        JobKind::Job,
        id.map(|id| id.to_string()).unwrap_or_default(),
        job["name"].as_str().unwrap_or_default(),
        job["status"].as_str().unwrap_or("unknown"),
    );
    entry.conclusion = text(&job["conclusion"]);
    entry.finished = job["status"] == "completed";
    entry.failed = is_failed(entry.conclusion.as_deref());
    entry.url = text(&job["html_url"]);
    entry.started_at = text(&job["started_at"]);
    entry.finished_at = text(&job["completed_at"]);
    entry.job_id = id;
    entry.run_id = job["run_id"].as_u64();
    entry
}

/// Polls a commit's check runs and combined status, and decides when they settled.
struct ChecksPoller {
    /// `ref X of owner/repo` (errors name it).
    commit: String,
    started: Instant,
    settle: Duration,
    check_runs: Conditional,
    statuses: Conditional,
    /// Since when every check is finished and the set of checks unchanged (this process's clock).
    stable_since: Option<Instant>,
    ids: Vec<String>,
}

impl Poller for ChecksPoller {
    async fn poll(&mut self, app: &App) -> Polled {
        let Ok(github) = app.github.as_ref() else {
            return failed(
                PollError::Failed("the GitHub client is not configured".to_owned()),
                None,
            );
        };
        let (runs, pace) = match self.check_runs.poll(github).await {
            Ok((runs, pace)) => (runs.clone(), pace),
            Err(err) => {
                let (err, wait) = poll_error(&self.commit, &err);
                return failed(err, wait);
            }
        };
        let statuses = match self.statuses.poll(github).await {
            Ok((statuses, _)) => statuses.clone(),
            Err(err) => {
                let (err, wait) = poll_error(&self.commit, &err);
                return failed(err, wait);
            }
        };
        let mut jobs: Vec<WaitJob> = runs["check_runs"]
            .as_array()
            .into_iter()
            .flatten()
            .map(check_run)
            .collect();
        jobs.extend(statuses["statuses"].as_array().into_iter().flatten().map(commit_status));
        let Polled { outcome, .. } = self.settle(jobs);
        Polled {
            outcome,
            not_before: not_before(pace),
        }
    }
}

impl ChecksPoller {
    /// The observation of `jobs`: done once every one finished and nothing changed for the settle time (or the
    /// newest finished that long ago by GitHub's clock); with none at all, once the settle time passed since the
    /// wait began.
    fn settle(&mut self, jobs: Vec<WaitJob>) -> Polled {
        let ids: Vec<String> = jobs.iter().map(|job| format!("{:?}{}", job.kind, job.id)).collect();
        let all_finished = jobs.iter().all(|job| job.finished);
        if !all_finished || ids != self.ids {
            self.stable_since = None;
        }
        if all_finished && self.stable_since.is_none() {
            self.stable_since = Some(Instant::now());
        }
        self.ids = ids;
        let newest = jobs.iter().filter_map(|job| job.finished_at.clone()).max();
        let settled_upstream = newest
            .as_deref()
            .and_then(crate::tools::wait::model::millis_since)
            .is_some_and(|ms| ms >= self.settle.as_millis() as u64);
        let settled_here = self.stable_since.is_some_and(|since| since.elapsed() >= self.settle);
        let done = if jobs.is_empty() {
            self.started.elapsed() >= self.settle
        } else {
            all_finished && (settled_upstream || settled_here)
        };
        let any_failed = jobs.iter().any(|job| job.failed);
        let conclusion = if jobs.is_empty() || !all_finished {
            None
        } else if any_failed {
            Some("failure".to_owned())
        } else {
            Some("success".to_owned())
        };
        let started_at = jobs.iter().filter_map(|job| job.started_at.clone()).min();
        Polled {
            outcome: Ok(Some(Observed {
                done,
                state: if all_finished { "completed" } else { "pending" }.to_owned(),
                conclusion,
                url: None,
                started_at,
                finished_at: if all_finished { newest } else { None },
                jobs,
            })),
            not_before: None,
        }
    }
}
