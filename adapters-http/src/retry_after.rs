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

/// `Retry-After` (RFC 9110 §10.2.3): delay-seconds, or an HTTP-date converted to seconds after `now` (at least 0).
/// `None` when neither parses. Surrounding whitespace is ignored (§5.5); delay-seconds too large for `u64` saturate.
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<u64> {
    let value = value.trim_matches([' ', '\t']);
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        return Some(value.parse().unwrap_or(u64::MAX));
    }
    let at = parse_http_date(value)?;
    let now = now.duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let now = i64::try_from(now).unwrap_or(i64::MAX);
    Some(u64::try_from(at.saturating_sub(now)).unwrap_or(0))
}

/// An HTTP-date (RFC 9110 §5.6.7) as Unix seconds: the three forms a recipient must accept, read by `httpdate`:
/// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850 form (`Sunday, 06-Nov-94 08:49:37 GMT`,
/// two-digit years 70–99 as 19xx, 00–69 as 20xx) and asctime (`Sun Nov  6 08:49:37 1994`). Other RFC 5322 dates
/// (a numeric zone such as `+0000`, no day name), which §5.6.7 asks recipients to read robustly, are read by jiff.
/// `None` for anything else.
pub fn parse_http_date(value: &str) -> Option<i64> {
    if let Ok(at) = httpdate::parse_http_date(value) {
        return i64::try_from(at.duration_since(UNIX_EPOCH).ok()?.as_secs()).ok();
    }
    Some(jiff::fmt::rfc2822::parse(value).ok()?.timestamp().as_second())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Sun, 06 Nov 1994 08:49:37 GMT`.
    const NOV_6_1994: i64 = 784_111_777;

    /// RFC 9110 §5.6.7: "Sun, 06 Nov 1994 08:49:37 GMT    ; IMF-fixdate", "Sunday, 06-Nov-94 08:49:37 GMT   ;
    /// obsolete RFC 850 format", "Sun Nov  6 08:49:37 1994         ; ANSI C's asctime() format".
    #[test]
    fn the_three_http_date_forms_of_rfc_9110() {
        assert_eq!(parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT"), Some(NOV_6_1994));
        assert_eq!(parse_http_date("Sunday, 06-Nov-94 08:49:37 GMT"), Some(NOV_6_1994));
        assert_eq!(parse_http_date("Sun Nov  6 08:49:37 1994"), Some(NOV_6_1994));
        // Robust reading (§5.6.7): other RFC 5322 forms.
        assert_eq!(parse_http_date("Sun, 06 Nov 1994 08:49:37 +0000"), Some(NOV_6_1994));
        assert_eq!(parse_http_date("06 Nov 1994 08:49:37 GMT"), Some(NOV_6_1994));
        for bad in [
            "",
            "soon",
            "1994-11-06T08:49:37Z",
            "Sun Nov  6 08:49:37",
            "Sunday, 06-Nov-94 08:49:37",
        ] {
            assert_eq!(parse_http_date(bad), None, "{bad:?}");
        }
    }

    /// RFC 9110 §10.2.3: "Retry-After: Fri, 31 Dec 1999 23:59:59 GMT", "Retry-After: 120".
    #[test]
    fn retry_after_examples_of_rfc_9110() {
        let at = |secs: u64| UNIX_EPOCH + Duration::from_secs(secs);
        let dec_31_1999 = 946_684_799;
        assert_eq!(
            parse_retry_after("Fri, 31 Dec 1999 23:59:59 GMT", at(dec_31_1999 - 90)),
            Some(90)
        );
        assert_eq!(
            parse_retry_after("Fri, 31 Dec 1999 23:59:59 GMT", at(dec_31_1999 + 5)),
            Some(0)
        );
        assert_eq!(parse_retry_after("120", at(0)), Some(120));
        let before = at(784_111_777 - 30);
        for form in [
            "Sun, 06 Nov 1994 08:49:37 GMT",
            "Sunday, 06-Nov-94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994",
        ] {
            assert_eq!(parse_retry_after(form, before), Some(30), "{form}");
        }
    }

    /// delay-seconds is `1*DIGIT` (§10.2.3), whitespace around a field value is not part of it (§5.5); GitHub,
    /// CircleCI and Jira document whole seconds.
    #[test]
    fn delay_seconds_edges() {
        let now = UNIX_EPOCH;
        assert_eq!(parse_retry_after(" 60\t", now), Some(60));
        assert_eq!(parse_retry_after("0", now), Some(0));
        assert_eq!(parse_retry_after("99999999999999999999999", now), Some(u64::MAX));
        for bad in ["-5", "+5", "1.5", "1e3", "6 0", ""] {
            assert_eq!(parse_retry_after(bad, now), None, "{bad:?}");
        }
    }

    #[test]
    fn requested_wait_reads_every_date_form() {
        let now = UNIX_EPOCH + Duration::from_secs(784_111_777 - 42);
        for form in ["Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"] {
            let mut headers = HeaderMap::new();
            headers.insert(http::header::RETRY_AFTER, http::HeaderValue::from_static(form));
            assert_eq!(requested_wait(&headers, now), Some(Duration::from_secs(42)), "{form}");
        }
    }
}
