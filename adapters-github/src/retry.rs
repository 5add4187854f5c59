//! GitHub's retry classifier for the shared policy ([`adapters_http::RetryPolicy`]).
//!
//! Follows <https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#exceeding-the-rate-limit>
//! and <https://docs.github.com/rest/using-the-rest-api/best-practices-for-using-the-rest-api#handle-rate-limit-errors-appropriately>:
//! wait `retry-after` seconds when given; else, with `x-ratelimit-remaining: 0`, until `x-ratelimit-reset`; else
//! (a secondary limit) at least one minute. The shared policy then retries only when that wait fits in the call's
//! timeout, so a primary limit that resets in minutes fails at once, reporting the reset time.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use adapters_http::{RawResponse, Verdict, standard_verdict};

use crate::error::{error_message, rate_limit};

/// The wait GitHub asks for after a secondary rate limit that names none: one minute.
pub const SECONDARY_LIMIT_WAIT: Duration = Duration::from_secs(60);

/// The [`adapters_http::Classifier`] of GitHub: rate-limit answers (a 429, or a 403 that is a primary or secondary
/// limit, see [`crate::GithubError::RateLimited`]) are retried after GitHub's wait; any other 403 is final; the
/// rest follows [`standard_verdict`] (429, 502, 503 retried).
pub fn github_verdict(response: &RawResponse, now: SystemTime) -> Verdict {
    let status = response.status.as_u16();
    if status != 403 && status != 429 {
        return standard_verdict(response, now);
    }
    let message = error_message(status, &response.body);
    let Some(limit) = rate_limit(status, &response.headers, &message, now) else {
        return Verdict::Final;
    };
    if let Some(wait) = limit.retry_after {
        return Verdict::Retry(Some(wait));
    }
    if let Some(reset_at) = limit.reset_at {
        let now_secs = now.duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
        return Verdict::Retry(Some(Duration::from_secs(reset_at.saturating_sub(now_secs))));
    }
    if status == 403 {
        return Verdict::Retry(Some(SECONDARY_LIMIT_WAIT));
    }
    Verdict::Retry(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;
    use http::{HeaderMap, HeaderValue, StatusCode};
    use url::Url;

    fn verdict(status: u16, headers: &[(&'static str, &'static str)], body: &'static str) -> Verdict {
        let mut map = HeaderMap::new();
        for (name, value) in headers {
            map.insert(*name, HeaderValue::from_static(value));
        }
        let response = RawResponse {
            status: StatusCode::from_u16(status).unwrap(),
            headers: map,
            body: Bytes::from_static(body.as_bytes()),
            url: Url::parse("https://api.github.com/x").unwrap(),
        };
        github_verdict(&response, UNIX_EPOCH + Duration::from_secs(1_000))
    }

    #[test]
    fn rate_limits_wait_for_what_github_asks() {
        let primary = [("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "4600")];
        assert_eq!(
            verdict(403, &primary, "{}"),
            Verdict::Retry(Some(Duration::from_secs(3600)))
        );
        let passed = [("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "10")];
        assert_eq!(verdict(403, &passed, "{}"), Verdict::Retry(Some(Duration::ZERO)));
        let secondary = r#"{"message":"You have exceeded a secondary rate limit."}"#;
        assert_eq!(verdict(403, &[], secondary), Verdict::Retry(Some(SECONDARY_LIMIT_WAIT)));
        assert_eq!(
            verdict(403, &[("retry-after", "30")], secondary),
            Verdict::Retry(Some(Duration::from_secs(30)))
        );
        assert_eq!(verdict(429, &[], "slow down"), Verdict::Retry(None));
    }

    #[test]
    fn other_answers() {
        assert_eq!(
            verdict(403, &[], r#"{"message":"Resource not accessible by integration"}"#),
            Verdict::Final
        );
        assert_eq!(verdict(503, &[], ""), Verdict::Retry(None));
        assert_eq!(
            verdict(502, &[("retry-after", "2")], ""),
            Verdict::Retry(Some(Duration::from_secs(2)))
        );
        assert_eq!(verdict(500, &[], ""), Verdict::Final);
        assert_eq!(verdict(404, &[], ""), Verdict::Final);
    }
}
