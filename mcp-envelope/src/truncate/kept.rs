//! [`Kept`]: an output for rendering that keeps only what the truncated text can show, its first and last bytes,
//! so a text of any length is rendered and truncated in a few tens of kilobytes of memory.

use super::{Ends, Rest, cut};

/// Collects a rendered text, keeping its first `limit + 4` bytes, its last `limit + 4` bytes (at most twice that
/// in between compactions) and its length; [`Kept::finish`] gives exactly what
/// [`crate::truncate_text`]`(whole text, limit)` would.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Kept {
    limit: usize,
    keep: usize,
    head: Vec<u8>,
    tail: Vec<u8>,
    len: usize,
}

impl Kept {
    /// An empty text, to be truncated to `limit` bytes.
    pub(crate) fn new(limit: usize) -> Self {
        let keep = limit.saturating_add(4);
        Kept {
            limit,
            keep,
            head: Vec::new(),
            tail: Vec::new(),
            len: 0,
        }
    }

    /// Appends bytes of the text (pieces of UTF-8 that, put together, are valid UTF-8).
    #[inline]
    pub(crate) fn push_bytes(&mut self, bytes: &[u8]) {
        self.len += bytes.len();
        if self.head.len() == self.keep && self.tail.len() + bytes.len() <= 2 * self.keep {
            // The common case, once the head is full: the piece fits the tail without a compaction.
            self.tail.extend_from_slice(bytes);
        } else {
            self.push_rest(bytes);
        }
    }

    fn push_rest(&mut self, bytes: &[u8]) {
        let head_room = self.keep - self.head.len();
        if head_room > 0 {
            self.head.extend_from_slice(&bytes[..head_room.min(bytes.len())]);
        }
        if bytes.len() >= self.keep {
            self.tail.clear();
            self.tail.extend_from_slice(&bytes[bytes.len() - self.keep..]);
            return;
        }
        if self.tail.len() + bytes.len() > 2 * self.keep {
            // Keep the last `keep - bytes.len()` bytes: with `bytes`, the last `keep` of the text.
            self.tail.drain(..self.tail.len() - (self.keep - bytes.len()));
        }
        if self.tail.capacity() == 0 {
            self.tail.reserve_exact(2 * self.keep);
        }
        self.tail.extend_from_slice(bytes);
    }

    /// Length of the whole text pushed so far, bytes.
    pub(crate) fn written(&self) -> usize {
        self.len
    }

    /// Appends the text `other` kept (made with the same limit), as if its whole text were pushed: the part of it
    /// that neither end holds is counted, not kept.
    pub(crate) fn push_kept(&mut self, other: &Kept) {
        debug_assert_eq!(self.keep, other.keep, "texts kept for different limits");
        // The tail holds the last `keep` bytes at least (all of a shorter text), the head the first `keep`.
        let tail_start = other.len - other.tail.len();
        if tail_start == 0 {
            self.push_bytes(&other.tail);
            return;
        }
        self.push_bytes(&other.head);
        if tail_start > other.head.len() {
            // The bytes in between are not kept: the head is full now, and the tail starts again after them.
            self.len += tail_start - other.head.len();
            self.tail.clear();
            self.push_bytes(&other.tail);
        } else {
            self.push_bytes(&other.tail[other.head.len() - tail_start..]);
        }
    }

    /// The text truncated to the limit (the marker noting `rest`), and whether it was truncated.
    pub(crate) fn finish(&self, rest: Rest<'_>) -> (String, bool) {
        if self.len <= self.limit {
            // The head holds the whole text.
            return (String::from_utf8_lossy(&self.head).into_owned(), false);
        }
        (cut(self, self.limit, rest), true)
    }

    /// The byte at `at`, if kept.
    fn byte(&self, at: usize) -> Option<u8> {
        let tail_start = self.len - self.tail.len();
        match self.head.get(at) {
            Some(byte) => Some(*byte),
            None => at.checked_sub(tail_start).and_then(|i| self.tail.get(i).copied()),
        }
    }
}

