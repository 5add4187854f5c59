//! jq-compat (mcp-devtools): jq 1.8's `mktime`, `gmtime`, `localtime`, `strftime`, `strflocaltime` and
//! `strptime` (`src/builtin.c`), on the `struct tm` arithmetic of `jqtime.rs`. The local time zone (for
//! `localtime`, `strflocaltime`, `strptime`'s `%s` and `strftime`'s `%s`) is the system's, through jiff.

use crate::jqtime::{self, Tm, Zone};
use crate::{Error, ValR, ValT, ValTx};
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// The local zone's offset (seconds east of UTC) and abbreviation at `t` (UTC outside jiff's range).
fn local_zone(t: i64) -> (i64, String) {
    let tz = jiff::tz::TimeZone::system();
    match jiff::Timestamp::from_second(t) {
        Ok(ts) => {
            let info = tz.to_offset_info(ts);
            (i64::from(info.offset().seconds()), info.abbreviation().to_string())
        }
        Err(_) => (0, "UTC".into()),
    }
}

/// `localtime_r`.
fn localtime(t: i64) -> Option<Tm> {
    let (offset, _) = local_zone(t);
    jqtime::gmtime(t.checked_add(offset)?)
}

/// `mktime` of a local broken-down time: the instant, with the offset in force then.
fn local_epoch(tm: &Tm) -> i64 {
    let as_utc = jqtime::timegm(&mut tm.clone()).unwrap_or(-1);
    let (offset, _) = local_zone(as_utc);
    let (offset, _) = local_zone(as_utc - offset);
    as_utc - offset
}

/// jq's `tm2jv`: the seconds with the fraction of `fsecs` added.
fn tm2jv<V: ValT>(tm: &Tm, fsecs: f64) -> ValR<V> {
    let int = |x: i64| V::from(x as isize);
    let frac = fsecs - fsecs.floor();
    let sec = if frac == 0.0 || frac.is_nan() { int(tm.sec) } else { V::from(tm.sec as f64 + frac) };
    Ok([int(tm.year + 1900), int(tm.mon), int(tm.mday), int(tm.hour), int(tm.min), sec, int(tm.wday), int(tm.yday)]
        .into_iter()
        .collect())
}

/// jq's `jv2tm`: up to eight numbers (not NaN), each truncated and clamped to an `int` (the year less 1900).
fn jv2tm<V: ValT>(v: &V) -> Option<Tm> {
    let items: Vec<V> = v.clone().into_vec().ok()?;
    let mut f = [0i64; 8];
    for (i, x) in items.iter().take(8).enumerate() {
        let mut d = x.as_f64().filter(|d| !d.is_nan())?;
        if i == 0 {
            d -= 1900.0;
        }
        f[i] = d.clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i64;
    }
    let [year, mon, mday, hour, min, sec, wday, yday] = f;
    Some(Tm { year, mon, mday, hour, min, sec, wday, yday })
}

/// jq's `gmtime` / `localtime`.
pub fn jq_gmtime<V: ValT>(v: &V, local: bool) -> ValR<V> {
    let name = if local { "localtime" } else { "gmtime" };
    let Some(fsecs) = v.as_f64() else {
        return Err(Error::str(format_args!("{name}() requires numeric inputs")));
    };
    let fail = || Error::str("error converting number of seconds since epoch to datetime");
    // C's conversion to `time_t` truncates toward zero.
    if fsecs.is_nan() || fsecs.abs() >= 9.2e18 {
        return Err(fail());
    }
    let secs = fsecs as i64;
    let tm = if local { localtime(secs) } else { jqtime::gmtime(secs) }.ok_or_else(fail)?;
    tm2jv(&tm, fsecs)
}

/// jq's `mktime` (`timegm`; a result of `-1` is jq's error too).
pub fn jq_mktime<V: ValT>(v: &V) -> ValR<V> {
    if v.clone().into_vec().is_err() {
        return Err(Error::str("mktime requires array inputs"));
    }
    let mut tm = jv2tm(v).ok_or_else(|| Error::str("mktime requires parsed datetime inputs"))?;
    match jqtime::timegm(&mut tm) {
        Some(t) if t != -1 => Ok(isize::try_from(t).map_or_else(|_| V::from(t as f64), V::from)),
        _ => Err(Error::str("invalid gmtime representation")),
    }
}

/// jq's `strftime` / `strflocaltime`.
pub fn jq_strftime<V: ValT>(v: V, fmt: &V, local: bool) -> ValR<V> {
    let name = if local { "strflocaltime/1" } else { "strftime/1" };
    let v = if v.as_f64().is_some() { jq_gmtime(&v, local)? } else { v };
    if v.clone().into_vec().is_err() {
        return Err(Error::str(format_args!("{name} requires parsed datetime inputs")));
    }
    let fmt = fmt
        .as_utf8_bytes()
        .ok_or_else(|| Error::str(format_args!("{name} requires a string format")))?;
    let mut tm = jv2tm(&v).ok_or_else(|| Error::str(format_args!("{name} requires parsed datetime inputs")))?;
    let out = if local {
        let t = local_epoch(&tm);
        let (offset, name) = local_zone(t);
        if let Some(local) = t.checked_add(offset).and_then(jqtime::gmtime) {
            tm = local;
        }
        let zone = Zone { name: &name, offset, epoch: &local_epoch };
        jqtime::strftime(&tm, fmt, &zone)
    } else {
        // A time beyond `timegm`'s range stays as it was given.
        let mut normalized = tm;
        if jqtime::timegm(&mut normalized).is_some() {
            tm = normalized;
        }
        let zone = Zone { name: "GMT", offset: 0, epoch: &local_epoch };
        jqtime::strftime(&tm, fmt, &zone)
    };
    Ok(V::from_utf8_bytes(out))
}

/// jq's `strptime`.
pub fn jq_strptime<V: ValT>(v: &V, fmt: &V) -> ValR<V> {
    let (Some(s), Some(f)) = (v.as_utf8_bytes(), fmt.as_utf8_bytes()) else {
        return Err(Error::str("strptime/1 requires string inputs and arguments"));
    };
    let (s, f) = (s.split(|c| *c == 0).next().unwrap_or_default(), f.split(|c| *c == 0).next().unwrap_or_default());
    let fail = || {
        let (s, f) = (String::from_utf8_lossy(s), String::from_utf8_lossy(f));
        Error::str(format_args!("date \"{s}\" does not match format \"{f}\""))
    };
    let (tm, rest) = jqtime::strptime(s, f, &localtime).ok_or_else(fail)?;
    let r = tm2jv::<V>(&tm, 0.0)?;
    if rest.is_empty() {
        Ok(r)
    } else {
        let mut items: Vec<V> = r.into_vec()?;
        items.push(V::from_utf8_bytes(rest.to_vec()));
        Ok(items.into_iter().collect())
    }
}
