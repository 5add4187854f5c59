//! The credentials of signed URLs, wherever they appear in a text (private module; the rules are on
//! [`super::Redactor`]).
//!
//! A signed URL carries its credential in its query: AWS SigV4 (`X-Amz-Credential`, `X-Amz-Signature`,
//! `X-Amz-Security-Token`: <https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html>) and
//! SigV2 (`AWSAccessKeyId`, `Signature`), Azure SAS (`sig`:
//! <https://learn.microsoft.com/rest/api/storageservices/create-service-sas>), GCS V4 and V2 (`X-Goog-Signature`,
//! `X-Goog-Credential`, `GoogleAccessId`, `Signature`: <https://cloud.google.com/storage/docs/access-control/signed-urls>),
//! CloudFront (`Signature`, `Key-Pair-Id`), GitHub's log hosts (`sig`, `urlSignature`) and raw-file tokens
//! (`token`). The same values come back in the hosts' own error bodies (S3 and GCS quote `<SignatureProvided>`,
//! `<StringToSign>`, `<CanonicalRequest>` and the access key) and in an echoed `Authorization: AWS4-HMAC-SHA256
//! Credential=…, Signature=…` header. Each such value is replaced by `[redacted]`; the parameter's name stays, so
//! a reader still sees what was there.

/// What replaces a value.
pub(super) const MARK: &[u8] = b"[redacted]";

/// Parameter names whose value is a credential (matched in any case).
const QUERY_NAMES: &[&str] = &[
    "sig",
    "signature",
    "urlSignature",
    "X-Amz-Signature",
    "X-Amz-Credential",
    "X-Amz-Security-Token",
    "AWSAccessKeyId",
    "X-Goog-Signature",
    "X-Goog-Credential",
    "GoogleAccessId",
    "Key-Pair-Id",
    "credential",
    "token",
    "access_token",
];

/// What may stand right before a name besides a delimiter: the `&` or `?` of a URL that was itself
/// percent-encoded, or a `&` JSON-escaped as HTML-safe encoders write it (`\u0026`).
const ENCODED_DELIMITERS: &[&str] = &["%26", "%3F", "\\u0026"];

/// XML elements of S3's and GCS's error bodies that quote the request's signature or credential
/// (<https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html>).
const ELEMENTS: &[&str] = &[
    "<SignatureProvided>",
    "<StringToSign>",
    "<StringToSignBytes>",
    "<CanonicalRequest>",
    "<CanonicalRequestBytes>",
    "<AWSAccessKeyId>",
];

/// Where a value ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Value {
    /// A query or header parameter's: at a delimiter of URLs, headers, JSON, HTML or prose.
    Query,
    /// An XML element's: at the next `<`.
    Element,
}

/// The longest pattern, in bytes: an encoded delimiter, the longest name and `%3D`. A match that starts before the
/// last `MAX_LEN - 1` bytes of what a pass has seen is complete.
pub(super) const MAX_LEN: usize = {
    let mut longest = 0;
    let mut i = 0;
    while i < QUERY_NAMES.len() {
        if QUERY_NAMES[i].len() > longest {
            longest = QUERY_NAMES[i].len();
        }
        i += 1;
    }
    // `\u0026` (6 bytes) + name + `%3D` (3 bytes); no element is longer.
    6 + longest + 3
};

/// One place where a credential value opens: the pattern's span in the text and the value's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Opening {
    /// Where the pattern starts (its encoded delimiter, else its name or element).
    pub(super) start: usize,
    /// Where the value starts (after `=`, `%3D` or the element's tag).
    pub(super) end: usize,
    /// What ends the value.
    pub(super) value: Value,
    /// The byte before `start` must not continue a name ([`starts_name`]); false when an encoded delimiter or an
    /// element opened it.
    pub(super) check: bool,
}

/// The first opening in `hay` at or after `from`, in the order of their starts; `prev` is the byte before `hay`
/// (for the check of a name at its very start). Equivalent to a leftmost-longest, ASCII-case-insensitive search for
/// every `NAME=`, `NAME%3D`, `DELIM NAME=`…, and element, taking the first whose check passes, but driven by
/// `memchr` over the three bytes every pattern holds (`=`, `%`, `<`), so text without them costs almost nothing.
pub(super) fn next_opening(hay: &[u8], from: usize, prev: Option<u8>) -> Option<Opening> {
    let mut at = from;
    while let Some(found) = memchr::memchr3(b'=', b'%', b'<', hay.get(at..)?) {
        let i = at + found;
        at = i + 1;
        let opening = match hay[i] {
            b'<' => element_at(hay, i),
            b'=' => query_at(hay, from, i, i + 1),
            _ if hay.get(i + 1..i + 3).is_some_and(|n| n.eq_ignore_ascii_case(b"3D")) => query_at(hay, from, i, i + 3),
            _ => None,
        };
        if let Some(opening) = opening {
            let before = if opening.start > 0 {
                Some(hay[opening.start - 1])
            } else {
                prev
            };
            if !opening.check || starts_name(before) {
                return Some(opening);
            }
        }
    }
    None
}

