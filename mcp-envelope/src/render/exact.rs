//! TOON text with every digit of every number.
//!
//! `toon-format` turns each number into an `i64`, `u64` or `f64`, so an integer past 64 bits or a decimal with more
//! digits than an `f64` holds would lose digits (`123456789012345678901234567890` became
//! `123456789012345680000000000000`). Numbers keep their literal digits in `serde_json` (`arbitrary_precision`);
//! the encoder writes each number that is not a 64-bit integer in TOON's canonical decimal form (no exponent, no
//! leading zeros, no trailing fractional zeros; TOON spec §2) computed from those digits.

/// Largest exponent expanded into plain digits; a number written with a larger one (`1e400000`) keeps its literal
/// form rather than growing into that many zeros.
const MAX_EXPANDED_EXPONENT: i64 = 1_000;

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
