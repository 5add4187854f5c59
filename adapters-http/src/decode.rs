//! A response body as the vendor sent it: JSON of any depth, text decoded per its charset, and
//! anything else kept as bytes, never mangled into a string.
//!
//! | body | result |
//! |---|---|
//! | empty or white space only (a `204`, a `201` without content; a byte-order mark aside) | `Data({})` |
//! | a JSON media type (`application/json`, any `+json`) | `Data(value)`, parsed as UTF-8 JSON whatever `charset` says, a leading byte-order mark skipped (RFC 8259 §8.1) |
//! | a text media type ([`is_text`]: `text/*`, XML, YAML, JavaScript, …) | `Data(string)`, decoded with `encoding_rs` per the `charset` parameter (default UTF-8; a byte-order mark wins, as in the WHATWG Encoding standard) |
//! | text that is invalid in its charset, or whose charset is unknown | `Binary` |
//! | any other media type (`image/*`, `application/octet-stream`, archives, PDF, …) | `Binary` with that media type |
//! | no `Content-Type` | `Data(value)` when it parses as JSON, else `Data(string)` when it is UTF-8, else `Binary` as `application/octet-stream` |

use bytes::Bytes;
use encoding_rs::Encoding;
use serde_json::Value;

/// Media type given to a binary body that came without a usable `Content-Type`.
pub const OCTET_STREAM: &str = "application/octet-stream";

/// A decoded body: data, or bytes that are not text.
#[derive(Debug, Clone, PartialEq)]
pub enum Payload {
    /// JSON, or text as a JSON string, or `{}` for an empty body.
    Data(Value),
    /// A body that is not text (or text invalid in its charset): to be kept byte for byte.
    Binary(Binary),
}

impl Payload {
    /// The data, `None` for a binary body.
    pub fn as_data(&self) -> Option<&Value> {
        match self {
            Payload::Data(value) => Some(value),
            Payload::Binary(_) => None,
        }
    }

    /// The data, `None` for a binary body.
    pub fn into_data(self) -> Option<Value> {
        match self {
            Payload::Data(value) => Some(value),
            Payload::Binary(_) => None,
        }
    }
}

/// A body kept as bytes, with the media type the upstream declared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binary {
    /// The body, byte for byte.
    pub bytes: Bytes,
    /// The upstream `Content-Type` as sent (e.g. `image/png`), or [`OCTET_STREAM`] when there was none.
    pub media_type: String,
}

/// The UTF-8 byte-order mark (`EF BB BF`).
pub const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// `bytes` without a leading UTF-8 byte-order mark. RFC 8259 §8.1 lets a JSON parser ignore one (jq does, and
/// some Windows-hosted servers and proxies send it); a mark anywhere else (inside a string) is data and stays.
pub fn without_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes)
}

/// Parses UTF-8 JSON of any nesting depth (serde_json without its 128-level recursion limit, on a stack that
/// `serde_stacker` grows on the heap as needed), so a valid body never overflows the stack or fails for its depth.
/// Integers keep their digits; object keys keep their order. A leading byte-order mark is skipped
/// ([`without_bom`]).
///
/// Errors: the parser's error (line and column) for anything that is not one JSON value.
pub fn parse_json(bytes: &[u8]) -> Result<Value, serde_json::Error> {
    from_slice_any_depth(without_bom(bytes))
}

/// [`parse_json`] into any `T`: `serde_json::from_slice` without the recursion limit, on a growing stack.
///
/// A `\uXXXX` escape of a lone UTF-16 surrogate (a high one not followed by a low one, or a low one alone: what
/// `JSON.stringify` writes for half of an emoji cut by a length limit) is read as U+FFFD, as jq reads it, instead
/// of failing the whole body; serde_json refuses such escapes, so a body it refuses is parsed again with them
/// replaced (only then, and only when there is one).
///
/// Errors: the parser's error (line and column), or `T`'s.
pub fn from_slice_any_depth<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, serde_json::Error> {
    match strict_any_depth(bytes) {
        Err(err) => match without_lone_surrogates(bytes) {
            Some(repaired) => strict_any_depth(&repaired),
            None => Err(err),
        },
        ok => ok,
    }
}

fn strict_any_depth<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    deserializer.disable_recursion_limit();
    let value = T::deserialize(serde_stacker::Deserializer::new(&mut deserializer))?;
    deserializer.end()?;
    Ok(value)
}