/// An element of [`ELEMENTS`] starting at `i` (any case).
fn element_at(hay: &[u8], i: usize) -> Option<Opening> {
    ELEMENTS.iter().find_map(|element| {
        let end = i + element.len();
        hay.get(i..end)
            .is_some_and(|tag| tag.eq_ignore_ascii_case(element.as_bytes()))
            .then_some(Opening {
                start: i,
                end,
                value: Value::Element,
                check: false,
            })
    })
}

/// The longest name of [`QUERY_NAMES`] ending at `sep` (not before `from`), with an encoded delimiter before it
/// when there is one; the value starts at `end`.
fn query_at(hay: &[u8], from: usize, sep: usize, end: usize) -> Option<Opening> {
    let before = &hay[from..sep];
    let name = QUERY_NAMES
        .iter()
        .filter(|name| {
            before.len() >= name.len() && before[before.len() - name.len()..].eq_ignore_ascii_case(name.as_bytes())
        })
        .map(|name| name.len())
        .max()?;
    let start = sep - name;
    let encoded = ENCODED_DELIMITERS
        .iter()
        .find(|d| start >= from + d.len() && hay[start - d.len()..start].eq_ignore_ascii_case(d.as_bytes()))
        .map(|d| d.len());
    Some(match encoded {
        Some(len) => Opening {
            start: start - len,
            end,
            value: Value::Query,
            check: false,
        },
        None => Opening {
            start,
            end,
            value: Value::Query,
            check: true,
        },
    })
}

/// True when a name may start after `prev` (the byte before it, `None` at the start of the text): not in the
/// middle of a longer name (`design=`, `page-token=`, `next_page_token=` are not credentials).
pub(super) fn starts_name(prev: Option<u8>) -> bool {
    !prev.is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~' | b'%'))
}

/// How far a value reaches into `hay`.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Reach {
    /// It ends after this many bytes (the delimiter is not part of it).
    Ends(usize),
    /// It runs on past `hay`; of `hay`, this many bytes are surely part of it, and the rest (a `%` or `\` that the
    /// next bytes decide) must be looked at again with them.
    Continues(usize),
}

/// Where a value of kind `value` ends in `hay`; `last`: no bytes follow `hay`.
pub(super) fn reach(hay: &[u8], value: Value, last: bool) -> Reach {
    if value == Value::Element {
        return match memchr_lt(hay) {
            Some(end) => Reach::Ends(end),
            None => Reach::Continues(hay.len()),
        };
    }
    let mut i = 0;
    while i < hay.len() {
        match hay[i] {
            b'&' | b'#' | b'"' | b'\'' | b'<' | b'>' | b'`' | b')' | b']' | b'}' | b'|' | b',' | b';' => {
                return Reach::Ends(i);
            }
            b if b.is_ascii_whitespace() || b.is_ascii_control() => return Reach::Ends(i),
            // `%26` is an encoded `&`: the next parameter of an encoded URL.
            b'%' => match hay.get(i + 1..i + 3) {
                Some(next) if next.eq_ignore_ascii_case(b"26") => return Reach::Ends(i),
                Some(_) => i += 1,
                None if last => i += 1,
                None => return Reach::Continues(i),
            },
            // `\/` is a JSON-escaped `/` (base64 has them); any other escape (`\u0026`, `\"`) ends the value.
            b'\\' => match hay.get(i + 1) {
                Some(b'/') => i += 2,
                Some(_) => return Reach::Ends(i),
                None if last => return Reach::Ends(i),
                None => return Reach::Continues(i),
            },
            _ => i += 1,
        }
    }
    if last {
        Reach::Ends(hay.len())
    } else {
        Reach::Continues(hay.len())
    }
}

fn memchr_lt(hay: &[u8]) -> Option<usize> {
    memchr::memchr(b'<', hay)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_end_at_their_delimiters() {
        assert_eq!(reach(b"abc&x", Value::Query, false), Reach::Ends(3));
        assert_eq!(reach(b"a%2Bc%26x", Value::Query, false), Reach::Ends(5));
        assert_eq!(reach(b"a%2", Value::Query, false), Reach::Continues(1));
        assert_eq!(reach(b"a%2", Value::Query, true), Reach::Ends(3));
        assert_eq!(reach(b"a\\/b\\u0026", Value::Query, false), Reach::Ends(4));
        assert_eq!(reach(b"ab\\", Value::Query, false), Reach::Continues(2));
        assert_eq!(reach(b"ab", Value::Query, false), Reach::Continues(2));
        assert_eq!(reach(b"ab", Value::Query, true), Reach::Ends(2));
        assert_eq!(reach(b"a\nb<c", Value::Element, false), Reach::Ends(3));
    }

    #[test]
    fn names_start_after_delimiters_only() {
        assert!(starts_name(None));
        assert!(starts_name(Some(b'&')));
        assert!(starts_name(Some(b' ')));
        assert!(!starts_name(Some(b'e')));
        assert!(!starts_name(Some(b'-')));
    }
}
