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
