//! Polite polling: a conditional `GET` (`If-None-Match` with the last answer's `ETag`; GitHub does not count a
//! `304 Not Modified` against the primary rate limit) that also reads the pace GitHub asks for (`X-Poll-Interval`,
//! and the rate-limit headers).
//! See <https://docs.github.com/rest/using-the-rest-api/best-practices-for-using-the-rest-api#use-conditional-requests-if-appropriate>
//! and <https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api>.

use std::time::Duration;

use http::{HeaderMap, HeaderValue, Method, header};
use serde_json::Value;

use crate::client::GithubClient;
use crate::error::GithubError;

/// One conditional `GET`'s answer.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Polled {
    /// The JSON body; `None` for `304 Not Modified` (the body of the `ETag` sent is still current).
    pub body: Option<Value>,
    /// The answer's `ETag` (send it back next time), or the one sent when the answer is a 304 without one.
    pub etag: Option<String>,
    /// The next page of a list (`Link` rel=next), when there is one.
    pub next_link: Option<String>,
    /// How GitHub wants to be polled and how much quota is left.
    pub pace: Pace,
}

/// The pace GitHub asks for, from an answer's headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Pace {
    /// `X-Poll-Interval` (seconds on the wire): poll no more often than this.
    pub poll_interval: Option<Duration>,
    /// `x-ratelimit-remaining`: requests left in the window.
    pub remaining: Option<u64>,
    /// `x-ratelimit-reset`: when the window resets, seconds since the Unix epoch.
    pub reset_at: Option<u64>,
}

impl Pace {
    /// The pace of an answer with `headers`.
    pub fn from_headers(headers: &HeaderMap) -> Self {
        let number = |name: &str| {
            headers
                .get(name)
                .and_then(|value| value.to_str().ok())
                .and_then(|text| text.trim().parse::<u64>().ok())
        };
        Pace {
            poll_interval: number("x-poll-interval").map(Duration::from_secs),
            remaining: number("x-ratelimit-remaining"),
            reset_at: number("x-ratelimit-reset"),
        }
    }
}

impl GithubClient {
    /// `GET <base><path>` (an absolute URL on the base's origin is accepted too, e.g. a `Link` next page), sending
    /// `If-None-Match: etag` when `etag` is given.
    ///
    /// Errors: as [`GithubClient::get`]: a 404 is [`GithubError::NotFound`] (an unknown run, commit or pull
    /// request), a rate limit [`GithubError::RateLimited`] with its reset time.
    pub async fn poll(&self, path: &str, etag: Option<&str>) -> Result<Polled, GithubError> {
        self.require_token()?;
        let url = self.http.url(path, &[] as &[(&str, &str)])?;
        let mut headers = HeaderMap::new();
        if let Some(etag) = etag.and_then(|etag| HeaderValue::from_str(etag).ok()) {
            headers.insert(header::IF_NONE_MATCH, etag);
        }
        let response = self.http.send_with(Method::GET, url, None, &headers).await?;
        let pace = Pace::from_headers(&response.headers);
        let answered_etag = response
            .headers
            .get(header::ETAG)
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned);
        if response.status == http::StatusCode::NOT_MODIFIED {
            return Ok(Polled {
                body: None,
                etag: answered_etag.or_else(|| etag.map(str::to_owned)),
                next_link: None,
                pace,
            });
        }
        let page = self.page_of(response).await?;
        Ok(Polled {
            body: page.data().cloned(),
            etag: answered_etag,
            next_link: page.next_link,
            pace,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pace_reads_github_headers_and_ignores_malformed_ones() {
        let mut headers = HeaderMap::new();
        headers.insert("x-poll-interval", HeaderValue::from_static("60"));
        headers.insert("x-ratelimit-remaining", HeaderValue::from_static("4999"));
        headers.insert("x-ratelimit-reset", HeaderValue::from_static("not a number"));
        let pace = Pace::from_headers(&headers);
        assert_eq!(pace.poll_interval, Some(Duration::from_secs(60)));
        assert_eq!(pace.remaining, Some(4999));
        assert_eq!(pace.reset_at, None);
    }
}
