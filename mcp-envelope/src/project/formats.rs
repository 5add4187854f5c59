//! jq 1.8.1's formats that jaq lacks or decodes otherwise, as jq's `f_format` (`src/builtin.c`): `@base64d`,
//! `@urid`, `@base32` and `@base32d`.
//!
//! Natives `_jq_base64d`, `_jq_urid`, `_jq_base32` and `_jq_base32d` take a string; on bad input they fail with the end of jq's message
//! (`is not valid base64 data`), which `jq_defs.jq` prefixes with the value (`string ("Not base64...)`), as jq.
//! Decoded bytes that are not UTF-8 become U+FFFD where jq's `jvp_utf8_next` cuts them (`jaq_json::jq_utf8_lossy`).

use jaq_core::box_iter::box_once;
use jaq_core::native::{Fun, v};
use jaq_core::{Error, Exn, Native};
use jaq_json::Val;

use super::data::JsonData;

/// jq's base64 decoding: the standard alphabet; decoding stops at the first `=` (so padding is optional and
/// anything after it is ignored); 2 or 3 characters left over give 1 or 2 bytes, 1 character is an error.
fn base64_decode(text: &[u8]) -> Result<Vec<u8>, &'static str> {
    fn sextet(c: u8) -> Option<u32> {
        Some(u32::from(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        }))
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 2);
    let (mut code, mut read) = (0u32, 0);
    for &c in text.iter().take_while(|c| **c != b'=') {
        code = (code << 6) | sextet(c).ok_or("is not valid base64 data")?;
        read += 1;
        if read == 4 {
            out.extend_from_slice(&code.to_be_bytes()[1..]);
            (code, read) = (0, 0);
        }
    }
    match read {
        3 => out.extend_from_slice(&(code << 6).to_be_bytes()[1..3]),
        2 => out.push(((code << 12) >> 16) as u8),
        1 => return Err("trailing base64 byte found"),
        _ => {}
    }
    Ok(out)
}

/// jq's URI decoding: `%XX` sequences make one UTF-8 character each (the first byte's leading one bits say how
/// many bytes follow, each `10xxxxxx`), which must be valid UTF-8; other characters are kept as they are.
fn uri_decode(text: &[u8]) -> Result<Vec<u8>, &'static str> {
    const BAD: &str = "is not a valid uri encoding";
    let hex = |c: Option<&u8>| -> Result<u8, &'static str> {
        let c = *c.ok_or(BAD)?;
        Ok(match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' => c - b'A' + 10,
            _ => return Err(BAD),
        })
    };
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while let Some(&c) = text.get(i) {
        if c != b'%' {
            out.push(c);
            i += 1;
            continue;
        }
        let mut bytes = [0u8; 4];
        let mut n = 0;
        while n == 0 || (n < 4 && bytes[0] & 0x80 != 0 && (bytes[0] >> (7 - n)) & 1 == 1) {
            if text.get(i) != Some(&b'%') {
                return Err(BAD);
            }
            let byte = (hex(text.get(i + 1))? << 4) | hex(text.get(i + 2))?;
            if n > 0 && byte & 0xC0 != 0x80 {
                return Err(BAD);
            }
            bytes[n] = byte;
            n += 1;
            i += 3;
        }
        std::str::from_utf8(&bytes[..n]).map_err(|_| BAD)?;
        out.extend_from_slice(&bytes[..n]);
    }
    Ok(out)
}

const BASE32: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/// Base32 (RFC 4648 §6): the upper-case alphabet, padded with `=` to a multiple of 8 characters.
fn base32_encode(bytes: &[u8]) -> Result<Vec<u8>, &'static str> {
    let mut out = Vec::with_capacity(bytes.len().div_ceil(5) * 8);
    for chunk in bytes.chunks(5) {
        let mut block = [0u8; 5];
        block[..chunk.len()].copy_from_slice(chunk);
        let bits = block.iter().fold(0u64, |acc, b| (acc << 8) | u64::from(*b));
        let chars = (chunk.len() * 8).div_ceil(5);
        for i in 0..8 {
            out.push(if i < chars {
                BASE32[((bits >> (35 - 5 * i)) & 31) as usize]
            } else {
                b'='
            });
        }
    }
    Ok(out)
}