/// The ends of a text too long for its limit, kept so that its truncated form can be made again with another note
/// ([`TextEnds::noting`]) once it is known where the omitted part is (e.g. after the artifact is saved). Holds about
/// three times the limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextEnds(pub(crate) Kept);

impl TextEnds {
    /// The truncated text, its marker noting `rest` (the same head and tail cut as
    /// [`crate::truncate::truncate_text_noting`] of the whole text).
    pub fn noting(&self, rest: Rest<'_>) -> String {
        self.0.finish(rest).0
    }

    /// Length of the whole text, bytes.
    pub fn len(&self) -> usize {
        self.0.len
    }

    /// True for an empty text (never, for a text that needed truncating).
    pub fn is_empty(&self) -> bool {
        self.0.len == 0
    }
}

impl Ends for Kept {
    fn len(&self) -> usize {
        self.len
    }

    fn is_char_boundary(&self, at: usize) -> bool {
        // A byte that does not continue a UTF-8 sequence (10xxxxxx) starts a char.
        at == 0 || at >= self.len || self.byte(at).is_none_or(|b| b & 0xC0 != 0x80)
    }

    fn head(&self, end: usize) -> &str {
        std::str::from_utf8(&self.head[..end.min(self.head.len())]).unwrap_or_default()
    }

    fn tail(&self, start: usize) -> &str {
        let from = start.saturating_sub(self.len - self.tail.len()).min(self.tail.len());
        std::str::from_utf8(&self.tail[from..]).unwrap_or_default()
    }
}

impl std::io::Write for Kept {
    #[inline]
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.push_bytes(buf);
        Ok(buf.len())
    }

    #[inline]
    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.push_bytes(buf);
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::truncate_text;

    /// A text kept in two parts, the second kept on its own and then appended, is the whole text kept.
    #[test]
    fn a_kept_part_appends_as_its_whole_text() {
        let text = "aé€😀-".repeat(300);
        for limit in [0, 3, 50, 200, 1000, 4000] {
            for split in [0, 1, 7, 60, 500, 2500, text.len() - 3, text.len()] {
                let split = (0..=split).rev().find(|at| text.is_char_boundary(*at)).unwrap_or(0);
                for piece in [1, 64, 5000] {
                    let (first, second) = text.split_at(split);
                    let mut kept = Kept::new(limit);
                    kept.push_bytes(first.as_bytes());
                    let mut part = Kept::new(limit);
                    for chunk in second.as_bytes().chunks(piece) {
                        part.push_bytes(chunk);
                    }
                    kept.push_kept(&part);
                    kept.push_bytes(b"end");
                    let whole = format!("{text}end");
                    let expected = truncate_text(whole.clone(), limit);
                    let truncated = expected.len() != whole.len();
                    assert_eq!(
                        kept.finish(Rest::StructuredContent),
                        (expected, truncated),
                        "limit {limit}, split {split}, pieces of {piece}"
                    );
                }
            }
        }
    }

    /// Every limit and every way of cutting the text into pieces gives what `truncate_text` gives.
    #[test]
    fn same_as_truncating_the_whole_text() {
        let text = "aé€😀-".repeat(300);
        for limit in [0, 1, 3, 50, 199, 200, 203, 251, 1000, 1499, 3000, 3999, 4000, 5000] {
            for piece in [1, 2, 3, 7, 64, 5000] {
                let mut kept = Kept::new(limit);
                for chunk in text.as_bytes().chunks(piece) {
                    kept.push_bytes(chunk);
                }
                let expected = truncate_text(text.clone(), limit);
                let truncated = expected.len() != text.len();
                assert_eq!(
                    kept.finish(Rest::StructuredContent),
                    (expected, truncated),
                    "limit {limit}, pieces of {piece}"
                );
                let saved = crate::truncate::truncate_text_noting(text.clone(), limit, Rest::Artifact("abc"));
                assert_eq!(kept.finish(Rest::Artifact("abc")).0, saved);
            }
        }
    }
}
