//! The pretty-JSON text of one list whose items arrive in parts (pages), written part by part: each item as
//! `serde_json::to_writer_pretty` writes it inside the whole value, at its level of indentation.

use std::io::Write;

use serde_json::Value;

use crate::truncate::Kept;

/// Two spaces per level, as `serde_json`'s pretty printer.
const INDENT: &[u8] = b"  ";

/// A list's items written part by part at `level` (their indentation, in levels of two spaces).
#[derive(Debug)]
pub(crate) struct JsonListText {
    level: usize,
    count: usize,
    out: Kept,
}

impl JsonListText {
    /// A list whose items sit at `level`, its text kept in `out` (empty).
    pub(crate) fn new(level: usize, out: Kept) -> Self {
        JsonListText { level, count: 0, out }
    }

    /// Writes the next items.
    ///
    /// # Errors
    /// A `serde_json` error (none for a `Value`).
    pub(crate) fn push(&mut self, part: &[Value]) -> Result<(), serde_json::Error> {
        for item in part {
            self.out.push_bytes(if self.count == 0 { b"\n" } else { b",\n" });
            for _ in 0..self.level {
                self.out.push_bytes(INDENT);
            }
            let mut indented = Indented {
                out: &mut self.out,
                level: self.level,
            };
            serde_json::to_writer_pretty(&mut indented, item)?;
            self.count += 1;
        }
        Ok(())
    }

    /// The text that opens the list, its items' text, and the text that closes it; `None` for an empty list
    /// (written `[]`, not in parts).
    pub(crate) fn finish(self) -> Option<(&'static str, Kept, String)> {
        if self.count == 0 {
            return None;
        }
        let closing = format!("\n{}]", "  ".repeat(self.level.saturating_sub(1)));
        Some(("[", self.out, closing))
    }
}

/// Indents every line after the first by `level` levels: JSON text has no raw line break inside a string, so every
/// `\n` the printer writes starts a line.
struct Indented<'o> {
    out: &'o mut Kept,
    level: usize,
}

impl Write for Indented<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut lines = buf.split(|byte| *byte == b'\n');
        if let Some(first) = lines.next() {
            self.out.push_bytes(first);
        }
        for line in lines {
            self.out.push_bytes(b"\n");
            for _ in 0..self.level {
                self.out.push_bytes(INDENT);
            }
            self.out.push_bytes(line);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
