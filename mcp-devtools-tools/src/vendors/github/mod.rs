//! GitHub Actions: the vendor's folder. Its tools (`github_list_workflow_runs`, `github_list_workflow_jobs`,
//! `github_get`, `github_get_job_logs`) as `#[tool]` methods on the front door, its toolset name, its secrets for
//! the redactor and its enterprise identity ([`ENTRY`]). The work of each tool is in its own module.

pub(crate) mod checks;
mod get;
mod log_absence;
mod logs;
mod pages;
mod runs;
mod wait;

use mcp_envelope::{LinkedPageMeta, PageMeta};
use mcp_results::{Args, Json, Structured, WithView};
use rmcp::model::CallToolResult;
use rmcp::service::RequestContext;
use rmcp::{RoleServer, tool, tool_router};
use serde_json::Value;

use get::GithubGetArgs;
use logs::GithubJobLogsArgs;
use runs::{ListWorkflowJobsArgs, ListWorkflowRunsArgs};
use wait::{WaitForChecksArgs, WaitForRunArgs};

use super::VendorEntry;
use crate::Vendor;
use crate::handler::DevtoolsServer;
use crate::tools::all_pages::{AllPages, WithPages};
use crate::tools::logs::{LogsOutput, WithLogFilter};
use crate::tools::paging::Paged;
use crate::tools::wait::{WaitResult, WithWait};
use crate::tools::{caller, output_schema};

/// The vendor: `github`.
pub const VENDOR: Vendor = Vendor::named("github");

/// The registry entry.
pub(crate) const ENTRY: VendorEntry = VendorEntry {
    vendor: VENDOR,
    tools: DevtoolsServer::github_tools,
    order: &[
        runs::LIST_WORKFLOW_RUNS,
        runs::LIST_WORKFLOW_JOBS,
        get::NAME,
        logs::NAME,
        wait::WAIT_FOR_RUN,
        wait::WAIT_FOR_CHECKS,
    ],
    tasks: &[wait::WAIT_FOR_RUN, wait::WAIT_FOR_CHECKS],
    secrets: |config, secrets| {
        let http = &config.github.http;
        match &http.credential {
            // Also as git sends it over HTTP (`AUTHORIZATION: basic base64(x-access-token:TOKEN)`, the header
            // actions/checkout configures), which a job log may print.
            Some(token) => secrets.basic(http.setting_names.credential, "x-access-token", token.expose()),
            None => secrets,
        }
    },
    configured: |config| config.github.http.credential.is_some(),
    identity: |app| super::http_identity(&app.config.github.http),
};

/// What `data` is for the list tools (the `outputSchema`'s `data.description`, shown by code-mode harnesses).
const RUNS_DATA: &str = "GitHub's body {total_count, workflow_runs: [{id, name, head_branch, head_sha, status, \
                         conclusion, html_url, head_commit: {message}, ...}]}, or the jq output; null when incomplete";
const JOBS_DATA: &str = "GitHub's body {total_count, jobs: [{id, name, conclusion, steps: [{name, conclusion, \
                         number}], html_url, ...}]}, or the jq output; null when incomplete";

/// `outputSchema` of the list tools: `{data, nextPage, pages?, incomplete?}`.
fn paged_output_schema() -> serde_json::Map<String, Value> {
    mcp_envelope::with_title(
        mcp_envelope::Envelope::<Value, WithPages<PageMeta>>::output_schema(),
        "PagedEnvelope",
        "A page of upstream results (with allPages, every page read, merged): `data` is the (projected) body, \
         `nextPage` the page to request next or null. `incomplete` appears only when `data` is not the whole result.",
    )
}

