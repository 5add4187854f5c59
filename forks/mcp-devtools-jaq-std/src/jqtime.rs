//! jq-compat (mcp-devtools): jq 1.8's date functions as jq runs them on glibc (`src/builtin.c`: `tm2jv`,
//! `jv2tm`, `my_mktime` = `timegm`, `gmtime_r`, `strftime`, `strptime`), on a `struct tm` of integers:
//! broken-down times are normalized (`[2015,14,5,…]` is in 2016; `[]` is 1899-12-31), years are not
//! limited to four digits (`9007199254740991 | todate` is `285428751-11-12T07:36:31Z`), `mktime` of a time
//! that is `-1` fails (jq takes `-1` for `timegm`'s error), `gmtime` truncates the seconds toward zero and adds
//! the fraction back (`-2.5` is `…:58.5`), `strptime` is glibc's (`%z` takes `Z`, `+hh`, `+hhmm`, `+hh:mm`).

use alloc::string::String;
use alloc::vec::Vec;

/// C's `struct tm`, `year` holding `tm_year` (years since 1900).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tm {
    pub year: i64,
    pub mon: i64,
    pub mday: i64,
    pub hour: i64,
    pub min: i64,
    pub sec: i64,
    pub wday: i64,
    pub yday: i64,
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

const MON_YDAY: [[i64; 13]; 2] = [
    [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365],
    [0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366],
];

/// Days since 1970-01-01 of a proleptic Gregorian date (month 1..=12).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

/// The date of a day since 1970-01-01: (year, month 1..=12, day).
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn fits_int(x: i64) -> bool {
    i32::try_from(x).is_ok()
}

/// `gmtime_r`: `None` when the year does not fit an `int`.
pub fn gmtime(t: i64) -> Option<Tm> {
    let days = t.div_euclid(86400);
    let secs = t.rem_euclid(86400);
    let (y, m, d) = civil_from_days(days);
    if !fits_int(y - 1900) {
        return None;
    }
    Some(Tm {
        year: y - 1900,
        mon: m - 1,
        mday: d,
        hour: secs / 3600,
        min: secs % 3600 / 60,
        sec: secs % 60,
        wday: (days + 4).rem_euclid(7),
        yday: days - days_from_civil(y, 1, 1),
    })
}

/// `timegm`: the seconds since the epoch of `tm`, which it normalizes (and sets `wday`, `yday`); `None`
/// (and `tm` untouched) on overflow.
pub fn timegm(tm: &mut Tm) -> Option<i64> {
    let y = tm.year + 1900 + tm.mon.div_euclid(12);
    let m = tm.mon.rem_euclid(12);
    let days = i128::from(days_from_civil(y, m + 1, 1)) + i128::from(tm.mday) - 1;
    let t = days * 86400 + i128::from(tm.hour) * 3600 + i128::from(tm.min) * 60 + i128::from(tm.sec);
    let t = i64::try_from(t).ok()?;
    *tm = gmtime(t)?;
    Some(t)
}

/// glibc's `day_of_the_week` (any `mday`, `0` too).
fn day_of_the_week(tm: &mut Tm) {
    let days = days_from_civil(tm.year + 1900, tm.mon.rem_euclid(12) + 1, 1) + tm.mday - 1;
    tm.wday = (days + 4).rem_euclid(7);
}

fn day_of_the_year(tm: &mut Tm) {
    let leap = usize::from(is_leap(tm.year + 1900));
    tm.yday = MON_YDAY[leap][tm.mon.rem_euclid(12) as usize] + tm.mday - 1;
}

const DAYS: [&str; 7] = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// glibc's `iso_week_days`.
fn iso_week_days(yday: i64, wday: i64) -> i64 {
    const BIG_ENOUGH_MULTIPLE_OF_7: i64 = (366 / 7 + 2) * 7;
    yday - (yday - wday + 4 + BIG_ENOUGH_MULTIPLE_OF_7) % 7 + 3
}

