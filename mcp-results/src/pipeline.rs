//! The steps of a result pipeline that run off the async workers, and the depth rule .

use std::time::Duration;

use mcp_envelope::{EnvelopeError, NoMeta, OutputFormat, TextSource, View, prepare_text};
use serde_json::Value;

/// Deepest result (nesting levels of `data`) a tool returns: 100,000. Rendering, serializing (here and in rmcp's
/// transport) and freeing a value take stack frames per level; the host's runtime threads must have a stack that
/// holds this depth (the bundled server gives them 256 MiB). A deeper body can still be projected with `jq`; shown
/// whole, it is an error that says so.
pub const MAX_RESULT_DEPTH: usize = 100_000;

/// `data` when it nests at most [`MAX_RESULT_DEPTH`] levels; otherwise it is freed (without recursion) and the error
/// text says to select a part with `jq`.
pub(crate) fn check_depth(data: Value) -> Result<Value, String> {
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

/// The text of `data` alone ([`TextSource::Data`], no projection), rendered on a blocking thread.
pub(crate) async fn render_data(data: Value, format: OutputFormat, timeout: Duration) -> Result<String, String> {
    let view = View::new(None, format).text_from(TextSource::Data);
    finish(
        tokio::task::spawn_blocking(move || prepare_text(data, NoMeta {}, &view)),
        timeout,
    )
    .await
}

/// Waits for a pipeline step on its blocking thread, at most `timeout`; a timeout or a defect becomes the text of
/// the error to report.
pub(crate) async fn finish<T>(
    work: tokio::task::JoinHandle<Result<T, EnvelopeError>>,
    timeout: Duration,
) -> Result<T, String> {
    match tokio::time::timeout(timeout, work).await {
        Err(_) => Err(format!(
            "preparing the result took longer than {} s and was abandoned (a very large body): select less data, \
             e.g. with a narrower jq",
            timeout.as_secs()
        )),
        Ok(Err(join)) => Err(format!("Internal error while preparing the result: {join}")),
        Ok(Ok(Err(EnvelopeError::Projection(err)))) => Err(format!("The jq expression failed: {err}")),
        Ok(Ok(Err(err))) => Err(format!("Internal error while preparing the result: {err}")),
        Ok(Ok(Ok(prepared))) => Ok(prepared),
    }
}
