//! Classification of non-2xx answers, shared by every vendor, with the vendor's own message kept verbatim.
//!
//! Status meanings follow RFC 9110 §15; `Retry-After` follows RFC 9110 §10.2.3 (delay-seconds or an HTTP date);
//! `Retry-After-Ms` (milliseconds) is read first when present (see [`crate::retry_after::requested_wait`]).

use std::time::SystemTime;

use http::{HeaderMap, StatusCode};

use crate::retry_after::{requested_wait, whole_seconds};
use crate::vendor::Vendor;

/// Longest vendor message kept in an error, in bytes (cut on a UTF-8 boundary, with the full size noted).
pub const MAX_MESSAGE_BYTES: usize = 2048;

/// What a non-2xx status means for the caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StatusClass {
    /// 401: the credential is missing, invalid or expired.
    Unauthorized,
    /// 403: the credential lacks access (vendors may refine a 403 into a rate limit).
    Forbidden,
    /// 404: no such resource, or the credential cannot see it.
    NotFound,
    /// 429: rate limited.
    RateLimited,
    /// Any other 4xx (400, 409, 422, …).
    Client,
    /// 5xx.
    Server,
    /// 3xx that was not followed (a redirect to another host, or too many).
    Redirect,
    /// 1xx or a code outside 100..=599.
    Unexpected,
}

impl StatusClass {
    /// The class of a status code; 2xx is [`StatusClass::Unexpected`] (callers check success first).
    pub fn of(status: u16) -> Self {
        match status {
            401 => Self::Unauthorized,
            403 => Self::Forbidden,
            404 => Self::NotFound,
            429 => Self::RateLimited,
            400..=499 => Self::Client,
            500..=599 => Self::Server,
            300..=399 => Self::Redirect,
            _ => Self::Unexpected,
        }
    }
}

/// A non-2xx answer: its status, class, the vendor's message and, when given, how long to wait.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusError {
    /// The upstream.
    pub vendor: Vendor,
    /// HTTP status code.
    pub status: u16,
    /// What the status means.
    pub class: StatusClass,
    /// The vendor's message, verbatim, at most [`MAX_MESSAGE_BYTES`] (see [`vendor_message`]).
    pub message: String,
    /// Seconds the upstream asked to wait (`Retry-After-Ms` rounded up to whole seconds, else `Retry-After`),
    /// when present. When it is set the error text says so, whatever the class: a retried read gives up at once
    /// when this wait does not fit in the call's timeout.
    pub retry_after_secs: Option<u64>,
    /// The vendor's field errors, verbatim ([`crate::error_info::field_errors`]): GitHub's 422 `errors[]`, Jira's
    /// `errors` / `errorMessages`, Bitbucket's `error.fields`; `None` when the body has none.
    pub field_errors: Option<serde_json::Value>,
}

impl StatusError {
    /// Builds the error from a response's status, headers and body; `extract` picks the message out of a JSON
    /// body (see [`vendor_message`]).
    pub fn from_parts(
        vendor: Vendor,
        status: u16,
        headers: &HeaderMap,
        body: &[u8],
        extract: fn(&serde_json::Value) -> Option<String>,
    ) -> Self {
        let retry_after_secs = requested_wait(headers, SystemTime::now()).map(whole_seconds);
        Self {
            vendor,
            status,
            class: StatusClass::of(status),
            message: vendor_message(status, body, extract),
            retry_after_secs,
            field_errors: crate::error_info::field_errors(body),
        }
    }

    /// The sentence after the message: what to do about this class of failure, and how long the upstream asked
    /// to wait when it said.
    pub fn hint(&self) -> String {
        let vendor = self.vendor;
        if let Some(secs) = self.retry_after_secs
            && self.class != StatusClass::RateLimited
        {
            return format!(" — {} asked to retry after {secs} s", vendor.name);
        }
        match self.class {
            StatusClass::Unauthorized => format!(
                " — check that {} is a valid, unexpired credential",
                vendor.credential_setting
            ),
            StatusClass::Forbidden => " — check that the credential has access to this resource".to_owned(),
            StatusClass::NotFound => {
                " — check the path and its ids, and that the credential can see the resource".to_owned()
            }
            StatusClass::RateLimited => match self.retry_after_secs {
                Some(secs) => format!(" — rate limited: retry after {secs} s"),
                None => " — rate limited: wait a minute before trying again".to_owned(),
            },
            StatusClass::Client => " — check the path and query parameters".to_owned(),
            StatusClass::Server => format!(" — {} had a problem; try again later", vendor.name),
            StatusClass::Redirect => {
                " — the redirect was not followed (it led to another host, or there were too many)".to_owned()
            }
            StatusClass::Unexpected => String::new(),
        }
    }
}

impl std::fmt::Display for StatusError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} API {}{}: {}{}",
            self.vendor.name,
            self.status,
            reason(self.status),
            self.message,
            self.hint()
        )
    }
}

/// The vendor's message from an error body: what `extract` finds in a JSON body (a leading byte-order mark skipped), else the body's text (trimmed,
/// at most [`MAX_MESSAGE_BYTES`], cut on a UTF-8 boundary and followed by `… (N bytes in all)` when cut), else the
/// status's reason phrase (`Bad Gateway`), else `(empty body)`.
pub fn vendor_message(status: u16, body: &[u8], extract: fn(&serde_json::Value) -> Option<String>) -> String {
    if let Ok(json) = serde_json::from_slice::<serde_json::Value>(crate::decode::without_bom(body))
        && let Some(message) = extract(&json)
    {
        return bounded(&message);
    }
    let raw = truncate_utf8(body, MAX_MESSAGE_BYTES);
    let text = String::from_utf8_lossy(raw);
    let text = text.trim();
    if text.is_empty() {
        return StatusCode::from_u16(status)
            .ok()
            .and_then(|s| s.canonical_reason())
            .unwrap_or("(empty body)")
            .to_owned();
    }
    if raw.len() < body.len() {
        format!("{text}… ({} bytes in all)", body.len())
    } else {
        text.to_owned()
    }
}

