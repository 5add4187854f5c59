//! `ci_status`: everything that reports on one commit, merged into one state. GitHub's check runs (every page,
//! every attempt: the newest counts and says how many there were) and commit statuses (the combined status), and,
//! when CircleCI is configured, the pipelines of that commit in the project `gh/OWNER/REPO` (or `projectSlug`), their
//! workflows and jobs. Each check carries the ids the log, test and wait tools take.
//! See <https://docs.github.com/rest/checks/runs#list-check-runs-for-a-git-reference>,
//! <https://docs.github.com/rest/commits/statuses#get-the-combined-status-for-a-specific-reference> and
//! <https://circleci.com/docs/api/v2/index.html#operation/listPipelinesForProject>.

use std::collections::BTreeMap;

use adapters_circleci::{CircleciClient, GetRequest};
use adapters_github::{GithubClient, GithubError};
use rmcp::model::CallToolResult;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::Principal;
use crate::app::App;
use crate::args::ArgumentError;
use crate::tools::wait::{JobKind, WaitJob};
use crate::vendors::circleci::workflows::{fetch, job_entry, workflow_entry};
use crate::vendors::github::checks::{check_run, commit_status, get_json, pull_head, ref_segment};

/// Tool name.
pub const NAME: &str = "ci_status";

/// Most pages of check runs read (100 each).
const MAX_CHECK_PAGES: u32 = 10;

/// Arguments of `ci_status`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CiStatusArgs {
    #[schemars(description = "")]
    /// Repository owner.
    #[schemars(length(max = crate::args::MAX_NAME_CHARS))]
    pub owner: String,
    #[schemars(description = "")]
    /// Repository name.
    #[schemars(length(max = crate::args::MAX_NAME_CHARS))]
    pub repo: String,
    /// A branch or tag (or a SHA).
    #[serde(rename = "ref")]
    #[schemars(length(max = crate::args::MAX_FILTER_CHARS))]
    pub git_ref: Option<String>,
    /// A commit SHA.
    #[schemars(length(max = 64))]
    pub sha: Option<String>,
    /// A pull request: its head commit.
    #[serde(default, deserialize_with = "crate::args::integer::optional")]
    pub pull_number: Option<u64>,
    /// CircleCI project (default gh/OWNER/REPO).
    #[schemars(length(max = 512))]
    pub project_slug: Option<String>,
}

/// The result of `ci_status`.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CiStatus {
    /// The commit.
    pub sha: String,
    /// Its branch when known (the pull request's head, or the ref given).
    pub branch: Option<String>,
    /// The merged state: failure when any check failed, else pending when any is not done, else success when any
    /// succeeded, else neutral (nothing reported, or only skipped and neutral checks).
    pub state: CiState,
    /// Checks per state.
    pub counts: Counts,
    /// Every check: GitHub check runs (newest attempt) and commit statuses, CircleCI workflows and jobs.
    pub checks: Vec<CiCheck>,
    /// CircleCI's part, when CircleCI is configured: the project, the commit's pipelines, or why they could not be
    /// read (the rest of the answer stands).
    pub circleci: Option<CircleciPart>,
}

/// A merged state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CiState {
    /// Succeeded.
    Success,
    /// Failed (failure, error, timed out, cancelled, action required, ...).
    Failure,
    /// Not done yet.
    Pending,
    /// Done without a verdict (skipped, neutral, stale, not run).
    Neutral,
}

/// Checks per state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Counts {
    /// Succeeded.
    pub success: u32,
    /// Failed.
    pub failure: u32,
    /// Not done.
    pub pending: u32,
    /// Neither.
    pub neutral: u32,
}

/// One check of the commit.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CiCheck {
    /// check_run and status (GitHub), workflow and circleci_job (CircleCI).
    pub kind: JobKind,
    /// Its name (a status: its context).
    pub name: String,
    /// Its merged state.
    pub state: CiState,
    /// The vendor's conclusion once done; null while running.
    pub conclusion: Option<String>,
    /// Its web page.
    pub url: Option<String>,
    /// Attempts seen (a check run re-run counts by its newest attempt; 1 otherwise).
    pub attempts: u32,
    /// GitHub Actions job id (github_get_job_logs's jobId).
    pub job_id: Option<u64>,
    /// GitHub Actions run id (github_wait_for_run's runId).
    pub run_id: Option<u64>,
    /// CircleCI job number (circleci_get_job_logs's jobNumber).
    pub job_number: Option<u64>,
    /// CircleCI pipeline id (circleci_wait_for_pipeline's pipelineId).
    pub pipeline_id: Option<String>,
}

