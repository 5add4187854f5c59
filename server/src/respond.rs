//! From a tool's data to its MCP result: projection, text rendering and truncation, the size bound and artifacts
//! (CONTRACT §2, §4, §5, §6), on top of [`mcp_envelope::prepare()`]. Tools call [`structured`] on success and
//! [`error`] on failure. A `jq` projection runs in a limited child process ([`crate::projection_worker`]) before the
//! rest of the pipeline, which then runs without one.

use std::time::Duration;

use bytes::Bytes;
use mcp_envelope::rmcp::{error_result, success_result};
use mcp_envelope::{EnvelopeError, OutputFormat, Sealed, TextSource, prepare, prepare_text};
use rmcp::model::CallToolResult;
use serde::Serialize;
use serde_json::Value;

use crate::app::App;
use crate::principal::Principal;

/// How long rendering and sealing one result (after the `jq` projection) may take before the call fails, and how long
/// a call waits for a pipeline permit. The projection has its own limit, `MCP_JQ_TIMEOUT_SECONDS`, after which its
/// worker process is killed ([`crate::projection_worker::JqWorker::timeout`]).
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
    // Held until the result is ready or the wait times out, the jq worker's run included: at most one worker per
    // permit, so their memory limits add up to a known bound.
    let _permit = match pipeline_permit(app).await {
        Ok(permit) => permit,
        Err(busy) => return error(busy),
    };
    let data = match app.settings.jq_worker.project(data, view.jq.as_deref()).await {
        Ok(projected) => projected,
        Err(failed) => return error(failed.error.to_string()),
    };
    let work = tokio::task::spawn_blocking(move || {
        if structured_output {
            prepare(data, meta, None, view.format, view.text_from, &bound).map(|p| (p.text, Some(p.sealed)))
        } else {
            prepare_text(data, meta, None, view.format, view.text_from).map(|text| (text, None))
        }
    });
    let (text, sealed) = match finish(work).await {
        Ok(prepared) => prepared,
        Err(reason) => return error(reason),
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
/// ([`TextSource::Data`]).
///
/// The write has already happened upstream (`status` is its 2xx status), so a `jq` that fails at run time or runs
/// too long does not turn it into an error — a caller would retry and repeat the write. The result is then a
/// success whose text says the write succeeded and only the projection failed, followed by the unprojected body.
pub async fn text_only(app: &App, data: Value, status: u16, view: &View) -> CallToolResult {
    let format = view.format;
    let shown = |reason: String| {
        success_result(
            format!("The write succeeded (HTTP {status}); its response could not be shown: {reason}"),
            None,
        )
    };
    if view.jq.as_deref().is_none_or(|jq| jq.trim().is_empty()) {
        // No projection: nothing here can turn the finished write into an error.
        return match render_data(data, format).await {
            Ok(text) => success_result(text, None),
            Err(render) => shown(render),
        };
    }
    let (reason, unprojected) = match pipeline_permit(app).await {
        Err(busy) => (busy, data),
        Ok(_permit) => match app.settings.jq_worker.project(data, view.jq.as_deref()).await {
            Ok(projected) => {
                return match render_data(projected, format).await {
                    Ok(text) => success_result(text, None),
                    Err(render) => shown(render),
                };
            }
            Err(failed) => (failed.error.to_string(), failed.data),
        },
    };
    match render_data(unprojected, format).await {
        Ok(body) => success_result(
            format!(
                "The write succeeded (HTTP {status}); only the jq projection of its response failed: {reason}. \
                 Do not repeat the write. The unprojected response follows.\n{body}"
            ),
            None,
        ),
        Err(render) => shown(format!("{reason}; {render}")),
    }
}

/// The text of `data` alone ([`TextSource::Data`], no projection), rendered on a blocking thread (see [`finish`]).
async fn render_data(data: Value, format: OutputFormat) -> Result<String, String> {
    finish(tokio::task::spawn_blocking(move || {
        prepare_text(data, mcp_envelope::NoMeta {}, None, format, TextSource::Data)
    }))
    .await
}

/// Waits (at most [`PIPELINE_TIMEOUT`]) for a permit to run a pipeline; the error text says the server is busy.
async fn pipeline_permit(app: &App) -> Result<tokio::sync::OwnedSemaphorePermit, String> {
    match tokio::time::timeout(PIPELINE_TIMEOUT, app.pipelines.clone().acquire_owned()).await {
        Ok(Ok(permit)) => Ok(permit),
        _ => Err(format!(
            "the server is busy preparing other results (waited {} s): try again shortly, with a narrower jq",
            PIPELINE_TIMEOUT.as_secs()
        )),
    }
}

/// Waits for the pipeline on its blocking thread, at most [`PIPELINE_TIMEOUT`]; a timeout or a server defect becomes
/// the message of the error to report.
async fn finish<T>(work: tokio::task::JoinHandle<Result<T, EnvelopeError>>) -> Result<T, String> {
    match tokio::time::timeout(PIPELINE_TIMEOUT, work).await {
        Err(_) => Err(format!(
            "preparing the result took longer than {} s and was abandoned (a very large body): select less data, \
             e.g. with a narrower jq",
            PIPELINE_TIMEOUT.as_secs()
        )),
        Ok(Err(join)) => Err(format!("Internal error while preparing the result: {join}")),
        Ok(Ok(Err(EnvelopeError::Projection(err)))) => Err(format!("The jq expression failed: {err}")),
        Ok(Ok(Err(err))) => Err(format!("Internal error while preparing the result: {err}")),
        Ok(Ok(Ok(prepared))) => Ok(prepared),
    }
}

/// An error result: `isError: true`, this text only, no `structuredContent` (CONTRACT §7).
pub fn error(text: impl Into<String>) -> CallToolResult {
    error_result(text.into())
}