/// The time zone `strftime` shows: its abbreviation (`%Z`) and offset in seconds (`%z`).
pub struct Zone<'a> {
    pub name: &'a str,
    pub offset: i64,
    /// `%s`: the seconds since the epoch of a broken-down time (glibc reads it as local time).
    pub epoch: &'a dyn Fn(&Tm) -> i64,
}

/// glibc's `strftime` in the C locale: flags `-_0^#`, a width, `E`/`O` modifiers; an unknown conversion is
/// copied as it is.
pub fn strftime(tm: &Tm, fmt: &[u8], zone: &Zone) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < fmt.len() {
        if fmt[i] != b'%' {
            out.push(fmt[i]);
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        let (mut pad, mut upcase, mut swapcase) = (None, false, false);
        while let Some(&f @ (b'-' | b'_' | b'0' | b'^' | b'#')) = fmt.get(i) {
            match f {
                b'^' => upcase = true,
                b'#' => swapcase = true,
                _ => pad = Some(f),
            }
            i += 1;
        }
        let mut width = None;
        while let Some(d @ b'0'..=b'9') = fmt.get(i) {
            width = Some(width.unwrap_or(0usize).saturating_mul(10).saturating_add(usize::from(d - b'0')));
            i += 1;
        }
        let modifier = match fmt.get(i) {
            Some(&m @ (b'E' | b'O')) => {
                i += 1;
                Some(m)
            }
            _ => None,
        };
        let Some(&c) = fmt.get(i) else {
            out.extend_from_slice(&fmt[start..]);
            break;
        };
        i += 1;
        let valid_modifier = match modifier {
            None => true,
            Some(b'E') => matches!(c, b'c' | b'C' | b'x' | b'X' | b'y' | b'Y'),
            _ => matches!(c, b'd' | b'e' | b'H' | b'I' | b'm' | b'M' | b'S' | b'u' | b'U' | b'V' | b'w' | b'W' | b'y'),
        };
        if !valid_modifier {
            out.extend_from_slice(&fmt[start..i]);
            continue;
        }
        let year = tm.year + 1900;
        // A number: default width and padding ('0' or '_').
        let num = |out: &mut Vec<u8>, n: i64, digits: usize, default_pad: u8| {
            let neg = n < 0;
            let body = alloc::format!("{}", n.unsigned_abs());
            let w = width.unwrap_or(digits);
            let p = match pad {
                Some(b'-') if width.is_none() => None,
                Some(b'-') => Some(b' '),
                Some(b'_') => Some(b' '),
                Some(b'0') => Some(b'0'),
                _ => Some(default_pad),
            };
            let len = body.len() + usize::from(neg);
            match p {
                Some(b'0') => {
                    if neg {
                        out.push(b'-');
                    }
                    out.extend(core::iter::repeat_n(b'0', w.saturating_sub(len)));
                }
                Some(p) => {
                    out.extend(core::iter::repeat_n(p, w.saturating_sub(len)));
                    if neg {
                        out.push(b'-');
                    }
                }
                None => {
                    if neg {
                        out.push(b'-');
                    }
                }
            }
            out.extend_from_slice(body.as_bytes());
        };
        let text = |out: &mut Vec<u8>, s: &str, lower_on_swap: bool| {
            let s: String = if upcase || (swapcase && !lower_on_swap) {
                s.to_ascii_uppercase()
            } else if swapcase {
                s.to_ascii_lowercase()
            } else {
                s.into()
            };
            let p = if pad == Some(b'0') { b'0' } else { b' ' };
            out.extend(core::iter::repeat_n(p, width.unwrap_or(0).saturating_sub(s.len())));
            out.extend_from_slice(s.as_bytes());
        };
        let sub = |out: &mut Vec<u8>, f: &str| {
            let s = strftime(tm, f.as_bytes(), zone);
            let s = String::from_utf8_lossy(&s);
            text(out, &s, false);
        };
        let wday = tm.wday.rem_euclid(7) as usize;
        let mon = tm.mon.rem_euclid(12) as usize;
        let hour12 = if tm.hour % 12 == 0 { 12 } else { tm.hour % 12 };
        let iso = || {
            let mut y = year;
            let mut days = iso_week_days(tm.yday, tm.wday);
            if days < 0 {
                y -= 1;
                days = iso_week_days(tm.yday + 365 + i64::from(is_leap(y)), tm.wday);
            } else {
                let d = iso_week_days(tm.yday - (365 + i64::from(is_leap(y))), tm.wday);
                if d >= 0 {
                    y += 1;
                    days = d;
                }
            }
            (y, days)
        };
        match c {
            b'%' => text(&mut out, "%", false),
            b'a' => text(&mut out, &DAYS[wday][..3], false),
            b'A' => text(&mut out, DAYS[wday], false),
            b'b' | b'h' => text(&mut out, &MONTHS[mon][..3], false),
            b'B' => text(&mut out, MONTHS[mon], false),
            b'c' => sub(&mut out, "%a %b %e %H:%M:%S %Y"),
            b'C' => num(&mut out, year.div_euclid(100), 1, b'0'),
            b'd' => num(&mut out, tm.mday, 2, b'0'),
            b'D' | b'x' => sub(&mut out, "%m/%d/%y"),
            b'e' => num(&mut out, tm.mday, 2, b' '),
            b'F' => sub(&mut out, "%Y-%m-%d"),
            b'g' => num(&mut out, iso().0.rem_euclid(100), 2, b'0'),
            b'G' => num(&mut out, iso().0, 1, b'0'),
            b'H' => num(&mut out, tm.hour, 2, b'0'),
            b'I' => num(&mut out, hour12, 2, b'0'),
            b'j' => num(&mut out, tm.yday + 1, 3, b'0'),
            b'k' => num(&mut out, tm.hour, 2, b' '),
            b'l' => num(&mut out, hour12, 2, b' '),
            b'm' => num(&mut out, tm.mon + 1, 2, b'0'),
            b'M' => num(&mut out, tm.min, 2, b'0'),
            b'n' => text(&mut out, "\n", false),
            b'p' => text(&mut out, if tm.hour >= 12 { "PM" } else { "AM" }, true),
            b'P' => text(&mut out, if tm.hour >= 12 { "pm" } else { "am" }, false),
            b'r' => sub(&mut out, "%I:%M:%S %p"),
            b'R' => sub(&mut out, "%H:%M"),
            b's' => num(&mut out, (zone.epoch)(tm), 1, b'0'),
            b'S' => num(&mut out, tm.sec, 2, b'0'),
            b't' => text(&mut out, "\t", false),
            b'T' | b'X' => sub(&mut out, "%H:%M:%S"),
            b'u' => num(&mut out, (tm.wday - 1).rem_euclid(7) + 1, 1, b'0'),
            b'U' => num(&mut out, (tm.yday - tm.wday + 7).div_euclid(7), 2, b'0'),
            b'V' => num(&mut out, iso().1 / 7 + 1, 2, b'0'),
            b'w' => num(&mut out, tm.wday, 1, b'0'),
            b'W' => num(&mut out, (tm.yday - (tm.wday - 1 + 7) % 7 + 7).div_euclid(7), 2, b'0'),
            b'y' => num(&mut out, year.rem_euclid(100), 2, b'0'),
            b'Y' => num(&mut out, year, 1, b'0'),
            b'z' => {
                let o = zone.offset;
                let sign = if o < 0 { '-' } else { '+' };
                let o = o.abs() / 60;
                let s = alloc::format!("{sign}{:02}{:02}", o / 60, o % 60);
                text(&mut out, &s, false)
            }
            b'Z' => text(&mut out, zone.name, true),
            _ => out.extend_from_slice(&fmt[start..i]),
        }
    }
    out
}

