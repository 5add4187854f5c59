//! `circleci_wait_for_pipeline`: one pipeline (by id, or the newest of a project's branch) until every workflow is
//! terminal, its workflows and jobs with the job numbers `circleci_get_job_logs` takes. Pipeline, workflow and job
//! paths are never cached, so each poll reads CircleCI afresh ([`crate::tools::wait`]).
//! See <https://circleci.com/docs/api/v2/index.html#operation/listWorkflowsByPipelineId> and
//! <https://circleci.com/docs/api/v2/index.html#operation/listWorkflowJobs>.

use std::sync::Arc;
use std::time::{Duration, Instant};

use adapters_circleci::{CircleciClient, CircleciError, GetRequest};
use rmcp::model::CallToolResult;
use rmcp::service::{RequestContext, RoleServer};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::workflows::{TERMINAL, fetch, job_entry, pipeline_url, workflow_entry};
use crate::app::App;
use crate::args::ArgumentError;
use crate::tools::caller;
use crate::tools::wait::model::Observed;
use crate::tools::wait::shared::{PollError, Polled, Poller};
use crate::tools::wait::{self, Target, WaitOptions, WaitResult, WithWait};

/// Tool name.
pub const WAIT_FOR_PIPELINE: &str = "circleci_wait_for_pipeline";

/// Arguments of `circleci_wait_for_pipeline`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WaitForPipelineArgs {
    /// Pipeline id (a UUID).
    #[schemars(length(max = 64))]
    pub pipeline_id: Option<String>,
    /// Or a project (gh/ORG/REPO) with branch: its newest pipeline.
    #[schemars(length(max = 512))]
    pub project_slug: Option<String>,
    /// With projectSlug.
    #[schemars(length(max = crate::args::MAX_FILTER_CHARS))]
    pub branch: Option<String>,
}

/// Runs `circleci_wait_for_pipeline`.
pub(super) async fn call(
    app: &Arc<App>,
    cx: &RequestContext<RoleServer>,
    args: WithWait<WaitForPipelineArgs>,
) -> Result<WaitResult, CallToolResult> {
    let options = args
        .group
        .check(WAIT_FOR_PIPELINE)
        .map_err(ArgumentError::into_result)?;
    let circleci = app
        .circleci
        .as_ref()
        .map_err(|setup| mcp_results::coded_error(format!("{WAIT_FOR_PIPELINE} failed: {setup}"), "invalid_setting"))?;
    let partition = caller(cx).as_str().to_owned();
    let WaitForPipelineArgs {
        pipeline_id,
        project_slug,
        branch,
    } = args.args;
    let blank = |text: Option<String>| text.filter(|text| !text.trim().is_empty());
    let pipeline_id = match (blank(pipeline_id), blank(project_slug), blank(branch)) {
        (Some(id), None, None) => id,
        (None, Some(slug), Some(branch)) => newest_pipeline(circleci, &partition, &slug, &branch).await?,
        _ => {
            return Err(ArgumentError::new(
                WAIT_FOR_PIPELINE,
                "give pipelineId, or projectSlug and branch (for the branch's newest pipeline)",
            )
            .into_result());
        }
    };
    if pipeline_id.contains('/') || pipeline_id.contains('?') {
        return Err(ArgumentError::new(WAIT_FOR_PIPELINE, "pipelineId must be a pipeline id (a UUID)").into_result());
    }
    let target = Target {
        description: format!("CircleCI pipeline {pipeline_id}"),
        key: format!("circleci {} pipeline {pipeline_id}", circleci.api_base()),
    };
    let settle = app.config.wait.settle;
    let make = || PipelinePoller {
        pipeline_id: pipeline_id.clone(),
        partition: partition.clone(),
        started: Instant::now(),
        settle,
    };
    let result = wait::wait(app, cx, target, options, make).await?;
    Ok(with_tails(circleci, result, options).await)
}

/// The id of the newest pipeline of `slug` on `branch`.
async fn newest_pipeline(
    circleci: &CircleciClient,
    partition: &str,
    slug: &str,
    branch: &str,
) -> Result<String, CallToolResult> {
    let query = [("branch".to_owned(), branch.to_owned())];
    let path = format!("project/{slug}/pipeline");
    let request = GetRequest::new(&path, partition).with_query(&query).with_fresh(true);
    let body = fetch(circleci, &request)
        .await
        .map_err(|err| upstream_error(&format!("project {slug}"), &err))?;
    body["items"][0]["id"].as_str().map(str::to_owned).ok_or_else(|| {
        mcp_results::coded_error(
            format!("{WAIT_FOR_PIPELINE}: project {slug} has no pipeline on branch {branch:?}"),
            "not_found",
        )
    })
}

