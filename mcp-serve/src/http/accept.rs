//! `Accept` read as RFC 9110 §12.5.1 reads it, before rmcp's check: rmcp answers `406` unless the header names both
//! `application/json` and `text/event-stream` literally, so `*/*`, `text/*`, a missing header, or Claude.ai's
//! proxy's `text/event-stream` alone are refused although they accept what the server sends. Here, when the
//! client accepts the media type the answer will have — an event stream for a `GET` and, with sessions, for a
//! `POST`; JSON for a `POST` when serving without sessions (rmcp's JSON responses) — the header is rewritten to the
//! one rmcp expects. A client that accepts only the other type (a `q=0` range excludes one) keeps its header and
//! still gets `406`. Also the one reading of a `Content-Type` ([`content_type_is`]).

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use http::{HeaderValue, Method, header};

/// What rmcp expects of a `POST`.
const POST_ACCEPT: &str = "application/json, text/event-stream";
/// What rmcp expects of a `GET`.
const GET_ACCEPT: &str = "text/event-stream";

/// Axum middleware: rewrites `Accept` of `GET` and `POST` per the module docs. `stateless` is
/// [`super::HttpConfig::stateless`].
pub async fn negotiate(State(stateless): State<bool>, mut request: Request, next: Next) -> Response {
    let rewrite = match *request.method() {
        Method::GET => accepts(request.headers(), "text", "event-stream").then_some(GET_ACCEPT),
        Method::POST => {
            let (kind, sub) = if stateless {
                ("application", "json")
            } else {
                ("text", "event-stream")
            };
            accepts(request.headers(), kind, sub).then_some(POST_ACCEPT)
        }
        _ => None,
    };
    if let Some(value) = rewrite {
        request
            .headers_mut()
            .insert(header::ACCEPT, HeaderValue::from_static(value));
    }
    next.run(request).await
}

/// Whether `headers`' `Content-Type` is `essence` (`type/subtype`, compared without case; parameters ignored), as
/// RFC 9110 §8.3.1 reads a media type.
pub(super) fn content_type_is(headers: &http::HeaderMap, essence: &str) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|found| found.trim().eq_ignore_ascii_case(essence))
}

/// [`accepts`], for the fuzz target (`fuzz/fuzz_targets/accept_header.rs`). Not a stable interface.
#[doc(hidden)]
pub fn accepts_for_fuzzing(headers: &http::HeaderMap, kind: &str, sub: &str) -> bool {
    accepts(headers, kind, sub)
}

/// Whether the `Accept` fields accept `kind/sub`: no `Accept` at all accepts anything; otherwise the most specific
/// matching range (`kind/sub`, then `kind/*`, then `*/*`) decides, and it accepts unless its `q` is 0.
fn accepts(headers: &http::HeaderMap, kind: &str, sub: &str) -> bool {
    let mut fields = headers.get_all(header::ACCEPT).iter().peekable();
    if fields.peek().is_none() {
        return true;
    }
    let mut best: Option<(u8, bool)> = None;
    for field in fields {
        let Ok(text) = field.to_str() else { continue };
        for range in text.split(',') {
            let mut parts = range.split(';');
            let media = parts.next().unwrap_or("").trim().to_ascii_lowercase();
            let Some((range_kind, range_sub)) = media.split_once('/') else {
                continue;
            };
            let specificity = match (range_kind.trim(), range_sub.trim()) {
                (k, s) if k == kind && s == sub => 3,
                (k, "*") if k == kind => 2,
                ("*", "*") => 1,
                _ => continue,
            };
            let zero = parts.any(|param| {
                let Some((name, value)) = param.split_once('=') else {
                    return false;
                };
                name.trim().eq_ignore_ascii_case("q") && value.trim().parse::<f32>().is_ok_and(|q| q <= 0.0)
            });
            if best.is_none_or(|(seen, _)| specificity > seen) {
                best = Some((specificity, !zero));
            }
        }
    }
    best.is_some_and(|(_, ok)| ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(values: &[&str]) -> http::HeaderMap {
        let mut headers = http::HeaderMap::new();
        for value in values {
            headers.append(header::ACCEPT, HeaderValue::from_str(value).unwrap());
        }
        headers
    }

    #[test]
    fn media_ranges_per_rfc_9110() {
        let sse = |values: &[&str]| accepts(&with(values), "text", "event-stream");
        let json = |values: &[&str]| accepts(&with(values), "application", "json");
        assert!(sse(&[]) && json(&[]), "no Accept accepts anything");
        assert!(sse(&["*/*"]) && json(&["*/*"]));
        assert!(sse(&["text/*"]) && !json(&["text/*"]));
        assert!(sse(&["text/event-stream"]) && !json(&["text/event-stream"]));
        assert!(json(&["application/json"]) && !sse(&["application/json"]));
        assert!(sse(&["application/json", "Text/Event-Stream ; charset=utf-8"]));
        assert!(!sse(&["text/event-stream;q=0, */*"]), "the specific range's q=0 wins");
        assert!(sse(&["text/event-stream;q=0.5, application/json"]));
        assert!(!sse(&["*/*;q=0"]));
        assert!(sse(&["*/*;q=0, text/*"]));
        assert!(!sse(&["image/png", "bogus"]));
    }
}
