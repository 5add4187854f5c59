//! Truncating the text block for the model. Independent of the
//! structured bound: a result can have truncated text and complete
//! `structuredContent`.

/// Text longer than this many bytes (UTF-8) is truncated.
pub const TEXT_LIMIT_BYTES: usize = 40_000;

/// Truncate `text` to at most `limit_bytes` bytes of UTF-8, the marker saying the rest is in `structuredContent`
/// ([`Rest::StructuredContent`]; [`truncate_text_noting`] for another note).
///
/// - `text.len() <= limit_bytes`: returned unchanged.
/// - longer: `head + marker + tail`, where the marker is
///   `"\n\n[... N of T bytes omitted (text limit L bytes); the full result is
///   in structuredContent, or use a narrower jq projection ...]\n\n"`
///   (`N` = bytes removed from the original, `T` = original length,
///   `L` = `limit_bytes`). Head and tail are cut on UTF-8
///   character boundaries; the head gets about two thirds of the space left
///   after the marker, the tail the rest. The result is always
///   `<= limit_bytes` bytes.
/// - a limit too small to hold the marker: the text is cut to
///   `limit_bytes` bytes (on a char boundary) with no marker.
pub fn truncate_text(text: String, limit_bytes: usize) -> String {
    truncate_text_noting(text, limit_bytes, Rest::StructuredContent)
}

/// [`truncate_text`] with the marker's note saying where the omitted part is ([`Rest`]).
pub fn truncate_text_noting(text: String, limit_bytes: usize, rest: Rest<'_>) -> String {
    if text.len() <= limit_bytes {
        return text;
    }
    cut(&text.as_str(), limit_bytes, rest)
}

/// Where the part of a value that its truncated text leaves out can be read: the note ending the omission marker
///. A text-only reader (one that parses `content[0].text`) has only this note to go on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Rest<'a> {
    /// `structuredContent` holds the whole value (inline under the bound).
    StructuredContent,
    /// There is no `structuredContent` (structured output is off): only a narrower projection shows more.
    NoStructuredContent,
    /// The value was over the bound (`data: null`) and is saved as this artifact: the note says how to read it
    /// with `artifact_read`.
    Artifact(&'a str),
    /// The value was over the bound (`data: null`) and saving it as an artifact failed.
    NotSaved,
    /// The value is over the bound (`data: null`), its artifact not known yet: [`crate::prepare()`]'s text before
    /// the artifact is saved.
    Oversized,
}

impl Rest<'_> {
    /// The note's text.
    fn note(&self) -> String {
        match self {
            Rest::StructuredContent => {
                "the full result is in structuredContent, or use a narrower jq projection".to_owned()
            }
            Rest::NoStructuredContent => "use a narrower jq projection or a smaller page to see the rest".to_owned(),
            Rest::Artifact(id) => format!(
                "the full result is saved as artifact {id}: call artifact_read with {{\"artifactId\": \"{id}\", \
                 \"offset\": 0}}, then with offset = each chunk's nextOffset until eof is true, and join the \
                 base64-decoded chunks; or use a narrower jq projection"
            ),
            Rest::NotSaved => "the full result is over the structuredContent size limit and could not be saved as an \
                               artifact (data is null); use a narrower jq projection or a smaller page"
                .to_owned(),
            Rest::Oversized => "the full result is over the structuredContent size limit (see incomplete in \
                                structuredContent); use a narrower jq projection or a smaller page"
                .to_owned(),
        }
    }
}

/// What [`cut`] reads of a text: its length, its char boundaries and its bytes near either end (a whole `&str`,
/// or [`Kept`], which holds only those ends).
pub(crate) trait Ends {
    /// Length of the whole text in bytes.
    fn len(&self) -> usize;
    /// True when byte offset `at` (at most `limit + 1` bytes from the start or `limit` from the end) is a char
    /// boundary.
    fn is_char_boundary(&self, at: usize) -> bool;
    /// The text before `end` (a char boundary at most `limit + 1` bytes in).
    fn head(&self, end: usize) -> &str;
    /// The text from `start` (a char boundary at most `limit` bytes before the end).
    fn tail(&self, start: usize) -> &str;
}

impl Ends for &str {
    fn len(&self) -> usize {
        str::len(self)
    }
    fn is_char_boundary(&self, at: usize) -> bool {
        str::is_char_boundary(self, at)
    }
    fn head(&self, end: usize) -> &str {
        &self[..end]
    }
    fn tail(&self, start: usize) -> &str {
        &self[start..]
    }
}

/// The truncated form of a text longer than `limit_bytes` (see [`truncate_text`]).
pub(crate) fn cut(text: &impl Ends, limit_bytes: usize, rest: Rest<'_>) -> String {
    let note = rest.note();
    // The marker's length depends on N (its digit count), which depends on
    // the space the marker takes: iterate until stable (at most a few rounds).
    let mut marker = marker_for(text.len(), limit_bytes, text.len(), &note);
    for _ in 0..4 {
        let Some(budget) = limit_bytes.checked_sub(marker.len()) else {
            return prefix(text, limit_bytes);
        };
        let head_len = floor_boundary(text, budget * 2 / 3);
        let tail_len = budget - head_len;
        let tail_start = ceil_boundary(text, text.len() - tail_len);
        let omitted = tail_start - head_len;
        let candidate = marker_for(omitted, limit_bytes, text.len(), &note);
        if candidate.len() <= marker.len() {
            let (head, tail) = (text.head(head_len), text.tail(tail_start));
            let mut out = String::with_capacity(head.len() + candidate.len() + tail.len());
            out.push_str(head);
            out.push_str(&candidate);
            out.push_str(tail);
            return out;
        }
        marker = candidate;
    }
    prefix(text, limit_bytes)
}

fn marker_for(omitted: usize, limit: usize, total: usize, note: &str) -> String {
    format!("\n\n[... {omitted} of {total} bytes omitted (text limit {limit} bytes); {note} ...]\n\n")
}

/// Largest char boundary `<= at`.
fn floor_boundary(text: &impl Ends, at: usize) -> usize {
    let mut i = at.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Smallest char boundary `>= at`.
fn ceil_boundary(text: &impl Ends, at: usize) -> usize {
    let mut i = at.min(text.len());
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

fn prefix(text: &impl Ends, limit: usize) -> String {
    text.head(floor_boundary(text, limit)).to_owned()
}

mod kept;

pub(crate) use kept::Kept;
pub use kept::TextEnds;

#[cfg(test)]
mod tests;