/// What glibc's `strptime` keeps beside the `struct tm`.
#[derive(Default)]
struct State {
    have_i: bool,
    is_pm: bool,
    century: Option<i64>,
    want_century: bool,
    want_xday: bool,
    have_wday: bool,
    have_yday: bool,
    have_mon: bool,
    have_mday: bool,
    have_uweek: bool,
    have_wweek: bool,
    week_no: i64,
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r')
}

/// glibc's `get_number`: white space, then up to `n` digits (fewer if the next would pass `to`).
fn get_number(s: &[u8], rp: &mut usize, from: i64, to: i64, n: usize) -> Option<i64> {
    while s.get(*rp).is_some_and(|c| is_space(*c)) {
        *rp += 1;
    }
    if !s.get(*rp).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let mut val = 0i64;
    let mut left = n;
    loop {
        val = val * 10 + i64::from(s[*rp] - b'0');
        *rp += 1;
        left -= 1;
        if !(left > 0 && val * 10 <= to && s.get(*rp).is_some_and(u8::is_ascii_digit)) {
            break;
        }
    }
    (from..=to).contains(&val).then_some(val)
}

/// A name (full or its first three letters), any case; its index.
fn match_name(s: &[u8], rp: &mut usize, names: &[&str]) -> Option<i64> {
    for (i, name) in names.iter().enumerate() {
        for cand in [name.as_bytes(), &name.as_bytes()[..3]] {
            if s.len() >= *rp + cand.len() && s[*rp..*rp + cand.len()].eq_ignore_ascii_case(cand) {
                *rp += cand.len();
                return Some(i as i64);
            }
        }
    }
    None
}

