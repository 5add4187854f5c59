//! The one retry policy of every vendor adapter, built on [`backon`] (private module: its items are at the crate root; the
//! details are on [`RetryPolicy`]).

mod run;
mod timer;

use std::time::{Duration, SystemTime};

use crate::response::RawResponse;
use crate::retry_after::{requested_wait, whole_seconds};

pub(crate) use run::with_retries;
pub use timer::RetryTimer;

/// Most attempts of one call: the first and two retries.
pub const MAX_ATTEMPTS: u32 = 3;
/// Shortest wait before a retry, whatever the upstream asked (`Retry-After: 0` waits this long): 1 second.
pub const MIN_WAIT: Duration = Duration::from_secs(1);
/// Time that must remain in the call's budget after a wait for the retry to be worth sending: 500 ms.
pub const MIN_ATTEMPT_BUDGET: Duration = Duration::from_millis(500);

/// What to do with one upstream answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Keep this answer: a success, or a failure that repeating would not fix.
    Final,
    /// Try again (when attempts and time are left) after the wait the upstream asked for; `None` when it named
    /// none ([`MIN_WAIT`] is used). Shorter requests than [`MIN_WAIT`] are raised to it.
    Retry(Option<Duration>),
}

/// A vendor's decision for an answer, given the current wall-clock time (for HTTP-date and reset headers).
pub type Classifier = fn(&RawResponse, SystemTime) -> Verdict;

/// The retry settings of one [`crate::HttpClient`]. `Default`: [`MAX_ATTEMPTS`] attempts, [`standard_verdict`],
/// tokio's timer.
///
/// The one retry policy of every vendor adapter, built on [`backon`].
///
/// - Only idempotent reads are retried: `GET` and `HEAD`. Every other method is sent exactly once.
/// - Which answers are retried is the vendor's [`Classifier`]; the default, [`standard_verdict`], retries
///   `429 Too Many Requests`, `502 Bad Gateway` and `503 Service Unavailable` (RFC 9110 §15.6.3, §15.6.4;
///   RFC 6585 §4). `500` is not retried (a server defect usually repeats), nor is `504` (the upstream already spent
///   its own time budget on this very query, so a repeat mostly repeats the timeout). Transport failures
///   (refused, reset, timed out) are not retried either: a timed-out attempt has used the call's budget, and a
///   refused or reset connection is reported at once so the caller can act.
/// - At most [`MAX_ATTEMPTS`] attempts (so at most two waits).
/// - Each wait is what the upstream asked for — `Retry-After-Ms` (milliseconds), else `Retry-After`
///   (delay-seconds or an HTTP date, RFC 9110 §10.2.3), see [`requested_wait`] — but at least [`MIN_WAIT`].
/// - The whole call (every attempt and every wait) lives inside the client's timeout: each attempt gets the time
///   that is left, and a wait is only taken when it leaves at least [`MIN_ATTEMPT_BUDGET`] for the next attempt.
///   A requested wait longer than that cap is not taken: the call ends at once with the upstream's answer, whose
///   error text states how long the upstream asked to wait (see [`crate::status::StatusError`]).
///
/// Waits go through a [`RetryTimer`]: tokio's timer in production, or a simulated one in tests that records each
/// wait and counts it against the call's budget without sleeping.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct RetryPolicy {
    /// Most attempts of one call, clamped to `1..=`[`MAX_ATTEMPTS`] (1 = never retry).
    pub max_attempts: u32,
    /// Which answers are retried, and after how long.
    pub classify: Classifier,
    /// How waits are spent.
    pub timer: RetryTimer,
}

impl RetryPolicy {
    /// This policy with [`RetryPolicy::max_attempts`] set.
    #[must_use]
    pub fn with_max_attempts(mut self, max_attempts: u32) -> Self {
        self.max_attempts = max_attempts;
        self
    }

    /// This policy with [`RetryPolicy::classify`] set.
    #[must_use]
    pub fn with_classify(mut self, classify: Classifier) -> Self {
        self.classify = classify;
        self
    }

