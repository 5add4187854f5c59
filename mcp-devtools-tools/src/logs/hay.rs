//! The haystack of the block search (private module: used by the scanner's `grep`).
//!
//! `grep` matches a line's plain text (what the tool returns), yet runs one regex search over a whole block of
//! lines, as ripgrep does, rather than one per line. Lines without a byte that [`line::plain`] drops are their own
//! plain text and are searched as they are; the others are searched as plain text, since a colour code may split a
//! word. The haystack is the block line for line (same number of lines, in order), each line ending with its plain
//! text after the timestamp, so a hit's line in the haystack is the same line of the block.

use memchr::{memchr, memchr2, memrchr};

use super::line::{self, ESC, split_time};

/// Fills `hay` with `block`'s lines, made plain where needed: true when some line had to be (`hay` then holds the
/// block's haystack), false when `block` is its own haystack (`hay` untouched). `others`: the block has bytes to
/// drop besides ESC and `\r` ([`line::has_other_dropped`]); when not, those two are found with `memchr`.
///
/// One pass over the block: runs of kept bytes are copied whole, escape sequences and control characters are left
/// out where they are; only a line with a carriage return that overwrites (not the `\r` of a `\r\n`) is made plain
/// as a whole, from its text after the timestamp.
pub(super) fn fill(block: &[u8], others: bool, hay: &mut Vec<u8>) -> bool {
    let next = |from: usize| {
        let rest = &block[from..];
        if others {
            line::find_dropped_in_block(rest)
        } else {
            memchr2(ESC, b'\r', rest)
        }
        .map(|i| from + i)
    };
    let Some(mut at) = next(0) else {
        return false;
    };
    hay.clear();
    hay.reserve(block.len());
    let mut copied = 0;
    loop {
        hay.extend_from_slice(&block[copied..at]);
        copied = match block[at] {
            ESC => line::skip_escape_in_block(block, at),
            b'\r' if matches!(block.get(at + 1), None | Some(b'\n')) => at + 1,
            b'\r' => overwrite(block, at, hay),
            _ => at + 1,
        };
        match next(copied) {
            Some(next) => at = next,
            None => break,
        }
    }
    hay.extend_from_slice(&block[copied..]);
    true
}

/// The line holding the carriage return at `cr`, made plain as a whole into `hay` in place of what was copied of
/// it: returns where the line ends in `block`.
fn overwrite(block: &[u8], cr: usize, hay: &mut Vec<u8>) -> usize {
    let start = memrchr(b'\n', &block[..cr]).map_or(0, |i| i + 1);
    let end = memchr(b'\n', &block[cr..]).map_or(block.len(), |i| cr + i);
    // The haystack holds whole lines before this one: its line starts after its last newline.
    hay.truncate(memrchr(b'\n', hay).map_or(0, |i| i + 1));
    let raw = &block[start..end];
    let (_, text) = split_time(raw.strip_suffix(b"\r").unwrap_or(raw));
    line::plain_append(text, hay);
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each line of the haystack ends with the plain text of the block's line, whichever way ESC and `\r` are found.
    #[test]
    fn line_for_line_plain_texts() {
        let lines: [&[u8]; 9] = [
            b"2021-07-01T12:00:00.0000000Z \x1b[31mFAI\x1b[0mLED",
            b"plain",
            b"2021-07-01T12:00:00.0000000Z progress 10%\rdone \x1b[1merror",
            b"crlf\x1b[0m\r",
            b"a\x07bell and a NUL\x00",
            b"\x1b]8;;https://x/\x1b\\link\x1b]8;;\x07",
            b"",
            b"half \x1b[",
            b"x\r\r",
        ];
        let block = lines.join(&b'\n');
        for others in [false, true] {
            let mut hay = Vec::new();
            assert!(fill(&block, others || line::has_other_dropped(&block), &mut hay));
            let got: Vec<&[u8]> = hay.split(|&b| b == b'\n').collect();
            assert_eq!(got.len(), lines.len());
            for (hay_line, raw) in got.iter().zip(lines) {
                let (_, text) = split_time(raw.strip_suffix(b"\r").unwrap_or(raw));
                let mut plain = Vec::new();
                line::plain_into(text, &mut plain);
                assert!(
                    hay_line.ends_with(&plain),
                    "{:?} {:?}",
                    String::from_utf8_lossy(hay_line),
                    String::from_utf8_lossy(&plain)
                );
            }
        }
        let mut hay = Vec::new();
        assert!(!fill(b"no codes\nat all\n", false, &mut hay));
    }
}