fn parse(s: &[u8], rp: &mut usize, fmt: &[u8], tm: &mut Tm, st: &mut State, local: &dyn Fn(i64) -> Option<Tm>) -> Option<()> {
    let mut f = 0;
    while f < fmt.len() {
        if is_space(fmt[f]) {
            while s.get(*rp).is_some_and(|c| is_space(*c)) {
                *rp += 1;
            }
            f += 1;
            continue;
        }
        if fmt[f] != b'%' {
            if s.get(*rp) != Some(&fmt[f]) {
                return None;
            }
            *rp += 1;
            f += 1;
            continue;
        }
        f += 1;
        while matches!(fmt.get(f), Some(b'-' | b'_' | b'0' | b'^' | b'#')) {
            f += 1;
        }
        while fmt.get(f).is_some_and(u8::is_ascii_digit) {
            f += 1;
        }
        if matches!(fmt.get(f), Some(b'E' | b'O')) {
            f += 1;
        }
        let c = *fmt.get(f)?;
        f += 1;
        match c {
            b'%' => {
                if s.get(*rp) != Some(&b'%') {
                    return None;
                }
                *rp += 1;
            }
            b'a' | b'A' => {
                tm.wday = match_name(s, rp, &DAYS)?;
                st.have_wday = true;
            }
            b'b' | b'B' | b'h' => {
                tm.mon = match_name(s, rp, &MONTHS)?;
                st.have_mon = true;
                st.want_xday = true;
            }
            b'c' => {
                parse(s, rp, b"%a %b %e %H:%M:%S %Y", tm, st, local)?;
                st.want_xday = true;
            }
            b'C' => {
                st.century = Some(get_number(s, rp, 0, 99, 2)?);
                st.want_xday = true;
            }
            b'd' | b'e' => {
                tm.mday = get_number(s, rp, 1, 31, 2)?;
                st.have_mday = true;
                st.want_xday = true;
            }
            b'F' => {
                parse(s, rp, b"%Y-%m-%d", tm, st, local)?;
                st.want_xday = true;
            }
            b'x' | b'D' => {
                parse(s, rp, b"%m/%d/%y", tm, st, local)?;
                st.want_xday = true;
            }
            b'k' | b'H' => {
                tm.hour = get_number(s, rp, 0, 23, 2)?;
                st.have_i = false;
            }
            b'l' | b'I' => {
                tm.hour = get_number(s, rp, 1, 12, 2)? % 12;
                st.have_i = true;
            }
            b'j' => {
                tm.yday = get_number(s, rp, 1, 366, 3)? - 1;
                st.have_yday = true;
            }
            b'm' => {
                tm.mon = get_number(s, rp, 1, 12, 2)? - 1;
                st.have_mon = true;
                st.want_xday = true;
            }
            b'M' => tm.min = get_number(s, rp, 0, 59, 2)?,
            b'n' | b't' => {
                while s.get(*rp).is_some_and(|c| is_space(*c)) {
                    *rp += 1;
                }
            }
            b'p' => {
                let rest = &s[*rp..];
                if rest.len() >= 2 && rest[..2].eq_ignore_ascii_case(b"AM") {
                    st.is_pm = false;
                } else if rest.len() >= 2 && rest[..2].eq_ignore_ascii_case(b"PM") {
                    st.is_pm = true;
                } else {
                    return None;
                }
                *rp += 2;
            }
            b'r' => parse(s, rp, b"%I:%M:%S %p", tm, st, local)?,
            b'R' => parse(s, rp, b"%H:%M", tm, st, local)?,
            b's' => {
                let neg = s.get(*rp) == Some(&b'-');
                if neg {
                    *rp += 1;
                }
                if !s.get(*rp).is_some_and(u8::is_ascii_digit) {
                    return None;
                }
                let mut secs: i64 = 0;
                while let Some(d @ b'0'..=b'9') = s.get(*rp) {
                    secs = secs.checked_mul(10)?.checked_add(i64::from(d - b'0'))?;
                    *rp += 1;
                }
                *tm = local(if neg { -secs } else { secs })?;
            }
            b'S' => tm.sec = get_number(s, rp, 0, 61, 2)?,
            b'X' | b'T' => parse(s, rp, b"%H:%M:%S", tm, st, local)?,
            b'u' => {
                tm.wday = get_number(s, rp, 1, 7, 1)? % 7;
                st.have_wday = true;
            }
            b'g' => {
                get_number(s, rp, 0, 99, 2)?;
            }
            b'G' => {
                if !s.get(*rp).is_some_and(u8::is_ascii_digit) {
                    return None;
                }
                while s.get(*rp).is_some_and(u8::is_ascii_digit) {
                    *rp += 1;
                }
            }
            b'U' => {
                st.week_no = get_number(s, rp, 0, 53, 2)?;
                st.have_uweek = true;
                st.have_wweek = false;
            }
            b'W' => {
                st.week_no = get_number(s, rp, 0, 53, 2)?;
                st.have_wweek = true;
                st.have_uweek = false;
            }
            b'V' => {
                get_number(s, rp, 0, 53, 2)?;
            }
            b'w' => {
                tm.wday = get_number(s, rp, 0, 6, 1)?;
                st.have_wday = true;
            }
            b'y' => {
                let val = get_number(s, rp, 0, 99, 2)?;
                tm.year = if val >= 69 { val } else { val + 100 };
                st.want_century = true;
                st.want_xday = true;
            }
            b'Y' => {
                tm.year = get_number(s, rp, 0, 9999, 4)? - 1900;
                st.want_century = false;
                st.want_xday = true;
            }
            b'Z' => {
                while s.get(*rp).is_some_and(|c| is_space(*c)) {
                    *rp += 1;
                }
                while s.get(*rp).is_some_and(|c| !is_space(*c)) {
                    *rp += 1;
                }
            }
            b'z' => {
                while s.get(*rp).is_some_and(|c| is_space(*c)) {
                    *rp += 1;
                }
                if s.get(*rp) == Some(&b'Z') {
                    *rp += 1;
                    continue;
                }
                if !matches!(s.get(*rp), Some(b'+' | b'-')) {
                    return None;
                }
                *rp += 1;
                let mut n = 0;
                let mut val = 0;
                while n < 4 && s.get(*rp).is_some_and(u8::is_ascii_digit) {
                    val = val * 10 + i64::from(s[*rp] - b'0');
                    *rp += 1;
                    n += 1;
                    if n == 2 && s.get(*rp) == Some(&b':') && s.get(*rp + 1).is_some_and(u8::is_ascii_digit) {
                        *rp += 1;
                    }
                }
                // The offset (`tm_gmtoff`) is not part of jq's broken-down time: only checked.
                if n != 2 && (n != 4 || val % 100 >= 60) {
                    return None;
                }
            }
            _ => return None,
        }
    }
    Some(())
}