/// `bytes` with every escape of a lone surrogate replaced by `\ufffd`, or `None` when there is none. Escapes are
/// read pairwise from each backslash (so `\\ud800`, an escaped backslash then text, is left alone); a backslash
/// occurs in JSON only inside strings, and never inside a multi-byte UTF-8 character.
fn without_lone_surrogates(bytes: &[u8]) -> Option<Vec<u8>> {
    fn escape_at(bytes: &[u8], at: usize) -> Option<u16> {
        let hex = bytes.get(at..at + 6)?;
        if hex[0] != b'\\' || hex[1] != b'u' {
            return None;
        }
        u16::from_str_radix(std::str::from_utf8(&hex[2..]).ok()?, 16).ok()
    }
    const REPLACEMENT: &[u8] = b"\\ufffd";
    let mut out: Option<Vec<u8>> = None;
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        let Some(unit) = escape_at(bytes, i) else {
            i += 2;
            continue;
        };
        let len = match unit {
            0xD800..=0xDBFF => match escape_at(bytes, i + 6) {
                Some(0xDC00..=0xDFFF) => {
                    i += 12;
                    continue;
                }
                _ => 6,
            },
            0xDC00..=0xDFFF => 6,
            _ => {
                i += 6;
                continue;
            }
        };
        let buf = out.get_or_insert_with(|| Vec::with_capacity(bytes.len()));
        buf.extend_from_slice(&bytes[copied..i]);
        buf.extend_from_slice(REPLACEMENT);
        i += len;
        copied = i;
    }
    let mut buf = out?;
    buf.extend_from_slice(&bytes[copied..]);
    Some(buf)
}

/// Decodes `body` by the rules in the [module docs](self), given the response's `Content-Type`.
///
/// Errors: the JSON parser's error when a JSON media type carries a body that does not parse.
pub fn payload(content_type: Option<&str>, body: &Bytes) -> Result<Payload, serde_json::Error> {
    if without_bom(body).iter().all(u8::is_ascii_whitespace) {
        return Ok(Payload::Data(Value::Object(serde_json::Map::new())));
    }
    let media = content_type.and_then(media_type);
    let Some(media) = media else {
        if let Ok(value) = parse_json(body) {
            return Ok(Payload::Data(value));
        }
        return Ok(match std::str::from_utf8(body) {
            Ok(text) => Payload::Data(Value::String(text.to_owned())),
            Err(_) => binary(content_type, body),
        });
    };
    if is_json(&media) {
        return parse_json(body).map(Payload::Data);
    }
    if !is_text(&media) {
        return Ok(binary(content_type, body));
    }
    let label = media
        .get_param(mime::CHARSET)
        .map_or("utf-8", |charset| charset.as_str());
    Ok(match decode_text(label, body) {
        Some(text) => Payload::Data(Value::String(text)),
        None => binary(content_type, body),
    })
}

/// A `Content-Type` value read as a media type with its parameters (RFC 9110 §8.3.1), by `mime`. Type, subtype and
/// parameter names compare case-insensitively and a parameter value may be quoted (`Charset="UTF-8"`); what `mime`
/// refuses but the grammar allows (`parameters = *( OWS ";" OWS [ parameter ] )`, §5.6.6: whitespace before a
/// `;`, empty parameters such as `;;` or a trailing `;`) is normalized first. `None` when it is still not a media
/// type.
pub fn media_type(content_type: &str) -> Option<mime::Mime> {
    if let Ok(media) = content_type.parse() {
        return Some(media);
    }
    // Split on the `;` outside quoted strings (a quoted-pair escapes the next character).
    let mut parts = vec![String::new()];
    let (mut quoted, mut escaped) = (false, false);
    for c in content_type.chars() {
        if quoted {
            quoted = escaped || c != '"';
            escaped = !escaped && c == '\\';
        } else if c == '"' {
            quoted = true;
        } else if c == ';' {
            parts.push(String::new());
            continue;
        }
        parts.last_mut()?.push(c);
    }
    let mut parts = parts
        .iter()
        .map(|part| part.trim_matches([' ', '\t']))
        .filter(|part| !part.is_empty());
    let mut normalized = parts.next()?.to_owned();
    for part in parts {
        normalized.push_str("; ");
        normalized.push_str(part);
    }
    normalized.parse().ok()
}

