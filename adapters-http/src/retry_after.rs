//! Reading how long an upstream asked to wait: `Retry-After-Ms` (milliseconds) and `Retry-After` (delay-seconds
//! or an HTTP date, RFC 9110 §10.2.3). Used by the retry policy ([`crate::RetryPolicy`]) and the error texts
//! ([`crate::status`]).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use http::HeaderMap;

/// Name of the header that gives the wait in milliseconds (used by several APIs beside `Retry-After`).
pub const RETRY_AFTER_MS: &str = "retry-after-ms";

/// How long the upstream asked to wait: `Retry-After-Ms` (a whole number of milliseconds) when present and
/// valid, else `Retry-After` (delay-seconds, or an HTTP date counted from `now`; a past date is zero). `None`
/// when neither header is present and valid.
pub fn requested_wait(headers: &HeaderMap, now: SystemTime) -> Option<Duration> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim);
    if let Some(ms) = header(RETRY_AFTER_MS).filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
        && let Ok(ms) = ms.parse::<u64>()
    {
        return Some(Duration::from_millis(ms));
    }
    header(http::header::RETRY_AFTER.as_str())
        .and_then(|v| parse_retry_after(v, now))
        .map(Duration::from_secs)
}

/// A wait in whole seconds for error texts, rounded up (1500 ms → 2 s).
pub fn whole_seconds(wait: Duration) -> u64 {
    wait.as_secs() + u64::from(wait.subsec_nanos() > 0)
}

/// `Retry-After`: delay-seconds, or an HTTP date converted to seconds after `now` (at least 0). `None` when
/// neither parses.
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<u64> {
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        return value.parse().ok();
    }
    let at = jiff::fmt::rfc2822::parse(value).ok()?.timestamp().as_second();
    let now = now.duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let now = i64::try_from(now).unwrap_or(i64::MAX);
    Some(u64::try_from(at.saturating_sub(now)).unwrap_or(0))
}