    /// This policy with [`RetryPolicy::timer`] set.
    #[must_use]
    pub fn with_timer(mut self, timer: RetryTimer) -> Self {
        self.timer = timer;
        self
    }
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_attempts: MAX_ATTEMPTS,
            classify: standard_verdict,
            timer: RetryTimer::tokio(),
        }
    }
}

impl RetryPolicy {
    /// [`RetryPolicy::max_attempts`] clamped to `1..=`[`MAX_ATTEMPTS`].
    pub fn attempts(&self) -> u32 {
        self.max_attempts.clamp(1, MAX_ATTEMPTS)
    }
}

/// The default [`Classifier`]: `429`, `502` and `503` are retried after [`requested_wait`]; everything else is
/// final.
pub fn standard_verdict(response: &RawResponse, now: SystemTime) -> Verdict {
    match response.status.as_u16() {
        429 | 502 | 503 => Verdict::Retry(requested_wait(&response.headers, now)),
        _ => Verdict::Final,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;
    use http::HeaderMap;
    use http::{HeaderValue, StatusCode};
    use std::time::UNIX_EPOCH;
    use url::Url;

    fn response(status: u16, headers: &[(&'static str, &'static str)]) -> RawResponse {
        let mut map = HeaderMap::new();
        for (name, value) in headers {
            map.insert(*name, HeaderValue::from_static(value));
        }
        RawResponse {
            status: StatusCode::from_u16(status).unwrap(),
            headers: map,
            body: Bytes::new(),
            url: Url::parse("https://h.example/x").unwrap(),
        }
    }

    #[test]
    fn which_statuses_are_retried() {
        let now = UNIX_EPOCH;
        for status in [429, 502, 503] {
            assert_eq!(
                standard_verdict(&response(status, &[]), now),
                Verdict::Retry(None),
                "{status}"
            );
        }
        for status in [200, 204, 302, 400, 401, 403, 404, 500, 504] {
            assert_eq!(
                standard_verdict(&response(status, &[]), now),
                Verdict::Final,
                "{status}"
            );
        }
    }

    #[test]
    fn requested_wait_forms() {
        let now = UNIX_EPOCH + Duration::from_secs(1_377_013_266);
        let wait = |headers: &[(&'static str, &'static str)]| requested_wait(&response(429, headers).headers, now);
        assert_eq!(wait(&[("retry-after", "7")]), Some(Duration::from_secs(7)));
        assert_eq!(wait(&[("retry-after", "0")]), Some(Duration::ZERO));
        assert_eq!(
            wait(&[("retry-after", "Tue, 20 Aug 2013 15:42:06 GMT")]),
            Some(Duration::from_secs(60))
        );
        assert_eq!(
            wait(&[("retry-after", "Tue, 20 Aug 2013 14:50:41 GMT")]),
            Some(Duration::ZERO)
        );
        assert_eq!(
            wait(&[("retry-after-ms", "1500"), ("retry-after", "9")]),
            Some(Duration::from_millis(1500))
        );
        assert_eq!(
            wait(&[("retry-after-ms", "-3"), ("retry-after", "9")]),
            Some(Duration::from_secs(9)),
            "an invalid Retry-After-Ms falls back to Retry-After"
        );
        assert_eq!(wait(&[("retry-after", "soon")]), None);
        assert_eq!(wait(&[]), None);
    }

    #[test]
    fn seconds_round_up() {
        assert_eq!(whole_seconds(Duration::from_millis(1500)), 2);
        assert_eq!(whole_seconds(Duration::from_secs(3)), 3);
        assert_eq!(whole_seconds(Duration::ZERO), 0);
    }

    #[test]
    fn attempts_are_clamped() {
        let policy = |max_attempts| RetryPolicy {
            max_attempts,
            ..RetryPolicy::default()
        };
        assert_eq!(policy(0).attempts(), 1);
        assert_eq!(policy(2).attempts(), 2);
        assert_eq!(policy(99).attempts(), 3);
    }
}
