//! TOON text with every digit of every number (CONTRACT §4, §8).
//!
//! `toon-format` turns each number into an `i64`, `u64` or `f64`, so an integer past 64 bits or a decimal with more
//! digits than an `f64` holds would lose digits (`123456789012345678901234567890` became
//! `123456789012345680000000000000`). Numbers keep their literal digits in `serde_json` (`arbitrary_precision`);
//! before encoding, each number that `toon-format` cannot show exactly is replaced by a string holding its TOON
//! canonical decimal form (no exponent, no leading zeros, no trailing fractional zeros; TOON spec §2) wrapped in a
//! private-use marker character that appears nowhere in the value; after encoding, the markers are removed, leaving
//! the digits unquoted where the number stood.

use serde_json::Value;

/// Private-use characters tried as the marker, in order (U+E000..=U+E0FF).
const MARKERS: std::ops::RangeInclusive<u32> = 0xE000..=0xE0FF;

/// Largest exponent expanded into plain digits; a number written with a larger one (`1e400000`) keeps its literal
/// form rather than growing into that many zeros.
const MAX_EXPANDED_EXPONENT: i64 = 1_000;

/// Replaces, in `value`, every number `toon-format` would not show digit for digit by its marked canonical form.
/// Returns the marker to strip from the encoded text, or `None` when no number needed it (or, in a value that uses
/// all 256 candidate markers in its strings, when no marker is free: the numbers are then left to `toon-format`).
pub(crate) fn protect(value: &mut Value) -> Option<char> {
    let mut used = [false; 256];
    let mut inexact = false;
    let mut pending = vec![&*value];
    while let Some(v) = pending.pop() {
        match v {
            Value::Number(n) => inexact |= !shown_exactly(n),
            Value::String(s) => mark_used(s, &mut used),
            Value::Array(items) => pending.extend(items.iter()),
            Value::Object(map) => {
                for (key, item) in map {
                    mark_used(key, &mut used);
                    pending.push(item);
                }
            }
            Value::Null | Value::Bool(_) => {}
        }
    }
    if !inexact {
        return None;
    }
    let marker = MARKERS
        .zip(used)
        .find(|(_, taken)| !taken)
        .and_then(|(code, _)| char::from_u32(code))?;
    let mut pending = vec![value];
    while let Some(v) = pending.pop() {
        match v {
            Value::Number(n) if !shown_exactly(n) => {
                let digits = canonical_decimal(&n.to_string());
                *v = Value::String(format!("{marker}{digits}{marker}"));
            }
            Value::Array(items) => pending.extend(items.iter_mut()),
            Value::Object(map) => pending.extend(map.values_mut()),
            _ => {}
        }
    }
    Some(marker)
}

/// `text` without `marker`: the protected numbers stand unquoted.
pub(crate) fn restore(text: String, marker: char) -> String {
    text.replace(marker, "")
}

fn mark_used(s: &str, used: &mut [bool; 256]) {
    for c in s.chars() {
        let code = u32::from(c);
        if MARKERS.contains(&code) {
            used[(code - MARKERS.start()) as usize] = true;
        }
    }
}

/// True when `toon-format` prints `n` with all its digits: integers that fit `i64` or `u64`.
fn shown_exactly(n: &serde_json::Number) -> bool {
    n.is_i64() || n.is_u64()
}

/// The TOON canonical decimal form of a JSON number literal: no exponent, no leading zeros, no trailing zeros after
/// the point (nor the point itself), `-0` as `0`. A literal with an exponent beyond ±[`MAX_EXPANDED_EXPONENT`] is
/// returned as it is.
pub(crate) fn canonical_decimal(literal: &str) -> String {
    let (negative, unsigned) = match literal.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, literal),
    };
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], &unsigned[at + 1..]),
        None => (unsigned, "0"),
    };
    let Ok(exponent) = exponent.trim_start_matches('+').parse::<i64>() else {
        return literal.to_owned();
    };
    if exponent.abs() > MAX_EXPANDED_EXPONENT {
        return literal.to_owned();
    }
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: String = format!("{int_part}{frac_part}");
    // The decimal point sits after `point` digits of `digits`.
    let point = i64::try_from(int_part.len())
        .unwrap_or(i64::MAX)
        .saturating_add(exponent);
    let (int_digits, frac_digits) = if point <= 0 {
        let zeros = "0".repeat(usize::try_from(-point).unwrap_or(0));
        (String::new(), format!("{zeros}{digits}"))
    } else {
        let point = usize::try_from(point).unwrap_or(usize::MAX);
        if point >= digits.len() {
            (format!("{digits}{}", "0".repeat(point - digits.len())), String::new())
        } else {
            (digits[..point].to_owned(), digits[point..].to_owned())
        }
    };
    let int_digits = int_digits.trim_start_matches('0');
    let frac_digits = frac_digits.trim_end_matches('0');
    let int_digits = if int_digits.is_empty() { "0" } else { int_digits };
    let body = if frac_digits.is_empty() {
        int_digits.to_owned()
    } else {
        format!("{int_digits}.{frac_digits}")
    };
    if negative && body != "0" {
        format!("-{body}")
    } else {
        body
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_forms() {
        for (literal, canonical) in [
            ("123456789012345678901234567890", "123456789012345678901234567890"),
            ("-123456789012345678901234567890", "-123456789012345678901234567890"),
            ("1.10", "1.1"),
            ("1.0", "1"),
            ("-0.0", "0"),
            (
                "0.1000000000000000055511151231257827",
                "0.1000000000000000055511151231257827",
            ),
            ("1e3", "1000"),
            ("1.5E+2", "150"),
            ("12.5e-3", "0.0125"),
            ("-7e-1", "-0.7"),
            ("0e10", "0"),
            ("1e400000", "1e400000"),
        ] {
            assert_eq!(canonical_decimal(literal), canonical, "{literal}");
        }
    }
}