/// jq's `strptime`: glibc's on a `struct tm` with jq's sentinels (`wday` 8, `yday` 367, kept where nothing
/// sets them), and what is left of the input when it is only white space.
pub fn strptime<'s>(s: &'s [u8], fmt: &[u8], local: &dyn Fn(i64) -> Option<Tm>) -> Option<(Tm, &'s [u8])> {
    let mut tm = Tm { wday: 8, yday: 367, ..Tm::default() };
    let mut st = State::default();
    let mut rp = 0;
    parse(s, &mut rp, fmt, &mut tm, &mut st, local)?;
    if st.have_i && st.is_pm {
        tm.hour += 12;
    }
    if let Some(century) = st.century {
        tm.year = if st.want_century { tm.year % 100 + (century - 19) * 100 } else { (century - 19) * 100 };
    }
    let leap = |tm: &Tm| usize::from(is_leap(tm.year + 1900));
    let from_yday = |tm: &mut Tm, st: &State| {
        let mut t_mon = 0;
        while t_mon < 12 && MON_YDAY[leap(tm)][t_mon] <= tm.yday {
            t_mon += 1;
        }
        let t_mon = t_mon.max(1);
        if !st.have_mon {
            tm.mon = t_mon as i64 - 1;
        }
        if !st.have_mday {
            tm.mday = tm.yday - MON_YDAY[leap(tm)][t_mon - 1] + 1;
        }
    };
    if st.want_xday && !st.have_wday {
        if !(st.have_mon && st.have_mday) && st.have_yday {
            from_yday(&mut tm, &st);
            st.have_mon = true;
            st.have_mday = true;
        }
        if tm.year >= -1900 {
            day_of_the_week(&mut tm);
        }
    }
    if st.want_xday && !st.have_yday {
        day_of_the_year(&mut tm);
    }
    if (st.have_uweek || st.have_wweek) && st.have_wday {
        let (save_wday, save_mday, save_mon) = (tm.wday, tm.mday, tm.mon);
        let w_offset = if st.have_uweek { 0 } else { 1 };
        tm.mday = 1;
        tm.mon = 0;
        day_of_the_week(&mut tm);
        if st.have_mday {
            tm.mday = save_mday;
        }
        if st.have_mon {
            tm.mon = save_mon;
        }
        if !st.have_yday {
            tm.yday = (7 - (tm.wday - w_offset)) % 7 + (st.week_no - 1) * 7 + (save_wday - w_offset + 7) % 7;
        }
        if !st.have_mday || !st.have_mon {
            from_yday(&mut tm, &st);
        }
        tm.wday = save_wday;
    }
    let rest = &s[rp..];
    if !rest.is_empty() && !is_space(rest[0]) {
        return None;
    }
    // jq's own fallbacks where glibc left its sentinels.
    if tm.wday == 8 && tm.mday != 0 && (0..=11).contains(&tm.mon) {
        day_of_the_week(&mut tm);
    }
    if tm.yday == 367 && tm.mday != 0 && (0..=11).contains(&tm.mon) {
        day_of_the_year(&mut tm);
    }
    Some((tm, rest))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn utc(t: i64) -> Option<Tm> {
        gmtime(t)
    }

    fn fmt(tm: &Tm, f: &str) -> String {
        let zone = Zone { name: "GMT", offset: 0, epoch: &|tm: &Tm| timegm(&mut tm.clone()).unwrap_or(-1) };
        String::from_utf8(strftime(tm, f.as_bytes(), &zone)).unwrap()
    }

    #[test]
    fn gmtime_and_timegm_as_glibc() {
        let tm = gmtime(1425599507).unwrap();
        assert_eq!(tm, Tm { year: 115, mon: 2, mday: 5, hour: 23, min: 51, sec: 47, wday: 4, yday: 63 });
        assert_eq!(fmt(&gmtime(9007199254740991).unwrap(), "%Y-%m-%dT%H:%M:%SZ"), "285428751-11-12T07:36:31Z");
        assert_eq!(fmt(&gmtime(-62135596800).unwrap(), "%Y-%m-%dT%H:%M:%SZ"), "1-01-01T00:00:00Z");
        let mut tm = Tm::default();
        assert_eq!(timegm(&mut tm), Some(-2209075200));
        assert_eq!(fmt(&tm, "%Y-%m-%d"), "1899-12-31");
        let mut tm = Tm { year: 115, mon: 14, mday: 5, hour: 23, min: 51, sec: 47, ..Tm::default() };
        assert_eq!(timegm(&mut tm), Some(1457221907));
    }

    #[test]
    fn strftime_as_glibc() {
        let tm = gmtime(1425599507).unwrap();
        assert_eq!(
            fmt(&tm, "%A, %B %d, %Y %j %a %b %e %y %C %u %w %H:%M:%S %I %p %%"),
            "Thursday, March 05, 2015 064 Thu Mar  5 15 20 4 4 23:51:47 11 PM %"
        );
        assert_eq!(fmt(&tm, "%10A|%^B|%#Z|%P|%3d|%_3d|%-d|%Ey|%Ox|%q"), "  Thursday|MARCH|gmt|pm|005|  5|5|15|%Ox|%q");
        let tm = Tm { year: -1905, mon: 0, mday: 1, ..Tm::default() };
        let mut tm2 = tm;
        timegm(&mut tm2);
        assert_eq!(fmt(&tm2, "%F|%Y|%G|%C|%y|%g|%5Y|%_5Y"), "-5-01-01|-5|-6|-1|95|94|-0005|   -5");
    }

    #[test]
    fn strptime_as_glibc() {
        let p = |s: &str, f: &str| strptime(s.as_bytes(), f.as_bytes(), &utc).map(|(tm, r)| (tm, r.to_vec()));
        let tm = |year, mon, mday, hour, min, sec, wday, yday| Tm { year, mon, mday, hour, min, sec, wday, yday };
        assert_eq!(p("2015-03-05T23:51:47Z", "%Y-%m-%dT%H:%M:%SZ"), Some((tm(115, 2, 5, 23, 51, 47, 4, 63), vec![])));
        assert_eq!(p("2015-03-05T23:51:47+01:00", "%Y-%m-%dT%H:%M:%S%z").map(|t| t.0), Some(tm(115, 2, 5, 23, 51, 47, 4, 63)));
        assert_eq!(p("2015-03-05T23:51:47Z", "%Y-%m-%dT%H:%M:%S%z").map(|t| t.0), Some(tm(115, 2, 5, 23, 51, 47, 4, 63)));
        assert_eq!(p("10:15 PM 2015", "%I:%M %p %Y").map(|t| t.0), Some(tm(115, 0, 0, 22, 15, 0, 3, -1)));
        assert_eq!(p("2015 063", "%Y %j").map(|t| t.0), Some(tm(115, 2, 4, 0, 0, 0, 3, 62)));
        assert_eq!(p("x", "%Z").map(|t| t.0), Some(tm(0, 0, 0, 0, 0, 0, 8, 367)));
        assert_eq!(p("2015 10 3", "%Y %U %w").map(|t| t.0), Some(tm(115, 2, 11, 0, 0, 0, 3, 69)));
        assert_eq!(p(" 2015-03-05 ", "%Y-%m-%d").map(|t| t.1), Some(b" ".to_vec()));
        assert_eq!(p("2015-03-05T23:51:47.877Z", "%Y-%m-%dT%H:%M:%SZ"), None);
        assert_eq!(p("12345-01-01", "%Y-%m-%d"), None);
    }
}
