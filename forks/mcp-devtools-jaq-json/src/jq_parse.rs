//! jq-compat (mcp-devtools): jq 1.8's JSON reader (`src/jv_parse.c`, not streaming), for `fromjson` and
//! `tonumber`: a port of its state machine, so that the same texts are accepted and refused, with jq's
//! messages (`Unexpected extra JSON values (while parsing '1 2')`).
//!
//! jq reads a "literal" as a run of characters that are neither white space, structure (`[,]{:}`) nor a quote:
//! `true`, `false`, `null`, or else a decNumber number (`nan`, `-nan`, `Infinity`, `1.`, `.5`, `+1`, `01`);
//! `truefalse` is one (invalid) literal. Comments and non-string keys are refused; a lone low surrogate escape
//! becomes U+FFFD, a lone high one is an error.

use crate::{Map, Num, Rc, Val};
use alloc::{format, string::String, vec::Vec};

/// jq's `MAX_PARSING_DEPTH`.
const MAX_DEPTH: usize = 10000;

enum Frame {
    Arr(Vec<Val>),
    Obj(Map),
    Key(Val),
}

#[derive(PartialEq, Eq, Clone, Copy)]
enum St {
    Normal,
    Str,
    StrEscape,
}

type Msg = &'static str;

struct Parser<'a> {
    buf: &'a [u8],
    pos: usize,
    stack: Vec<Frame>,
    next: Option<Val>,
    token: Vec<u8>,
    st: St,
    line: usize,
    column: usize,
    eof: bool,
}

