//! [`ListWriter`]: the result of a list read in parts (the pages of one call with `allPages`), built as the parts
//! arrive, so that a result over the size bound is never held whole as a value: each part's items are written into
//! the artifact's bytes (compact JSON) and into the text block's kept ends, then freed. The result is byte for byte
//! what [`crate::prepare()`] gives for the whole value (text, `structuredContent`, artifact bytes); a text-only
//! writer ([`ListWriter::text_only`]) gives what [`crate::prepare_text`] gives, holding only the text's ends.
//!
//! Until the items written pass the bound the parts are kept as they are (a result under the bound is prepared as
//! one value); past it, the text's list header (TOON `key[N]{fields}:`, which needs every item) is chosen at the end
//! and the rest of the text is the whole value's with a placeholder where the list goes.

mod placeholder;
mod text;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bound::SizeBound;
use crate::envelope::Envelope;
use crate::error::EnvelopeError;
use crate::nesting::{self, TooDeepToCarry};
use crate::prepare::{INDENTED_MAX_DEPTH, Prepared, prepare, prepare_text};
use crate::render::OutputFormat;
use crate::seal::{SealError, seal_measured};
use crate::truncate::{Kept, Rest, TEXT_LIMIT_BYTES, TextEnds};
use crate::view::View;
use placeholder::Placeholder;
use text::{Compact, Text, compose};

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
    /// Every item's compact JSON, comma separated (a text-only writer keeps its ends only).
    json: Compact,
    count: usize,
    /// Deepest item (its own nesting depth).
    deepest: usize,
    /// The items' text, once past the bound.
    text: Option<Text>,
}

impl ListWriter {
    /// A result whose `data` is `body` with its list at `at`, the list's items then written as the first part; the
    /// text as `view` asks (its `jq` is not applied), `structuredContent` bounded by `bound`, a body nesting deeper
    /// than `max_depth` levels an error ([`ListWriter::finish`]).
    ///
    /// # Errors
    /// `body` back when it has no array at `at`.
    pub fn new(body: Value, at: ListAt, view: &View, bound: SizeBound, max_depth: usize) -> Result<Self, Value> {
        Self::with(body, at, view, bound, max_depth, Compact::Whole(Vec::new()))
    }

    /// A writer of the text block alone ([`ListWriter::finish_text`]: what [`crate::prepare_text`] gives for the
    /// whole body, for a result without `structuredContent`), holding the items' compact JSON and text only at their
    /// ends. Items are held as values while their compact JSON is under `hold` bytes.
    ///
    /// # Errors
    /// `body` back when it has no array at `at`.
    pub fn text_only(body: Value, at: ListAt, view: &View, hold: SizeBound, max_depth: usize) -> Result<Self, Value> {
        let ends = Compact::Ends(Kept::new(TEXT_LIMIT_BYTES));
        Self::with(body, at, view, hold, max_depth, ends)
    }