/// `body` decoded from the encoding named `label` (a WHATWG label: `ISO-8859-1` is windows-1252, `latin1`, `utf-8`,
/// `shift_jis`, …); a byte-order mark at the start overrides the label. `None` when the label is unknown or the
/// bytes are not valid in that encoding (nothing is replaced by U+FFFD).
pub fn decode_text(label: &str, body: &[u8]) -> Option<String> {
    let declared = Encoding::for_label(label.trim().as_bytes())?;
    let (encoding, bom) = Encoding::for_bom(body).unwrap_or((declared, 0));
    let rest = body.get(bom..)?;
    encoding
        .decode_without_bom_handling_and_without_replacement(rest)
        .map(std::borrow::Cow::into_owned)
}

fn binary(content_type: Option<&str>, body: &Bytes) -> Payload {
    let media_type = content_type
        .map(str::trim)
        .filter(|ct| media_type(ct).is_some())
        .unwrap_or(OCTET_STREAM);
    Payload::Binary(Binary {
        bytes: body.clone(),
        media_type: media_type.to_owned(),
    })
}

/// `application/json` or any `+json` type.
pub fn is_json(media: &mime::Mime) -> bool {
    (media.type_() == mime::APPLICATION && media.subtype() == mime::JSON) || media.suffix() == Some(mime::JSON)
}

