//! `github_list_workflow_runs` and `github_list_workflow_jobs` (paged contract).

use adapters_github::{
    GithubClient, GithubError, JobFilter, ListWorkflowJobsParams, ListWorkflowRunsParams, Page, WorkflowId,
};
use adapters_http::decode::Payload;
use mcp_envelope::{OutputFormat, PageMeta};
use rmcp::model::{CallToolResult, JsonObject};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::paging::Paged;
use super::{OutputContract, ToolSpec, handler, input_schema, read_only};
use crate::Principal;
use crate::app::App;
use crate::args::{self, ArgumentError};
use mcp_envelope::TextSource;
use mcp_results::View;

/// Tool name of the workflow-runs listing.
pub const LIST_WORKFLOW_RUNS: &str = "github_list_workflow_runs";
/// Tool name of the jobs listing.
pub const LIST_WORKFLOW_JOBS: &str = "github_list_workflow_jobs";

/// A workflow's numeric id or its file name.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum WorkflowIdArg {
    /// The workflow's numeric id (a string of digits is read as the id too).
    Id(#[serde(deserialize_with = "crate::args::integer::required")] u64),
    /// The workflow file name, e.g. `ci.yml`.
    FileName(String),
}

/// Arguments of `github_list_workflow_runs` (with `perPage` and `page`: [`Paged`]).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ListWorkflowRunsArgs {
    #[schemars(description = "")]
    /// Repository owner, e.g. octo-org.
    #[schemars(length(max = crate::args::MAX_NAME_CHARS))]
    pub owner: String,
    #[schemars(description = "")]
    /// Repository name, e.g. octo-repo.
    #[schemars(length(max = crate::args::MAX_NAME_CHARS))]
    pub repo: String,
    /// Workflow id or file name (e.g. ci.yml).
    pub workflow_id: Option<WorkflowIdArg>,
    /// Branch name.
    #[schemars(length(max = crate::args::MAX_FILTER_CHARS))]
    pub branch: Option<String>,
    /// A status or conclusion, e.g. failure, in_progress.
    #[schemars(length(max = crate::args::MAX_FILTER_CHARS))]
    pub status: Option<String>,
    /// Triggering event, e.g. push, pull_request.
    #[schemars(length(max = crate::args::MAX_FILTER_CHARS))]
    pub event: Option<String>,
    /// Login of the user who started the run.
    #[schemars(length(max = crate::args::MAX_FILTER_CHARS))]
    pub actor: Option<String>,
    #[schemars(description = "")]
    /// jq filter; replaces data.
    #[schemars(length(max = crate::args::MAX_JQ_CHARS))]
    pub jq: Option<String>,
    #[schemars(description = "")]
    /// The text block's format: TOON (default) or pretty JSON (the type says it: no description in the schema).
    pub output_format: Option<OutputFormat>,
}

/// Arguments of `github_list_workflow_jobs` (with `perPage` and `page`: [`Paged`]).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ListWorkflowJobsArgs {
    #[schemars(description = "")]
    /// Repository owner, e.g. octo-org.
    #[schemars(length(max = crate::args::MAX_NAME_CHARS))]
    pub owner: String,
    #[schemars(description = "")]
    /// Repository name, e.g. octo-repo.
    #[schemars(length(max = crate::args::MAX_NAME_CHARS))]
    pub repo: String,
    /// The run's id.
    #[serde(deserialize_with = "crate::args::integer::required")]
    pub run_id: u64,
    /// latest (default): the latest attempt's jobs; all: every attempt's.
    pub filter: Option<JobFilterArg>,
    #[schemars(description = "")]
    /// jq filter; replaces data.
    #[schemars(length(max = crate::args::MAX_JQ_CHARS))]
    pub jq: Option<String>,
    #[schemars(description = "")]
    /// The text block's format: TOON (default) or pretty JSON (the type says it: no description in the schema).
    pub output_format: Option<OutputFormat>,
}

/// The jobs `filter` argument.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum JobFilterArg {
    /// Jobs of the latest attempt.
    Latest,
    /// Jobs of every attempt.
    All,
}

/// The `tools/list` entry of `github_list_workflow_runs`.
pub fn list_workflow_runs_spec() -> ToolSpec {
    ToolSpec {
        name: LIST_WORKFLOW_RUNS,
        description: "List GitHub Actions workflow runs of a repository (newest first), optionally of one workflow \
                      and filtered by branch, status, event or actor.",
        input_schema: input_schema::<Paged<ListWorkflowRunsArgs>>(),
        output: Some(OutputContract::Paged),
        annotations: read_only("List workflow runs", true),
        vendor: crate::Vendor::Github,
        handler: handler(|app, principal, arguments| Box::pin(list_workflow_runs(app, principal, arguments))),
    }
}

/// The `tools/list` entry of `github_list_workflow_jobs`.
pub fn list_workflow_jobs_spec() -> ToolSpec {
    ToolSpec {
        name: LIST_WORKFLOW_JOBS,
        description: "List the jobs of one GitHub Actions workflow run, with their steps, conclusions and runner.",
        input_schema: input_schema::<Paged<ListWorkflowJobsArgs>>(),
        output: Some(OutputContract::Paged),
        annotations: read_only("List workflow run jobs", true),
        vendor: crate::Vendor::Github,
        handler: handler(|app, principal, arguments| Box::pin(list_workflow_jobs(app, principal, arguments))),
    }
}