    fn with(
        mut body: Value,
        at: ListAt,
        view: &View,
        bound: SizeBound,
        max_depth: usize,
        json: Compact,
    ) -> Result<Self, Value> {
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
            json,
            count: 0,
            deepest: 0,
            text: None,
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
        if items.is_empty() {
            return Ok(());
        }
        let was_too_deep = self.too_deep();
        // Measured even past the limit: the error names the whole value's depth.
        self.deepest = items.iter().map(nesting::depth).fold(self.deepest, usize::max);
        if self.too_deep() {
            // Too deep to carry (an error at the end): nothing more is written, what was is freed, and so is this
            // part, without recursion (it may nest deeper than any stack holds frames for).
            if !was_too_deep {
                self.json = Compact::Whole(Vec::new());
                self.text = None;
                nesting::drop_flat(Value::Array(std::mem::take(&mut self.held)));
            }
            nesting::drop_flat(Value::Array(items));
            return Ok(());
        }
        for item in &items {
            if self.count > 0 {
                self.json.push(b",");
            }
            serde_json::to_writer(&mut self.json, item).map_err(SealError)?;
            self.count += 1;
        }
        if self.text.is_none() && self.frame_bytes + self.json.len() + 2 > self.bound.bytes() {
            self.text = Some(Text::new(&self.view, &self.at));
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
        let depth = self.depth()?;
        let Some(text) = self.started() else {
            return prepare(self.held_body(), meta, &self.view, &self.bound);
        };
        let Compact::Whole(mut full) = std::mem::replace(&mut self.json, Compact::Whole(Vec::new())) else {
            return Err(defect("a text-only list has no structured value: finish its text"));
        };
        let (placeholder, frame) = Placeholder::put(std::mem::take(&mut self.frame), &self.at);
        let compact = serde_json::to_vec(&Envelope::new(&frame, &meta)).map_err(SealError)?;
        let (before, after) = placeholder.split(&compact, OutputFormat::Json)?;
        let items = before.len() + 1..before.len() + 1 + full.len();
        full.reserve_exact(before.len() + after.len() + 2);
        full.splice(0..0, before.iter().copied().chain([b'[']));
        full.push(b']');
        full.extend_from_slice(after);
        if full.len() <= self.bound.bytes() {
            // Within the bound after all (the last page's fields are shorter): one value, read back from its bytes.
            // Of any depth, as the items came (serde_json's default stops at 128 levels).
            let mut parser = serde_json::Deserializer::from_slice(&full);
            parser.disable_recursion_limit();
            let mut whole = Value::deserialize(&mut parser).map_err(SealError)?;
            let data = whole.get_mut("data").map(Value::take).unwrap_or_default();
            return prepare(data, meta, &self.view, &self.bound);
        }
        let items_json = |kept: &mut Kept| kept.push_bytes(&full[items]);
        let kept = compose(&self.view, &frame, &meta, &placeholder, depth, text, items_json)?;
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

    /// The text block of the whole body with `meta`, as [`crate::prepare_text`] gives it (for a result without
    /// `structuredContent`).
    ///
    /// # Errors
    /// [`EnvelopeError::Nesting`] when the body nests deeper than the writer's `max_depth`; otherwise those of
    /// [`crate::prepare_text`] (a TOON text of a value too deep for it).
    pub fn finish_text<M: Serialize>(mut self, meta: M) -> Result<String, EnvelopeError> {
        let depth = self.depth()?;
        let Some(text) = self.started() else {
            return prepare_text(self.held_body(), meta, &self.view);
        };
        let (placeholder, frame) = Placeholder::put(std::mem::take(&mut self.frame), &self.at);
        let items_json = |kept: &mut Kept| self.json.push_into(kept);
        let kept = compose(&self.view, &frame, &meta, &placeholder, depth, text, items_json)?;
        Ok(kept.finish(Rest::StructuredContent).0)
    }

    /// Whether an item nests deeper than the writer's limit allows: then nothing more is written.
    fn too_deep(&self) -> bool {
        self.at.level() + self.deepest > self.max_depth
    }

    /// The depth of the whole body, or the error when it is more than the writer's limit.
    fn depth(&self) -> Result<usize, EnvelopeError> {
        let depth = nesting::depth(&self.frame).max(self.at.level() + self.deepest);
        if depth > self.max_depth {
            return Err(TooDeepToCarry {
                depth,
                limit: self.max_depth,
            }
            .into());
        }
        Ok(depth)
    }

    /// The items' text, when it was started (past the bound) and there are items.
    fn started(&mut self) -> Option<Text> {
        self.text.take().filter(|_| self.count > 0)
    }

    /// The body with the items held (all of them, when the text never started).
    fn held_body(&mut self) -> Value {
        let mut data = std::mem::take(&mut self.frame);
        if let Some(list) = self.at.list_mut(&mut data) {
            *list = std::mem::take(&mut self.held);
        }
        data
    }

    /// Writes `part` into the text (past the bound), or notes that the text will be compact JSON.
    fn write_text(&mut self, part: &[Value]) -> Result<(), EnvelopeError> {
        if self.at.level() + self.deepest > INDENTED_MAX_DEPTH {
            self.text = Some(Text::Compact);
        }
        match &mut self.text {
            Some(text) => text.push(part),
            None => Ok(()),
        }
    }
}

/// A defect of the caller or of this module, as the error saying so.
fn defect(what: &str) -> EnvelopeError {
    SealError(<serde_json::Error as serde::ser::Error>::custom(format!(
        "{what}; this is a server defect, please report it"
    )))
    .into()
}