/// A media type whose body is text: `text/*`, `+xml`/`+yaml` types, and the textual `application/` types (XML,
/// YAML, TOML, JavaScript, form data, GraphQL, SQL, shell scripts, patches, NDJSON).
pub fn is_text(media: &mime::Mime) -> bool {
    if media.type_() == mime::TEXT {
        return true;
    }
    if media
        .suffix()
        .is_some_and(|suffix| matches!(suffix.as_str(), "xml" | "yaml"))
    {
        return true;
    }
    media.type_() == mime::APPLICATION
        && matches!(
            media.subtype().as_str(),
            "xml"
                | "yaml"
                | "x-yaml"
                | "toml"
                | "javascript"
                | "ecmascript"
                | "x-javascript"
                | "x-www-form-urlencoded"
                | "graphql"
                | "sql"
                | "x-sh"
                | "x-patch"
                | "x-diff"
                | "x-ndjson"
                | "jsonl"
                | "x-jsonlines"
        )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn data(ct: Option<&str>, body: &'static [u8]) -> Value {
        match payload(ct, &Bytes::from_static(body)).unwrap() {
            Payload::Data(value) => value,
            Payload::Binary(b) => panic!("binary: {b:?}"),
        }
    }

    fn bin(ct: Option<&str>, body: &'static [u8]) -> Binary {
        match payload(ct, &Bytes::from_static(body)).unwrap() {
            Payload::Binary(b) => b,
            Payload::Data(value) => panic!("data: {value}"),
        }
    }

    #[test]
    fn charsets_decode_per_declaration() {
        let latin1 = b"caf\xe9\n";
        assert_eq!(data(Some("text/plain; charset=ISO-8859-1"), latin1), "café\n");
        assert_eq!(data(Some("text/plain; charset=\"latin1\""), latin1), "café\n");
        assert_eq!(data(Some("text/csv;charset=windows-1252"), b"\x80 5"), "€ 5");
        assert_eq!(data(Some("text/plain; charset=Shift_JIS"), b"\x93\xfa\x96\x7b"), "日本");
        assert_eq!(data(Some("text/plain; charset=utf-16le"), b"h\0i\0"), "hi");
        assert_eq!(data(Some("text/html"), "héllo".as_bytes()), "héllo");
        assert_eq!(
            data(Some("application/xml; charset=iso-8859-15"), b"<a>\xa4</a>"),
            "<a>€</a>"
        );
        // A byte-order mark wins over the label, and is not part of the text.
        assert_eq!(data(Some("text/plain; charset=latin1"), b"\xef\xbb\xbfok"), "ok");
        // JSON is UTF-8 whatever the charset says.
        assert_eq!(
            data(Some("application/json; charset=ISO-8859-1"), "{\"a\":\"é\"}".as_bytes()),
            serde_json::json!({"a": "é"})
        );
    }

    #[test]
    fn binary_bodies_stay_bytes() {
        let png = bin(Some("image/png"), b"\x89PNG\r\n\x1a\n\0\0");
        assert_eq!(png.media_type, "image/png");
        assert_eq!(&png.bytes[..], b"\x89PNG\r\n\x1a\n\0\0");
        for ct in [
            "application/octet-stream",
            "application/zip",
            "application/pdf",
            "application/gzip",
            "audio/ogg",
        ] {
            assert_eq!(
                bin(Some(ct), b"abc").media_type,
                ct,
                "even ASCII bytes under {ct} are binary"
            );
        }
        // Text invalid in its charset, or in an unknown one.
        assert_eq!(
            bin(Some("text/plain; charset=utf-8"), b"caf\xe9").media_type,
            "text/plain; charset=utf-8"
        );
        assert_eq!(
            bin(Some("text/plain; charset=x-unknown"), b"abc").media_type,
            "text/plain; charset=x-unknown"
        );
        // No content type: JSON, else UTF-8 text, else bytes.
        assert_eq!(data(None, b"[1]"), serde_json::json!([1]));
        assert_eq!(data(None, b"plain"), "plain");
        assert_eq!(bin(None, b"\xff\xfe\x00").media_type, OCTET_STREAM);
    }

    #[test]
    fn json_of_any_depth_parses() {
        for depth in [130usize, 10_000, 200_000] {
            let text = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
            let value = std::thread::Builder::new()
                .stack_size(2 * 1024 * 1024)
                .spawn(move || {
                    let value = parse_json(text.as_bytes()).unwrap();
                    // Measure (and dispose of) the value without recursion.
                    let mut depth = 0;
                    let mut cursor = value;
                    while let Value::Array(mut items) = cursor {
                        depth += 1;
                        cursor = items.pop().unwrap();
                    }
                    (depth, cursor)
                })
                .unwrap()
                .join()
                .unwrap();
            assert_eq!(value, (depth, serde_json::json!(1)));
        }
        assert!(parse_json(b"[[1]").is_err());
        assert!(parse_json(b"[1] x").is_err());
    }

    #[test]
    fn lone_surrogate_escapes_read_as_replacement_characters() {
        let parsed = parse_json(
            br#"{"high":"cut \ud83d","low":"\udc00 x","pair":"\ud83d\ude00","both":"\ud800\ud800\udc00","escaped":"\\ud800","end":"\ud800"}"#,
        )
        .unwrap();
        assert_eq!(parsed["high"], "cut \u{FFFD}");
        assert_eq!(parsed["low"], "\u{FFFD} x");
        assert_eq!(parsed["pair"], "\u{1F600}");
        assert_eq!(parsed["both"], "\u{FFFD}\u{10000}");
        assert_eq!(parsed["escaped"], "\\ud800");
        assert_eq!(parsed["end"], "\u{FFFD}");
        assert_eq!(without_lone_surrogates(br#"["\ud83d\ude00","\\udc00","\u00e9"]"#), None);
        assert!(parse_json(b"[\"\\ud800\" x").is_err(), "other faults still fail");
    }

    #[test]
    fn a_leading_byte_order_mark_is_skipped_and_one_inside_a_string_kept() {
        let body = b"\xEF\xBB\xBF{\"key\":\"\xEF\xBB\xBFEX-1\"}";
        let expected = serde_json::json!({"key": "\u{feff}EX-1"});
        assert_eq!(data(Some("application/json"), body), expected);
        assert_eq!(data(None, body), expected, "no content type: still JSON");
        assert_eq!(
            data(Some("application/json"), b"\xEF\xBB\xBF \n"),
            serde_json::json!({})
        );
        assert!(
            parse_json(b"\xEF\xBB\xBF\xEF\xBB\xBF[1]").is_err(),
            "only one mark, at the start"
        );
        assert!(
            parse_json(b" \xEF\xBB\xBF[1]").is_err(),
            "a mark after white space is not a BOM"
        );
    }
}

#[cfg(test)]
mod content_type_forms {
    use super::*;

    fn text(ct: &str, body: &'static [u8]) -> Option<String> {
        match payload(Some(ct), &Bytes::from_static(body)).ok()? {
            Payload::Data(Value::String(text)) => Some(text),
            _ => None,
        }
    }

    /// RFC 9110 §8.3.1: "text/html;charset=utf-8", "Text/HTML;Charset=\"utf-8\"", "text/html; charset=\"utf-8\"",
    /// "text/html;charset=UTF-8" are equivalent; a Latin-1 body shows which charset was read.
    #[test]
    fn rfc_9110_media_type_examples() {
        for ct in [
            "text/plain;charset=latin1",
            "Text/PLAIN;Charset=\"latin1\"",
            "text/plain; charset=\"latin1\"",
            "text/plain;charset=LATIN1",
            "text/plain ; charset=latin1",
            "text/plain;charset=latin1 ;format=flowed",
            "text/plain;;charset=latin1",
        ] {
            assert_eq!(text(ct, b"caf\xe9"), Some("café".to_owned()), "{ct}");
        }
    }
}
