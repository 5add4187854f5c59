//! The whole pipeline in one call: project -> envelope -> render + truncate (private module: its items are re-exported at the crate root, and the concern is documented on `prepare`).

use serde::Serialize;
use serde_json::Value;

use crate::bound::SizeBound;
use crate::envelope::Envelope;
use crate::error::EnvelopeError;
use crate::project::project;
use crate::render::{write_envelope, write_value};
use crate::seal::{Sealed, seal_measured};
use crate::truncate::{Kept, Rest, TEXT_LIMIT_BYTES, TextEnds};
use crate::view::{TextSource, View};

/// Output of [`prepare`]: the text block and the sealed structured value.
#[derive(Debug, Clone, PartialEq)]
pub struct Prepared<M> {
    /// `content[0].text`: rendered from the full (unsealed) value, then
    /// truncated to [`TEXT_LIMIT_BYTES`]. When truncated, its marker says the
    /// rest is in `structuredContent` (an inline value) or, for an oversized
    /// one, only that it is over the bound: make the text naming the artifact
    /// with [`Prepared::text_ends`] once it is saved.
    pub text: String,
    /// True when `text` was truncated.
    pub text_truncated: bool,
    /// For a truncated text of an oversized value ([`Sealed::Oversized`]): its
    /// ends, to make the text again with a note naming the saved artifact
    /// ([`TextEnds::noting`] with [`Rest::Artifact`], or [`Rest::NotSaved`]).
    pub text_ends: Option<TextEnds>,
    /// The `structuredContent` value after the size bound; for
    /// [`Sealed::Oversized`] store the full bytes as an artifact, then finish.
    pub sealed: Sealed<M>,
}

/// Run the pipeline for a schema tool's successful call, as `view` asks.
///
/// 1. project `data` with the view's `jq` ([`crate::project()`], in this thread; `None`/blank = none). A server
///    that runs `jq` elsewhere (a projection runner) passes the projected data and [`View::without_jq`];
/// 2. build the [`Envelope`] `{data, ...meta}`;
/// 3. render the text from the full envelope or from `data` (`view.text_from`), in `view.format` (compact
///    JSON when `data` nests deeper than [`INDENTED_MAX_DEPTH`]), and truncate it to [`TEXT_LIMIT_BYTES`];
/// 4. seal the envelope against `bound` (bytes of its compact JSON; the serialization is computed once and, when
///    oversized, kept as the artifact bytes).
///
/// # Errors
/// [`EnvelopeError::Projection`] (an `isError` result naming the problem),
/// [`EnvelopeError::Render`], or [`EnvelopeError::Seal`] (server defects).
///
/// ```
/// use mcp_envelope::{prepare, OutputFormat, PageMeta, Sealed, SizeBound, View};
/// use serde_json::json;
///
/// let body = json!({"total_count": 1, "workflow_runs": [{"id": 30433642, "conclusion": "failure"}]});
/// let view = View::new(Some("workflow_runs[*].id".into()), OutputFormat::Json);
/// let prepared = prepare(body, PageMeta::new(None), &view, &SizeBound::default())?;
/// assert_eq!(prepared.text, "{\n  \"data\": [\n    30433642\n  ],\n  \"nextPage\": null\n}");
/// let structured = prepared.sealed.into_envelope(|_full_bytes| None).into_value()?;
/// assert_eq!(structured, serde_json::from_str::<serde_json::Value>(&prepared.text)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn prepare<M: Serialize + Sync>(
    data: Value,
    meta: M,
    view: &View,
    bound: &SizeBound,
) -> Result<Prepared<M>, EnvelopeError> {
    let data = project(data, view.jq())?;
    let mut envelope = Envelope::new(data, meta);
    let large = crate::nesting::larger_than(&envelope.data, PARALLEL_RENDER_BYTES);
    let (full, kept) = serialize_and_render(&envelope, view, large)?;
    let oversized = full.len() > bound.bytes();
    let rest = if oversized {
        Rest::Oversized
    } else {
        Rest::StructuredContent
    };
    let (text, text_truncated) = kept.finish(rest);
    if oversized && large {
        // A large value lives on in `full` (the artifact's bytes): it is freed on a thread of its own, not before the
        // answer (a 100-page merge is half a GiB of small allocations).
        release(std::mem::take(&mut envelope.data));
    }
    let sealed = seal_measured(envelope, full, bound);
    Ok(Prepared {
        text,
        text_truncated,
        text_ends: (oversized && text_truncated).then_some(TextEnds(kept)),
        sealed,
    })
}

