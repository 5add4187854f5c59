//! Integer arguments as clients send them: a JSON integer, or a string of digits (`"123"`), which
//! several MCP clients send for numbers. Used with `#[serde(deserialize_with = ...)]`; the advertised schema keeps the
//! field's integer type (schemars reads the field type, not the deserializer).
//!
//! ```
//! use serde::Deserialize;
//!
//! #[derive(Deserialize)]
//! struct Args {
//!     #[serde(deserialize_with = "mcp_results::args::integer::required")]
//!     run_id: u64,
//!     #[serde(default, deserialize_with = "mcp_results::args::integer::optional")]
//!     page: Option<u64>,
//! }
//!
//! let args: Args = serde_json::from_value(serde_json::json!({"run_id": "123", "page": 2}))?;
//! assert_eq!((args.run_id, args.page), (123, Some(2)));
//! # Ok::<(), serde_json::Error>(())
//! ```

use serde::de::{Error, Unexpected};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// What the errors say is accepted.
const EXPECTED: &str = "a whole number >= 0 (a JSON integer, or a string of digits such as \"123\")";

/// A required `u64` argument: a non-negative JSON integer or a string of ASCII digits that fits in 64 bits.
///
/// Errors (serde's `invalid type` / `invalid value` wording, naming what is accepted): any other JSON type, a
/// negative or fractional number, a string that is not all digits, a number past `u64::MAX`.
pub fn required<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
    from_value(Value::deserialize(deserializer)?)
}

/// An optional `u64` argument: absent or `null` is `None`, otherwise as [`required`]. Pair with `#[serde(default)]`.
///
/// Errors: as [`required`].
pub fn optional<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u64>, D::Error> {
    match Value::deserialize(deserializer)? {
        Value::Null => Ok(None),
        value => from_value(value).map(Some),
    }
}

fn from_value<E: Error>(value: Value) -> Result<u64, E> {
    match &value {
        Value::Number(number) => number.as_u64().ok_or_else(|| match number.as_i64() {
            Some(negative) => E::invalid_value(Unexpected::Signed(negative), &EXPECTED),
            None => match number.as_f64() {
                Some(float) => E::invalid_value(Unexpected::Float(float), &EXPECTED),
                None => E::invalid_value(Unexpected::Other("number"), &EXPECTED),
            },
        }),
        Value::String(text) => {
            if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
                return Err(E::invalid_value(Unexpected::Str(text), &EXPECTED));
            }
            text.parse::<u64>()
                .map_err(|_| E::invalid_value(Unexpected::Str(text), &"a whole number that fits in 64 bits"))
        }
        Value::Null => Err(E::invalid_type(Unexpected::Unit, &EXPECTED)),
        Value::Bool(b) => Err(E::invalid_type(Unexpected::Bool(*b), &EXPECTED)),
        Value::Array(_) => Err(E::invalid_type(Unexpected::Seq, &EXPECTED)),
        Value::Object(_) => Err(E::invalid_type(Unexpected::Map, &EXPECTED)),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Deserialize)]
    struct Args {
        #[serde(deserialize_with = "super::required")]
        id: u64,
        #[serde(default, deserialize_with = "super::optional")]
        page: Option<u64>,
    }

    fn parse(value: serde_json::Value) -> Result<(u64, Option<u64>), String> {
        serde_json::from_value::<Args>(value)
            .map(|a| (a.id, a.page))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn numbers_and_digit_strings() {
        assert_eq!(parse(json!({"id": 123})), Ok((123, None)));
        assert_eq!(parse(json!({"id": "123", "page": "2"})), Ok((123, Some(2))));
        assert_eq!(
            parse(json!({"id": "18446744073709551615", "page": null})),
            Ok((u64::MAX, None))
        );
        assert_eq!(parse(json!({"id": 7, "page": 0})), Ok((7, Some(0))));
    }

    #[test]
    fn anything_else_is_a_clear_error() {
        for bad in [
            json!("abc"),
            json!(""),
            json!(" 1"),
            json!("-1"),
            json!("1.5"),
            json!(-1),
            json!(1.5),
            json!(true),
            json!([1]),
        ] {
            let err = parse(json!({"id": bad})).unwrap_err();
            assert!(err.contains("expected a whole number >= 0"), "{bad}: {err}");
        }
        let err = parse(json!({"id": "18446744073709551616"})).unwrap_err();
        assert!(err.contains("fits in 64 bits"), "{err}");
        assert!(parse(json!({})).unwrap_err().contains("missing field `id`"));
    }
}
