//! The tool catalogue: each tool's name, description, input schema, optional `outputSchema`, annotations and
//! handler, in one table ([`ToolTable`]) built once per process. `tools/list` and `tools/call` are answered from it.

mod artifact_read;
mod atlassian;
mod circleci;
mod circleci_logs;
mod github;
mod github_get;
mod github_logs;
pub mod logs;
mod paging;
mod writes;

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use mcp_envelope::{OutputFormat, TextSource};
use mcp_policy::ToolFacts;
use mcp_results::{View, ViewArgs};
use rmcp::model::{CallToolResult, JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;

use crate::app::App;
use crate::config::ToolsConfig;
use crate::toolsets;
use crate::{Principal, Vendor};

/// The future of one tool call, borrowing the [`App`] and the caller.
pub type ToolFuture<'a> = Pin<Box<dyn Future<Output = CallToolResult> + Send + 'a>>;

/// A tool's handler: runs one call of the tool for the principal with the call's `arguments` (a JSON object, or
/// `None` when the request had none) and returns the result; failures are `isError` results, never panics.
pub type Handler =
    Arc<dyn for<'a> Fn(&'a App, &'a Principal, Option<JsonObject>) -> ToolFuture<'a> + Send + Sync + 'static>;

/// A [`Handler`] from a closure (the closure's signature is inferred from this bound).
pub(crate) fn handler<F>(run: F) -> Handler
where
    F: for<'a> Fn(&'a App, &'a Principal, Option<JsonObject>) -> ToolFuture<'a> + Send + Sync + 'static,
{
    Arc::new(run)
}

/// Which result contract a tool's `outputSchema` follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputContract {
    /// `{data, nextPage, incomplete?}`.
    Paged,
    /// `{data, nextPage, nextPath?, incomplete?}` (`github_get`).
    GithubGet,
    /// `artifact_read`'s chunk object.
    ArtifactChunk,
    /// `{data, cache: {hit, ageMs, fetchedAt}, incomplete?}` (`circleci_get`).
    CircleCi,
    /// `{data, incomplete?}` (`jira_get`, `conf_get`, `bb_get`; the text is the bare body).
    Atlassian,
    /// `{data: {jobs}, logs?, incomplete?}` (`github_get_job_logs`, `circleci_get_job_logs`).
    Logs,
}

impl OutputContract {
    /// The compact `outputSchema` ([`mcp_envelope::compact_output_schema`]: the same shapes, no prose).
    fn schema(self) -> JsonObject {
        mcp_envelope::compact_output_schema(match self {
            OutputContract::Paged => mcp_envelope::paged_output_schema(),
            OutputContract::GithubGet => github_get::output_schema(),
            OutputContract::ArtifactChunk => return mcp_results::artifact_read::output_schema(),
            OutputContract::CircleCi => circleci::output_schema(),
            OutputContract::Atlassian => atlassian::output_schema(),
            OutputContract::Logs => logs::output_schema(),
        })
    }
}

/// One tool: its `tools/list` entry and its handler.
#[derive(Clone)]
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
    /// Runs a call of this tool.
    pub handler: Handler,
}

impl fmt::Debug for ToolSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolSpec")
            .field("name", &self.name)
            .field("output", &self.output)
            .field("vendor", &self.vendor)
            .finish_non_exhaustive()
    }
}

impl ToolSpec {
    /// What the tool selection ([`mcp_policy::Selection`]) judges: the toolset (none for `artifact_read`), whether
    /// it only reads (`readOnlyHint`), whether it has an output contract (so its results may be artifacts).
    pub fn facts(&self) -> ToolFacts<Vendor> {
        ToolFacts {
            toolset: (self.vendor != Vendor::None).then_some(self.vendor),
            read_only: self.annotations.read_only_hint == Some(true),
            returns_artifacts: self.output.is_some(),
        }
    }

    /// The rmcp `Tool`, with `outputSchema` when `structured_output` is on and the tool has a contract.
    pub fn to_tool(&self, structured_output: bool) -> Tool {
        let mut tool = Tool::new(self.name, self.description, Arc::new(self.input_schema.clone()))
            .with_annotations(self.annotations.clone());
        if structured_output && let Some(contract) = self.output {
            let mut schema = contract.schema();
            if let Some(text) = data_description(self.name)
                && let Some(serde_json::Value::Object(data)) = schema
                    .get_mut("properties")
                    .and_then(|properties| properties.get_mut("data"))
            {
                data.insert("description".to_owned(), serde_json::Value::String(text.to_owned()));
            }
            tool = mcp_envelope::rmcp::tool_with_output_schema(tool, schema);
        }
        tool
    }
}

