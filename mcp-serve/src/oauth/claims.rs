//! The time claims of an access token, `exp` and `nbf` (RFC 7519 §4.1.4, §4.1.5; RFC 7662 §2.2), read as
//! NumericDate values (RFC 7519 §2): "a JSON numeric value representing the number of seconds from
//! 1970-01-01T00:00:00Z UTC until the specified UTC date/time, ignoring leap seconds", which may be non-integer
//! (`1300819380.5`) and, being a JSON number (RFC 8259 §6), written with a fraction or an exponent (`1.3008e9`).
//!
//! Read here rather than by jsonwebtoken: the workspace enables serde_json's `arbitrary_precision`, under which
//! jsonwebtoken's own reading of a non-integer `exp` or `nbf` fails (the number reaches its visitor as a map, not
//! an `f64`), so a valid token with `"exp": 1300819380.5` was refused as lacking `exp`; and
//! `Value::as_u64` is `None` for such a number, so the introspection check skipped it altogether.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value};

use super::Refusal;

/// A NumericDate as seconds since the epoch: any finite JSON number (integer, fraction, exponent, negative).
/// `None` for anything else (a string, `null`, a number too large for an `f64`).
pub fn numeric_date(value: &Value) -> Option<f64> {
    value.as_number()?.as_f64().filter(|secs| secs.is_finite())
}

/// Seconds since the epoch of `now`, with its fraction.
pub(super) fn epoch_seconds(now: SystemTime) -> f64 {
    now.duration_since(UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64())
}

/// Checks `exp` and `nbf` of `claims` at `now` (seconds since the epoch) with `leeway`: the token is refused when
/// `now` is not before `exp` + leeway (RFC 7519 §4.1.4) or is before `nbf` − leeway (§4.1.5). `exp` must be present
/// when `exp_required` (JWT access tokens, RFC 9068 §2.2; optional in introspection answers, RFC 7662 §2.2); a
/// claim present but not a NumericDate is refused as that claim.
pub(super) fn check_times(
    claims: &Map<String, Value>,
    leeway: Duration,
    now: f64,
    exp_required: bool,
) -> Result<(), Refusal> {
    let leeway = leeway.as_secs_f64();
    let read = |name: &str| match claims.get(name) {
        None => Ok(None),
        Some(value) => numeric_date(value).map(Some).ok_or_else(|| Refusal::Claim(name.into())),
    };
    match read("exp")? {
        None if exp_required => return Err(Refusal::Claim("exp".into())),
        Some(exp) if now >= exp + leeway => return Err(Refusal::Expired),
        _ => {}
    }
    if let Some(nbf) = read("nbf")?
        && now + leeway < nbf
    {
        return Err(Refusal::NotYetValid);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn claims(text: &str) -> Map<String, Value> {
        serde_json::from_str(text).unwrap()
    }

    /// RFC 7519 §3.1's example claims set: `"exp":1300819380`; the same date with a fraction and an exponent.
    #[test]
    fn numeric_date_forms() {
        for (text, secs) in [
            ("1300819380", 1_300_819_380.0),
            ("1300819380.5", 1_300_819_380.5),
            ("1300819380.0", 1_300_819_380.0),
            ("1.30081938e9", 1_300_819_380.0),
            ("1.30081938E+9", 1_300_819_380.0),
            ("13008193800e-1", 1_300_819_380.0),
            ("-1", -1.0),
            ("0", 0.0),
        ] {
            let value: Value = serde_json::from_str(text).unwrap();
            assert_eq!(numeric_date(&value), Some(secs), "{text}");
        }
        for text in [r#""1300819380""#, "null", "true", "[1]", "1e400"] {
            let value: Value = serde_json::from_str(text).unwrap();
            assert_eq!(numeric_date(&value), None, "{text}");
        }
    }

    #[test]
    fn exp_and_nbf_in_every_numeric_form() {
        let exp = 1_300_819_380.0;
        let none = Duration::ZERO;
        for form in ["1300819380", "1300819380.5", "1.30081938e9", "1300819380.25"] {
            let set = claims(&format!(r#"{{"iss":"joe","exp":{form}}}"#));
            assert_eq!(check_times(&set, none, exp - 1.0, true), Ok(()), "{form}");
            assert_eq!(
                check_times(&set, none, exp + 1.0, true),
                Err(Refusal::Expired),
                "{form}"
            );
            assert_eq!(
                check_times(&set, Duration::from_secs(5), exp + 1.0, true),
                Ok(()),
                "{form} with leeway"
            );
        }
        let half = claims(r#"{"exp":1300819380.5}"#);
        assert_eq!(check_times(&half, none, exp + 0.25, true), Ok(()));
        assert_eq!(
            check_times(&half, none, exp + 0.5, true),
            Err(Refusal::Expired),
            "now must be before exp"
        );
        let nbf = claims(r#"{"exp":2e9,"nbf":1.5e9}"#);
        assert_eq!(check_times(&nbf, none, 1.4e9, true), Err(Refusal::NotYetValid));
        assert_eq!(check_times(&nbf, none, 1.5e9, true), Ok(()));
        assert_eq!(check_times(&nbf, Duration::from_secs(60), 1.5e9 - 30.0, true), Ok(()));
    }

    #[test]
    fn missing_or_unreadable_claims() {
        let now = 1e9;
        let none = Duration::ZERO;
        assert_eq!(
            check_times(&claims("{}"), none, now, true),
            Err(Refusal::Claim("exp".into()))
        );
        assert_eq!(check_times(&claims("{}"), none, now, false), Ok(()));
        for bad in [r#"{"exp":"2000000000"}"#, r#"{"exp":null}"#, r#"{"exp":1e400}"#] {
            assert_eq!(
                check_times(&claims(bad), none, now, false),
                Err(Refusal::Claim("exp".into())),
                "{bad}"
            );
        }
        let bad_nbf = json!({"exp": 2e9, "nbf": "soon"});
        assert_eq!(
            check_times(bad_nbf.as_object().unwrap(), none, now, true),
            Err(Refusal::Claim("nbf".into()))
        );
    }
}
