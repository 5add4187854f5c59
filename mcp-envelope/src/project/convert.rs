//! Exact conversion between `serde_json::Value` and jaq's `Val` (numbers keep every digit).
//!
//! jaq-json 2.0 numbers (`jaq_json::Num`) are `Int(isize)`, `BigInt`,
//! `Float(f64)` or `Dec(String)` (a literal from the jq program). Integers
//! therefore never go through `f64` in either direction here:
//!
//! - serde_json integers (`u64` / `i64`) become `Int` or `BigInt`;
//! - serde_json floats become `Float` with the same `f64`, which serde_json
//!   prints back with the same shortest digits;
//! - with serde_json's `arbitrary_precision` (see [`keeps_literal_digits`]),
//!   other numbers keep their literal text: integers become `BigInt`,
//!   others `Dec`, so a number the program does not compute on comes back
//!   with every digit, as in jq 1.7+ (`123456789012345678901234567890`,
//!   `1.000`); without it serde_json already holds an `f64`, kept as `Float`;
//! - `BigInt` and `Dec` results go back through serde_json's own number
//!   parser: exact with `arbitrary_precision` (in jq 1.8.1's form, even
//!   beyond a double: `1E+1000`, as jq prints it) or when they fit
//!   `u64`/`i64`, else the nearest `f64` (`1E+1000`: the largest finite `f64`);
//! - integral floats up to 2^53 in magnitude print as integers (`3`, not
//!   `3.0`), as jq prints them, and the negative zero keeps its sign (`-0`,
//!   in and out, as jq 1.8);
//! - non-finite floats follow jq: NaN becomes `null`, +/-infinity the
//!   largest finite `f64` of that sign.

use jaq_json::{Num, Rc, Val};
use serde_json::{Map, Number, Value};

/// Convert a serde_json value to a jaq value without loss.
pub(crate) fn to_val(value: Value) -> Val {
    match value {
        Value::Null => Val::Null,
        Value::Bool(b) => Val::Bool(b),
        Value::Number(n) => Val::Num(number_to_num(&n)),
        Value::String(s) => Val::utf8_str(s),
        Value::Array(items) => items.into_iter().map(to_val).collect(),
        Value::Object(map) => Val::obj(map.into_iter().map(|(k, v)| (Val::utf8_str(k), to_val(v))).collect()),
    }
}

fn number_to_num(n: &Number) -> Num {
    if n.as_i64() == Some(0) && n.to_string().starts_with('-') {
        // `-0` (with `arbitrary_precision`): jq keeps its sign, an integer cannot.
        Num::Float(-0.0)
    } else if let Some(u) = n.as_u64() {
        Num::from_integral(u)
    } else if let Some(i) = n.as_i64() {
        Num::from_integral(i)
    } else if keeps_literal_digits() {
        // serde_json holds the literal text (`arbitrary_precision`): keep it.
        let text = n.to_string();
        Num::from_str_radix(&text, 10).unwrap_or_else(|| Num::Dec(Rc::new(text)))
    } else {
        // serde_json holds an f64.
        Num::Float(n.as_f64().unwrap_or(f64::NAN))
    }
}

/// Whether serde_json keeps a number's literal digits (its
/// `arbitrary_precision` feature is on somewhere in the build). Without it,
/// serde_json itself parses numbers beyond `u64`/`i64` into an `f64`, so
/// their digits are gone before a projection sees them.
pub(crate) fn keeps_literal_digits() -> bool {
    static KEEPS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    const DIGITS: &str = "123456789012345678901234567890";
    *KEEPS.get_or_init(|| DIGITS.parse::<Number>().is_ok_and(|n| n.to_string() == DIGITS))
}

/// A jaq result nested deeper than the limit.
#[derive(Debug)]
pub(crate) struct TooDeep;

