//! One log line: its timestamp, kind and text (GitHub's format: `2024-05-01T10:00:04.1234567Z ##[error]…`).
//!
//! GitHub prefixes every line of a job log with an RFC 3339 UTC timestamp and a space, and marks annotations and
//! collapsible sections with `##[error]`, `##[warning]`, `##[notice]`, `##[debug]`, `##[group]`, `##[endgroup]`
//! and `##[command]` at the start of the text
//! (<https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions>). Text is plain by
//! default: ANSI escape sequences (CSI, OSC and two-byte escapes) and other control characters are removed, and a
//! carriage return keeps what was written after it, as a terminal would show it.

use super::model::{LineKind, LogLine};

/// ESC, which starts every ANSI escape sequence.
pub const ESC: u8 = 0x1b;

/// Splits a line (without its `\n`) into the timestamp, if it starts with one, and the rest.
pub fn split_time(line: &[u8]) -> (Option<&[u8]>, &[u8]) {
    if line.len() > 20
        && line[4] == b'-'
        && line[7] == b'-'
        && line[10] == b'T'
        && line[13] == b':'
        && line[16] == b':'
        && line[..4].iter().all(u8::is_ascii_digit)
        && let Some(space) = line[19..line.len().min(40)].iter().position(|&b| b == b' ')
    {
        let end = 19 + space;
        if line[end - 1] == b'Z' || line[end - 1].is_ascii_digit() {
            return (Some(&line[..end]), &line[end + 1..]);
        }
    }
    (None, line)
}

/// The kind marked at the start of `text`.
pub fn kind_of(text: &[u8]) -> LineKind {
    let Some(rest) = text.strip_prefix(b"##[") else {
        return if text.starts_with(b"[command]") {
            LineKind::Command
        } else {
            LineKind::Output
        };
    };
    for (marker, kind) in [
        (&b"error]"[..], LineKind::Error),
        (b"warning]", LineKind::Warning),
        (b"notice]", LineKind::Notice),
        (b"debug]", LineKind::Debug),
        (b"group]", LineKind::Group),
        (b"endgroup]", LineKind::Endgroup),
        (b"command]", LineKind::Command),
    ] {
        if rest.starts_with(marker) {
            return kind;
        }
    }
    LineKind::Output
}

/// Line `n` of a GitHub log as data: `raw` keeps the text's escape sequences.
pub fn parse(n: u64, line: &[u8], raw: bool) -> LogLine {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let (time, text) = split_time(line);
    LogLine {
        n,
        time: time.map(|t| String::from_utf8_lossy(t).into_owned()),
        kind: kind_of(text),
        text: if raw { lossy(text) } else { plain(text) },
    }
}

/// `text` decoded as UTF-8 (invalid bytes become U+FFFD).
pub fn lossy(text: &[u8]) -> String {
    String::from_utf8_lossy(text).into_owned()
}

/// `text` as a terminal would show it, without escape sequences or control characters (tabs kept); after a
/// carriage return, only what follows it.
pub fn plain(text: &[u8]) -> String {
    let mut out = Vec::new();
    plain_into(text, &mut out);
    match String::from_utf8(out) {
        Ok(text) => text,
        Err(err) => String::from_utf8_lossy(err.as_bytes()).into_owned(),
    }
}

/// [`plain`] into `out` (cleared first), as bytes.
pub fn plain_into(text: &[u8], out: &mut Vec<u8>) {
    out.clear();
    plain_append(text, out);
}

/// [`plain`] appended to `out`, as bytes.
pub(super) fn plain_append(text: &[u8], out: &mut Vec<u8>) {
    let text = match memchr::memrchr(b'\r', text) {
        Some(cr) if cr + 1 < text.len() => &text[cr + 1..],
        _ => text,
    };
    // Runs of kept bytes are copied whole: a log line has a few codes at most.
    let mut i = 0;
    while i < text.len() {
        let run = find(&text[i..], dropped).map_or(text.len(), |p| i + p);
        out.extend_from_slice(&text[i..run]);
        match text.get(run) {
            Some(&ESC) => i = skip_escape(text, run),
            Some(_) => i = run + 1,
            None => break,
        }
    }
}

/// Whether [`plain`] drops `b` (ESC included, with the sequence it starts): a C0 control other than tab, or DEL.
/// Written without branches so that [`find`] vectorizes.
#[inline]
const fn dropped(b: u8) -> bool {
    (b < 0x20) & (b != b'\t') | (b == 0x7f)
}

/// [`dropped`] for a block of lines, where `\n` separates lines and is kept.
#[inline]
const fn dropped_in_block(b: u8) -> bool {
    (b < 0x20) & (b != b'\t') & (b != b'\n') | (b == 0x7f)
}

/// The first byte of a block of whole lines (`\n` kept) that [`plain`] would drop.
pub(super) fn find_dropped_in_block(block: &[u8]) -> Option<usize> {
    find(block, dropped_in_block)
}