fn bounded(message: &str) -> String {
    let cut = truncate_utf8(message.as_bytes(), MAX_MESSAGE_BYTES);
    if cut.len() < message.len() {
        format!("{}… ({} bytes in all)", String::from_utf8_lossy(cut), message.len())
    } else {
        message.to_owned()
    }
}

/// The first `max` bytes of `bytes`, shortened to a UTF-8 character boundary when it is text.
pub fn truncate_utf8(bytes: &[u8], max: usize) -> &[u8] {
    if bytes.len() <= max {
        return bytes;
    }
    let mut end = max;
    // Step back over continuation bytes (at most 3) so a multi-byte character is not split.
    while end > 0 && end > max.saturating_sub(3) && (bytes[end] & 0b1100_0000) == 0b1000_0000 {
        end -= 1;
    }
    &bytes[..end]
}

/// ` <reason phrase>` for a status, or nothing for an unknown status.
pub fn reason(status: u16) -> String {
    StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .map(|r| format!(" {r}"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;
    use std::time::UNIX_EPOCH;

    const V: Vendor = Vendor {
        name: "CircleCI",
        base_setting: "CIRCLECI_API_BASE",
        credential_setting: "CIRCLECI_TOKEN",
        max_body_setting: "TEST_MAX_BODY_BYTES",
    };

    fn message(v: &serde_json::Value) -> Option<String> {
        v.get("message")?.as_str().map(str::to_owned)
    }

    #[test]
    fn classes() {
        assert_eq!(StatusClass::of(401), StatusClass::Unauthorized);
        assert_eq!(StatusClass::of(403), StatusClass::Forbidden);
        assert_eq!(StatusClass::of(404), StatusClass::NotFound);
        assert_eq!(StatusClass::of(429), StatusClass::RateLimited);
        assert_eq!(StatusClass::of(422), StatusClass::Client);
        assert_eq!(StatusClass::of(503), StatusClass::Server);
        assert_eq!(StatusClass::of(302), StatusClass::Redirect);
        assert_eq!(StatusClass::of(101), StatusClass::Unexpected);
    }

    #[test]
    fn messages_are_verbatim_and_bounded() {
        let body = b"{\n  \"message\" : \"Project not found\"\n}";
        let err = StatusError::from_parts(V, 404, &HeaderMap::new(), body, message);
        assert_eq!(
            err.to_string(),
            "CircleCI API 404 Not Found: Project not found — check the path and its ids, and that the credential can see the resource"
        );
        assert_eq!(
            vendor_message(502, b"  <html>bad</html> \n", message),
            "<html>bad</html>"
        );
        assert_eq!(vendor_message(502, b"", message), "Bad Gateway");
        assert_eq!(
            vendor_message(404, b"\xEF\xBB\xBF{\"message\":\"gone\"}", message),
            "gone"
        );
        assert_eq!(vendor_message(599, b"", message), "(empty body)");
        let long = "é".repeat(3000);
        let msg = vendor_message(500, long.as_bytes(), message);
        assert!(msg.ends_with("(6000 bytes in all)") && msg.len() < 2100 && !msg.contains('\u{FFFD}'));
        let json = serde_json::json!({ "message": "x".repeat(5000) }).to_string();
        assert!(vendor_message(400, json.as_bytes(), message).ends_with("(5000 bytes in all)"));
    }

    #[test]
    fn rate_limit_with_retry_after() {
        let mut headers = HeaderMap::new();
        headers.insert("retry-after", HeaderValue::from_static("7"));
        let err = StatusError::from_parts(V, 429, &headers, b"slow down", message);
        assert_eq!(err.class, StatusClass::RateLimited);
        assert_eq!(err.retry_after_secs, Some(7));
        assert!(
            err.to_string().ends_with("slow down — rate limited: retry after 7 s"),
            "{err}"
        );
    }

    #[test]
    fn any_status_reports_the_requested_wait() {
        let mut headers = HeaderMap::new();
        headers.insert("retry-after-ms", HeaderValue::from_static("86400000"));
        let err = StatusError::from_parts(V, 503, &headers, b"", message);
        assert_eq!(err.retry_after_secs, Some(86_400));
        assert_eq!(
            err.to_string(),
            "CircleCI API 503 Service Unavailable: Service Unavailable — CircleCI asked to retry after 86400 s"
        );
        let err = StatusError::from_parts(V, 429, &headers, b"", message);
        assert!(err.to_string().ends_with("rate limited: retry after 86400 s"), "{err}");
    }

    #[test]
    fn retry_after_forms() {
        use crate::retry_after::parse_retry_after;
        let now = UNIX_EPOCH + std::time::Duration::from_secs(1_377_013_266);
        assert_eq!(parse_retry_after("60", now), Some(60));
        assert_eq!(parse_retry_after("Tue, 20 Aug 2013 15:42:06 GMT", now), Some(60));
        assert_eq!(parse_retry_after("Tue, 20 Aug 2013 14:50:41 GMT", now), Some(0));
        assert_eq!(parse_retry_after("soon", now), None);
        assert_eq!(parse_retry_after("-5", now), None);
    }
}
