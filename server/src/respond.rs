//! From a tool's data to its MCP result: projection, text rendering and truncation, the size bound and artifacts
//! (CONTRACT §2, §4, §5, §6), on top of [`mcp_envelope::prepare()`]. Tools call [`structured`] on success and
//! [`error`] on failure. A `jq` projection runs in a limited worker process ([`crate::App::projection`]) before the
//! rest of the pipeline, which then runs without one.

use std::time::Duration;

use adapters_http::Binary;
use bytes::Bytes;
use mcp_envelope::rmcp::{error_result, success_result};
use mcp_envelope::{
    Envelope, EnvelopeError, Incomplete, OutputFormat, Sealed, TextSource, prepare, prepare_text, render_serialize,
};
use rmcp::model::CallToolResult;
use serde::Serialize;
use serde_json::Value;

use crate::app::App;
use crate::principal::Principal;

/// How long rendering and sealing one result (after the `jq` projection) may take before the call fails, and how long
/// a call waits for a pipeline permit. The projection has its own limit, `MCP_JQ_TIMEOUT_SECONDS`, after which its
/// worker process is killed ([`mcp_projection::IsolatedConfig::timeout`]).
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
    let data = match app
        .projection
        .project(data, view.jq.as_deref().unwrap_or_default())
        .await
    {
        Ok(projected) => projected,
        Err(failed) => {
            mcp_envelope::nesting::drop_flat(failed.data);
            return error(failed.error.to_string());
        }
    };
    let data = match check_depth(data) {
        Ok(data) => data,
        Err(too_deep) => return error(too_deep),
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
            let artifact_id = save(
                app,
                principal,
                "application/json",
                Bytes::from(bytes),
                "an oversized result",
            )
            .await;
            pending.finish(artifact_id)
        }
    };
    match envelope.into_value() {
        Ok(value) => success_result(text, Some(value)),
        Err(err) => error(format!("Internal error: the result could not be serialized: {err}")),
    }
}

/// Builds the success result of a read whose upstream body is binary (CONTRACT §8): the bytes are saved as an
/// artifact owned by `principal` with the upstream media type (never turned into a string), and the result is the
/// envelope `{data: null, ...meta, incomplete: {reason: "binary", bytes, limitBytes, artifactId, mimeType}}` —
/// `structuredContent` with the switch on, and the text (rendered from that envelope in the asked format, whatever
/// the tool's usual text source, so the model sees the artifact id) either way. `jq` is not applied: there is no
/// JSON to project. A failed save gives `artifactId: null` and a warning in the log.
pub async fn binary<M: Serialize>(
    app: &App,
    principal: &Principal,
    body: Binary,
    meta: M,
    view: &View,
) -> CallToolResult {
    let bytes = u64::try_from(body.bytes.len()).unwrap_or(u64::MAX);
    let artifact_id = save(app, principal, &body.media_type, body.bytes, "a binary upstream body").await;
    let envelope = Envelope {
        data: Value::Null,
        meta,
        incomplete: Some(Incomplete::binary(
            bytes,
            u64::try_from(app.settings.max_bytes.bytes()).unwrap_or(u64::MAX),
            artifact_id,
            body.media_type,
        )),
    };
    let text = match render_serialize(&envelope, view.format) {
        Ok(text) => text,
        Err(err) => return error(format!("Internal error while preparing the result: {err}")),
    };
    if !app.settings.structured_output {
        return success_result(text, None);
    }
    match envelope.into_value() {
        Ok(value) => success_result(text, Some(value)),
        Err(err) => error(format!("Internal error: the result could not be serialized: {err}")),
    }
}

/// Saves `bytes` as an artifact of `mime_type` owned by `principal`: its id, or `None` (with a warning naming
/// `what`) when saving failed.
async fn save(app: &App, principal: &Principal, mime_type: &str, bytes: Bytes, what: &str) -> Option<String> {
    match app.store.put(principal.as_str(), mime_type, bytes).await {
        Ok(id) => Some(id.to_string()),
        Err(err) => {
            tracing::warn!(error = %err, "saving {what} as an artifact failed; artifactId is null");
            None
        }
    }
}

/// The text-only result of a write whose response body is binary: the write succeeded (`status`); the body was
/// saved as an artifact (never turned into a string) and the text names its id, media type and size.
pub async fn write_binary(app: &App, principal: &Principal, body: Binary, status: u16) -> CallToolResult {
    let bytes = body.bytes.len();
    let saved = save(app, principal, &body.media_type, body.bytes, "a binary upstream body").await;
    let where_ = match saved {
        Some(id) => format!("saved as artifact {id} (read it with artifact_read)"),
        None => "could not be saved".to_owned(),
    };
    success_result(
        format!(
            "The write succeeded (HTTP {status}); its response body is binary ({}, {bytes} bytes) and was {where_}.",
            body.media_type
        ),
        None,
    )
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
        let data = match check_depth(data) {
            Ok(data) => data,
            Err(too_deep) => return shown(too_deep),
        };
        return match render_data(data, format).await {
            Ok(text) => success_result(text, None),
            Err(render) => shown(render),
        };
    }
    let (reason, unprojected) = match pipeline_permit(app).await {
        Err(busy) => (busy, data),
        Ok(_permit) => match app
            .projection
            .project(data, view.jq.as_deref().unwrap_or_default())
            .await
        {
            Ok(projected) => {
                return match render_data(projected, format).await {
                    Ok(text) => success_result(text, None),
                    Err(render) => shown(render),
                };
            }
            Err(failed) => (failed.error.to_string(), failed.data),
        },
    };
    let unprojected = match check_depth(unprojected) {
        Ok(data) => data,
        Err(too_deep) => return shown(format!("{reason}; {too_deep}")),
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

/// Deepest result (nesting levels of `data`) a tool returns: 100,000. Rendering, serializing (here and in rmcp's
/// transport) and freeing a value take stack frames per level, which [`crate::RUNTIME_STACK_BYTES`] holds up to this
/// depth with a wide margin. A deeper body is still parsed and can be projected with `jq` (CONTRACT §8); shown whole,
/// it is an error that says so.
pub const MAX_RESULT_DEPTH: usize = 100_000;

/// `data` when it nests at most [`MAX_RESULT_DEPTH`] levels; otherwise it is freed (without recursion) and the error
/// text says to select a part with `jq`.
fn check_depth(data: Value) -> Result<Value, String> {
    let depth = mcp_envelope::nesting::depth(&data);
    if depth <= MAX_RESULT_DEPTH {
        return Ok(data);
    }
    mcp_envelope::nesting::drop_flat(data);
    Err(format!(
        "the response nests {depth} levels deep, more than the {MAX_RESULT_DEPTH} a result can carry: select a \
         shallower part with jq (e.g. \"flatten\" or a path)"
    ))
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
