//! jq-compat (mcp-devtools): jq 1.8.1's value semantics and error messages
//! where they differ from jaq's. Used by the marked places in `lib.rs`.

use crate::{Error, Num, Rc, Val, ValX};
use alloc::{string::String, vec::Vec};
use jaq_core::{path, Exn};

/// jq's name of a value's type (`jq 'type'`).
pub(crate) fn type_name(v: &Val) -> &'static str {
    match v {
        Val::Null => "null",
        Val::Bool(_) => "boolean",
        Val::Num(_) => "number",
        Val::BStr(_) | Val::TStr(_) => "string",
        Val::Arr(_) => "array",
        Val::Obj(_) => "object",
    }
}

/// jq's kind of a value (`jv_get_kind`): as [`type_name`], but `true` and
/// `false` are two kinds.
pub(crate) fn kind(v: &Val) -> &'static str {
    match v {
        Val::Bool(true) => "true",
        Val::Bool(false) => "false",
        v => type_name(v),
    }
}

/// The JSON text of a value cut as jq's `jv_dump_string_trunc` with a
/// 15-byte buffer does: texts over 14 bytes keep their first 11 bytes (on a
/// character boundary) followed by `...`.
pub(crate) fn dump_trunc(v: &Val) -> String {
    let json = v.to_json();
    let text = String::from_utf8_lossy(&json);
    if text.len() <= 14 {
        return text.into_owned();
    }
    let mut end = 11;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    alloc::format!("{}...", &text[..end])
}

/// `type (json...)`, how jq shows a value in an error message.
pub(crate) fn describe(v: &Val) -> String {
    alloc::format!("{} ({})", type_name(v), dump_trunc(v))
}

/// `Cannot iterate over number (123)`.
pub(crate) fn iterate_err(v: &Val) -> Error {
    match v {
        Val::Null => Error::str("Cannot iterate over null"),
        v => Error::str(format_args!("Cannot iterate over {} ({})", type_name(v), dump_trunc(v))),
    }
}

/// `Cannot index number with string "a"`, `Cannot index object with number`.
pub(crate) fn index_err(v: &Val, k: &Val) -> Error {
    match k {
        Val::TStr(s) | Val::BStr(s) => Error::str(format_args!(
            "Cannot index {} with string \"{}\"",
            type_name(v),
            crate::bstr(&***s)
        )),
        k => Error::str(format_args!("Cannot index {} with {}", type_name(v), type_name(k))),
    }
}

/// `number (1) and number (0) cannot be divided because the divisor is zero`.
pub(crate) fn math_err(l: &Val, r: &Val, what: &str) -> Error {
    Error::str(format_args!("{} and {} cannot be {what}", describe(l), describe(r)))
}

/// jq's `string * number`: the string `floor(n)` times, `null` when `n` is
/// negative or NaN; an error when the result would exceed `i32::MAX` bytes.
pub(crate) fn repeat(s: Val, n: &Num) -> Result<Val, Error> {
    let x = n.as_f64();
    if x.is_nan() || x < 0.0 {
        return Ok(Val::Null);
    }
    let times = if x > i32::MAX as f64 { i32::MAX as usize } else { x as usize };
    let (bytes, utf8) = match &s {
        Val::TStr(b) => (b, true),
        Val::BStr(b) => (b, false),
        _ => return Ok(Val::Null),
    };
    if bytes.len().checked_mul(times).map_or(true, |t| t > i32::MAX as usize) {
        return Err(Error::str("Repeat string result too long"));
    }
    let out = bytes::Bytes::from(bytes.repeat(times));
    Ok(if utf8 { Val::utf8_str(out) } else { Val::byte_str(out) })
}

/// jq's `a % b`: NaN if either is NaN, else both as doubles truncated to
/// integers (saturating, as jq's `dtoi`: `9007199254740993 % 2` is `0`, the
/// double being `9007199254740992`); `None` when the divisor truncates to zero.
pub(crate) fn rem(a: &Num, b: &Num) -> Option<Val> {
    let (fa, fb) = (a.as_f64(), b.as_f64());
    if fa.is_nan() || fb.is_nan() {
        return Some(Val::Num(Num::Float(f64::NAN)));
    }
    let (ia, ib) = (dtoi(fa), dtoi(fb));
    match ib {
        0 => None,
        -1 => Some(Val::from(0isize)),
        _ => Some(Val::Num(Num::from_integral(ia % ib).jq_double())),
    }
}

/// jq's `dtoi`: a double to `intmax_t`, saturating (`as` does the same).
fn dtoi(x: f64) -> i64 {
    x as i64
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn rem_as_jq() {
        let r = |a: Num, b: Num| rem(&a, &b).map(|v| v.to_string());
        assert_eq!(r(Num::Int(9007199254740993), Num::Int(2)).as_deref(), Some("0"));
        assert_eq!(r(Num::Int(9007199254740993), Num::Int(3)).as_deref(), Some("2"));
        assert_eq!(r(Num::Int(-5), Num::Int(3)).as_deref(), Some("-2"));
        assert_eq!(r(Num::Float(5.9), Num::Float(2.1)).as_deref(), Some("1"));
        assert_eq!(r(Num::Float(1e10), Num::Int(7)).as_deref(), Some("4"));
        assert_eq!(r(Num::Int(5), Num::Float(0.5)), None);
    }
}

/// jq's largest array index for an update (`Array index too large` above it).
const MAX_ARRAY_INDEX: usize = (i32::MAX >> 2) as usize;

/// jq's update of an array element at a number index: the index is floored,
/// negative indices count from the end (`Out of bounds negative array index`
/// before the start), an index past the end pads the array with nulls.
pub(crate) fn map_arr_index<'a, I: Iterator<Item = ValX<'a>>>(
    v: Val,
    index: &Val,
    opt: path::Opt,
    f: impl Fn(Val) -> I,
) -> ValX<'a> {
    let (mut a, n) = match (v, index) {
        (Val::Arr(a), Val::Num(n)) => (a, n),
        (v, _) => return opt.fail(v, |v| Exn::from(index_err(&v, index))),
    };
    let fail = |a: Rc<Vec<Val>>, msg: &'static str| opt.fail(Val::Arr(a), |_| Exn::from(Error::str(msg)));
    let i = match n.as_isize() {
        Some(i) => i,
        None => {
            let x = n.as_f64();
            if x.is_nan() {
                return fail(a, "Cannot set array element at NaN index");
            }
            x.floor() as isize
        }
    };
    let len = a.len();
    let i = if i < 0 {
        match i.checked_add(len as isize) {
            Some(j) if j >= 0 => j as usize,
            _ => return fail(a, "Out of bounds negative array index"),
        }
    } else {
        i as usize
    };
    if i >= len {
        if i > MAX_ARRAY_INDEX {
            return fail(a, "Array index too large");
        }
        // Created only where the update ran (`jaq_core::update_calls`).
        let before = jaq_core::update_calls();
        let y = f(Val::Null).next().transpose()?;
        if let Some(y) = y.filter(|_| jaq_core::update_calls() != before) {
            let arr = Rc::make_mut(&mut a);
            arr.resize(i, Val::Null);
            arr.push(y);
        }
        return Ok(Val::Arr(a));
    }
    let arr = Rc::make_mut(&mut a);
    let x = core::mem::take(&mut arr[i]);
    match f(x).next().transpose()? {
        Some(y) => arr[i] = y,
        None => {
            arr.remove(i);
        }
    }
    Ok(Val::Arr(a))
}
