//! TOON text of primitives and keys (spec §2, §7): when a string or key is quoted, how it is escaped, and every
//! number's digits.

use serde_json::{Number, Value};

use super::Sink;
use crate::render::exact::canonical_decimal;

/// Writes a primitive (null, boolean, number or string) as a value or cell; the delimiter is the comma.
pub(super) fn primitive<S: Sink>(out: &mut S, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) => number(out, n),
        Value::String(s) if needs_quoting(s) => quoted(out, s),
        Value::String(s) => out.push_str(s),
        // Callers pass primitives only; a container is never written as one.
        Value::Array(_) | Value::Object(_) => {}
    }
}

/// Writes a key: bare when it matches `^[A-Za-z_][A-Za-z0-9_.]*$` (§7.3), quoted otherwise.
pub(super) fn key<S: Sink>(out: &mut S, key: &str) {
    if is_bare_key(key) {
        out.push_str(key);
    } else {
        quoted(out, key);
    }
}

/// Writes `s` in double quotes, escaped (§7.1): backslash, quote, `\n`, `\r`, `\t`, other U+0000-U+001F as
/// lowercase `\uXXXX`.
pub(super) fn quoted<S: Sink>(out: &mut S, s: &str) {
    out.push_str("\"");
    let mut plain_from = 0;
    for (at, byte) in s.bytes().enumerate() {
        let escape: &str = match byte {
            b'\\' => "\\\\",
            b'"' => "\\\"",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x00..=0x1f => "",
            _ => continue,
        };
        out.push_str(&s[plain_from..at]);
        if escape.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            let code = [
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(byte >> 4)],
                HEX[usize::from(byte & 0xf)],
            ];
            out.push_str(std::str::from_utf8(&code).unwrap_or_default());
        } else {
            out.push_str(escape);
        }
        plain_from = at + 1;
    }
    out.push_str(&s[plain_from..]);
    out.push_str("\"");
}

/// Every digit of `n`: integers that fit 64 bits as integers, every other number (past 64 bits, decimals, with an
/// exponent) in TOON's canonical decimal form from its literal digits.
fn number<S: Sink>(out: &mut S, n: &Number) {
    if let Some(i) = n.as_i64() {
        out.push_str(itoa::Buffer::new().format(i));
    } else if let Some(u) = n.as_u64() {
        out.push_str(itoa::Buffer::new().format(u));
    } else {
        out.push_str(&canonical_decimal(&n.to_string()));
    }
}

/// True when a string value must be quoted (§7.2) with the comma as delimiter.
fn needs_quoting(s: &str) -> bool {
    let bytes = s.as_bytes();
    let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else {
        return true;
    };
    matches!(first, b' ' | b'\t' | b'-' | b'#')
        || matches!(last, b' ' | b'\t')
        || matches!(s, "null" | "true" | "false")
        || is_numeric_like(bytes)
        || bytes
            .iter()
            .any(|b| matches!(b, b':' | b'"' | b'\\' | b'[' | b']' | b'{' | b'}' | b',' | 0x00..=0x1f))
}

/// `^[+-]?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$`: a string that would read back as a number.
fn is_numeric_like(bytes: &[u8]) -> bool {
    let digits = |from: usize| bytes[from..].iter().take_while(|b| b.is_ascii_digit()).count();
    let mut at = usize::from(matches!(bytes.first(), Some(b'+' | b'-')));
    let int = digits(at);
    if int == 0 {
        return false;
    }
    at += int;
    if bytes.get(at) == Some(&b'.') {
        let frac = digits(at + 1);
        if frac == 0 {
            return false;
        }
        at += 1 + frac;
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(bytes.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        let exp = digits(at);
        if exp == 0 {
            return false;
        }
        at += exp;
    }
    at == bytes.len()
}

fn is_bare_key(key: &str) -> bool {
    let bytes = key.as_bytes();
    match bytes.split_first() {
        Some((first, rest)) => {
            (first.is_ascii_alphabetic() || *first == b'_')
                && rest
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.'))
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_like_strings() {
        for yes in ["123", "-456", "0", "3.14", "1e10", "1.5e-3", "1E+9", "+1", "05", "00"] {
            assert!(is_numeric_like(yes.as_bytes()), "{yes}");
        }
        for no in ["", "-", "+", "abc", "1.", ".5", "1e", "1_000", "1e+", "1.5x"] {
            assert!(!is_numeric_like(no.as_bytes()), "{no}");
        }
    }

    #[test]
    fn escapes() {
        let mut out = String::new();
        quoted(&mut out, "a\u{4}b\u{1f}\"\\\n\r\té");
        assert_eq!(out, "\"a\\u0004b\\u001f\\\"\\\\\\n\\r\\té\"");
    }
}
