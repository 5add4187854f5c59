//! The text block of a list written in parts: the items' text as they come ([`Text`], in the view's format), and the
//! whole text at the end ([`compose`]): the value around the list written by the ordinary writers with a
//! [`Placeholder`] where the list goes, the list's header and items put in its place.

use serde::Serialize;
use serde_json::Value;

use super::ListAt;
use super::placeholder::Placeholder;
use crate::envelope::Envelope;
use crate::error::EnvelopeError;
use crate::prepare::INDENTED_MAX_DEPTH;
use crate::render::json_list::JsonListText;
use crate::render::{OutputFormat, RenderError, ToonListText, render, render_serialize};
use crate::seal::SealError;
use crate::truncate::{Kept, TEXT_LIMIT_BYTES};
use crate::view::{TextSource, View};

/// The text of the items written since it started, in the view's format.
#[derive(Debug)]
pub(super) enum Text {
    Toon(Box<ToonListText<Kept>>),
    Json(JsonListText),
    /// The value nests deeper than [`INDENTED_MAX_DEPTH`]: its text is its compact JSON.
    Compact,
}

impl Text {
    /// The empty text of the items of a list at `at`, as `view` shows it.
    pub(super) fn new(view: &View, at: &ListAt) -> Text {
        let (envelope, field) = (view.text_from == TextSource::Envelope, matches!(at, ListAt::Field(_)));
        let kept = Kept::new(TEXT_LIMIT_BYTES);
        match view.format {
            // The list's line: under `data:` (one level) when it is a member of the envelope's data.
            OutputFormat::Toon => Text::Toon(Box::new(ToonListText::new(usize::from(envelope && field), kept))),
            // The items: inside the list, inside data's object and the envelope's when there are those.
            OutputFormat::Json => Text::Json(JsonListText::new(1 + usize::from(envelope) + usize::from(field), kept)),
        }
    }

    /// Writes `part` (unless the text is compact JSON).
    pub(super) fn push(&mut self, part: &[Value]) -> Result<(), EnvelopeError> {
        match self {
            Text::Toon(list) => list.push(part),
            Text::Json(list) => list.push(part).map_err(RenderError::Json)?,
            Text::Compact => {}
        }
        Ok(())
    }
}

/// The items' compact JSON (comma separated): all of it, or its ends only (a text-only result).
#[derive(Debug)]
pub(super) enum Compact {
    Whole(Vec<u8>),
    Ends(Kept),
}

impl Compact {
    /// Bytes written.
    pub(super) fn len(&self) -> usize {
        match self {
            Compact::Whole(bytes) => bytes.len(),
            Compact::Ends(kept) => kept.written(),
        }
    }

    /// Appends `bytes` (a separator; items are written through [`std::io::Write`]).
    pub(super) fn push(&mut self, bytes: &[u8]) {
        match self {
            Compact::Whole(whole) => whole.extend_from_slice(bytes),
            Compact::Ends(kept) => kept.push_bytes(bytes),
        }
    }

    /// Appends this text to `kept`.
    pub(super) fn push_into(&self, kept: &mut Kept) {
        match self {
            Compact::Whole(bytes) => kept.push_bytes(bytes),
            Compact::Ends(ends) => kept.push_kept(ends),
        }
    }
}

impl std::io::Write for Compact {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.push(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The whole text (kept to its ends): the envelope of `frame` (the body with `placeholder` where the list goes)
/// and `meta`, or `frame` alone, as `view` asks, with the list's `text` (or, for a value nesting deeper than
/// [`INDENTED_MAX_DEPTH`] `depth` levels, its items' compact JSON, appended by `items_json`) in the placeholder's
/// place; what [`crate::prepare()`] renders for the whole value.
///
/// # Errors
/// The renderers' ([`RenderError`]: a TOON text too deep), or a defect (the placeholder not found).
#[allow(clippy::too_many_arguments)]
pub(super) fn compose<M: Serialize>(
    view: &View,
    frame: &Value,
    meta: &M,
    placeholder: &Placeholder,
    depth: usize,
    text: Text,
    items_json: impl FnOnce(&mut Kept),
) -> Result<Kept, EnvelopeError> {
    let envelope = Envelope::new(frame, meta);
    let mut kept = Kept::new(TEXT_LIMIT_BYTES);
    if depth > INDENTED_MAX_DEPTH || matches!(text, Text::Compact) {
        // As `prepare`: the compact JSON of what the text shows.
        let shown = match view.text_from {
            TextSource::Envelope => serde_json::to_vec(&envelope),
            TextSource::Data => serde_json::to_vec(frame),
        }
        .map_err(SealError)?;
        let (before, after) = placeholder.split(&shown, OutputFormat::Json)?;
        kept.push_bytes(before);
        kept.push_bytes(b"[");
        items_json(&mut kept);
        kept.push_bytes(b"]");
        kept.push_bytes(after);
        return Ok(kept);
    }
    let format = view.format;
    let rendered = match view.text_from {
        TextSource::Envelope => render_serialize(&envelope, format)?,
        TextSource::Data => render(frame, format)?,
    };
    let (before, after) = placeholder.split(rendered.as_bytes(), format)?;
    kept.push_bytes(before);
    match text {
        Text::Toon(list) => {
            if let Some(written) = list.finish() {
                let (header, items) = written.map_err(RenderError::from)?;
                kept.push_bytes(header.as_bytes());
                kept.push_kept(&items);
            }
        }
        Text::Json(list) => {
            if let Some((open, items, close)) = list.finish() {
                kept.push_bytes(open.as_bytes());
                kept.push_kept(&items);
                kept.push_bytes(close.as_bytes());
            }
        }
        Text::Compact => {}
    }
    kept.push_bytes(after);
    Ok(kept)
}