/// Convert a jaq value back to serde_json without loss for integers.
///
/// Byte strings and invalid UTF-8 become strings (lossy); non-string object
/// keys become their JSON text. Fails when the value nests deeper than
/// `max_depth` (serializing such a value would exhaust the stack).
pub(crate) fn from_val(val: Val, max_depth: usize) -> Result<Value, TooDeep> {
    let Some(depth_left) = max_depth.checked_sub(1) else {
        return Err(TooDeep);
    };
    Ok(match val {
        Val::Null => Value::Null,
        Val::Bool(b) => Value::Bool(b),
        Val::Num(n) => num_to_value(&n),
        Val::TStr(bytes) | Val::BStr(bytes) => Value::String(bytes_to_string(&bytes)),
        Val::Arr(items) => Value::Array(
            unwrap_or_clone(items)
                .into_iter()
                .map(|v| from_val(v, depth_left))
                .collect::<Result<_, _>>()?,
        ),
        Val::Obj(map) => {
            let mut out = Map::new();
            for (k, v) in unwrap_or_clone(map) {
                out.insert(key_to_string(k), from_val(v, depth_left)?);
            }
            Value::Object(out)
        }
    })
}

fn unwrap_or_clone<T: Clone>(rc: Rc<T>) -> T {
    Rc::try_unwrap(rc).unwrap_or_else(|rc| (*rc).clone())
}

fn bytes_to_string(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_owned(),
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    }
}

fn key_to_string(key: Val) -> String {
    match key {
        Val::TStr(bytes) | Val::BStr(bytes) => bytes_to_string(&bytes),
        other => other.to_string(),
    }
}

fn num_to_value(n: &Num) -> Value {
    match n {
        Num::Int(i) => Value::Number(Number::from(*i)),
        Num::BigInt(_) | Num::Dec(_) => {
            let text = n.to_string();
            parse_number_text(&text).unwrap_or_else(|| match text.parse::<f64>() {
                Ok(f) => float_to_value(f),
                Err(_) => Value::Null,
            })
        }
        Num::Float(f) => float_to_value(*f),
    }
}

/// Parse a number's text with serde_json: every digit is kept when serde_json
/// keeps literal digits ([`keeps_literal_digits`]) and for integers that fit
/// `u64`/`i64`; otherwise the nearest `f64`. `None` when serde_json cannot
/// hold it (e.g. `1E+1000` as an `f64`).
fn parse_number_text(text: &str) -> Option<Value> {
    let number = text.parse::<Number>().ok()?;
    if keeps_literal_digits() {
        // The literal as jq 1.8.1 prints it, even beyond a double (`9E+999999999`).
        return Some(Value::Number(number));
    }
    if number.as_u64().is_none() && number.as_i64().is_none() && number.as_f64().is_none_or(|f| !f.is_finite()) {
        return None;
    }
    Some(Value::Number(number))
}

fn float_to_value(f: f64) -> Value {
    // An integral double prints without a fraction, as jq prints it (`1.5 * 2` is `3`).
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    if f == 0.0 && f.is_sign_negative() {
        // jq prints the negative zero `-0`.
        return "-0"
            .parse::<Number>()
            .ok()
            .filter(|_| keeps_literal_digits())
            .map_or_else(|| Number::from_f64(f).map_or(Value::Null, Value::Number), Value::Number);
    }
    if f.fract() == 0.0 && f.abs() <= EXACT {
        #[allow(clippy::cast_possible_truncation)]
        return Value::Number(Number::from(f as i64));
    }
    let f = if f.is_nan() {
        return Value::Null;
    } else if f == f64::INFINITY {
        f64::MAX
    } else if f == f64::NEG_INFINITY {
        f64::MIN
    } else {
        f
    };
    Number::from_f64(f).map_or(Value::Null, Value::Number)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    #[test]
    fn round_trip_is_exact() {
        let v = json!({
            "u": 18446744073709551615u64,
            "big": 9007199254740993u64,
            "neg": -9223372036854775808i64,
            "f": 0.1, "g": 1.0, "e": 1e300, "s": "héllo", "a": [null, true, {}],
        });
        let text = serde_json::to_string(&v).unwrap();
        let back = from_val(to_val(v), 64).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), text);
    }

    #[test]
    fn depth_limit() {
        let v = json!([[[1]]]);
        assert!(from_val(to_val(v.clone()), 3).is_err());
        assert_eq!(from_val(to_val(v.clone()), 4).unwrap(), v);
    }
}