/// CircleCI's part of a commit's status.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CircleciPart {
    /// The project read.
    pub project_slug: String,
    /// The commit's pipelines, newest first.
    pub pipelines: Vec<Pipeline>,
    /// Why CircleCI could not be read; null when it was.
    pub error: Option<String>,
}

/// A CircleCI pipeline of the commit.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Pipeline {
    /// Pipeline id.
    pub id: String,
    /// Pipeline number.
    pub number: Option<u64>,
    /// Its setup state (created, errored, ...).
    pub state: Option<String>,
}

/// Runs `ci_status`.
pub(super) async fn call(app: &App, principal: &Principal, args: CiStatusArgs) -> Result<CiStatus, CallToolResult> {
    let github = app
        .github
        .as_ref()
        .map_err(|setup| crate::tools::unusable_client(NAME, setup))?;
    let repo_path = format!("repos/{}/{}", args.owner, args.repo);
    let blank = |text: &Option<String>| text.as_ref().filter(|t| !t.trim().is_empty()).cloned();
    let (sha, branch) = match (blank(&args.git_ref), blank(&args.sha), args.pull_number) {
        (Some(git_ref), None, None) => {
            let commit = get_json(github, &format!("{repo_path}/commits/{}", ref_segment(&git_ref)))
                .await
                .map_err(|err| upstream_error(&format!("ref {git_ref}"), &err))?;
            let sha = commit["sha"].as_str().unwrap_or(&git_ref).to_owned();
            let branch = (!sha.starts_with(git_ref.as_str())).then_some(git_ref);
            (sha, branch)
        }
        (None, Some(sha), None) => {
            let branch = branch_of(github, &repo_path, &sha).await;
            (sha, branch)
        }
        (None, None, Some(number)) => pull_head(github, &repo_path, number)
            .await
            .map_err(|err| upstream_error(&format!("pull request #{number}"), &err))?,
        _ => {
            return Err(ArgumentError::new(NAME, "give exactly one of ref, sha and pullNumber").into_result());
        }
    };
    let commit_path = format!("{repo_path}/commits/{}", ref_segment(&sha));
    let mut checks = check_runs(github, &commit_path)
        .await
        .map_err(|err| upstream_error(&format!("commit {sha}"), &err))?;
    let statuses = get_json(github, &format!("{commit_path}/status?per_page=100"))
        .await
        .map_err(|err| upstream_error(&format!("commit {sha}"), &err))?;
    checks.extend(
        statuses["statuses"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|s| check(&commit_status(s), 1, None)),
    );
    let circleci = match &app.circleci {
        Ok(circleci) if app.config.circleci.http.credential.is_some() => {
            let slug = args
                .project_slug
                .clone()
                .unwrap_or_else(|| format!("gh/{}/{}", args.owner, args.repo));
            let partition = principal.as_str().to_owned();
            Some(circleci_part(circleci, &partition, slug, &sha, branch.as_deref(), &mut checks).await)
        }
        _ => None,
    };
    crate::tools::record_upstream_status(Some(200));
    let mut counts = Counts::default();
    for check in &checks {
        match check.state {
            CiState::Success => counts.success += 1,
            CiState::Failure => counts.failure += 1,
            CiState::Pending => counts.pending += 1,
            CiState::Neutral => counts.neutral += 1,
        }
    }
    let state = if counts.failure > 0 {
        CiState::Failure
    } else if counts.pending > 0 {
        CiState::Pending
    } else if counts.success > 0 {
        CiState::Success
    } else {
        CiState::Neutral
    };
    Ok(CiStatus {
        sha,
        branch,
        state,
        counts,
        checks,
        circleci,
    })
}

/// The branch of commit `sha`, from its pull request: an open one's head branch, a merged one's base; `None` when
/// it has none or it cannot be read (CircleCI's pipelines are then looked for among the project's newest).
async fn branch_of(github: &GithubClient, repo_path: &str, sha: &str) -> Option<String> {
    let pulls = get_json(github, &format!("{repo_path}/commits/{}/pulls", ref_segment(sha)))
        .await
        .ok()?;
    let pull = pulls.as_array()?.first()?;
    let side = if pull["state"] == "open" { "head" } else { "base" };
    pull[side]["ref"].as_str().map(str::to_owned)
}

fn upstream_error(what: &str, err: &GithubError) -> CallToolResult {
    crate::tools::upstream_failure(NAME, what, err, err.status(), err.info())
}

