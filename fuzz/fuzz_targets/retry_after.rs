//! `Retry-After` / `Retry-After-Ms` reading (`adapters_http::retry_after`): `parse_http_date` and
//! `parse_retry_after` on arbitrary text, `requested_wait` on a header map holding the raw bytes.
//!
//! Input: the text (lossy UTF-8) for the parsers; the raw bytes as a `Retry-After` value, and as `Retry-After-Ms`
//! when the first byte is odd.
//!
//! Checked: no panic; delay-seconds (ASCII digits only) give exactly their value (saturated); a date that
//! parses gives a wait of `date - now` seconds, at least 0; an IMF-fixdate printed by `httpdate` parses back to
//! the same second; `requested_wait` agrees with `parse_retry_after` when only `Retry-After` is present.
#![no_main]

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use adapters_http::retry_after::{parse_http_date, parse_retry_after, requested_wait};
use http::{HeaderMap, HeaderValue};
use libfuzzer_sys::fuzz_target;

/// Fixed "now": `Sun, 06 Nov 1994 08:49:37 GMT`.
const NOW: u64 = 784_111_777;

fuzz_target!(|input: &[u8]| {
    let now = UNIX_EPOCH + Duration::from_secs(NOW);
    let text = String::from_utf8_lossy(input);
    let wait = parse_retry_after(&text, now);
    let trimmed = text.trim_matches([' ', '\t']);
    if !trimmed.is_empty() && trimmed.bytes().all(|b| b.is_ascii_digit()) {
        assert_eq!(wait, Some(trimmed.parse().unwrap_or(u64::MAX)), "delay-seconds");
    } else if let Some(at) = parse_http_date(trimmed) {
        let expected = u64::try_from(at.saturating_sub(NOW as i64)).unwrap_or(0);
        assert_eq!(wait, Some(expected), "an HTTP-date");
        if let Ok(secs) = u64::try_from(at)
            && secs < 253_402_300_800
        {
            let printed = httpdate::fmt_http_date(UNIX_EPOCH + Duration::from_secs(secs));
            assert_eq!(parse_http_date(&printed), Some(at), "{printed} does not read back");
        }
    } else {
        assert_eq!(wait, None);
    }
    let Ok(value) = HeaderValue::from_bytes(input) else {
        return;
    };
    let mut headers = HeaderMap::new();
    headers.insert(http::header::RETRY_AFTER, value.clone());
    let only = requested_wait(&headers, now);
    if let Ok(text) = value.to_str() {
        assert_eq!(only, parse_retry_after(text.trim(), now).map(Duration::from_secs));
    }
    if input.first().is_some_and(|b| b % 2 == 1) {
        headers.insert("retry-after-ms", value);
        let _ = requested_wait(&headers, SystemTime::now());
    }
});
