//! `github_get_job_logs`: one job's log, a job of a run by name, or the (failed) jobs of a run, filtered as the
//! log streams in (`tailLines`, `grep` with `context`, `step`), lines tied to the jobs API's steps.

use adapters_github::{GithubClient, GithubError, JobFilter, JobRef, ListWorkflowJobsParams};
use mcp_results::WithView;
use rmcp::model::CallToolResult;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::Principal;
use crate::app::App;
use crate::args::ArgumentError;
use crate::logs::{JobLog, JobPlan, LogsData, Options, StepChoice, is_failed_job};
use crate::tools::logs::{self, WithLogFilter};
use crate::tools::record_upstream_status;

use super::log_absence;

/// Tool name.
pub const NAME: &str = "github_get_job_logs";

/// Most pages of a run's jobs read to find its jobs (100 each).
const MAX_JOB_PAGES: u32 = 10;

/// Arguments of `github_get_job_logs`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GithubJobLogsArgs {
    #[schemars(description = "")]
    /// Repository owner.
    #[schemars(length(max = crate::args::MAX_NAME_CHARS))]
    pub owner: String,
    #[schemars(description = "")]
    /// Repository name.
    #[schemars(length(max = crate::args::MAX_NAME_CHARS))]
    pub repo: String,
    /// One job by id.
    #[serde(default, deserialize_with = "crate::args::integer::optional")]
    pub job_id: Option<u64>,
    /// A run's jobs.
    #[serde(default, deserialize_with = "crate::args::integer::optional")]
    pub run_id: Option<u64>,
    /// With runId: this job.
    #[schemars(length(max = 255))]
    pub job_name: Option<String>,
}

/// Runs `github_get_job_logs`.
pub(super) async fn call(
    app: &App,
    principal: &Principal,
    args: WithView<WithLogFilter<GithubJobLogsArgs>>,
) -> CallToolResult {
    let WithView { args, view } = args;
    let (args, wanted) = (args.args, args.group);
    if args.job_id.is_none() && args.run_id.is_none() {
        let missing = ArgumentError::new(
            NAME,
            "jobId or runId is missing: give jobId (one job), or runId (its failed jobs; with jobName, the job of \
             that name)",
        );
        return missing.into_result();
    }
    let filter = match wanted
        .check(NAME, view.jq.as_deref(), app.results.bound().bytes())
        .await
    {
        Ok(filter) => filter,
        Err(err) => return mcp_results::coded_error(err, mcp_results::args::INVALID_ARGUMENT),
    };
    let github = match &app.github {
        Ok(github) => github,
        Err(setup) => return crate::tools::unusable_client(NAME, setup),
    };
    let failed_only = wanted.failed_only.unwrap_or(true);
    let (owner, repo) = (args.owner, args.repo);
    let jobs = match find_jobs(
        github,
        &owner,
        &repo,
        args.job_id,
        args.run_id,
        args.job_name.as_deref(),
        failed_only,
    )
    .await
    {
        Ok(jobs) => jobs,
        Err(err) => return upstream_error(err),
    };
    let mut read = Vec::new();
    let mut overflow = false;
    let mut plans = Vec::new();
    let selections = match select_all(&jobs, filter.step.as_ref(), failed_only) {
        Ok(selections) => selections,
        Err(err) => return mcp_results::coded_error(format!("{NAME}: {err}"), mcp_results::args::INVALID_ARGUMENT),
    };
    for (plan, selected) in jobs.into_iter().zip(selections) {
        let job = JobRef {
            owner: owner.clone(),
            repo: repo.clone(),
            job_id: plan.job.id,
        };
        match scan_job(github, &job, &plan, filter.options.clone(), &selected).await {
            Ok((log, over)) => {
                overflow |= over;
                plans.push(job);
                read.push(log);
            }
            Err(JobsError::LogMissing(err)) => return log_absence::explain(github, &job, err, NAME).await,
            Err(err) => return upstream_error(err),
        }
    }
    record_upstream_status(Some(200));
    let data = LogsData { jobs: read };
    let view = view.into_view();
    logs::respond(app, principal, NAME, data, overflow, &view, || async move {
        let mut all = Vec::new();
        for job in &plans {
            let download = github.job_logs(job).await.map_err(|e| e.to_string())?;
            all.push((job.job_id, logs::read_all(download).await?));
        }
        Ok(all)
    })
    .await
}