/// Whether a block of whole lines has a byte that [`plain`] drops other than ESC and `\r`: when not, the escape
/// sequences and carriage returns are all that differ between a line and its plain text.
pub(super) fn has_other_dropped(block: &[u8]) -> bool {
    find(block, |b| dropped_in_block(b) & (b != ESC) & (b != b'\r')).is_some()
}

/// Whether `text` (one line, no `\n`) has a byte that [`plain`] drops: when not, its plain text is itself.
pub(super) fn has_dropped(text: &[u8]) -> bool {
    find(text, dropped).is_some()
}

/// The first byte of `bytes` for which `drop` holds, 32 bytes at a time: a branch-free test of the whole chunk
/// (which the compiler turns into vector instructions), then the byte in the chunk that has it.
#[inline]
fn find(bytes: &[u8], drop: impl Fn(u8) -> bool) -> Option<usize> {
    const CHUNK: usize = 32;
    let mut chunks = bytes.chunks_exact(CHUNK);
    let mut at = 0;
    for chunk in chunks.by_ref() {
        let mut any = 0u8;
        for &b in chunk {
            any |= u8::from(drop(b));
        }
        if any != 0 {
            return chunk.iter().position(|&b| drop(b)).map(|p| at + p);
        }
        at += CHUNK;
    }
    chunks.remainder().iter().position(|&b| drop(b)).map(|p| at + p)
}

/// The index after the escape sequence starting at `text[start]` (an ESC): CSI `ESC [ params intermediates final`,
/// OSC `ESC ] … (BEL | ESC \)`, or ESC followed by one character (ECMA-48).
fn skip_escape(text: &[u8], start: usize) -> usize {
    skip_escape_until(text, start, |_| false)
}

/// [`skip_escape`] in a block of lines: the same sequences, except that one ends before a `\n` (the line's end,
/// where [`plain`]'s text ends) or a `\r` (where the caller applies the carriage return to the whole line).
pub(super) fn skip_escape_in_block(block: &[u8], start: usize) -> usize {
    skip_escape_until(block, start, |b| b == b'\n' || b == b'\r')
}

/// The index after the escape sequence at `text[start]`, or of the first byte for which `stop` holds inside it.
fn skip_escape_until(text: &[u8], start: usize, stop: impl Fn(u8) -> bool) -> usize {
    let mut i = start + 1;
    match text.get(i) {
        Some(b'[') => {
            i += 1;
            while i < text.len() && !(0x40..=0x7e).contains(&text[i]) {
                if stop(text[i]) {
                    return i;
                }
                i += 1;
            }
            (i + 1).min(text.len())
        }
        Some(b']') => {
            while i < text.len() {
                if stop(text[i]) {
                    return i;
                }
                if text[i] == 0x07 {
                    return i + 1;
                }
                if text[i] == ESC && text.get(i + 1) == Some(&b'\\') {
                    return i + 2;
                }
                i += 1;
            }
            i
        }
        Some(_) => {
            // Intermediate bytes, then one final byte (`ESC ( B`, `ESC 7`).
            while i < text.len() && (0x20..=0x2f).contains(&text[i]) {
                i += 1;
            }
            match text.get(i) {
                Some(&b) if !stop(b) => i + 1,
                _ => i,
            }
        }
        None => i,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_kinds_and_plain_text() {
        let line = parse(
            7,
            b"2023-01-10T08:24:40.1234567Z \x1b[31mFAILED\x1b[0m tests/test_x.py::test_y\r",
            false,
        );
        assert_eq!(line.time.as_deref(), Some("2023-01-10T08:24:40.1234567Z"));
        assert_eq!(line.text, "FAILED tests/test_x.py::test_y");
        assert_eq!(line.kind, LineKind::Output);
        let raw = parse(7, b"2023-01-10T08:24:40.1234567Z \x1b[31mFAILED\x1b[0m", true);
        assert_eq!(raw.text, "\x1b[31mFAILED\x1b[0m");
        let error = parse(
            1,
            b"2023-01-10T08:24:40Z ##[error]Process completed with exit code 1.",
            false,
        );
        assert_eq!(
            (error.kind, error.text.as_str()),
            (LineKind::Error, "##[error]Process completed with exit code 1.")
        );
        assert_eq!(parse(1, b"##[group]Run tox", false).kind, LineKind::Group);
        assert_eq!(parse(1, b"no timestamp here at all", false).time, None);
        assert_eq!(plain(b"\x1b]8;;https://x\x07link\x1b]8;;\x1b\\ 10%\r100%"), "100%");
        assert_eq!(plain(b"a\tb\x07c\x1b[?25hd\x1b(Be"), "a\tbcde");
        assert_eq!(plain(b"half \x1b["), "half ");
        assert_eq!(plain("caf\u{e9} \u{2713}".as_bytes()), "caf\u{e9} \u{2713}");
    }
}
