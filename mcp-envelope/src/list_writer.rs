//! [`ListWriter`]: the result of a list read in parts (the pages of one call with `allPages`), built as the parts
//! arrive, so that a result over the size bound is never held whole as a value: each part's items are written into
//! the artifact's bytes (compact JSON) and into the text block's kept ends, then freed. The result is byte for byte
//! what [`crate::prepare()`] gives for the whole value (text, `structuredContent`, artifact bytes).
//!
//! Until the items written pass the bound the parts are kept as they are (a result under the bound is prepared as
//! one value); past it, the text's list header (TOON `key[N]{fields}:`, which needs every item) is chosen at the end
//! and the rest of the text is the whole value's with a placeholder where the list goes.

use std::hash::{BuildHasher, Hasher};

use serde::Serialize;
use serde_json::Value;

use crate::bound::SizeBound;
use crate::envelope::Envelope;
use crate::error::EnvelopeError;
use crate::nesting::{self, TooDeepToCarry};
use crate::prepare::{INDENTED_MAX_DEPTH, Prepared, prepare};
use crate::render::json_list::JsonListText;
use crate::render::{OutputFormat, ToonListText, render, render_serialize};
use crate::seal::{SealError, seal_measured};
use crate::truncate::{Kept, Rest, TEXT_LIMIT_BYTES, TextEnds};
use crate::view::{TextSource, View};

/// Where a body keeps its list.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ListAt {
    /// The body is the list (a top-level array).
    Whole,
    /// The body's top-level member of this name.
    Field(String),
}

impl ListAt {
    /// The list of `body` here, when it is an array.
    pub fn list<'a>(&self, body: &'a Value) -> Option<&'a Vec<Value>> {
        match self {
            ListAt::Whole => body.as_array(),
            ListAt::Field(name) => body.get(name.as_str()).and_then(Value::as_array),
        }
    }

    /// The list of `body` here, when it is an array, to change.
    pub fn list_mut<'a>(&self, body: &'a mut Value) -> Option<&'a mut Vec<Value>> {
        match self {
            ListAt::Whole => body.as_array_mut(),
            ListAt::Field(name) => body.get_mut(name.as_str()).and_then(Value::as_array_mut),
        }
    }

    /// The nesting level of the list in the body (as [`nesting::depth`] counts it): 1 for the body itself, 2 for a
    /// member.
    fn level(&self) -> usize {
        match self {
            ListAt::Whole => 1,
            ListAt::Field(_) => 2,
        }
    }
}

/// The text of the items written since the bound was passed, in the view's format.
#[derive(Debug)]
enum Text {
    Toon(Box<ToonListText<Kept>>),
    Json(JsonListText),
    /// The value nests deeper than [`INDENTED_MAX_DEPTH`]: its text is its compact JSON, made from the bytes.
    Compact,
}

/// A result whose `data` is a body with one list, the list's items given in parts ([`ListWriter::push`]), the
/// result made at the end ([`ListWriter::finish`]) as [`crate::prepare()`] makes it for the whole body: the same
/// text, and the same [`crate::Sealed`] value (inline, or oversized holding the exact bytes of the whole envelope).
/// Peak memory is about the oversized result's compact JSON plus one part, where [`crate::prepare()`] holds the
/// whole body as a value (several times its JSON) and then its JSON too.
///
/// The view's `jq` is not applied (a projection needs the whole value: merge in memory and use
/// [`crate::prepare()`]).
///
/// ```
/// use mcp_envelope::{ListAt, ListWriter, OutputFormat, PageMeta, SizeBound, View, prepare};
/// use serde_json::json;
///
/// let view = View::new(None, OutputFormat::Toon);
/// let bound = SizeBound::new(16_384).0;
/// let first = json!({"total_count": 3, "workflow_runs": [{"id": 1, "name": "x".repeat(9000)}]});
/// let mut writer = ListWriter::new(first, ListAt::Field("workflow_runs".into()), &view, bound, 10_000)
///     .map_err(|_| "no list")?;
/// writer.push(vec![json!({"id": 2, "name": "y".repeat(9000)})])?;
/// writer.push(vec![json!({"id": 3, "name": "z"})])?;
/// let streamed = writer.finish(PageMeta::new(None))?;
///
/// let whole = json!({"total_count": 3, "workflow_runs": [
///     {"id": 1, "name": "x".repeat(9000)}, {"id": 2, "name": "y".repeat(9000)}, {"id": 3, "name": "z"}]});
/// assert_eq!(streamed, prepare(whole, PageMeta::new(None), &view, &bound)?);
/// assert!(streamed.sealed.is_oversized());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct ListWriter {
    /// The body with an empty list.
    frame: Value,
    at: ListAt,
    view: View,
    bound: SizeBound,
    max_depth: usize,
    /// Bytes of the frame's compact JSON, when the writer was made.
    frame_bytes: usize,
    /// Items kept as values while the bytes are under the bound.
    held: Vec<Value>,
    /// Every item's compact JSON, comma separated.
    json: Vec<u8>,
    count: usize,
    /// Deepest item (its own nesting depth).
    deepest: usize,
    /// The items' text, once past the bound.
    text: Option<Text>,
    /// An item nested deeper than `max_depth` allows was seen: nothing more is written.
    too_deep: bool,
}

