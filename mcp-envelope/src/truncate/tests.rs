#![allow(clippy::unwrap_used)]
use super::*;

#[test]
fn under_and_at_limit_unchanged() {
    assert_eq!(truncate_text("abc".into(), 3), "abc");
    assert_eq!(truncate_text("abc".into(), 10), "abc");
    let s = "é".repeat(20_000); // exactly 40_000 bytes
    assert_eq!(s.len(), TEXT_LIMIT_BYTES);
    assert_eq!(truncate_text(s.clone(), TEXT_LIMIT_BYTES), s);
}

#[test]
fn over_limit_keeps_head_and_tail_with_note() {
    let text: String = (0..50_000).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
    let out = truncate_text(text.clone(), TEXT_LIMIT_BYTES);
    assert!(out.len() <= TEXT_LIMIT_BYTES);
    assert!(out.len() > TEXT_LIMIT_BYTES - 10, "uses the space: {}", out.len());
    assert!(out.contains("structuredContent"));
    assert!(out.contains("narrower jq"));
    let marker_start = out.find("\n\n[... ").unwrap();
    let marker_end = out.find(" ...]\n\n").unwrap() + " ...]\n\n".len();
    let head = &out[..marker_start];
    let tail = &out[marker_end..];
    assert!(text.starts_with(head) && text.ends_with(tail));
    assert!(head.len() > tail.len());
    let omitted = text.len() - head.len() - tail.len();
    assert!(
        out.contains(&format!(
            "[... {omitted} of 50000 bytes omitted (text limit 40000 bytes)"
        )),
        "{}",
        &out[marker_start..marker_end]
    );
}

#[test]
fn cuts_on_char_boundaries_for_every_limit() {
    // Mixed 1-, 2-, 3- and 4-byte characters.
    let text = "aé€😀".repeat(400);
    for limit in [
        0, 1, 2, 3, 5, 50, 199, 200, 201, 202, 203, 250, 251, 252, 253, 1000, 3999,
    ] {
        let out = truncate_text(text.clone(), limit);
        assert!(out.len() <= limit, "limit {limit}: {}", out.len());
        // `out` is a String, so it is valid UTF-8 by construction; check
        // that head and tail are real pieces of the input.
        if let (Some(a), Some(b)) = (out.find("\n\n[... "), out.find(" ...]\n\n")) {
            assert!(text.starts_with(&out[..a]));
            assert!(text.ends_with(&out[b + 7..]));
        } else {
            assert!(text.starts_with(&out));
        }
    }
}

#[test]
fn boundaries_inside_multibyte_chars() {
    let text = "😀".repeat(30_000); // 120_000 bytes of 4-byte chars
    let out = truncate_text(text, TEXT_LIMIT_BYTES);
    assert!(out.len() <= TEXT_LIMIT_BYTES);
    let marker_start = out.find("\n\n[... ").unwrap();
    assert_eq!(marker_start % 4, 0);
    assert!(out.ends_with('😀'));
}

#[test]
fn the_note_says_where_the_rest_is() {
    let text = "x".repeat(50_000);
    let saved = truncate_text_noting(text.clone(), TEXT_LIMIT_BYTES, Rest::Artifact("0123abcd"));
    assert!(saved.len() <= TEXT_LIMIT_BYTES && saved.len() > TEXT_LIMIT_BYTES - 10);
    assert!(
        saved
            .contains(r#"saved as artifact 0123abcd: call artifact_read with {"artifactId": "0123abcd", "offset": 0}"#)
    );
    assert!(!saved.contains("structuredContent"));
    let lost = truncate_text_noting(text.clone(), TEXT_LIMIT_BYTES, Rest::NotSaved);
    assert!(lost.contains("could not be saved as an artifact (data is null)"));
    let off = truncate_text_noting(text, TEXT_LIMIT_BYTES, Rest::NoStructuredContent);
    assert!(off.contains("use a narrower jq projection") && !off.contains("structuredContent"));
}

#[test]
fn prepare_keeps_the_ends_of_an_oversized_value_to_name_its_artifact() {
    use crate::{OutputFormat, PageMeta, SizeBound, View, prepare};
    let body = serde_json::json!({"items": vec!["y".repeat(100); 600]});
    let (bound, _) = SizeBound::new(16_384);
    let prepared = prepare(
        body.clone(),
        PageMeta::new(None),
        &View::new(None, OutputFormat::Json),
        &bound,
    )
    .unwrap();
    assert!(prepared.text_truncated);
    assert!(
        prepared.text.contains("over the structuredContent size limit"),
        "not yet saved"
    );
    let ends = prepared.text_ends.expect("kept for the oversized value");
    let named = ends.noting(Rest::Artifact("feed"));
    assert!(named.len() <= TEXT_LIMIT_BYTES);
    assert!(named.contains("saved as artifact feed"));
    let inline = prepare(
        body,
        PageMeta::new(None),
        &View::new(None, OutputFormat::Json),
        &SizeBound::new(1 << 20).0,
    )
    .unwrap();
    assert!(inline.text.contains("the full result is in structuredContent"));
    assert_eq!(inline.text_ends, None);
}