fn upstream_error(what: &str, err: &CircleciError) -> CallToolResult {
    crate::tools::record_upstream_status(err.status());
    mcp_results::error_with_meta(
        format!("{WAIT_FOR_PIPELINE} failed: {what}: {err}"),
        err.info().to_meta(),
    )
}

/// Adds the log tails of the failed jobs when `options` asks for them.
async fn with_tails(circleci: &CircleciClient, mut result: WaitResult, options: WaitOptions) -> WaitResult {
    result.project_slug = result.jobs.iter().find_map(|job| job.project_slug.clone());
    if options.failed_log_tail == 0 {
        return result;
    }
    for job in result.jobs.iter_mut().filter(|job| job.failed) {
        let (Some(slug), Some(number)) = (job.project_slug.clone(), job.job_number) else {
            continue;
        };
        match super::logs::failed_tail(circleci, &slug, number, options.failed_log_tail).await {
            Ok(lines) => job.log_tail = Some(lines),
            Err(err) => job.log_error = Some(err),
        }
    }
    result
}

/// Polls a pipeline's workflows and their jobs.
struct PipelinePoller {
    pipeline_id: String,
    partition: String,
    started: Instant,
    settle: Duration,
}

impl Poller for PipelinePoller {
    async fn poll(&mut self, app: &App) -> Polled {
        let Ok(circleci) = app.circleci.as_ref() else {
            return failed(PollError::Failed("the CircleCI client is not configured".to_owned()));
        };
        match self.observe(circleci).await {
            Ok(observed) => Polled {
                outcome: Ok(Some(observed)),
                not_before: None,
            },
            Err(err) if err.status() == Some(404) => failed(PollError::NotFound(format!(
                "CircleCI pipeline {} was not found: {err}",
                self.pipeline_id
            ))),
            Err(err) => failed(PollError::Failed(err.to_string())),
        }
    }
}

fn failed(err: PollError) -> Polled {
    Polled {
        outcome: Err(err),
        not_before: None,
    }
}

impl PipelinePoller {
    async fn observe(&self, circleci: &CircleciClient) -> Result<Observed, CircleciError> {
        let path = format!("pipeline/{}/workflow", self.pipeline_id);
        let workflows = fetch(circleci, &GetRequest::new(&path, &self.partition).with_fresh(true)).await?;
        let workflows: Vec<Value> = workflows["items"].as_array().cloned().unwrap_or_default();
        let mut jobs = Vec::new();
        for workflow in &workflows {
            jobs.push(workflow_entry(workflow));
            let Some(id) = workflow["id"].as_str() else { continue };
            let path = format!("workflow/{id}/job");
            let listed = fetch(circleci, &GetRequest::new(&path, &self.partition).with_fresh(true)).await?;
            jobs.extend(listed["items"].as_array().into_iter().flatten().map(job_entry));
        }
        let mut setup_error = None;
        if workflows.is_empty() {
            // No workflow yet: the pipeline may still be set up, or its configuration failed.
            let path = format!("pipeline/{}", self.pipeline_id);
            let pipeline = fetch(circleci, &GetRequest::new(&path, &self.partition).with_fresh(true)).await?;
            if pipeline["state"] == "errored" {
                setup_error = Some(pipeline);
            }
        }
        let statuses: Vec<&str> = workflows.iter().map(|w| w["status"].as_str().unwrap_or("")).collect();
        let all_terminal = statuses.iter().all(|status| TERMINAL.contains(status));
        let done = if workflows.is_empty() {
            setup_error.is_some() || self.started.elapsed() >= self.settle
        } else {
            all_terminal
        };
        let conclusion = if setup_error.is_some() {
            Some("errored".to_owned())
        } else if workflows.is_empty() || !all_terminal {
            None
        } else {
            ["failed", "error", "unauthorized", "canceled", "on_hold", "not_run"]
                .into_iter()
                .find(|worst| statuses.contains(worst))
                .or(Some("success"))
                .map(str::to_owned)
        };
        let state = if setup_error.is_some() {
            "errored"
        } else if workflows.is_empty() {
            "created"
        } else if all_terminal {
            "completed"
        } else {
            "running"
        };
        let first = workflows.first();
        let url = first.and_then(|w| {
            let slug = w["project_slug"].as_str()?;
            let number = w["pipeline_number"].as_u64()?;
            Some(pipeline_url(slug, number))
        });
        Ok(Observed {
            done,
            state: state.to_owned(),
            conclusion,
            url,
            started_at: workflows
                .iter()
                .filter_map(|w| w["created_at"].as_str())
                .min()
                .map(str::to_owned),
            finished_at: if all_terminal && !workflows.is_empty() {
                workflows
                    .iter()
                    .filter_map(|w| w["stopped_at"].as_str())
                    .max()
                    .map(str::to_owned)
            } else {
                None
            },
            jobs,
        })
    }
}
