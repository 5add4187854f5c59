//! The forms in which a secret is sent or echoed back: JSON-escaped and percent-encoded (private module; the
//! table is on [`super::Redactor`]).

/// `value` as a JSON string's content in every escaping style encoders use (RFC 8259 §7).
pub(super) fn json_forms(value: &str) -> Vec<String> {
    let mut forms = Vec::new();
    for style in 0u8..16 {
        let (slash, ascii, html, upper) = (style & 1 != 0, style & 2 != 0, style & 4 != 0, style & 8 != 0);
        let mut out = String::with_capacity(value.len() + 8);
        let mut units = [0u16; 2];
        for c in value.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '/' if slash => out.push_str("\\/"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                '\u{8}' => out.push_str("\\b"),
                '\u{c}' => out.push_str("\\f"),
                c if (c as u32) < 0x20
                    || (ascii && !c.is_ascii())
                    || (html && matches!(c, '<' | '>' | '&' | '\'' | '\u{2028}' | '\u{2029}')) =>
                {
                    for unit in c.encode_utf16(&mut units) {
                        if upper {
                            out.push_str(&format!("\\u{unit:04X}"));
                        } else {
                            out.push_str(&format!("\\u{unit:04x}"));
                        }
                    }
                }
                c => out.push(c),
            }
        }
        forms.push(out);
    }
    forms
}

/// `value` percent-encoded as URL encoders do (RFC 3986 §2.1; WHATWG URL's form encoding).
pub(super) fn percent_forms(value: &str) -> Vec<String> {
    let unreserved = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~');
    let component = |b: u8| unreserved(b) || matches!(b, b'!' | b'\'' | b'(' | b')' | b'*');
    let form = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'*' | b'-' | b'.' | b'_');
    let sets: [&dyn Fn(u8) -> bool; 3] = [&unreserved, &component, &form];
    let mut forms = Vec::new();
    for keep in sets {
        for plus in [false, true] {
            for upper in [false, true] {
                let mut out = String::with_capacity(value.len() * 3);
                for b in value.bytes() {
                    if keep(b) {
                        out.push(char::from(b));
                    } else if plus && b == b' ' {
                        out.push('+');
                    } else if upper {
                        out.push_str(&format!("%{b:02X}"));
                    } else {
                        out.push_str(&format!("%{b:02x}"));
                    }
                }
                forms.push(out);
            }
        }
    }
    forms
}