impl ListWriter {
    /// A result whose `data` is `body` with its list at `at`, the list's items then written as the first part; the
    /// text as `view` asks (its `jq` is not applied), `structuredContent` bounded by `bound`, a body nesting deeper
    /// than `max_depth` levels an error ([`ListWriter::finish`]).
    ///
    /// # Errors
    /// `body` back when it has no array at `at`.
    pub fn new(mut body: Value, at: ListAt, view: &View, bound: SizeBound, max_depth: usize) -> Result<Self, Value> {
        let Some(items) = at.list_mut(&mut body).map(std::mem::take) else {
            return Err(body);
        };
        let frame_bytes = serde_json::to_vec(&body).map_or(0, |bytes| bytes.len());
        let mut writer = ListWriter {
            frame: body,
            at,
            view: view.without_jq(),
            bound,
            max_depth,
            frame_bytes,
            held: Vec::new(),
            json: Vec::new(),
            count: 0,
            deepest: 0,
            text: None,
            too_deep: false,
        };
        // A `Value` always serializes.
        let _ = writer.push(items);
        Ok(writer)
    }

    /// The body without its items, to change fields beside the list (e.g. a page's continuation); its list stays
    /// empty (items put there are not written).
    pub fn frame_mut(&mut self) -> &mut Value {
        &mut self.frame
    }

    /// Items written so far.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Bytes of the items' compact JSON written so far (about the result's size).
    pub fn bytes(&self) -> usize {
        self.json.len()
    }

    /// True before any item was written.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Writes the next items of the list.
    ///
    /// # Errors
    /// [`EnvelopeError::Seal`] when an item cannot be serialized (never for a `Value`).
    pub fn push(&mut self, items: Vec<Value>) -> Result<(), EnvelopeError> {
        if self.too_deep || items.is_empty() {
            return Ok(());
        }
        self.deepest = items.iter().map(nesting::depth).fold(self.deepest, usize::max);
        if self.at.level() + self.deepest > self.max_depth {
            // Too deep to carry (an error at the end): nothing more is written, and what was is freed.
            self.too_deep = true;
            self.json = Vec::new();
            self.text = None;
            nesting::drop_flat(Value::Array(std::mem::take(&mut self.held)));
            nesting::drop_flat(Value::Array(items));
            return Ok(());
        }
        for item in &items {
            if self.count > 0 {
                self.json.push(b',');
            }
            serde_json::to_writer(&mut self.json, item).map_err(SealError)?;
            self.count += 1;
        }
        if self.text.is_none() && self.frame_bytes + self.json.len() + 2 > self.bound.bytes() {
            self.text = Some(self.new_text());
            let held = std::mem::take(&mut self.held);
            self.write_text(&held)?;
        }
        if self.text.is_some() {
            self.write_text(&items)?;
        } else {
            self.held.extend(items);
        }
        Ok(())
    }