/// Every check run of the commit (every attempt, every page), the newest of each name and app, with its attempts.
async fn check_runs(github: &GithubClient, commit_path: &str) -> Result<Vec<CiCheck>, GithubError> {
    let mut all: Vec<Value> = Vec::new();
    let mut next = Some(format!("{commit_path}/check-runs?filter=all&per_page=100"));
    let mut pages = 0;
    while let Some(path) = next.take() {
        let polled = github.poll(&path, None).await?;
        let body = polled.body.unwrap_or(Value::Null);
        all.extend(body["check_runs"].as_array().cloned().unwrap_or_default());
        pages += 1;
        if pages < MAX_CHECK_PAGES {
            next = polled.next_link;
        }
    }
    // Newest attempt per (app, name): the highest id.
    let mut newest: BTreeMap<(String, String), (u64, Value, u32)> = BTreeMap::new();
    for run in all {
        let key = (
            run["app"]["slug"].as_str().unwrap_or_default().to_owned(),
            run["name"].as_str().unwrap_or_default().to_owned(),
        );
        let id = run["id"].as_u64().unwrap_or_default();
        let entry = newest.entry(key).or_insert((id, run.clone(), 0));
        entry.2 += 1;
        if id >= entry.0 {
            entry.0 = id;
            entry.1 = run;
        }
    }
    let mut checks: Vec<(u64, CiCheck)> = newest
        .into_values()
        .map(|(id, run, attempts)| (id, check(&check_run(&run), attempts, None)))
        .collect();
    checks.sort_by_key(|(id, _)| *id);
    Ok(checks.into_iter().map(|(_, check)| check).collect())
}

/// A [`CiCheck`] of a [`WaitJob`].
fn check(job: &WaitJob, attempts: u32, pipeline_id: Option<&str>) -> CiCheck {
    CiCheck {
        kind: job.kind,
        name: job.name.clone(),
        state: state_of(job),
        conclusion: job.conclusion.clone(),
        url: job.url.clone(),
        attempts,
        job_id: job.job_id,
        run_id: job.run_id,
        job_number: job.job_number,
        pipeline_id: pipeline_id.map(str::to_owned),
    }
}

/// The merged state of a job, check or status.
fn state_of(job: &WaitJob) -> CiState {
    if job.failed || job.status == "failing" {
        return CiState::Failure;
    }
    if !job.finished {
        return CiState::Pending;
    }
    match job.conclusion.as_deref() {
        Some("success") => CiState::Success,
        _ => CiState::Neutral,
    }
}

/// CircleCI's pipelines of `sha` (on `branch` when known), their workflows and jobs, added to `checks`.
async fn circleci_part(
    circleci: &CircleciClient,
    partition: &str,
    project_slug: String,
    sha: &str,
    branch: Option<&str>,
    checks: &mut Vec<CiCheck>,
) -> CircleciPart {
    let mut part = CircleciPart {
        project_slug,
        pipelines: Vec::new(),
        error: None,
    };
    let path = format!("project/{}/pipeline", part.project_slug);
    let query: Vec<(String, String)> = branch
        .map(|b| ("branch".to_owned(), b.to_owned()))
        .into_iter()
        .collect();
    let listed = match fetch(
        circleci,
        &GetRequest::new(&path, partition).with_query(&query).with_fresh(true),
    )
    .await
    {
        Ok(listed) => listed,
        Err(err) => {
            part.error = Some(err.to_string());
            return part;
        }
    };
    let pipelines = listed["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p["vcs"]["revision"] == sha);
    for pipeline in pipelines {
        let Some(id) = pipeline["id"].as_str() else { continue };
        part.pipelines.push(Pipeline {
            id: id.to_owned(),
            number: pipeline["number"].as_u64(),
            state: pipeline["state"].as_str().map(str::to_owned),
        });
        let path = format!("pipeline/{id}/workflow");
        let workflows = match fetch(circleci, &GetRequest::new(&path, partition).with_fresh(true)).await {
            Ok(workflows) => workflows,
            Err(err) => {
                part.error = Some(err.to_string());
                continue;
            }
        };
        for workflow in workflows["items"].as_array().into_iter().flatten() {
            checks.push(check(&workflow_entry(workflow), 1, Some(id)));
            let Some(workflow_id) = workflow["id"].as_str() else {
                continue;
            };
            let path = format!("workflow/{workflow_id}/job");
            match fetch(circleci, &GetRequest::new(&path, partition).with_fresh(true)).await {
                Ok(jobs) => checks.extend(
                    jobs["items"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|job| check(&job_entry(job), 1, Some(id))),
                ),
                Err(err) => part.error = Some(err.to_string()),
            }
        }
    }
    part
}