/// Values larger than this (bytes, estimated as [`crate::nesting::larger_than`] does) are serialized on a second thread while this
/// one renders their text: 1 MiB. Both passes only read the value, and each takes about as long as the other, so a
/// large result is ready in about half the time on two cores; below this the thread costs more than it saves.
pub const PARALLEL_RENDER_BYTES: usize = 1024 * 1024;

/// Stack of the serializing thread, bytes: 256 MiB of address space, committed only as far as it is used, as the
/// bundled server's runtime threads (serializing takes one stack frame per nesting level).
const SERIALIZE_STACK_BYTES: usize = 256 * 1024 * 1024;

/// The envelope's compact JSON and its text, the two at once when `large` (its data over [`PARALLEL_RENDER_BYTES`]).
fn serialize_and_render<M: Serialize + Sync>(
    envelope: &Envelope<Value, M>,
    view: &View,
    large: bool,
) -> Result<(Vec<u8>, Kept), EnvelopeError> {
    let serialize = || serde_json::to_vec(envelope).map_err(crate::seal::SealError);
    if !large {
        return Ok((serialize()?, text_of(envelope, view)?));
    }
    std::thread::scope(|scope| {
        let serializer = std::thread::Builder::new()
            .name("mcp-serialize".to_owned())
            .stack_size(SERIALIZE_STACK_BYTES)
            .spawn_scoped(scope, serialize);
        let kept = text_of(envelope, view);
        // No thread (or a defect in it): serialized here instead.
        let full = serializer
            .ok()
            .and_then(|handle| handle.join().ok())
            .unwrap_or_else(serialize);
        Ok((full?, kept?))
    })
}

/// Frees `value` on a thread of its own (without recursion: [`crate::nesting::drop_flat`]), here when no thread can
/// be started.
fn release(value: Value) {
    if !matches!(value, Value::Null) {
        // When no thread can be started, the value is freed here, with the closure.
        let _ = std::thread::Builder::new()
            .name("mcp-free".to_owned())
            .spawn(move || crate::nesting::drop_flat(value));
    }
}

/// The text block alone, as [`prepare`] computes it for the same `data`, `meta` and `view`: for a server whose
/// structured-output switch is off, the text is identical (an inline value's truncation note included).
///
/// # Errors
/// [`EnvelopeError::Projection`] or [`EnvelopeError::Render`].
pub fn prepare_text<M: Serialize>(data: Value, meta: M, view: &View) -> Result<String, EnvelopeError> {
    let data = project(data, view.jq())?;
    let envelope = Envelope::new(data, meta);
    Ok(text_of(&envelope, view)?.finish(Rest::StructuredContent).0)
}

/// Deepest `data` (nesting levels) rendered as indented text (TOON, pretty JSON): 1,000. Indentation grows with the
/// depth, so the text of a deeper value would grow with the square of its depth; such a value's text is its compact
/// JSON instead (still truncated by [`TEXT_LIMIT_BYTES`]; parsing it gives the same value).
pub const INDENTED_MAX_DEPTH: usize = 1_000;

/// The rendered text's ends, to be truncated with the note that fits ([`Kept::finish`]).
fn text_of<M: Serialize>(envelope: &Envelope<Value, M>, view: &View) -> Result<Kept, EnvelopeError> {
    let (format, source) = (view.format, view.text_from);
    // Only the ends of the text are kept: the text is rendered and truncated without holding all of it.
    let mut text = Kept::new(TEXT_LIMIT_BYTES);
    if crate::nesting::depth(&envelope.data) > INDENTED_MAX_DEPTH {
        // Indented text grows with the square of the depth (a million levels: terabytes of spaces).
        match source {
            TextSource::Envelope => serde_json::to_writer(&mut text, envelope),
            TextSource::Data => serde_json::to_writer(&mut text, &envelope.data),
        }
        .map_err(crate::render::RenderError::from)?;
    } else {
        match source {
            TextSource::Envelope => write_envelope(envelope, format, &mut text)?,
            TextSource::Data => write_value(&envelope.data, format, &mut text)?,
        }
    }
    Ok(text)
}
