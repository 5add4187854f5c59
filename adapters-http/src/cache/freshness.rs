//! How long a response stays fresh, decided by `http-cache-semantics` (RFC 9111) from a private cache's view.

use std::time::{Duration, SystemTime};

use http::{HeaderValue, header};
use http_cache_semantics::{CacheOptions, CachePolicy};
use url::Url;

use super::MAX_TTL;
use crate::response::RawResponse;

/// The time `response` to a GET of `url` may be served from the cache, counted from `now` (when it was read);
/// `None` when it must not be stored: not 2xx, `no-store`, `no-cache`, `Vary: *`, or a zero lifetime.
///
/// Lifetime: `Cache-Control: max-age` (minus `Age`), else `Expires` (minus `Date`), else `default_ttl`; capped at
/// [`MAX_TTL`].
pub(super) fn time_to_live(
    url: &Url,
    response: &RawResponse,
    now: SystemTime,
    default_ttl: Duration,
) -> Option<Duration> {
    if !response.status.is_success() {
        return None;
    }
    let request = http::Request::get(url.as_str()).body(()).ok()?;
    let mut headers = response.headers.clone();
    if !has_explicit_lifetime(&headers) {
        // No lifetime given: state the default one, so no-cache / Vary: * still make it zero.
        let value = HeaderValue::from_str(&format!("max-age={}", default_ttl.as_secs())).ok()?;
        headers.append(header::CACHE_CONTROL, value);
    }
    let mut parts = http::Response::new(()).into_parts().0;
    parts.status = response.status;
    parts.headers = headers;
    let options = CacheOptions {
        shared: false,
        ..CacheOptions::default()
    };
    let policy = CachePolicy::new_options(&request, &parts, now, options);
    if !policy.is_storable() {
        return None;
    }
    let ttl = policy.time_to_live(now).min(MAX_TTL);
    (!ttl.is_zero()).then_some(ttl)
}

/// True when the response states its lifetime: an `Expires` header or a `max-age` directive.
fn has_explicit_lifetime(headers: &http::HeaderMap) -> bool {
    headers.contains_key(header::EXPIRES)
        || headers
            .get_all(header::CACHE_CONTROL)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .any(|directive| {
                directive
                    .split('=')
                    .next()
                    .is_some_and(|name| name.trim().eq_ignore_ascii_case("max-age"))
            })
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;
    use http::{HeaderMap, StatusCode};

    fn ttl(status: u16, headers: &[(&str, &str)]) -> Option<u64> {
        let mut map = HeaderMap::new();
        for (name, value) in headers {
            map.append(
                http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
                HeaderValue::from_str(value).unwrap(),
            );
        }
        let url = Url::parse("https://circleci.com/api/v2/me").unwrap();
        let response = RawResponse {
            status: StatusCode::from_u16(status).unwrap(),
            headers: map,
            body: Bytes::from_static(b"{}"),
            url: url.clone(),
        };
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        time_to_live(&url, &response, now, Duration::from_secs(60)).map(|d| d.as_secs())
    }

    #[test]
    fn lifetimes() {
        assert_eq!(ttl(200, &[]), Some(60));
        assert_eq!(ttl(200, &[("cache-control", "max-age=5")]), Some(5));
        assert_eq!(ttl(200, &[("cache-control", "private, max-age=5")]), Some(5));
        assert_eq!(ttl(200, &[("cache-control", "max-age=5"), ("age", "2")]), Some(3));
        assert_eq!(ttl(200, &[("cache-control", "max-age=86400")]), Some(3600));
        assert_eq!(ttl(200, &[("cache-control", "max-age=0")]), None);
        assert_eq!(ttl(200, &[("cache-control", "no-store")]), None);
        assert_eq!(ttl(200, &[("cache-control", "no-cache")]), None);
        assert_eq!(ttl(200, &[("cache-control", "no-store, max-age=60")]), None);
        assert_eq!(ttl(200, &[("vary", "*")]), None);
        assert_eq!(ttl(200, &[("vary", "Accept-Encoding")]), Some(60));
        assert_eq!(
            ttl(
                200,
                &[
                    ("date", "Tue, 14 Nov 2023 22:13:20 GMT"),
                    ("expires", "Tue, 14 Nov 2023 22:15:20 GMT")
                ]
            ),
            Some(120)
        );
        assert_eq!(ttl(200, &[("expires", "0")]), None);
        assert_eq!(ttl(404, &[("cache-control", "max-age=60")]), None);
        assert_eq!(ttl(500, &[]), None);
        assert_eq!(ttl(301, &[("cache-control", "max-age=60")]), None);
    }
}
