//! CircleCI: the vendor's folder. Its tools (`circleci_get`, `circleci_get_job_logs`) as `#[tool]` methods on the
//! front door, its toolset name, its secrets for the redactor and its enterprise identity ([`ENTRY`]).

mod get;
mod logs;
mod wait;
pub(crate) mod workflows;

use mcp_results::{Args, Json, Structured, WithView};
use rmcp::model::CallToolResult;
use rmcp::service::RequestContext;
use rmcp::{RoleServer, tool, tool_router};
use serde_json::Value;

use get::{CacheMeta, CircleciGetArgs};
use logs::CircleciJobLogsArgs;
use wait::WaitForPipelineArgs;

use super::VendorEntry;
use crate::Vendor;
use crate::handler::DevtoolsServer;
use crate::tools::all_pages::{AllPages, WithPages};
use crate::tools::logs::{LogsOutput, WithLogFilter};
use crate::tools::wait::{WaitResult, WithWait};
use crate::tools::{caller, output_schema};

/// The vendor: `circleci`.
pub const VENDOR: Vendor = Vendor::named("circleci");

/// The registry entry.
pub(crate) const ENTRY: VendorEntry = VendorEntry {
    vendor: VENDOR,
    tools: DevtoolsServer::circleci_tools,
    order: &[get::NAME, logs::NAME, wait::WAIT_FOR_PIPELINE],
    tasks: &[wait::WAIT_FOR_PIPELINE],
    secrets: |config, secrets| {
        let http = &config.circleci.http;
        match &http.credential {
            Some(token) => secrets.secret(http.setting_names.credential, token.expose()),
            None => secrets,
        }
    },
    configured: |config| config.circleci.http.credential.is_some(),
    identity: |app| super::http_identity(&app.config.circleci.http),
};

/// What `data` is for `circleci_get` (the `outputSchema`'s `data.description`).
const GET_DATA: &str = "CircleCI's body (a list: {items, next_page_token}), or the jq output; null when incomplete";

#[tool_router(router = circleci_tools, vis = "pub(crate)")]
impl DevtoolsServer {
    #[tool(
        name = "circleci_get",
        description = "GET a CircleCI API v2 path (pipelines, workflows, jobs, insights, /me); pipeline, workflow \
                       and job paths are never cached; fresh: true forces a new read.",
        input_schema = mcp_results::schema::input_schema::<AllPages<WithView<CircleciGetArgs>>>(),
        output_schema = output_schema(get::output_schema(), Some(GET_DATA)),
        annotations(title = "CircleCI GET", read_only_hint = true)
    )]
    async fn circleci_get(
        &self,
        args: Args<AllPages<WithView<CircleciGetArgs>>>,
        cx: RequestContext<RoleServer>,
    ) -> Result<Json<Structured<Value, WithPages<CacheMeta>>>, CallToolResult> {
        let result = get::call(self.app(), &caller(&cx), args.into_result()?).await;
        Ok(Json::from_result(result))
    }

    #[tool(
        name = "circleci_get_job_logs",
        description = "CircleCI job output lines by step (projectSlug, jobNumber), as github_get_job_logs.",
        input_schema = mcp_results::schema::input_schema::<WithView<WithLogFilter<CircleciJobLogsArgs>>>(),
        output_schema = output_schema(crate::tools::logs::output_schema(), None),
        annotations(title = "Get CircleCI job logs", read_only_hint = true)
    )]
    async fn circleci_get_job_logs(
        &self,
        args: Args<WithView<WithLogFilter<CircleciJobLogsArgs>>>,
        cx: RequestContext<RoleServer>,
    ) -> Result<Json<LogsOutput>, CallToolResult> {
        let result = logs::call(self.app(), &caller(&cx), args.into_result()?).await;
        Ok(Json::from_result(result))
    }

    #[tool(
        name = "circleci_wait_for_pipeline",
        description = "Wait until every workflow of a CircleCI pipeline (pipelineId, or projectSlug + branch: the \
                       newest) is terminal: workflows and jobs (jobNumber for circleci_get_job_logs). Sends \
                       progress; can run as a task.",
        input_schema = mcp_results::schema::input_schema::<WithWait<WaitForPipelineArgs>>(),
        output_schema = crate::tools::wait::output_schema(),
        annotations(title = "Wait for a CircleCI pipeline", read_only_hint = true)
    )]
    async fn circleci_wait_for_pipeline(
        &self,
        args: Args<WithWait<WaitForPipelineArgs>>,
        cx: RequestContext<RoleServer>,
    ) -> Result<Json<Structured<WaitResult>>, CallToolResult> {
        let result = wait::call(self.app(), &cx, args.into_result()?).await?;
        Ok(self
            .app()
            .results
            .json(&cx, result, mcp_envelope::View::default())
            .await)
    }
}
