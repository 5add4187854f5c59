//! Bytes to text (byte-order marks, UTF-16, the XML declaration's encoding), and text helpers shared by every
//! format: line endings, emptiness, the character limit.

use std::borrow::Cow;

use crate::Error;

/// The input as UTF-8 text: a UTF-8 byte-order mark is dropped; a UTF-16 mark (or a UTF-16 `<` without one), or an
/// XML declaration naming another encoding, transcodes it. Undecodable bytes are an error, never replaced.
pub(crate) fn decode(bytes: &[u8]) -> Result<Cow<'_, str>, Error> {
    if let Some((encoding, bom_len)) = encoding_rs::Encoding::for_bom(bytes) {
        return transcode(encoding, &bytes[bom_len..], bom_len);
    }
    match bytes {
        [b'<', 0, ..] => return transcode(encoding_rs::UTF_16LE, bytes, 0),
        [0, b'<', ..] => return transcode(encoding_rs::UTF_16BE, bytes, 0),
        _ => {}
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(Cow::Borrowed(text)),
        Err(err) => match declared_encoding(bytes) {
            Some(encoding) if encoding != encoding_rs::UTF_8 => transcode(encoding, bytes, 0),
            _ => Err(Error::Encoding {
                message: "not UTF-8, and no byte-order mark or XML declaration names another encoding".into(),
                offset: err.valid_up_to() as u64,
            }),
        },
    }
}

fn transcode<'a>(
    encoding: &'static encoding_rs::Encoding,
    bytes: &'a [u8],
    skipped: usize,
) -> Result<Cow<'a, str>, Error> {
    if encoding == encoding_rs::UTF_8 {
        return std::str::from_utf8(bytes)
            .map(Cow::Borrowed)
            .map_err(|err| Error::Encoding {
                message: "not UTF-8 after its byte-order mark".into(),
                offset: (skipped + err.valid_up_to()) as u64,
            });
    }
    match encoding.decode_without_bom_handling_and_without_replacement(bytes) {
        Some(text) => Ok(text),
        None => {
            // Find where decoding fails, for the error (only on this error path).
            let mut decoder = encoding.new_decoder_without_bom_handling();
            let mut out = String::with_capacity(bytes.len().saturating_mul(2).saturating_add(16));
            let (_, read) = decoder.decode_to_string_without_replacement(bytes, &mut out, true);
            Err(Error::Encoding {
                message: format!("not valid {}", encoding.name()),
                offset: (skipped + read) as u64,
            })
        }
    }
}

/// The encoding an XML declaration (`<?xml version="1.0" encoding="…"?>`) at the very start names, if any.
fn declared_encoding(bytes: &[u8]) -> Option<&'static encoding_rs::Encoding> {
    let head = bytes.get(..bytes.len().min(200))?;
    let end = head.windows(2).position(|w| w == b"?>")?;
    let decl = head.strip_prefix(b"<?xml")?.get(..end.checked_sub(5)?)?;
    let at = decl.windows(8).position(|w| w == b"encoding")?;
    let rest = &decl[at + 8..];
    let rest = rest
        .iter()
        .position(|&b| b == b'"' || b == b'\'')
        .map(|i| &rest[i + 1..])?;
    let close = rest.iter().position(|&b| b == b'"' || b == b'\'')?;
    encoding_rs::Encoding::for_label(&rest[..close])
}

/// `text` with `\r\n` and lone `\r` turned into `\n`.
pub(crate) fn unix_newlines(text: &str) -> Cow<'_, str> {
    if text.contains('\r') {
        Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        Cow::Borrowed(text)
    }
}

/// `Some(text)` unless it is empty or only whitespace.
pub(crate) fn non_blank(text: Option<&str>) -> Option<&str> {
    text.filter(|t| !t.trim().is_empty())
}

/// `text` cut to its first `limit` characters, and its full length in characters when it was cut.
pub(crate) fn cut(text: String, limit: usize) -> (String, Option<u64>) {
    match text.char_indices().nth(limit) {
        None => (text, None),
        Some((end, _)) => {
            let full = text.chars().count() as u64;
            let mut text = text;
            text.truncate(end);
            (text, Some(full))
        }
    }
}

/// Seconds as written in a report (`"0.123"`, `"1,234.5"` as some locales write it is not read) to milliseconds;
/// `None` for anything that is not a finite, non-negative number.
pub(crate) fn seconds_to_ms(seconds: &str) -> Option<f64> {
    let value: f64 = seconds.trim().parse().ok()?;
    (value.is_finite() && value >= 0.0).then_some(value * 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_keeps_the_first_characters_and_says_how_many_there_were() {
        assert_eq!(cut("héllo".into(), 10), ("héllo".into(), None));
        assert_eq!(cut("héllo".into(), 5), ("héllo".into(), None));
        assert_eq!(cut("héllo".into(), 2), ("hé".into(), Some(5)));
        assert_eq!(cut("héllo".into(), 0), ("".into(), Some(5)));
    }

    #[test]
    fn utf16_and_declared_encodings_are_transcoded() {
        let utf16le: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("<a/>".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        assert_eq!(decode(&utf16le).ok().as_deref(), Some("<a/>"));
        let no_bom: Vec<u8> = "<a/>".encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert_eq!(decode(&no_bom).ok().as_deref(), Some("<a/>"));
        let latin1 = b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a b=\"\xe9\"/>";
        assert_eq!(
            decode(latin1).ok().as_deref(),
            Some("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a b=\"é\"/>")
        );
        assert_eq!(decode(b"\xEF\xBB\xBF<a/>").ok().as_deref(), Some("<a/>"));
        match decode(b"<a>\xff</a>") {
            Err(Error::Encoding { offset, .. }) => assert_eq!(offset, 3),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn seconds_become_milliseconds() {
        assert_eq!(seconds_to_ms("0.5"), Some(500.0));
        assert_eq!(seconds_to_ms(" 2 "), Some(2000.0));
        assert_eq!(seconds_to_ms("NaN"), None);
        assert_eq!(seconds_to_ms("-1"), None);
        assert_eq!(seconds_to_ms(""), None);
    }
}
