//! Truncating the text block for the model (CONTRACT §6). Independent of the
//! structured bound: a result can have truncated text and complete
//! `structuredContent`.

/// Text longer than this many bytes (UTF-8) is truncated (CONTRACT §6).
pub const TEXT_LIMIT_BYTES: usize = 40_000;

/// Truncate `text` to at most `limit_bytes` bytes of UTF-8.
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
    if text.len() <= limit_bytes {
        return text;
    }
    cut(&text.as_str(), limit_bytes)
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
pub(crate) fn cut(text: &impl Ends, limit_bytes: usize) -> String {
    // The marker's length depends on N (its digit count), which depends on
    // the space the marker takes: iterate until stable (at most a few rounds).
    let mut marker = marker_for(text.len(), limit_bytes, text.len());
    for _ in 0..4 {
        let Some(budget) = limit_bytes.checked_sub(marker.len()) else {
            return prefix(text, limit_bytes);
        };
        let head_len = floor_boundary(text, budget * 2 / 3);
        let tail_len = budget - head_len;
        let tail_start = ceil_boundary(text, text.len() - tail_len);
        let omitted = tail_start - head_len;
        let candidate = marker_for(omitted, limit_bytes, text.len());
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

fn marker_for(omitted: usize, limit: usize, total: usize) -> String {
    format!(
        "\n\n[... {omitted} of {total} bytes omitted (text limit {limit} bytes); \
         the full result is in structuredContent, or use a narrower jq projection ...]\n\n"
    )
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

#[cfg(test)]
mod tests;