#[tool_router(router = github_tools, vis = "pub(crate)")]
impl DevtoolsServer {
    #[tool(
        name = "github_list_workflow_runs",
        description = "List GitHub Actions workflow runs of a repository, newest first.",
        input_schema = mcp_results::schema::input_schema::<AllPages<Paged<WithView<ListWorkflowRunsArgs>>>>(),
        output_schema = output_schema(paged_output_schema(), Some(RUNS_DATA)),
        annotations(title = "List workflow runs", read_only_hint = true)
    )]
    async fn github_list_workflow_runs(
        &self,
        args: Args<AllPages<Paged<WithView<ListWorkflowRunsArgs>>>>,
        cx: RequestContext<RoleServer>,
    ) -> Result<Json<Structured<Value, WithPages<PageMeta>>>, CallToolResult> {
        let result = runs::list_workflow_runs(self.app(), &caller(&cx), args.into_result()?).await;
        Ok(Json::from_result(result))
    }

    #[tool(
        name = "github_list_workflow_jobs",
        description = "List the jobs of one GitHub Actions workflow run, with their steps, conclusions and runner.",
        input_schema = mcp_results::schema::input_schema::<AllPages<Paged<WithView<ListWorkflowJobsArgs>>>>(),
        output_schema = output_schema(paged_output_schema(), Some(JOBS_DATA)),
        annotations(title = "List workflow run jobs", read_only_hint = true)
    )]
    async fn github_list_workflow_jobs(
        &self,
        args: Args<AllPages<Paged<WithView<ListWorkflowJobsArgs>>>>,
        cx: RequestContext<RoleServer>,
    ) -> Result<Json<Structured<Value, WithPages<PageMeta>>>, CallToolResult> {
        let result = runs::list_workflow_jobs(self.app(), &caller(&cx), args.into_result()?).await;
        Ok(Json::from_result(result))
    }

    #[tool(
        name = "github_get",
        description = "GET a GitHub REST path (pull requests of a commit, its check-runs, a run's artifacts, ...).",
        input_schema = mcp_results::schema::input_schema::<AllPages<Paged<WithView<GithubGetArgs>>>>(),
        output_schema = output_schema(get::output_schema(), None),
        annotations(title = "GitHub GET", read_only_hint = true)
    )]
    async fn github_get(
        &self,
        args: Args<AllPages<Paged<WithView<GithubGetArgs>>>>,
        cx: RequestContext<RoleServer>,
    ) -> Result<Json<Structured<Value, WithPages<LinkedPageMeta>>>, CallToolResult> {
        let result = get::call(self.app(), &caller(&cx), args.into_result()?).await;
        Ok(Json::from_result(result))
    }

    #[tool(
        name = "github_get_job_logs",
        description = "GitHub Actions job log lines by step, for jobId, runId + jobName, or runId (failed jobs).",
        input_schema = mcp_results::schema::input_schema::<WithView<WithLogFilter<GithubJobLogsArgs>>>(),
        output_schema = output_schema(crate::tools::logs::output_schema(), None),
        annotations(title = "Get job logs", read_only_hint = true)
    )]
    async fn github_get_job_logs(
        &self,
        args: Args<WithView<WithLogFilter<GithubJobLogsArgs>>>,
        cx: RequestContext<RoleServer>,
    ) -> Result<Json<LogsOutput>, CallToolResult> {
        let result = logs::call(self.app(), &caller(&cx), args.into_result()?).await;
        Ok(Json::from_result(result))
    }

    #[tool(
        name = "github_wait_for_run",
        description = WAIT_FOR_RUN_DESCRIPTION,
        input_schema = mcp_results::schema::input_schema::<WithWait<WaitForRunArgs>>(),
        output_schema = crate::tools::wait::output_schema(),
        annotations(title = "Wait for a workflow run", read_only_hint = true)
    )]
    async fn github_wait_for_run(
        &self,
        args: Args<WithWait<WaitForRunArgs>>,
        cx: RequestContext<RoleServer>,
    ) -> Result<Json<Structured<WaitResult>>, CallToolResult> {
        let result = wait::for_run(self.app(), &cx, args.into_result()?).await?;
        Ok(self
            .app()
            .results
            .json(&cx, result, mcp_envelope::View::default())
            .await)
    }

    #[tool(
        name = "github_wait_for_checks",
        description = WAIT_FOR_CHECKS_DESCRIPTION,
        input_schema = mcp_results::schema::input_schema::<WithWait<WaitForChecksArgs>>(),
        output_schema = crate::tools::wait::output_schema(),
        annotations(title = "Wait for a commit's checks", read_only_hint = true)
    )]
    async fn github_wait_for_checks(
        &self,
        args: Args<WithWait<WaitForChecksArgs>>,
        cx: RequestContext<RoleServer>,
    ) -> Result<Json<Structured<WaitResult>>, CallToolResult> {
        let result = wait::for_checks(self.app(), &cx, args.into_result()?).await?;
        Ok(self
            .app()
            .results
            .json(&cx, result, mcp_envelope::View::default())
            .await)
    }
}

/// `github_wait_for_run`'s description.
const WAIT_FOR_RUN_DESCRIPTION: &str = "Wait until a GitHub Actions workflow run completed: conclusion and jobs (failed \
                                        ones with jobId for github_get_job_logs). Sends progress; can run \
                                        as a task.";
/// `github_wait_for_checks`' description.
const WAIT_FOR_CHECKS_DESCRIPTION: &str = "Wait until no check run or commit status of a commit (ref or pullNumber) \
                                           is pending, late checks included. Sends progress; can run as a \
                                           task.";