    /// The result of the whole body, as [`crate::prepare()`] gives it with `meta`.
    ///
    /// # Errors
    /// [`EnvelopeError::Nesting`] when the body nests deeper than the writer's `max_depth`; otherwise those of
    /// [`crate::prepare()`] (a TOON text of a value too deep for it).
    pub fn finish<M: Serialize + Sync>(mut self, meta: M) -> Result<Prepared<M>, EnvelopeError> {
        let depth = nesting::depth(&self.frame).max(self.at.level() + self.deepest);
        if self.too_deep || depth > self.max_depth {
            return Err(TooDeepToCarry {
                depth,
                limit: self.max_depth,
            }
            .into());
        }
        let Some(text) = self.text.take().filter(|_| self.count > 0) else {
            // Never past the bound (or nothing to list): the items are all held.
            let mut data = self.frame;
            if let Some(list) = self.at.list_mut(&mut data) {
                *list = self.held;
            }
            return prepare(data, meta, &self.view, &self.bound);
        };
        let (placeholder, frame) = Placeholder::put(self.frame, &self.at);
        let envelope = Envelope::new(&frame, &meta);
        let compact = serde_json::to_vec(&envelope).map_err(SealError)?;
        let (before, after) = placeholder.split(&compact, OutputFormat::Json)?;
        let items_at = before.len() + 1;
        let mut full = std::mem::take(&mut self.json);
        full.reserve_exact(before.len() + after.len() + 2);
        full.splice(0..0, before.iter().copied().chain([b'[']));
        full.push(b']');
        full.extend_from_slice(after);
        if full.len() <= self.bound.bytes() {
            // Within the bound after all (the last page's fields are shorter): one value, read back from its bytes.
            let mut whole: Value = serde_json::from_slice(&full).map_err(SealError)?;
            let data = whole.get_mut("data").map(Value::take).unwrap_or_default();
            return prepare(data, meta, &self.view, &self.bound);
        }
        let items = &full[items_at..full.len() - after.len() - 1];
        let mut kept = Kept::new(TEXT_LIMIT_BYTES);
        if depth > INDENTED_MAX_DEPTH || matches!(text, Text::Compact) {
            // As `prepare`: the compact JSON of what the text shows.
            match self.view.text_from {
                TextSource::Envelope => kept.push_bytes(&full),
                TextSource::Data => {
                    let data = serde_json::to_vec(&frame).map_err(SealError)?;
                    let (before, after) = placeholder.split(&data, OutputFormat::Json)?;
                    kept.push_bytes(before);
                    kept.push_bytes(b"[");
                    kept.push_bytes(items);
                    kept.push_bytes(b"]");
                    kept.push_bytes(after);
                }
            }
        } else {
            let format = self.view.format;
            let rendered = match self.view.text_from {
                TextSource::Envelope => render_serialize(&envelope, format)?,
                TextSource::Data => render(&frame, format)?,
            };
            let (before, after) = placeholder.split(rendered.as_bytes(), format)?;
            kept.push_bytes(before);
            match text {
                Text::Toon(list) => {
                    if let Some(written) = list.finish() {
                        let (header, items) = written.map_err(crate::render::RenderError::from)?;
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
        }
        drop(frame);
        let (text, text_truncated) = kept.finish(Rest::Oversized);
        let sealed = seal_measured(Envelope::new(Value::Null, meta), full, &self.bound);
        Ok(Prepared {
            text,
            text_truncated,
            text_ends: text_truncated.then_some(TextEnds(kept)),
            sealed,
        })
    }

    /// The text for the items, in the view's format, empty.
    fn new_text(&self) -> Text {
        let (envelope, field) = (
            self.view.text_from == TextSource::Envelope,
            matches!(self.at, ListAt::Field(_)),
        );
        let kept = Kept::new(TEXT_LIMIT_BYTES);
        match self.view.format {
            // The list's line: under `data:` (one level) when it is a member of the envelope's data.
            OutputFormat::Toon => Text::Toon(Box::new(ToonListText::new(usize::from(envelope && field), kept))),
            // The items: inside the list, inside data's object and the envelope's when there are those.
            OutputFormat::Json => Text::Json(JsonListText::new(1 + usize::from(envelope) + usize::from(field), kept)),
        }
    }

    /// Writes `part` into the text (past the bound), or notes that the text will be compact JSON.
    fn write_text(&mut self, part: &[Value]) -> Result<(), EnvelopeError> {
        if self.at.level() + self.deepest > INDENTED_MAX_DEPTH {
            self.text = Some(Text::Compact);
        }
        match &mut self.text {
            Some(Text::Toon(list)) => list.push(part),
            Some(Text::Json(list)) => list.push(part).map_err(crate::render::RenderError::Json)?,
            Some(Text::Compact) | None => {}
        }
        Ok(())
    }
}

/// A string no body holds, put where the list goes so that the rest of the value is written by the ordinary
/// writers; the list's text then replaces it.
struct Placeholder(String);

impl Placeholder {
    /// `frame` with a placeholder at `at` (the frame's list, empty), and the placeholder.
    fn put(mut frame: Value, at: &ListAt) -> (Placeholder, Value) {
        let state = std::collections::hash_map::RandomState::new();
        let nonce = |salt: u64| {
            let mut hasher = state.build_hasher();
            hasher.write_u64(salt);
            hasher.finish()
        };
        // Letters then hex digits: a bare TOON string, a plain JSON one; 128 random bits no body holds by chance.
        let placeholder = format!("mcplist{:016x}{:016x}", nonce(1), nonce(2));
        match at {
            ListAt::Whole => frame = Value::String(placeholder.clone()),
            ListAt::Field(name) => {
                if let Some(object) = frame.as_object_mut() {
                    object.insert(name.clone(), Value::String(placeholder.clone()));
                }
            }
        }
        (Placeholder(placeholder), frame)
    }

    /// `text` before and after the placeholder as `format` writes it (JSON `"p"`; TOON `: p` after the key, or the
    /// whole text); the list's text goes in between.
    ///
    /// # Errors
    /// A defect: the placeholder is not in `text` exactly once.
    fn split<'t>(&self, text: &'t [u8], format: OutputFormat) -> Result<(&'t [u8], &'t [u8]), EnvelopeError> {
        let marker = match format {
            OutputFormat::Json => format!("\"{}\"", self.0),
            OutputFormat::Toon if text == self.0.as_bytes() => self.0.clone(),
            OutputFormat::Toon => format!(": {}", self.0),
        };
        let marker = marker.as_bytes();
        let mut found = text
            .windows(marker.len())
            .enumerate()
            .filter(|(_, window)| *window == marker)
            .map(|(at, _)| at);
        match (found.next(), found.next()) {
            (Some(at), None) => Ok((&text[..at], &text[at + marker.len()..])),
            _ => Err(SealError(<serde_json::Error as serde::ser::Error>::custom(
                "the list's place in the result was not found once",
            ))
            .into()),
        }
    }
}
