//! `Content-Type` reading (`adapters_http::decode::media_type`, RFC 9110 §8.3.1) and the body decoding it steers
//! (`adapters_http::decode::payload`).
//!
//! Input: the first line (lossy UTF-8) is the `Content-Type` value, the rest the body.
//!
//! Checked: no panic; what `mime` reads as is, `media_type` reads the same; a media type read prints as a value
//! that reads back to the same media type; `payload` never fails for a type that is not JSON.
#![no_main]

use adapters_http::decode::{is_json, media_type, payload};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    let (head, body) = match input.iter().position(|&b| b == b'\n') {
        Some(at) => (&input[..at], &input[at + 1..]),
        None => (input, &[][..]),
    };
    let ct = String::from_utf8_lossy(head);
    let media = media_type(&ct);
    if let Ok(direct) = ct.parse::<mime::Mime>() {
        assert_eq!(media.as_ref(), Some(&direct));
    }
    if let Some(media) = &media {
        assert_eq!(
            media_type(media.as_ref()).as_ref(),
            Some(media),
            "{media} does not read back"
        );
    }
    let decoded = payload(Some(&ct), &bytes::Bytes::copy_from_slice(body));
    if media.as_ref().is_none_or(|m| !is_json(m)) && decoded.is_err() {
        // Without a JSON media type, a body is sniffed as JSON and else kept as text or bytes.
        panic!("payload failed for {ct:?}");
    }
});
