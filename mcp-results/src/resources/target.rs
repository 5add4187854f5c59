//! What a `resources/read` URI asks for: an artifact id and, for a ranged read, the bytes.
//!
//! `artifact://<id>` is the whole artifact; `artifact://<id>?offset=N&maxBytes=M` (either parameter, in any order;
//! the RFC 6570 template `artifact://{artifactId}{?offset,maxBytes}`) is bytes `[N, N + M)`, `N` defaulting to 0
//! and `M` to [`super::MAX_READ_BYTES`] (clamped `1..=MAX_READ_BYTES`). The names and units are `artifact_read`'s
//! (bytes, not characters).

use rmcp::ErrorData;

use super::{MAX_READ_BYTES, URI_PREFIX};

/// A byte range of an artifact: `offset` (first byte) and `max_bytes` (most bytes returned, `1..=MAX_READ_BYTES`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Range {
    pub(crate) offset: u64,
    pub(crate) max_bytes: u64,
}

/// A parsed artifact URI: the id, and the range when the URI has a query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Target<'a> {
    pub(crate) id: &'a str,
    pub(crate) range: Option<Range>,
}

/// Why a URI is not an artifact URI: `NotOurs` (not this scheme, or no well-formed id: answered as not found,
/// like an unknown id) or `BadQuery` (an id with a query that is not `offset` / `maxBytes` as decimal integers:
/// answered as invalid params, saying the form).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TargetError {
    NotOurs,
    BadQuery(String),
}

impl TargetError {
    /// The JSON-RPC error for `uri`: `not_found()` for [`TargetError::NotOurs`], invalid params otherwise.
    pub(crate) fn into_error(self, uri: &str, not_found: impl FnOnce() -> ErrorData) -> ErrorData {
        match self {
            Self::NotOurs => not_found(),
            Self::BadQuery(why) => ErrorData::invalid_params(
                format!(
                    "{why}: an artifact URI is artifact://<artifactId>, or artifact://<artifactId>?offset=N&maxBytes=M \
                     for bytes N to N+M (M at most {MAX_READ_BYTES})"
                ),
                Some(serde_json::json!({"uri": uri})),
            ),
        }
    }
}

/// Parses `uri` (see the module doc).
pub(crate) fn parse(uri: &str) -> Result<Target<'_>, TargetError> {
    let rest = uri.strip_prefix(URI_PREFIX).ok_or(TargetError::NotOurs)?;
    let (id, query) = match rest.split_once('?') {
        Some((id, query)) => (id, Some(query)),
        None => (rest, None),
    };
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(TargetError::NotOurs);
    }
    let Some(query) = query else {
        return Ok(Target { id, range: None });
    };
    let mut offset = None;
    let mut max_bytes = None;
    for pair in query.split('&') {
        let (name, value) = pair
            .split_once('=')
            .ok_or_else(|| TargetError::BadQuery(format!("query parameter {pair:?} has no value")))?;
        let slot = match name {
            "offset" => &mut offset,
            "maxBytes" => &mut max_bytes,
            other => return Err(TargetError::BadQuery(format!("unknown query parameter {other:?}"))),
        };
        if slot.is_some() {
            return Err(TargetError::BadQuery(format!("query parameter {name} given twice")));
        }
        let number = value
            .parse::<u64>()
            .map_err(|_| TargetError::BadQuery(format!("{name}={value:?} is not a whole number of bytes")))?;
        *slot = Some(number);
    }
    let range = Range {
        offset: offset.unwrap_or(0),
        max_bytes: max_bytes.unwrap_or(MAX_READ_BYTES).clamp(1, MAX_READ_BYTES),
    };
    Ok(Target { id, range: Some(range) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(offset: u64, max_bytes: u64) -> Option<Range> {
        Some(Range { offset, max_bytes })
    }

    #[test]
    fn whole_and_ranged_uris() {
        assert_eq!(
            parse("artifact://ab12"),
            Ok(Target {
                id: "ab12",
                range: None
            })
        );
        assert_eq!(
            parse("artifact://ab12?offset=10&maxBytes=5"),
            Ok(Target {
                id: "ab12",
                range: range(10, 5)
            })
        );
        assert_eq!(
            parse("artifact://ab12?maxBytes=0"),
            Ok(Target {
                id: "ab12",
                range: range(0, 1)
            })
        );
        assert_eq!(
            parse("artifact://ab12?offset=7"),
            Ok(Target {
                id: "ab12",
                range: range(7, MAX_READ_BYTES)
            })
        );
        assert_eq!(
            parse("artifact://ab12?maxBytes=99999999999"),
            Ok(Target {
                id: "ab12",
                range: range(0, MAX_READ_BYTES)
            })
        );
    }

    #[test]
    fn not_ours_and_bad_queries() {
        for uri in [
            "artifact://",
            "artifact://ab/12",
            "file:///ab12",
            "ARTIFACT://ab12",
            "artifact://?offset=1",
        ] {
            assert_eq!(parse(uri), Err(TargetError::NotOurs), "{uri}");
        }
        for uri in [
            "artifact://ab12?x=1",
            "artifact://ab12?offset",
            "artifact://ab12?offset=-1",
            "artifact://ab12?offset=1&offset=2",
            "artifact://ab12?maxBytes=1e3",
            "artifact://ab12?",
        ] {
            assert!(matches!(parse(uri), Err(TargetError::BadQuery(_))), "{uri}");
        }
    }
}
