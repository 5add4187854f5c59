//! `Accept` read as RFC 9110 §12.5.1 media ranges (`mcp_serve::http::accepts_for_fuzzing`), which decides whether
//! the streamable-HTTP endpoint rewrites a client's `Accept` for rmcp or answers `406`.
//!
//! Input: the `Accept` field values, one per line (raw bytes; a line that is not a valid header value is left out).
//!
//! Checked: no panic; the same answer whether the ranges come in one field or one field each (RFC 9110 §5.3: a
//! list in several field lines is one list), for a range list without quotes; the same answer in any letter case
//! (media types and parameter names are case-insensitive).
#![no_main]

use http::{HeaderMap, HeaderValue, header};
use libfuzzer_sys::fuzz_target;
use mcp_serve::http::accepts_for_fuzzing as accepts;

const TYPES: [(&str, &str); 2] = [("text", "event-stream"), ("application", "json")];

fn headers<'a>(values: impl Iterator<Item = &'a [u8]>) -> HeaderMap {
    let mut map = HeaderMap::new();
    for value in values {
        if let Ok(value) = HeaderValue::from_bytes(value) {
            map.append(header::ACCEPT, value);
        }
    }
    map
}

fuzz_target!(|input: &[u8]| {
    let lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    let given = headers(lines.iter().copied());
    for (kind, sub) in TYPES {
        let answer = accepts(&given, kind, sub);
        let upper: Vec<Vec<u8>> = lines.iter().map(|l| l.to_ascii_uppercase()).collect();
        assert_eq!(accepts(&headers(upper.iter().map(Vec::as_slice)), kind, sub), answer, "letter case");
        let all_valid = lines.iter().all(|l| HeaderValue::from_bytes(l).is_ok() && l.is_ascii());
        if all_valid && !input.contains(&b'"') && !lines.iter().any(|l| l.iter().all(u8::is_ascii_whitespace)) {
            let ranges: Vec<&[u8]> = lines.iter().flat_map(|l| l.split(|&b| b == b',')).collect();
            let split = headers(ranges.iter().copied());
            if split.len() == ranges.len() {
                assert_eq!(accepts(&split, kind, sub), answer, "one field or one field per range");
            }
        }
    }
});
