//! The steps of a result pipeline that run off the async workers (values over [`INLINE_RENDER_BYTES`]; smaller ones
//! where they were computed), and the depth rule.

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
    Err(mcp_envelope::nesting::TooDeepToCarry {
        depth,
        limit: MAX_RESULT_DEPTH,
    }
    .to_string())
}

/// The largest value (bytes of its strings, numbers' digits and punctuation, roughly its compact JSON size) rendered
/// on the async task that computed it: 16 KiB. Rendering takes about 1 µs per 100 bytes of such a value, so below this
/// a trip to the blocking pool (two thread wake-ups, tens of µs of CPU: issue 46) costs more than the work itself,
/// and the async worker is held for at most a few hundred µs. Larger values render on the blocking pool, where a
/// slow one holds no worker.
pub const INLINE_RENDER_BYTES: usize = 16 * 1024;

/// Whether `value` is at most `limit` bytes by the measure of [`INLINE_RENDER_BYTES`]
/// ([`mcp_envelope::nesting::larger_than`]).
pub(crate) fn at_most(value: &Value, limit: usize) -> bool {
    !mcp_envelope::nesting::larger_than(value, limit)
}

/// Runs `work` (a pipeline step over a value `small` says is at most [`INLINE_RENDER_BYTES`]) here when `small`,
/// else on a blocking thread for at most `timeout` ([`finish`]).
pub(crate) async fn run<T: Send + 'static>(
    small: bool,
    work: impl FnOnce() -> Result<T, EnvelopeError> + Send + 'static,
    timeout: Duration,
) -> Result<T, String> {
    if small {
        return outcome(work());
    }
    finish(tokio::task::spawn_blocking(work), timeout).await
}

/// The text of `data` alone ([`TextSource::Data`], no projection), rendered here when small ([`run`]), else on a
/// blocking thread.
pub(crate) async fn render_data(data: Value, format: OutputFormat, timeout: Duration) -> Result<String, String> {
    let view = View::new(None, format).text_from(TextSource::Data);
    let small = at_most(&data, INLINE_RENDER_BYTES);
    run(small, move || prepare_text(data, NoMeta {}, &view), timeout).await
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
        Ok(Ok(done)) => outcome(done),
    }
}

/// A pipeline step's outcome, its error as the text to report.
fn outcome<T>(done: Result<T, EnvelopeError>) -> Result<T, String> {
    match done {
        Err(EnvelopeError::Projection(err)) => Err(format!("The jq expression failed: {err}")),
        Err(EnvelopeError::Nesting(too_deep)) => Err(too_deep.to_string()),
        Err(err) => Err(format!("Internal error while preparing the result: {err}")),
        Ok(prepared) => Ok(prepared),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn at_most_counts_about_the_compact_json_size() {
        let small = json!({"login": "octocat", "id": 1, "tags": ["a", "b"], "site_admin": false});
        let compact = serde_json::to_string(&small).unwrap_or_default().len();
        assert!(at_most(&small, compact * 5 / 4));
        assert!(!at_most(&small, compact / 2));
        let text = "x".repeat(INLINE_RENDER_BYTES);
        assert!(!at_most(&json!({ "log": text }), INLINE_RENDER_BYTES));
        // A wide value stops the walk early: its size is not counted to the end.
        let wide = Value::Array(vec![json!(1); 1_000_000]);
        assert!(!at_most(&wide, INLINE_RENDER_BYTES));
    }
}
