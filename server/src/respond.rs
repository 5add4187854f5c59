//! From a tool's data to its MCP result: projection, text rendering and truncation, the size bound and artifacts
//! (CONTRACT §2, §4, §5, §6), on top of [`mcp_envelope::prepare`]. Tools call [`structured`] on success and
//! [`error`] on failure.

use std::time::Duration;

use bytes::Bytes;
use mcp_envelope::rmcp::{error_result, success_result};
use mcp_envelope::{EnvelopeError, OutputFormat, Sealed, TextSource, prepare, prepare_text};
use rmcp::model::CallToolResult;
use serde::Serialize;
use serde_json::Value;

use crate::app::App;
use crate::principal::Principal;

/// How long projection and rendering of one result may take before the call fails. jaq has no step budget, so a
/// runaway `jq` program is stopped from waiting here (its blocking thread runs on until the program ends).
pub const PIPELINE_TIMEOUT: Duration = Duration::from_secs(10);

/// How the caller asked to see the result.
#[derive(Debug, Clone)]
pub struct View {
    /// The optional `jq` (or JMESPath) expression applied to `data`.
    pub jq: Option<String>,
    /// TOON (default) or pretty JSON.
    pub format: OutputFormat,
    /// What the text is rendered from: the envelope, or the bare body.
    pub text_from: TextSource,
}

/// Builds the success result for `data` with tool metadata `meta`.
///
/// With the switch off the result is the text block alone. With it on, `structuredContent` is the envelope, or its
/// incomplete form when the compact value exceeds the bound (the full value then goes to the artifact store, owned
/// by `principal`; a failed save gives `artifactId: null` and a warning in the log). A bad `jq` gives an error
/// result that names the problem.
pub async fn structured<M>(app: &App, principal: &Principal, data: Value, meta: M, view: &View) -> CallToolResult
where
    M: Serialize + Send + 'static,
{
    let structured_output = app.settings.structured_output;
    let bound = app.settings.max_bytes;
    let view = view.clone();
    let work = tokio::task::spawn_blocking(move || {
        let jq = view.jq.as_deref();
        if structured_output {
            prepare(data, meta, jq, view.format, view.text_from, &bound).map(|p| (p.text, Some(p.sealed)))
        } else {
            prepare_text(data, meta, jq, view.format, view.text_from).map(|text| (text, None))
        }
    });
    let (text, sealed) = match finish(work).await {
        Ok(prepared) => prepared,
        Err(result) => return result,
    };
    let Some(sealed) = sealed else {
        return success_result(text, None);
    };
    let envelope = match sealed {
        Sealed::Inline(envelope) => envelope,
        Sealed::Oversized(oversized) => {
            let (bytes, pending) = oversized.into_parts();
            let artifact_id = match app
                .store
                .put(principal.as_str(), "application/json", Bytes::from(bytes))
                .await
            {
                Ok(id) => Some(id.to_string()),
                Err(err) => {
                    tracing::warn!(error = %err, "saving an oversized result as an artifact failed; artifactId is null");
                    None
                }
            };
            pending.finish(artifact_id)
        }
    };
    match envelope.into_value() {
        Ok(value) => success_result(text, Some(value)),
        Err(err) => error(format!("Internal error: the result could not be serialized: {err}")),
    }
}

/// Builds the text-only success result of a write tool (CONTRACT §3: no `structuredContent`, whatever the switch):
/// `data` projected by the optional `jq` and rendered (TOON or pretty JSON, truncated) from the bare body
/// ([`TextSource::Data`]). A bad `jq` gives an error result that names the problem.
pub async fn text_only(data: Value, view: &View) -> CallToolResult {
    let view = view.clone();
    let work = tokio::task::spawn_blocking(move || {
        prepare_text(
            data,
            mcp_envelope::NoMeta {},
            view.jq.as_deref(),
            view.format,
            TextSource::Data,
        )
    });
    match finish(work).await {
        Ok(text) => success_result(text, None),
        Err(result) => result,
    }
}

/// Waits for the pipeline on its blocking thread, at most [`PIPELINE_TIMEOUT`]; a timeout, a failed projection or
/// a server defect becomes the error result to return.
async fn finish<T>(work: tokio::task::JoinHandle<Result<T, EnvelopeError>>) -> Result<T, CallToolResult> {
    match tokio::time::timeout(PIPELINE_TIMEOUT, work).await {
        Err(_) => Err(error(format!(
            "The jq expression ran longer than {} s and was abandoned: simplify it or select less data.",
            PIPELINE_TIMEOUT.as_secs()
        ))),
        Ok(Err(join)) => Err(error(format!("Internal error while preparing the result: {join}"))),
        Ok(Ok(Err(EnvelopeError::Projection(err)))) => Err(error(format!("The jq expression failed: {err}"))),
        Ok(Ok(Err(err))) => Err(error(format!("Internal error while preparing the result: {err}"))),
        Ok(Ok(Ok(prepared))) => Ok(prepared),
    }
}

/// An error result: `isError: true`, this text only, no `structuredContent` (CONTRACT §7).
pub fn error(text: impl Into<String>) -> CallToolResult {
    error_result(text.into())
}
