//! The tool catalogue: each tool's name, description, input schema, optional `outputSchema`, annotations and
//! handler. `tools/list` and `tools/call` are answered from here.

mod artifact_read;
mod atlassian;
mod circleci;
mod github;

use std::sync::Arc;

use rmcp::model::{CallToolResult, JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;

use crate::app::App;
use crate::principal::Principal;
use crate::vendor::Vendor;

/// Which result contract a tool's `outputSchema` follows (CONTRACT §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputContract {
    /// `{data, nextPage, incomplete?}`.
    Paged,
    /// `artifact_read`'s chunk object.
    ArtifactChunk,
    /// `{data, cache: {hit, ageMs, fetchedAt}, incomplete?}` (`circleci_get`).
    CircleCi,
    /// `{data, incomplete?}` (`jira_get`, `conf_get`, `bb_get`; the text is the bare body).
    Atlassian,
}

impl OutputContract {
    /// The compact `outputSchema` ([`mcp_envelope::compact_output_schema`]: the same shapes, no prose).
    fn schema(self) -> JsonObject {
        mcp_envelope::compact_output_schema(match self {
            OutputContract::Paged => mcp_envelope::paged_output_schema(),
            OutputContract::ArtifactChunk => return mcp_results::artifact_read::output_schema(),
            OutputContract::CircleCi => circleci::output_schema(),
            OutputContract::Atlassian => atlassian::output_schema(),
        })
    }
}

/// One tool as listed by `tools/list`.
#[derive(Debug, Clone)]
pub struct ToolSpec {
    /// The tool name, e.g. `github_list_workflow_runs`.
    pub name: &'static str,
    /// What the tool does, for the model.
    pub description: &'static str,
    /// JSON Schema of the arguments (an object).
    pub input_schema: JsonObject,
    /// The result contract, advertised as `outputSchema` only when the structured switch is on.
    pub output: Option<OutputContract>,
    /// MCP tool annotations (`readOnlyHint`, …).
    pub annotations: ToolAnnotations,
    /// The upstream it calls: the subject of policy rules and of enterprise `_meta` ([`Vendor::None`]: no upstream).
    pub vendor: Vendor,
}

impl ToolSpec {
    /// The rmcp `Tool`, with `outputSchema` when `structured_output` is on and the tool has a contract.
    pub fn to_tool(&self, structured_output: bool) -> Tool {
        let mut tool = Tool::new(self.name, self.description, Arc::new(self.input_schema.clone()))
            .with_annotations(self.annotations.clone());
        if structured_output && let Some(contract) = self.output {
            tool = mcp_envelope::rmcp::tool_with_output_schema(tool, contract.schema());
        }
        tool
    }
}

/// The input schema of an argument struct ([`mcp_results::schema::input_schema`]: compact, the one argument
/// parsing checks `maxLength` against).
pub(crate) fn input_schema<T: JsonSchema>() -> JsonObject {
    mcp_results::schema::input_schema::<T>()
}

/// Annotations of a read-only tool; `open_world` when it talks to an upstream service.
pub(crate) fn read_only(title: &str, open_world: bool) -> ToolAnnotations {
    ToolAnnotations::with_title(title)
        .read_only(true)
        .destructive(false)
        .idempotent(true)
        .open_world(open_world)
}

/// Every tool this server offers, in `tools/list` order.
pub fn catalog() -> Vec<ToolSpec> {
    vec![
        github::list_workflow_runs_spec(),
        github::list_workflow_jobs_spec(),
        circleci::spec(),
        artifact_read::spec(),
    ]
    .into_iter()
    .chain(atlassian::specs())
    .collect()
}

/// Runs tool `name`; `None` when no such tool exists.
pub async fn call(
    app: &App,
    principal: &Principal,
    name: &str,
    arguments: Option<JsonObject>,
) -> Option<CallToolResult> {
    let result = match name {
        github::LIST_WORKFLOW_RUNS => github::list_workflow_runs(app, principal, arguments).await,
        github::LIST_WORKFLOW_JOBS => github::list_workflow_jobs(app, principal, arguments).await,
        circleci::NAME => circleci::call(app, principal, arguments).await,
        artifact_read::NAME => artifact_read::call(app, principal, arguments).await,
        _ => return atlassian::call(app, principal, name, arguments).await,
    };
    Some(result)
}