/// The number a decNumber literal denotes, as jq 1.8 keeps it (`jvp_literal_number_new`): an optional sign,
/// then `inf` / `infinity` / `nan` / `snan` (any case; a NaN payload other than zeros is refused) or digits with
/// an optional point and exponent (`5.`, `.5`, `1E2`). `None` if it is no such literal.
pub(crate) fn number_literal(s: &[u8]) -> Option<Num> {
    let (neg, body) = match s.first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let lower = body.to_ascii_lowercase();
    if lower == b"inf" || lower == b"infinity" {
        return Some(Num::Float(if neg { f64::NEG_INFINITY } else { f64::INFINITY }));
    }
    if let Some(payload) = lower.strip_prefix(b"nan").or_else(|| lower.strip_prefix(b"snan")) {
        return payload.iter().all(|c| *c == b'0').then_some(Num::Float(f64::NAN));
    }
    let digits = |s: &[u8]| s.iter().take_while(|c| c.is_ascii_digit()).count();
    let int_len = digits(body);
    let (int, rest) = body.split_at(int_len);
    let (frac, rest) = match rest.strip_prefix(b".") {
        Some(after) => after.split_at(digits(after)),
        None => (&rest[..0], rest),
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let exp = match rest.first() {
        None => None,
        Some(b'e' | b'E') => {
            let e = &rest[1..];
            let unsigned = e.strip_prefix(b"+").or_else(|| e.strip_prefix(b"-")).unwrap_or(e);
            if unsigned.is_empty() || digits(unsigned) != unsigned.len() {
                return None;
            }
            Some(e)
        }
        Some(_) => return None,
    };
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let sign = if neg { "-" } else { "" };
    let int = if int.is_empty() { "0".into() } else { text(int) };
    if frac.is_empty() && exp.is_none() {
        // An integer (`5.` too: decNumber keeps no fraction digit).
        if neg && int.bytes().all(|c| c == b'0') {
            return Some(Num::Float(-0.0));
        }
        return Some(Num::from_str_radix(&format!("{sign}{int}"), 10)?);
    }
    let frac = if frac.is_empty() { String::new() } else { format!(".{}", text(frac)) };
    let exp = exp.map_or_else(String::new, |e| format!("e{}", text(e)));
    Some(Num::Dec(Rc::new(format!("{sign}{int}{frac}{exp}"))))
}

/// jq's replacement of invalid UTF-8 (`jvp_utf8_next`): each maximal bad sequence as jq cuts it becomes one
/// U+FFFD (a lead byte whose sequence the text ends in takes the rest: `9E E9 65` is two U+FFFD, not three).
pub fn jq_utf8_lossy(bytes: &[u8]) -> Vec<u8> {
    if core::str::from_utf8(bytes).is_ok() {
        return bytes.to_vec();
    }
    let coding_length = |b: u8| -> u8 {
        match b {
            0x00..=0x7F => 1,
            0x80..=0xBF => 255,
            0xC0 | 0xC1 => 0,
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => 0,
        }
    };
    let first_codepoint = [0u32, 0, 0x80, 0x800, 0x10000];
    let mut out = Vec::with_capacity(bytes.len() + 8);
    let mut i = 0;
    while i < bytes.len() {
        let first = bytes[i];
        let mut length = coding_length(first) as usize;
        let mut codepoint: i64 = -1;
        if first & 0x80 == 0 {
            codepoint = i64::from(first);
            length = 1;
        } else if length == 0 || length == 255 {
            length = 1;
        } else if length > bytes.len() - i {
            length = bytes.len() - i;
        } else {
            let bits = match length {
                2 => 0x1F,
                3 => 0x0F,
                _ => 0x07,
            };
            let mut cp = i64::from(first & bits);
            let mut ok = true;
            for k in 1..length {
                let ch = bytes[i + k];
                if coding_length(ch) != 255 {
                    ok = false;
                    length = k;
                    break;
                }
                cp = (cp << 6) | i64::from(ch & 0x3F);
            }
            if ok
                && cp >= i64::from(first_codepoint[length])
                && !(0xD800..=0xDFFF).contains(&cp)
                && cp <= 0x10FFFF
            {
                codepoint = cp;
            }
        }
        if codepoint < 0 {
            out.extend_from_slice("\u{FFFD}".as_bytes());
        } else {
            out.extend_from_slice(&bytes[i..i + length]);
        }
        i += length;
    }
    out
}

fn unhex4(h: &[u8]) -> Option<u32> {
    let h = h.get(..4)?;
    h.iter().try_fold(0u32, |acc, c| Some((acc << 4) | (*c as char).to_digit(16)?))
}

impl Parser<'_> {
    fn value(&mut self, v: Val) -> Result<(), Msg> {
        if self.next.is_some() {
            return Err("Expected separator between values");
        }
        self.next = Some(v);
        Ok(())
    }

    fn structure(&mut self, ch: u8) -> Result<(), Msg> {
        match ch {
            b'[' | b'{' => {
                if self.stack.len() >= MAX_DEPTH {
                    return Err("Exceeds depth limit for parsing");
                }
                if self.next.is_some() {
                    return Err("Expected separator between values");
                }
                self.stack.push(if ch == b'[' { Frame::Arr(Vec::new()) } else { Frame::Obj(Map::default()) });
            }
            b':' => {
                let Some(next) = self.next.take() else {
                    return Err("Expected string key before ':'");
                };
                if !matches!(self.stack.last(), Some(Frame::Obj(_))) {
                    return Err("':' not as part of an object");
                }
                if !matches!(next, Val::TStr(_) | Val::BStr(_)) {
                    return Err("Object keys must be strings");
                }
                self.stack.push(Frame::Key(next));
            }
            b',' => {
                let Some(next) = self.next.take() else {
                    return Err("Expected value before ','");
                };
                match self.stack.last_mut() {
                    None => return Err("',' not as part of an object or array"),
                    Some(Frame::Arr(a)) => a.push(next),
                    Some(Frame::Key(_)) => self.set_key(next),
                    Some(Frame::Obj(_)) => return Err("Objects must consist of key:value pairs"),
                }
            }
            b']' => {
                let Some(Frame::Arr(a)) = self.stack.last_mut() else {
                    return Err("Unmatched ']'");
                };
                match self.next.take() {
                    Some(next) => a.push(next),
                    None if !a.is_empty() => return Err("Expected another array element"),
                    None => {}
                }
                if let Some(Frame::Arr(a)) = self.stack.pop() {
                    self.next = Some(Val::Arr(a.into()));
                }
            }
            b'}' => {
                if self.stack.is_empty() {
                    return Err("Unmatched '}'");
                }
                match self.next.take() {
                    Some(next) => {
                        if !matches!(self.stack.last(), Some(Frame::Key(_))) {
                            return Err("Objects must consist of key:value pairs");
                        }
                        self.set_key(next);
                    }
                    None => match self.stack.last() {
                        Some(Frame::Obj(o)) if !o.is_empty() => return Err("Expected another key-value pair"),
                        Some(Frame::Obj(_)) => {}
                        _ => return Err("Unmatched '}'"),
                    },
                }
                if let Some(Frame::Obj(o)) = self.stack.pop() {
                    self.next = Some(Val::obj(o));
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The value of the key on top of the stack, set in the object below it.
    fn set_key(&mut self, v: Val) {
        if let (Some(Frame::Key(k)), Some(Frame::Obj(o))) = (self.stack.pop(), self.stack.last_mut()) {
            o.insert(k, v);
        }
    }

    fn check_literal(&mut self) -> Result<(), Msg> {
        if self.token.is_empty() {
            return Ok(());
        }
        let pattern: Option<(&[u8], Val)> = match self.token[0] {
            b't' => Some((b"true", Val::Bool(true))),
            b'f' => Some((b"false", Val::Bool(false))),
            b'\'' => return Err("Invalid string literal; expected \", but got '"),
            b'n' if self.token.get(1) == Some(&b'u') => Some((b"null", Val::Null)),
            _ => None,
        };
        match pattern {
            Some((p, v)) => {
                if self.token != p {
                    return Err("Invalid literal");
                }
                self.value(v)?;
            }
            None => {
                let n = number_literal(&self.token).ok_or("Invalid numeric literal")?;
                self.value(Val::Num(n))?;
            }
        }
        self.token.clear();
        Ok(())
    }

    fn found_string(&mut self) -> Result<(), Msg> {
        let token = core::mem::take(&mut self.token);
        let mut out = Vec::with_capacity(token.len());
        let mut i = 0;
        while i < token.len() {
            let c = token[i];
            i += 1;
            if c != b'\\' {
                if c < 0x20 {
                    return Err("Invalid string: control characters from U+0000 through U+001F must be escaped");
                }
                out.push(c);
                continue;
            }
            let Some(&e) = token.get(i) else {
                return Err("Expected escape character at end of string");
            };
            i += 1;
            match e {
                b'\\' | b'"' | b'/' => out.push(e),
                b'b' => out.push(8),
                b'f' => out.push(12),
                b't' => out.push(b'\t'),
                b'n' => out.push(b'\n'),
                b'r' => out.push(b'\r'),
                b'u' => {
                    if i + 4 > token.len() {
                        return Err("Invalid \\uXXXX escape");
                    }
                    let mut cp = unhex4(&token[i..]).ok_or("Invalid characters in \\uXXXX escape")?;
                    i += 4;
                    if (0xD800..=0xDBFF).contains(&cp) {
                        let pair = "Invalid \\uXXXX\\uXXXX surrogate pair escape";
                        if i + 6 > token.len() || token[i] != b'\\' || token[i + 1] != b'u' {
                            return Err(pair);
                        }
                        let low = unhex4(&token[i + 2..]).filter(|l| (0xDC00..=0xDFFF).contains(l)).ok_or(pair)?;
                        i += 6;
                        cp = 0x10000 + (((cp - 0xD800) << 10) | (low - 0xDC00));
                    }
                    match char::from_u32(cp) {
                        Some(ch) => out.extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes()),
                        // A lone low surrogate: encoded as jq does, then replaced as invalid UTF-8.
                        None => out.extend_from_slice(&[
                            0xE0 | (cp >> 12) as u8,
                            0x80 | ((cp >> 6) & 0x3F) as u8,
                            0x80 | (cp & 0x3F) as u8,
                        ]),
                    }
                }
                _ => return Err("Invalid escape"),
            }
        }
        self.value(Val::utf8_str(jq_utf8_lossy(&out)))
    }

    fn check_done(&mut self) -> Option<Val> {
        if self.stack.is_empty() {
            self.next.take()
        } else {
            None
        }
    }

    /// One character; `Ok(Some(v))` when it completes a value.
    fn scan(&mut self, ch: u8) -> Result<Option<Val>, Msg> {
        self.column += 1;
        if ch == b'\n' {
            self.line += 1;
            self.column = 0;
        }
        let mut answer = None;
        if self.st == St::Normal {
            let structure = matches!(ch, b'[' | b',' | b']' | b'{' | b':' | b'}');
            let white = matches!(ch, b' ' | b'\t' | b'\r' | b'\n');
            let literal = !structure && !white && ch != b'"';
            if !literal {
                self.check_literal()?;
                answer = answer.or_else(|| self.check_done());
            }
            if literal {
                self.token.push(ch);
            } else if ch == b'"' {
                self.st = St::Str;
            } else if structure {
                self.structure(ch)?;
            }
            answer = answer.or_else(|| self.check_done());
        } else if ch == b'"' && self.st == St::Str {
            self.found_string()?;
            self.st = St::Normal;
            answer = self.check_done();
        } else {
            self.token.push(ch);
            self.st = if ch == b'\\' && self.st == St::Str { St::StrEscape } else { St::Str };
        }
        Ok(answer)
    }

    /// jq's `jv_parser_next`: the next value, `Ok(None)` at the end, or an error message.
    fn next_value(&mut self) -> Result<Option<Val>, String> {
        if self.eof {
            return Ok(None);
        }
        while self.pos < self.buf.len() {
            let ch = self.buf[self.pos];
            self.pos += 1;
            match self.scan(ch) {
                Ok(Some(v)) => return Ok(Some(v)),
                Ok(None) => {}
                Err(msg) => {
                    self.eof = true;
                    return Err(format!("{msg} at line {}, column {}", self.line, self.column));
                }
            }
        }
        self.eof = true;
        let at = |msg: &str, p: &Self| format!("{msg} at EOF at line {}, column {}", p.line, p.column);
        if self.st != St::Normal {
            return Err(at("Unfinished string", self));
        }
        if let Err(msg) = self.check_literal() {
            return Err(at(msg, self));
        }
        if !self.stack.is_empty() {
            return Err(at("Unfinished JSON term", self));
        }
        Ok(self.next.take())
    }
}

/// jq's `fromjson` (`jv_parse_sized`): exactly one JSON value, else jq's message, ending in
/// `(while parsing '<text>')`.
pub(crate) fn parse_one(text: &[u8]) -> Result<Val, String> {
    let shown = String::from_utf8_lossy(text.split(|c| *c == 0).next().unwrap_or_default()).into_owned();
    let fail = |msg: String| Err(format!("{msg} (while parsing '{shown}')"));
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    let prefix = text.iter().zip(BOM).take_while(|(a, b)| a == b).count();
    let buf = match prefix {
        3 => &text[3..],
        0 => text,
        _ if text.len() > prefix => return fail("Malformed BOM".into()),
        _ => &text[prefix..],
    };
    let mut p = Parser {
        buf,
        pos: 0,
        stack: Vec::new(),
        next: None,
        token: Vec::new(),
        st: St::Normal,
        line: 1,
        column: 0,
        eof: false,
    };
    match p.next_value() {
        Ok(Some(v)) => match p.next_value() {
            Ok(Some(_)) => fail("Unexpected extra JSON values".into()),
            Ok(None) => Ok(v),
            Err(e) => fail(e),
        },
        Ok(None) => fail("Expected JSON value".into()),
        Err(e) => fail(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn parses_as_jq() {
        let ok = |t: &str| parse_one(t.as_bytes()).map(|v| v.to_string());
        assert_eq!(ok("[1, 2]").as_deref(), Ok("[1,2]"));
        assert_eq!(ok(" 1 ").as_deref(), Ok("1"));
        assert_eq!(ok("nan").as_deref(), Ok("null"));
        assert_eq!(ok("[-nan]").as_deref(), Ok("[null]"));
        assert_eq!(ok("1.").as_deref(), Ok("1"));
        assert_eq!(ok(".5").as_deref(), Ok("0.5"));
        assert_eq!(ok("-0").as_deref(), Ok("-0"));
        assert_eq!(ok("{\"a\":1,\"a\":2}").as_deref(), Ok("{\"a\":2}"));
        assert_eq!(ok("\"\\udc00\"").as_deref(), Ok("\"\u{FFFD}\""));
        let err = |t: &str| parse_one(t.as_bytes()).unwrap_err();
        assert_eq!(err(""), "Expected JSON value (while parsing '')");
        assert_eq!(err("1 2"), "Unexpected extra JSON values (while parsing '1 2')");
        assert_eq!(err("NaN1"), "Invalid numeric literal at EOF at line 1, column 4 (while parsing 'NaN1')");
        assert_eq!(
            err("{'a': 123}"),
            "Invalid string literal; expected \", but got ' at line 1, column 5 (while parsing '{'a': 123}')"
        );
        assert_eq!(err("[1,]"), "Expected another array element at line 1, column 4 (while parsing '[1,]')");
        for bad in ["truefalse", "[1]2", "{1:2}", "#c\n1", "\"\\ud83d\"", "[1", "\"a"] {
            assert!(parse_one(bad.as_bytes()).is_err(), "{bad}");
        }
    }

    #[test]
    fn number_literals_as_jq() {
        let n = |t: &str| number_literal(t.as_bytes()).map(|n| n.to_string());
        for (t, v) in [
            ("5.", "5"),
            (".5", "0.5"),
            ("+1", "1"),
            ("-0", "-0"),
            ("00012", "12"),
            ("1e1000", "1E+1000"),
            ("infinity", "1.7976931348623157e+308"),
            ("-Inf", "-1.7976931348623157e+308"),
            ("NaN", "null"),
            ("-nan", "null"),
            ("5.e3", "5E+3"),
        ] {
            assert_eq!(n(t).as_deref(), Some(v), "{t}");
        }
        for t in ["", " 1", "1 ", "0x10", "1_0", "NaN1", ".", "-", "1e", "e1", "1.5.2"] {
            assert_eq!(n(t), None, "{t}");
        }
    }

    #[test]
    fn lossy_as_jq() {
        assert_eq!(jq_utf8_lossy(b"\x9e\xe9\x65"), "\u{FFFD}\u{FFFD}".as_bytes());
        assert_eq!(jq_utf8_lossy(b"a\xe2\x28b"), "a\u{FFFD}(b".as_bytes());
        assert_eq!(jq_utf8_lossy("é".as_bytes()), "é".as_bytes());
    }
}
