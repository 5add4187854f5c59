//! Text that can reach a terminal carries no raw control characters (MCP spec, tools, security considerations:
//! servers MUST sanitize tool outputs).
//!
//! [`escape_controls`] shows each C0 control other than `\n` and `\t` (U+0000-U+001F, so `\r` and ESC too), DEL
//! (U+007F), each C1 control (U+0080-U+009F) and each Unicode bidirectional embedding, override or isolate (U+202A-
//! U+202E, U+2066-U+2069: the "Trojan Source" set, CVE-2021-42574) as the six characters `\uXXXX` (lower-case hex),
//! never raw. Every text block and error text goes through it ([`crate::rmcp::success_result`],
//! [`crate::rmcp::error_result`]); `structuredContent` is a program's data and keeps the exact values.
//!
//! In JSON text those characters only occur inside strings, and `\uXXXX` is JSON's own escape for them, so the
//! text still parses to the same value. TOON text already writes C0 controls as `\uXXXX` (as `toon-format`
//! does); the others read back as that escape too.
//!
//! ```
//! use mcp_envelope::sanitize::escape_controls;
//!
//! assert_eq!(escape_controls("Not Found\u{1b}[2J\u{7}"), "Not Found\\u001b[2J\\u0007");
//! assert_eq!(escape_controls("line\n\tok"), "line\n\tok");
//! let json = serde_json::to_string("a\u{202e}b\u{85}").unwrap();
//! let shown = escape_controls(&json);
//! assert_eq!(shown, "\"a\\u202eb\\u0085\"");
//! assert_eq!(serde_json::from_str::<String>(&shown).unwrap(), "a\u{202e}b\u{85}");
//! ```

use std::borrow::Cow;

/// True for a character [`escape_controls`] escapes: a C0 control but `\n` and `\t`, DEL, a C1 control, or a
/// bidirectional embedding, override or isolate.
pub fn is_unsafe(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with every [`is_unsafe`] character written as `\uXXXX`; borrowed (no copy) when there is none.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    // Fast path: the characters escaped all start with a byte < 0x20, 0x7f, 0xc2 (C1) or 0xe2 (bidi).
    if !text
        .bytes()
        .any(|b| matches!(b, 0x00..=0x08 | 0x0b..=0x1f | 0x7f | 0xc2 | 0xe2))
        || !text.chars().any(is_unsafe)
    {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_unsafe(c) {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_exactly_the_unsafe_set() {
        for c in (0u32..0x3000).filter_map(char::from_u32) {
            let unsafe_ = (c < ' ' && c != '\n' && c != '\t')
                || ('\u{7f}'..='\u{9f}').contains(&c)
                || ('\u{202a}'..='\u{202e}').contains(&c)
                || ('\u{2066}'..='\u{2069}').contains(&c);
            assert_eq!(is_unsafe(c), unsafe_, "U+{:04X}", u32::from(c));
            let shown = escape_controls(&c.to_string()).into_owned();
            if unsafe_ {
                assert_eq!(shown, format!("\\u{:04x}", u32::from(c)));
            } else {
                assert_eq!(shown, c.to_string());
            }
        }
        assert!(matches!(escape_controls("plain é ✓ 🚀"), Cow::Borrowed(_)));
        assert_eq!(
            escape_controls("\u{1b}]8;;http://evil.example/\u{7}click\u{1b}]8;;\u{7}\r"),
            "\\u001b]8;;http://evil.example/\\u0007click\\u001b]8;;\\u0007\\u000d"
        );
    }
}