/// Runs `github_list_workflow_runs`.
pub async fn list_workflow_runs(app: &App, principal: &Principal, arguments: Option<JsonObject>) -> CallToolResult {
    let (args, per_page, page) = match parse_paged::<ListWorkflowRunsArgs>(LIST_WORKFLOW_RUNS, arguments).await {
        Ok(parsed) => parsed,
        Err(err) => return err.into_result(),
    };
    let params = ListWorkflowRunsParams::new(args.owner, args.repo)
        .with_workflow_id(args.workflow_id.map(|id| match id {
            WorkflowIdArg::Id(id) => WorkflowId::Id(id),
            WorkflowIdArg::FileName(name) => WorkflowId::FileName(name),
        }))
        .with_branch(args.branch)
        .with_status(args.status)
        .with_event(args.event)
        .with_actor(args.actor)
        .with_per_page(per_page)
        .with_page(page);
    let github = match client(app, LIST_WORKFLOW_RUNS) {
        Ok(github) => github,
        Err(unusable) => return mcp_results::coded_error(unusable, "invalid_setting"),
    };
    let page = github.list_workflow_runs(&params).await;
    let view = super::view(args.jq, args.output_format, TextSource::Envelope);
    finish(app, principal, LIST_WORKFLOW_RUNS, page, &view, page_meta).await
}

/// Runs `github_list_workflow_jobs`.
pub async fn list_workflow_jobs(app: &App, principal: &Principal, arguments: Option<JsonObject>) -> CallToolResult {
    let (args, per_page, page) = match parse_paged::<ListWorkflowJobsArgs>(LIST_WORKFLOW_JOBS, arguments).await {
        Ok(parsed) => parsed,
        Err(err) => return err.into_result(),
    };
    let params = ListWorkflowJobsParams::new(args.owner, args.repo, args.run_id)
        .with_filter(args.filter.map(|filter| match filter {
            JobFilterArg::Latest => JobFilter::Latest,
            JobFilterArg::All => JobFilter::All,
        }))
        .with_per_page(per_page)
        .with_page(page);
    let github = match client(app, LIST_WORKFLOW_JOBS) {
        Ok(github) => github,
        Err(unusable) => return mcp_results::coded_error(unusable, "invalid_setting"),
    };
    let page = github.list_workflow_jobs(&params).await;
    let view = super::view(args.jq, args.output_format, TextSource::Envelope);
    finish(app, principal, LIST_WORKFLOW_JOBS, page, &view, page_meta).await
}

/// The GitHub client, or the error text of `tool` saying why it could not be built from its configuration.
pub(super) fn client<'a>(app: &'a App, tool: &str) -> Result<&'a GithubClient, String> {
    app.github.as_ref().map_err(|setup| format!("{tool} failed: {setup}"))
}

/// The `jq` argument of a paged tool's own arguments (checked before anything is sent upstream).
pub(super) trait JqArg {
    /// The `jq` expression, if any.
    fn jq(&self) -> Option<&str>;
}

impl JqArg for ListWorkflowRunsArgs {
    fn jq(&self) -> Option<&str> {
        self.jq.as_deref()
    }
}

impl JqArg for ListWorkflowJobsArgs {
    fn jq(&self) -> Option<&str> {
        self.jq.as_deref()
    }
}

/// Parses a paged tool's arguments, validates `perPage`/`page` and compiles `jq`, so that nothing is sent upstream
/// for bad arguments. Returns the tool's own arguments with `perPage` and `page` narrowed to the adapter's types.
pub(super) async fn parse_paged<T: DeserializeOwned + JsonSchema + JqArg>(
    tool: &'static str,
    arguments: Option<JsonObject>,
) -> Result<(T, Option<u8>, Option<u32>), ArgumentError> {
    let Paged {
        args: parsed,
        group: paging,
    } = args::parse::<Paged<T>>(tool, arguments)?;
    let (per_page, page) = paging.check(tool)?;
    args::check_jq(tool, parsed.jq()).await?;
    Ok((parsed, per_page, page))
}

/// The list tools' metadata: the next page number.
fn page_meta(page: &Page) -> PageMeta {
    PageMeta::new(page.next_page)
}

/// The result of a paged read: the page's body with the metadata `meta_of` takes from it ([`PageMeta`] for the
/// list tools, [`mcp_envelope::LinkedPageMeta`] for `github_get`), or the error with its `_meta`.
pub(super) async fn finish<M: Serialize + Send + 'static>(
    app: &App,
    principal: &Principal,
    tool: &str,
    page: Result<Page, GithubError>,
    view: &View,
    meta_of: fn(&Page) -> M,
) -> CallToolResult {
    match page {
        Ok(page) => {
            super::record_upstream_status(Some(200));
            let meta = meta_of(&page);
            match page.body {
                Payload::Data(data) => app.results.respond(principal.as_str(), data, meta, view).await,
                Payload::Binary(body) => {
                    app.results
                        .binary(principal.as_str(), body.media_type, body.bytes, meta, view)
                        .await
                }
            }
        }
        Err(err) => {
            super::record_upstream_status(err.status());
            if let adapters_github::GithubError::Http(adapters_http::HttpError::MissingCredential { setting, .. }) =
                &err
            {
                tracing::info!(tool, "no request sent: set {setting}");
            } else {
                tracing::info!(tool, status = err.status(), "upstream call failed");
            }
            mcp_results::error_with_meta(format!("{tool} failed: {err}"), err.info().to_meta())
        }
    }
}
