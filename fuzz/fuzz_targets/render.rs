//! Text rendering and truncation: `mcp_envelope::render` in both formats and `mcp_envelope::truncate_text` with
//! arbitrary limits.
//!
//! Input: 4 bytes little-endian limit in bytes (modulo 131072, so limits below and above the marker's length and
//! the 40,000-byte default all occur), then a JSON document; input that is not JSON is rendered as a JSON string
//! holding its lossy UTF-8 text, and is also truncated as raw text.
//!
//! Checked: no panic; pretty JSON parses back to the value rendered; truncation returns the text unchanged when it
//! fits, else at most `limit` bytes (valid UTF-8 by construction, and a cut inside a character would panic) made
//! of a prefix of the text, optionally followed by the omission marker and a suffix of the text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_envelope::{OutputFormat, render, truncate_text};
use serde_json::Value;

const MARKER_START: &str = "\n\n[... ";
const MARKER_END: &str = " ...]\n\n";

fn check_truncation(text: &str, limit: usize) {
    let cut = truncate_text(text.to_owned(), limit);
    if text.len() <= limit {
        assert_eq!(cut, text, "text that fits is returned unchanged");
        return;
    }
    assert!(cut.len() <= limit, "{} bytes over the limit {limit}", cut.len());
    assert!(std::str::from_utf8(cut.as_bytes()).is_ok());
    if text.starts_with(cut.as_str()) {
        return; // a limit too small for the marker: a plain prefix
    }
    // head + marker + tail: some marker occurrence splits `cut` into a prefix and a suffix of `text`.
    let split = cut.match_indices(MARKER_START).any(|(start, _)| {
        let head = &cut[..start];
        cut[start..].find(MARKER_END).is_some_and(|end| {
            let tail = &cut[start + end + MARKER_END.len()..];
            text.starts_with(head) && text.ends_with(tail) && head.len() + tail.len() < text.len()
        })
    });
    assert!(split, "not head + marker + tail: {cut:?}");
}

fuzz_target!(|input: &[u8]| {
    let Some((head, document)) = input.split_first_chunk::<4>() else {
        return;
    };
    let limit = (u32::from_le_bytes(*head) % 131_072) as usize;
    let value = match serde_json::from_slice::<Value>(document) {
        Ok(value) => value,
        Err(_) => {
            let raw = String::from_utf8_lossy(document);
            check_truncation(&raw, limit);
            Value::String(raw.into_owned())
        }
    };
    for format in [OutputFormat::Toon, OutputFormat::Json] {
        match render(&value, format) {
            Ok(text) => {
                if format == OutputFormat::Json {
                    let back: Value = serde_json::from_str(&text).expect("pretty JSON parses back");
                    assert_eq!(back, value, "pretty JSON gives back the value rendered");
                }
                check_truncation(&text, limit);
            }
            Err(err) => assert!(!err.to_string().is_empty()),
        }
    }
});
