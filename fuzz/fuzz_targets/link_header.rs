//! Next-page detection: `adapters_github::parse_link_next_page` and `parse_link_next` on arbitrary text, and
//! `adapters_github::next_page_from_headers` and `next_link_from_headers` on an arbitrary header map (`nextPage`,
//! the next link's target URI).
//!
//! Input: the whole input as one `Link` value (lossy UTF-8 text, and raw bytes in a header map); then the input split on `\n` into header lines, the
//! first byte of each choosing the name (even: `x-next-page`, odd: `link`) and the rest the raw value (any bytes
//! `http::HeaderValue` accepts, so non-UTF-8 values are exercised too).
//!
//! Checked: no panic; a page is never 0; `x-next-page` wins over `Link` only when it is a valid page number, and a
//! single `Link` value gives the same answer through both functions (non-ASCII bytes included); a page implies a
//! next target, which never holds `>`; `next_link_from_headers` answers ASCII only, the same as
//! `parse_link_next` for an ASCII value.
#![no_main]

use adapters_github::{next_link_from_headers, next_page_from_headers, parse_link_next, parse_link_next_page};
use http::{HeaderMap, HeaderValue};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    let text = String::from_utf8_lossy(input);
    let page = parse_link_next_page(&text);
    assert_ne!(page, Some(0));
    let next = parse_link_next(&text);
    assert!(page.is_none() || next.is_some(), "a page without a next target");
    assert!(next.as_deref().is_none_or(|t| !t.contains('>')), "{next:?}");
    if let Ok(value) = HeaderValue::from_bytes(input) {
        let mut map = HeaderMap::new();
        map.insert(http::header::LINK, value);
        assert_eq!(next_page_from_headers(&map), page, "one Link value, two answers");
        let target = next_link_from_headers(&map);
        assert!(target.as_deref().is_none_or(str::is_ascii), "{target:?}");
        if input.is_ascii() {
            assert_eq!(target, next, "one ASCII Link value, two targets");
        }
    }
    let mut map = HeaderMap::new();
    for line in input.split(|&b| b == b'\n') {
        let Some((&selector, raw)) = line.split_first() else {
            continue;
        };
        let name = if selector % 2 == 0 { "x-next-page" } else { "link" };
        if let Ok(value) = HeaderValue::from_bytes(raw) {
            map.append(name, value);
        }
    }
    assert_ne!(next_page_from_headers(&map), Some(0));
    let _ = next_link_from_headers(&map);
});