/// What `data` is for a tool whose unprojected body has a known shape (the `outputSchema`'s `data.description`,
/// which a code-mode harness shows as the field's documentation); other tools keep the envelope's generic words.
fn data_description(tool: &str) -> Option<&'static str> {
    Some(match tool {
        github::LIST_WORKFLOW_RUNS => {
            "GitHub's body {total_count, workflow_runs: [{id, name, head_branch, head_sha, status, conclusion, \
             html_url, head_commit: {message}, ...}]}, or the jq output; null when incomplete"
        }
        github::LIST_WORKFLOW_JOBS => {
            "GitHub's body {total_count, jobs: [{id, name, conclusion, steps: [{name, conclusion, number}], \
             html_url, ...}]}, or the jq output; null when incomplete"
        }
        circleci::NAME => "CircleCI's body (a list: {items, next_page_token}), or the jq output; null when incomplete",
        _ => return None,
    })
}

/// The input schema of an argument struct ([`mcp_results::schema::input_schema`]: compact, the one argument
/// parsing checks `maxLength` against).
pub(crate) fn input_schema<T: JsonSchema>() -> JsonObject {
    mcp_results::schema::input_schema::<T>()
}

/// The caller's [`View`] from a tool's `jq` and `outputFormat` arguments (the front door's
/// [`mcp_results::ViewArgs`]), the text rendered from `text_from`.
pub(crate) fn view(jq: Option<String>, output_format: Option<OutputFormat>, text_from: TextSource) -> View {
    ViewArgs::new(jq, output_format).into_view().text_from(text_from)
}

/// Annotations of a read-only tool; `open_world` when it talks to an upstream service.
pub(crate) fn read_only(title: &str, open_world: bool) -> ToolAnnotations {
    ToolAnnotations::with_title(title)
        .read_only(true)
        .destructive(false)
        .idempotent(true)
        .open_world(open_world)
}

/// Every tool, in `tools/list` order (before the tool selection).
pub fn catalog() -> Vec<ToolSpec> {
    vec![
        github::list_workflow_runs_spec(),
        github::list_workflow_jobs_spec(),
        github_get::spec(),
        github_logs::spec(),
        circleci::spec(),
        circleci_logs::spec(),
        artifact_read::spec(),
    ]
    .into_iter()
    .chain(atlassian::specs())
    .collect()
}

/// The dispatch table: the tools the settings offer (spec + handler) and their `tools/list` entries, built once
/// per process and shared (behind an `Arc`) by every session. A tool the selection leaves out is kept only as the
/// text that refuses it.
pub struct ToolTable {
    offered: Vec<ToolSpec>,
    listed: Vec<Tool>,
    left_out: Vec<(&'static str, String)>,
}

impl ToolTable {
    /// The table for `config`: the tools of [`ToolsConfig::selection`], with `outputSchema` when
    /// [`ToolsConfig::structured_output`] is on.
    pub fn new(config: &ToolsConfig) -> Self {
        let selection = &config.selection;
        let (offered, left_out) = selection.select(catalog(), ToolSpec::facts);
        let left_out = left_out
            .into_iter()
            .map(|(spec, why)| {
                let refusal = toolsets::refusal(selection, config.selection_names, spec.name, spec.vendor, why);
                (spec.name, refusal)
            })
            .collect();
        let listed = offered
            .iter()
            .map(|spec| spec.to_tool(config.structured_output))
            .collect();
        ToolTable {
            offered,
            listed,
            left_out,
        }
    }

    /// The offered tool `name`.
    ///
    /// # Errors
    /// The text to answer when `name` is not offered: naming the setting that leaves it out, or saying to call
    /// `tools/list` when no such tool exists.
    pub fn find(&self, name: &str) -> Result<&ToolSpec, String> {
        if let Some(spec) = self.offered.iter().find(|spec| spec.name == name) {
            return Ok(spec);
        }
        Err(match self.left_out.iter().find(|(left_out, _)| *left_out == name) {
            Some((_, refusal)) => refusal.clone(),
            None => format!("Unknown tool {name:?}: call tools/list for the tools this server offers"),
        })
    }

    /// The `tools/list` entries, in catalogue order.
    pub fn listed(&self) -> &[Tool] {
        &self.listed
    }
}

/// Records the upstream HTTP status (`None`: no response, e.g. a transport error or a missing token) on the
/// current `tool_call` span. Tools call it once per upstream answer.
pub fn record_upstream_status(status: Option<u16>) {
    if let Some(status) = status {
        tracing::Span::current().record("upstream_status", status);
    }
}
