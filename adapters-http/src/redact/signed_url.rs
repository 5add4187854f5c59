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

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};

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

/// How a name meets its value: as is, or percent-encoded (a signed URL inside another URL's query).
const SEPARATORS: &[&str] = &["=", "%3D"];

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

/// The one automaton over every pattern, with what each one opens.
pub(super) struct Patterns {
    pub(super) automaton: AhoCorasick,
    /// Per pattern: the value it opens, and whether the byte before it must be checked ([`starts_name`]).
    pub(super) kinds: Vec<(Value, bool)>,
    /// The longest pattern, in bytes.
    pub(super) max_len: usize,
}

/// Built once per process.
pub(super) static PATTERNS: LazyLock<Option<Patterns>> = LazyLock::new(build);

fn build() -> Option<Patterns> {
    let mut patterns = Vec::new();
    let mut kinds = Vec::new();
    for name in QUERY_NAMES {
        for sep in SEPARATORS {
            patterns.push(format!("{name}{sep}"));
            kinds.push((Value::Query, true));
            for amp in ENCODED_DELIMITERS {
                patterns.push(format!("{amp}{name}{sep}"));
                kinds.push((Value::Query, false));
            }
        }
    }
    for element in ELEMENTS {
        patterns.push((*element).to_owned());
        kinds.push((Value::Element, false));
    }
    let max_len = patterns.iter().map(String::len).max().unwrap_or(0);
    let automaton = AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostLongest)
        .ascii_case_insensitive(true)
        .kind(Some(AhoCorasickKind::DFA))
        .build(&patterns);
    match automaton {
        Ok(automaton) => Some(Patterns {
            automaton,
            kinds,
            max_len,
        }),
        Err(err) => {
            // A fixed, small pattern set: this does not happen. Say so loudly rather than pretend.
            tracing::error!(target: "adapters_http", error = %err, "the signed-URL redactor could not be built");
            None
        }
    }
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
    hay.iter().position(|&b| b == b'<')
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
        assert!(PATTERNS.is_some());
    }
}
