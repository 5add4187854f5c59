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
    /// The vendor's field errors, verbatim ([`field_errors`]): GitHub's 422 `errors[]`, Jira's
    /// `errors` / `errorMessages`, Bitbucket's `error.fields`; `None` when the body has none.
    pub field_errors: Option<Box<serde_json::Value>>,
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
            field_errors: field_errors(body).map(Box::new),
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

/// The vendor's message from an error body: what `extract` finds in a JSON body (a leading byte-order mark skipped),
/// else, for an HTML page (a proxy's, a gateway's or a server's error page), its `<title>` (else its first `<h1>`,
/// else its text without tags, scripts and styles) followed by `(an HTML page of N bytes)`, else the body's text
/// (trimmed, at most [`MAX_MESSAGE_BYTES`], cut on a UTF-8 boundary and followed by `… (N bytes in all)` when cut),
/// else the status's reason phrase (`Bad Gateway`), else `(empty body)`.
pub fn vendor_message(status: u16, body: &[u8], extract: fn(&serde_json::Value) -> Option<String>) -> String {
    if let Ok(json) = serde_json::from_slice::<serde_json::Value>(crate::decode::without_bom(body))
        && let Some(message) = extract(&json)
    {
        return bounded(&message);
    }
    if let Some(summary) = std::str::from_utf8(crate::decode::without_bom(body))
        .ok()
        .and_then(html_summary)
    {
        return if summary.is_empty() {
            format!("an HTML page of {} bytes", body.len())
        } else {
            format!("{summary} (an HTML page of {} bytes)", body.len())
        };
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

/// Longest HTML summary kept in an error, in bytes.
const MAX_HTML_SUMMARY_BYTES: usize = 300;

/// When `text` is an HTML page: its `<title>`, else its first `<h1>`, else its text, with tags read as spaces, white
/// space collapsed, at most [`MAX_HTML_SUMMARY_BYTES`]. Character references are left as written and every tag becomes
/// a space, so the summary is pieces of the (already redacted) body side by side and never joins two pieces into a
/// secret.
fn html_summary(text: &str) -> Option<String> {
    let trimmed = text.trim_start();
    let lower = trimmed.to_ascii_lowercase();
    let mut head_len = lower.len().min(1024);
    while !lower.is_char_boundary(head_len) {
        head_len -= 1;
    }
    let head = &lower[..head_len];
    let is_html = trimmed.starts_with('<')
        && ["<!doctype html", "<html", "<head", "<body", "<title"]
            .iter()
            .any(|tag| head.contains(tag));
    if !is_html {
        return None;
    }
    let element = |name: &str| -> Option<&str> {
        let open = lower.find(&format!("<{name}"))?;
        let start = open + lower[open..].find('>')? + 1;
        let end = start + lower[start..].find(&format!("</{name}"))?;
        Some(&trimmed[start..end])
    };
    let picked = [element("title"), element("h1")]
        .into_iter()
        .flatten()
        .map(without_tags)
        .find(|s| !s.is_empty())
        .unwrap_or_else(|| without_tags(&without_blocks(trimmed, &lower)));
    let cut = truncate_utf8(picked.as_bytes(), MAX_HTML_SUMMARY_BYTES);
    Some(if cut.len() < picked.len() {
        format!("{}…", String::from_utf8_lossy(cut))
    } else {
        picked
    })
}

/// `text` without its `<script>` and `<style>` elements (`lower` is `text` in ASCII lower case).
fn without_blocks(text: &str, lower: &str) -> String {
    let mut out = String::new();
    let mut at = 0;
    while at < text.len() {
        let next = ["<script", "<style"]
            .iter()
            .filter_map(|tag| lower[at..].find(tag).map(|i| (at + i, &tag[1..])))
            .min();
        let Some((start, name)) = next else { break };
        out.push_str(&text[at..start]);
        out.push(' ');
        at = match lower[start..].find(&format!("</{name}")) {
            Some(close) => {
                let close = start + close;
                lower[close..].find('>').map_or(text.len(), |gt| close + gt + 1)
            }
            None => text.len(),
        };
    }
    if at < text.len() {
        out.push_str(&text[at..]);
    }
    out
}

/// `html` with every tag (`<…>`, and an unclosed one to the end) read as a space and white space collapsed.
fn without_tags(html: &str) -> String {
    let mut spaced = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match (in_tag, c) {
            (false, '<') => {
                in_tag = true;
                spaced.push(' ');
            }
            (true, '>') => in_tag = false,
            (false, c) => spaced.push(c),
            (true, _) => {}
        }
    }
    spaced.split_whitespace().collect::<Vec<_>>().join(" ")
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

/// The field errors of a vendor's JSON error body, verbatim: a non-empty `errors` (array or object; GitHub,
/// Jira, Confluence v2), with Jira's non-empty `errorMessages` beside it as `{"errorMessages", "errors"}`, or
/// Bitbucket's `error.fields`. `None` for anything else (CircleCI's `{"message"}` has none).
pub fn field_errors(body: &[u8]) -> Option<serde_json::Value> {
    use serde_json::Value;
    let json: Value = serde_json::from_slice(crate::decode::without_bom(body)).ok()?;
    let non_empty = |v: Option<&Value>| {
        v.filter(|v| match v {
            Value::Array(items) => !items.is_empty(),
            Value::Object(fields) => !fields.is_empty(),
            _ => false,
        })
        .cloned()
    };
    let errors = non_empty(json.get("errors"));
    if let Some(messages) = non_empty(json.get("errorMessages")) {
        let mut both = serde_json::Map::new();
        both.insert("errorMessages".to_owned(), messages);
        if let Some(errors) = errors {
            both.insert("errors".to_owned(), errors);
        }
        return Some(Value::Object(both));
    }
    errors.or_else(|| non_empty(json.get("error").and_then(|e| e.get("fields"))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_errors_of_each_vendor() {
        // GitHub, https://docs.github.com/rest/using-the-rest-api/troubleshooting-the-rest-api (422 errors[]).
        let github = br#"{"message":"Validation Failed","errors":[{"resource":"Issue","field":"title","code":"missing_field"}],"documentation_url":"https://docs.github.com/rest"}"#;
        assert_eq!(
            field_errors(github),
            Some(serde_json::json!([{"resource":"Issue","field":"title","code":"missing_field"}]))
        );
        let jira =
            br#"{"errorMessages":["Field 'x' does not exist."],"errors":{"summary":"You must specify a summary."}}"#;
        assert_eq!(
            field_errors(jira),
            Some(
                serde_json::json!({"errorMessages":["Field 'x' does not exist."],"errors":{"summary":"You must specify a summary."}})
            )
        );
        assert_eq!(
            field_errors(br#"{"errorMessages":[],"errors":{"summary":"required"}}"#),
            Some(serde_json::json!({"summary":"required"}))
        );
        let bitbucket = br#"{"type":"error","error":{"message":"Bad request","fields":{"title":["required"]}}}"#;
        assert_eq!(field_errors(bitbucket), Some(serde_json::json!({"title":["required"]})));
        assert_eq!(field_errors(br#"{"message":"Project not found"}"#), None);
        assert_eq!(field_errors(br#"{"errors":[]}"#), None);
        assert_eq!(field_errors(b"<html>"), None);
    }
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
    fn html_error_pages_are_reduced_to_their_title() {
        let style = format!("<style>{}</style>", "body{margin:0;padding:0}".repeat(200));
        let cloudflare = format!(
            "<!DOCTYPE html>\n<!--[if lt IE 7]> <html class=\"no-js ie6 oldie\" lang=\"en-US\"> <![endif]-->\n<html><head>\n<title>api.github.com | 502: Bad gateway</title>{style}<script>var x = '<b>';</script></head><body><h1>Bad gateway</h1><p>Error code 502</p></body></html>"
        );
        let msg = vendor_message(502, cloudflare.as_bytes(), message);
        assert_eq!(
            msg,
            format!(
                "api.github.com | 502: Bad gateway (an HTML page of {} bytes)",
                cloudflare.len()
            )
        );
        let tomcat = b"<!doctype html><html lang=\"en\"><head><TITLE>HTTP Status 404 \xe2\x80\x93 Not &amp; Found</TITLE></head><body><h1>x</h1></body></html>";
        assert!(
            vendor_message(404, tomcat, message)
                .starts_with("HTTP Status 404 \u{2013} Not &amp; Found (an HTML page of"),
            "character references stay as written"
        );
        let h1 = b"<html><head><title>  </title></head><body><h1>Service <em>Unavailable</em></h1></body></html>";
        assert!(vendor_message(503, h1, message).starts_with("Service Unavailable (an HTML page of"));
        let text = format!(
            "<html><head>{style}</head><body><p>Upstream\n  connect error</p><script>x()</script></body></html>"
        );
        assert!(vendor_message(503, text.as_bytes(), message).starts_with("Upstream connect error (an HTML page of"));
        assert_eq!(
            vendor_message(502, b"<html></html>", message),
            "an HTML page of 13 bytes"
        );
        assert!(
            vendor_message(
                500,
                format!("<html><title>{}</title></html>", "\u{e9}".repeat(400)).as_bytes(),
                message
            )
            .contains("\u{e9}\u{2026} (an HTML page")
        );
        let no_join = b"<html><body>ghp_<b></b>secret</body></html>";
        assert!(
            vendor_message(500, no_join, message).starts_with("ghp_ secret"),
            "tags never join text"
        );
        let xml = b"<?xml version=\"1.0\"?><Error><Code>AccessDenied</Code></Error>";
        assert_eq!(
            vendor_message(403, xml, message),
            String::from_utf8_lossy(xml),
            "XML stays verbatim"
        );
        let multibyte = format!("<{}", "\u{e9}".repeat(600));
        assert_eq!(vendor_message(400, multibyte.as_bytes(), message), multibyte);
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
            "bad (an HTML page of 20 bytes)"
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