/// The jobs asked for: `job_id`, else the jobs of `run_id` named `job_name`, else its (failed) jobs.
async fn find_jobs(
    github: &GithubClient,
    owner: &str,
    repo: &str,
    job_id: Option<u64>,
    run_id: Option<u64>,
    job_name: Option<&str>,
    failed_only: bool,
) -> Result<Vec<JobPlan>, JobsError> {
    if let Some(job_id) = job_id {
        let job = JobRef {
            owner: owner.to_owned(),
            repo: repo.to_owned(),
            job_id,
        };
        let page = github.get_job(&job).await?;
        let body = page.data().cloned().unwrap_or(Value::Null);
        if let Some(run_id) = run_id
            && body["run_id"].as_u64().is_some_and(|id| id != run_id)
        {
            return Err(JobsError::Argument(format!(
                "job {job_id} is not a job of run {run_id}"
            )));
        }
        return JobPlan::github(&body)
            .map(|plan| vec![plan])
            .ok_or_else(|| JobsError::Argument(format!("GitHub's answer for job {job_id} has no job id")));
    }
    let Some(run_id) = run_id else {
        return Ok(Vec::new());
    };
    let mut jobs = Vec::new();
    for page in 1..=MAX_JOB_PAGES {
        let params = ListWorkflowJobsParams::new(owner, repo, run_id)
            .with_filter(Some(JobFilter::Latest))
            .with_per_page(Some(100))
            .with_page(Some(page));
        let listed = github.list_workflow_jobs(&params).await?;
        let body = listed.data().cloned().unwrap_or(Value::Null);
        jobs.extend(
            body["jobs"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(JobPlan::github),
        );
        if listed.next_page.is_none() {
            break;
        }
    }
    if let Some(name) = job_name {
        let exact: Vec<JobPlan> = jobs.iter().filter(|j| j.job.name == name).cloned().collect();
        let named = if exact.is_empty() {
            jobs.iter()
                .filter(|j| j.job.name.eq_ignore_ascii_case(name.trim()))
                .cloned()
                .collect()
        } else {
            exact
        };
        if named.is_empty() {
            let names: Vec<String> = jobs.iter().map(|j| format!("{:?}", j.job.name)).collect();
            return Err(JobsError::Argument(format!(
                "run {run_id} has no job named {name:?}: its jobs are {}",
                names.join(", ")
            )));
        }
        return Ok(named);
    }
    if failed_only {
        jobs.retain(|job| is_failed_job(job.job.conclusion.as_deref()));
    }
    Ok(jobs)
}

/// The steps that keep lines, per job. With several jobs, a `step` missing from some of them keeps nothing there;
/// it is an error only when no job has it.
fn select_all(jobs: &[JobPlan], step: Option<&StepChoice>, failed_only: bool) -> Result<Vec<Vec<bool>>, String> {
    let picks: Vec<Result<Vec<bool>, String>> = jobs.iter().map(|job| job.select(step, failed_only)).collect();
    if let Some(Err(first)) = picks.first()
        && picks.iter().all(Result::is_err)
    {
        return Err(first.clone());
    }
    Ok(picks
        .into_iter()
        .zip(jobs)
        .map(|(pick, job)| pick.unwrap_or_else(|_| vec![false; job.steps.len()]))
        .collect())
}

/// Streams one job's log through a scanner.
async fn scan_job(
    github: &GithubClient,
    job: &JobRef,
    plan: &JobPlan,
    options: Options,
    selected: &[bool],
) -> Result<(JobLog, bool), JobsError> {
    let mut download = match github.job_logs(job).await {
        Ok(download) => download,
        Err(err) if matches!(err.status(), Some(404 | 410)) => return Err(JobsError::LogMissing(err)),
        Err(err) => return Err(err.into()),
    };
    let mut scanner = plan.scanner(options, selected, true);
    let mut first = true;
    while let Some(chunk) = download.chunk().await.map_err(GithubError::from)? {
        // The log starts with a UTF-8 byte order mark.
        let bytes = if first {
            chunk.strip_prefix(b"\xef\xbb\xbf").unwrap_or(&chunk)
        } else {
            &chunk[..]
        };
        first = false;
        scanner.feed(bytes);
    }
    let scanned = scanner.finish();
    let overflow = scanned.overflow;
    Ok((plan.clone().assemble(scanned), overflow))
}

/// A failure finding or reading the jobs.
enum JobsError {
    Upstream(GithubError),
    /// The log download answered 404 or 410 ([`super::log_absence`] says why).
    LogMissing(GithubError),
    Argument(String),
}

impl From<GithubError> for JobsError {
    fn from(err: GithubError) -> Self {
        Self::Upstream(err)
    }
}

fn upstream_error(err: JobsError) -> CallToolResult {
    match err {
        JobsError::Upstream(err) | JobsError::LogMissing(err) => log_absence::upstream_error(NAME, err),
        JobsError::Argument(text) => {
            mcp_results::coded_error(format!("{NAME}: {text}"), mcp_results::args::INVALID_ARGUMENT)
        }
    }
}

/// The last `lines` lines of job `job_id`'s failed steps (every step when none failed), as text: what the wait
/// tools' `failedLogTail` gives each failed job.
///
/// Errors: the upstream's answer or why the log is missing, as text.
pub(super) async fn failed_tail(
    github: &GithubClient,
    owner: &str,
    repo: &str,
    job_id: u64,
    lines: usize,
) -> Result<Vec<String>, String> {
    let plans = find_jobs(github, owner, repo, Some(job_id), None, None, false)
        .await
        .map_err(|err| match err {
            JobsError::Upstream(err) | JobsError::LogMissing(err) => err.to_string(),
            JobsError::Argument(text) => text,
        })?;
    let Some(plan) = plans.into_iter().next() else {
        return Err(format!("job {job_id} was not found"));
    };
    let selected = plan
        .select(None, true)
        .or_else(|_| plan.select(None, false))
        .map_err(|err| err.to_string())?;
    let job = JobRef {
        owner: owner.to_owned(),
        repo: repo.to_owned(),
        job_id,
    };
    let options = crate::logs::Options::new(logs::MAX_LOG_ARTIFACT_BYTES).with_tail(Some(lines));
    let (log, _) = scan_job(github, &job, &plan, options, &selected)
        .await
        .map_err(|err| match err {
            JobsError::Upstream(err) | JobsError::LogMissing(err) => err.to_string(),
            JobsError::Argument(text) => text,
        })?;
    Ok(log.last_lines(lines))
}
