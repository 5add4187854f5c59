//! What the tools share: the paging arguments and the merge of `allPages`, the log arguments, the write results, and the helpers every tool method uses (`caller`, `output_schema`, [`record_upstream_status`]). The tools themselves are in their
//! vendor's folder (`crate::vendors`).

pub mod all_pages;
pub mod logs;
pub mod paging;
pub(crate) mod progress;
pub(crate) mod wait;
pub(crate) mod writes;

use std::sync::Arc;

use rmcp::model::JsonObject;
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Map, Value};

use crate::Principal;

/// The caller of a tool call: the principal [`crate::DevtoolsServer`] resolved and put into the request's
/// extensions before routing the call (the HTTP request's, or the server's own on stdio and in-process). A call
/// routed without one (never through the server) is [`mcp_results::DEFAULT_OWNER`]'s.
pub(crate) fn caller(cx: &RequestContext<RoleServer>) -> Principal {
    cx.extensions
        .get::<Principal>()
        .cloned()
        .unwrap_or_else(|| Principal::named(mcp_results::DEFAULT_OWNER))
}

/// A tool's `outputSchema` from its contract's schema: compacted for `tools/list`
/// ([`mcp_envelope::compact_output_schema`]: the same shapes, no prose), with `data`'s description when the
/// unprojected body has a known shape (a code-mode harness shows it as the field's documentation; `Some("")`:
/// none, for a `data` whose schema types it), and `incomplete` without one: `artifact_read`'s description says
/// what its `artifactId` is for, once for every tool.
pub(crate) fn output_schema(schema: Map<String, Value>, data_description: Option<&str>) -> Arc<JsonObject> {
    let mut schema = mcp_envelope::compact_output_schema(schema);
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        if let Some(Value::Object(incomplete)) = properties.get_mut("incomplete") {
            incomplete.remove("description");
        }
        if let (Some(text), Some(Value::Object(data))) = (data_description, properties.get_mut("data")) {
            if text.is_empty() {
                data.remove("description");
            } else {
                data.insert("description".to_owned(), Value::String(text.to_owned()));
            }
        }
    }
    Arc::new(schema)
}

/// The `outputSchema` of a tool whose `data` is our own `T` (no `jq`): [`output_schema`] of the envelope of a `T`,
/// without a description of `data` (its schema types it).
pub(crate) fn typed_output_schema<T: schemars::JsonSchema>() -> Arc<JsonObject> {
    output_schema(
        mcp_envelope::Envelope::<T, mcp_envelope::NoMeta>::output_schema(),
        Some(""),
    )
}

/// The error result of `tool` when its vendor's client could not be built from the settings (`setup` says why):
/// `_meta.code: "invalid_setting"`.
pub(crate) fn unusable_client(tool: &str, setup: &str) -> rmcp::model::CallToolResult {
    mcp_results::coded_error(format!("{tool} failed: {setup}"), "invalid_setting")
}

/// The error result of `tool` when reading `what` failed upstream: `err`'s text and its `_meta` (`info`), with the
/// upstream status (`None`: no answer) recorded on the call's span.
pub(crate) fn upstream_failure(
    tool: &str,
    what: &str,
    err: &dyn std::fmt::Display,
    status: Option<u16>,
    info: adapters_http::error_info::ErrorInfo,
) -> rmcp::model::CallToolResult {
    record_upstream_status(status);
    mcp_results::error_with_meta(format!("{tool} failed: {what}: {err}"), info.to_meta())
}

/// Records the upstream HTTP status (`None`: no response, e.g. a transport error or a missing token) on the
/// current `tool_call` span. Tools call it once per upstream answer.
pub fn record_upstream_status(status: Option<u16>) {
    if let Some(status) = status {
        tracing::Span::current().record("upstream_status", status);
    }
}