/// Base32 decoding: stops at the first `=`; bits left over that make no whole byte are dropped.
fn base32_decode(text: &[u8]) -> Result<Vec<u8>, &'static str> {
    let mut out = Vec::with_capacity(text.len() * 5 / 8);
    let (mut code, mut bits) = (0u32, 0);
    for &c in text.iter().take_while(|c| **c != b'=') {
        let value = BASE32.iter().position(|b| *b == c).ok_or("is not valid base32 data")?;
        code = ((code << 5) | value as u32) & 0xFFFF;
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            out.push((code >> bits) as u8);
        }
    }
    Ok(out)
}

fn decoder(input: &Val, decode: fn(&[u8]) -> Result<Vec<u8>, &'static str>) -> Result<Val, Exn<'static, Val>> {
    let (Val::TStr(text) | Val::BStr(text)) = input else {
        return Err(Exn::from(Error::str("a decoding format needs a string")));
    };
    let bytes = decode(text).map_err(|e| Exn::from(Error::str(e)))?;
    Ok(Val::utf8_str(jaq_json::jq_utf8_lossy(&bytes)))
}

/// The natives of this module.
pub(crate) fn natives() -> impl Iterator<Item = Fun<JsonData>> {
    let base64d: Fun<JsonData> = (
        "_jq_base64d",
        v(0),
        Native::new(|cv| box_once(decoder(&cv.1, base64_decode))),
    );
    let urid: Fun<JsonData> = ("_jq_urid", v(0), Native::new(|cv| box_once(decoder(&cv.1, uri_decode))));
    let base32: Fun<JsonData> = (
        "_jq_base32",
        v(0),
        Native::new(|cv| box_once(decoder(&cv.1, base32_encode))),
    );
    let base32d: Fun<JsonData> = (
        "_jq_base32d",
        v(0),
        Native::new(|cv| box_once(decoder(&cv.1, base32_decode))),
    );
    [base64d, urid, base32, base32d].into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_as_jq() {
        assert_eq!(base64_decode(b"cWl4YmF6Cg").as_deref(), Ok(&b"qixbaz\n"[..]));
        assert_eq!(base64_decode(b"cWl4YmF6Cg==").as_deref(), Ok(&b"qixbaz\n"[..]));
        assert_eq!(base64_decode(b"YWJj=YWJj").as_deref(), Ok(&b"abc"[..]));
        assert_eq!(base64_decode(b"YQ").as_deref(), Ok(&b"a"[..]));
        assert_eq!(base64_decode(b"YWI").as_deref(), Ok(&b"ab"[..]));
        assert_eq!(base64_decode(b"=").as_deref(), Ok(&b""[..]));
        assert_eq!(base64_decode(b"QUJDa"), Err("trailing base64 byte found"));
        assert_eq!(base64_decode(b"a b"), Err("is not valid base64 data"));
    }

    #[test]
    fn base32_round_trips() {
        for (text, code) in [
            ("", ""),
            ("f", "MY======"),
            ("fo", "MZXQ===="),
            ("foob", "MZXW6YQ="),
            ("fooba", "MZXW6YTB"),
        ] {
            assert_eq!(base32_encode(text.as_bytes()).as_deref(), Ok(code.as_bytes()), "{text}");
            assert_eq!(base32_decode(code.as_bytes()).as_deref(), Ok(text.as_bytes()), "{code}");
        }
        assert_eq!(base32_decode(b"MZXW6YQ").as_deref(), Ok(&b"foob"[..]));
        assert_eq!(base32_decode(b"mzxw"), Err("is not valid base32 data"));
    }

    #[test]
    fn uri_as_jq() {
        assert_eq!(uri_decode(b"%41%c3%a9+x").as_deref(), Ok("Aé+x".as_bytes()));
        for bad in ["%", "%2x", "%F0%93%81", "%F0%C0%81%8E", "%80"] {
            assert!(uri_decode(bad.as_bytes()).is_err(), "{bad}");
        }
    }
}
