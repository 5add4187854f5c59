//! jq's regular expressions: Oniguruma, the engine jq 1.8.1 links, through the `onig` crate (which builds
//! Oniguruma's bundled C source). jq compiles every pattern with `ONIG_OPTION_CAPTURE_GROUP`, UTF-8 and the
//! `ONIG_SYNTAX_PERL_NT` syntax (Oniguruma's `ONIG_SYNTAX_PERL_NG`, `Syntax::perl_ng`) (look-around, backreferences, `\p{..}`, possessive and atomic groups, named
//! groups); so do we, and the search loop below is jq's `f_match` (`src/builtin.c`): offsets and lengths count
//! code points, an unmatched group is `{"offset": -1, "length": 0, "string": null}`, and after an empty match the
//! next search starts one byte further (as in jq, offsets then round up to the next code point).
//!
//! Natives (the filters of `jq_defs.jq` check the argument types first):
//!
//! - `_jq_onig_match($re; $flags; $test)`: `true`/`false` when `$test`, else the array of jq's match objects;
//! - `_jq_onig_parts($re; $flags)`: `[gap, match, gap, …, gap]`, the text between matches (jq's `$in[a:b]` of
//!   the offsets) around each match object, for `split`, `splits` and `sub` without jq's quadratic slicing.
//!
//! Limits: a match attempt at one position stops after [`RETRY_LIMIT`] backtracking steps and a backtracking
//! stack of [`STACK_LIMIT`] entries, with an error saying so (the projection's wall-clock limit bounds the rest).

use jaq_core::box_iter::box_once;
use jaq_core::native::{Fun, v};
use jaq_core::{Error, Exn, Native};
use jaq_json::Val;
use onig::{MatchParam, Regex, RegexOptions, Region, SearchOptions, Syntax};

use super::data::JsonData;

/// Backtracking steps one match attempt may take: Oniguruma's own default (`ONIG_DEFAULT_RETRY_LIMIT_IN_MATCH`),
/// so a program that jq runs runs here, and a catastrophic pattern (`(a+)+$` on a long run of `a`) fails fast.
const RETRY_LIMIT: u32 = 10_000_000;

/// Entries of the backtracking stack one match attempt may use (about 10 MiB at Oniguruma's 16-byte entries).
const STACK_LIMIT: u32 = 1 << 20;

/// jq's flags: `g` global search, the rest Oniguruma options.
struct Flags {
    global: bool,
    options: RegexOptions,
}

impl Flags {
    /// jq's `f_match`: `g i x n s p l`; anything else fails with jq's message.
    fn parse(flags: &str) -> Result<Self, String> {
        let mut out = Self {
            global: false,
            options: RegexOptions::REGEX_OPTION_CAPTURE_GROUP,
        };
        for flag in flags.chars() {
            match flag {
                'g' => out.global = true,
                'i' => out.options |= RegexOptions::REGEX_OPTION_IGNORECASE,
                'x' => out.options |= RegexOptions::REGEX_OPTION_EXTEND,
                'n' => out.options |= RegexOptions::REGEX_OPTION_FIND_NOT_EMPTY,
                's' => out.options |= RegexOptions::REGEX_OPTION_SINGLELINE,
                'p' => {
                    out.options |= RegexOptions::REGEX_OPTION_MULTILINE | RegexOptions::REGEX_OPTION_SINGLELINE;
                }
                'l' => out.options |= RegexOptions::REGEX_OPTION_FIND_LONGEST,
                _ => return Err(format!("{flags} is not a valid modifier string")),
            }
        }
        Ok(out)
    }
}

/// Code points before byte positions of one string (jq counts the code points that start before a position, so
/// a position inside a code point rounds up). Moves from the last position asked, so a run of increasing
/// positions costs one pass.
struct CodePoints<'s> {
    bytes: &'s [u8],
    at: usize,
    count: usize,
}

impl<'s> CodePoints<'s> {
    fn new(bytes: &'s [u8]) -> Self {
        Self { bytes, at: 0, count: 0 }
    }

    fn before(&mut self, pos: usize) -> usize {
        let starts = |part: &[u8]| part.iter().filter(|b| (**b & 0xC0) != 0x80).count();
        let pos = pos.min(self.bytes.len());
        if pos >= self.at {
            self.count += starts(&self.bytes[self.at..pos]);
        } else {
            self.count -= starts(&self.bytes[pos..self.at]);
        }
        self.at = pos;
        self.count
    }
}

/// One match: byte ranges of the whole match and of each group (`None`: the group did not take part).
struct Found {
    whole: (usize, usize),
    groups: Vec<Option<(usize, usize)>>,
}

/// A compiled pattern with the names of its groups (index: group number - 1).
struct Pattern {
    regex: Regex,
    names: Vec<Option<String>>,
}

fn compile(re: &str, options: RegexOptions) -> Result<Pattern, String> {
    let regex = Regex::with_options(re, options, Syntax::perl_ng())
        .map_err(|e| format!("{re} (at offset 0) is not a valid regex: {}", e.description()))?;
    let mut names = vec![None; regex.captures_len()];
    regex.foreach_name(|name, groups| {
        for group in groups {
            let slot = usize::try_from(*group).ok().and_then(|g| g.checked_sub(1));
            if let Some(slot) = slot.and_then(|s| names.get_mut(s)) {
                *slot = Some(name.to_owned());
            }
        }
        true
    });
    Ok(Pattern { regex, names })
}

/// jq's search loop. With `test`, stops at the first match.
fn search(pattern: &Pattern, text: &str, global: bool, test: bool) -> Result<Vec<Found>, String> {
    let mut found = Vec::new();
    let mut region = Region::new();
    let mut start = 0;
    loop {
        let mut param = MatchParam::default();
        param.set_retry_limit_in_match(RETRY_LIMIT);
        param.set_match_stack_limit(STACK_LIMIT);
        region.clear();
        let hit = pattern
            .regex
            .search_with_param(
                text,
                start,
                text.len(),
                SearchOptions::SEARCH_OPTION_NONE,
                Some(&mut region),
                param,
            )
            .map_err(|e| format!("Regex failure: {}", e.description()))?;
        let Some(_) = hit else { break };
        let Some(whole) = region.pos(0) else { break };
        let groups = (1..region.len()).map(|i| region.pos(i)).collect();
        found.push(Found { whole, groups });
        if test {
            break;
        }
        start = if whole.1 == whole.0 { whole.1 + 1 } else { whole.1 };
        if !global || start > text.len() {
            break;
        }
    }
    Ok(found)
}

fn object(fields: impl IntoIterator<Item = (&'static str, Val)>) -> Val {
    Val::obj(
        fields
            .into_iter()
            .map(|(k, v)| (Val::utf8_str(k.as_bytes().to_vec()), v))
            .collect(),
    )
}

fn text_val(bytes: &[u8]) -> Val {
    Val::utf8_str(String::from_utf8_lossy(bytes).into_owned().into_bytes())
}

fn count(n: usize) -> Val {
    Val::from(n)
}

/// jq's match object: `{offset, length, string, captures: [{offset, length, string, name}]}`.
fn match_object(pattern: &Pattern, text: &[u8], cps: &mut CodePoints, found: &Found) -> Val {
    let (beg, end) = found.whole;
    let offset = cps.before(beg);
    let length = cps.before(end) - offset;
    let captures = found.groups.iter().enumerate().map(|(i, group)| {
        let name = pattern
            .names
            .get(i)
            .cloned()
            .flatten()
            .map_or(Val::Null, |n| Val::utf8_str(n.into_bytes()));
        match group {
            Some((beg, end)) => {
                let offset = cps.before(*beg);
                let length = cps.before(*end) - offset;
                object([
                    ("offset", count(offset)),
                    ("length", count(length)),
                    ("string", text_val(&text[*beg..*end])),
                    ("name", name),
                ])
            }
            None => object([
                ("offset", Val::from(-1isize)),
                ("string", Val::Null),
                ("length", count(0)),
                ("name", name),
            ]),
        }
    });
    let captures: Val = captures.collect::<Vec<_>>().into_iter().collect();
    object([
        ("offset", count(offset)),
        ("length", count(length)),
        ("string", text_val(&text[beg..end])),
        ("captures", captures),
    ])
}

/// The string argument `name` of a native, or why not (the definitions check types first).
fn string_arg(v: &Val) -> Result<String, String> {
    match v {
        Val::TStr(b) | Val::BStr(b) => Ok(String::from_utf8_lossy(b).into_owned()),
        other => Err(format!("{other} is not a string")),
    }
}

fn prepare(input: &Val, re: &Val, flags: &Val) -> Result<(String, Pattern, bool), String> {
    let text = string_arg(input)?;
    let flags = Flags::parse(&string_arg(flags)?)?;
    let pattern = compile(&string_arg(re)?, flags.options)?;
    Ok((text, pattern, flags.global))
}

fn onig_match(input: &Val, re: &Val, flags: &Val, test: bool) -> Result<Val, String> {
    let (text, pattern, global) = prepare(input, re, flags)?;
    let found = search(&pattern, &text, global, test)?;
    if test {
        return Ok(Val::from(!found.is_empty()));
    }
    let mut cps = CodePoints::new(text.as_bytes());
    Ok(found
        .iter()
        .map(|f| match_object(&pattern, text.as_bytes(), &mut cps, f))
        .collect())
}

/// `[gap, match, gap, …, gap]`: gaps are jq's `$in[previous:offset]` in code points (empty when the offset is
/// before the previous end, as jq's slice), the last one `$in[previous:]`.
fn onig_parts(input: &Val, re: &Val, flags: &Val) -> Result<Val, String> {
    let (text, pattern, global) = prepare(input, re, flags)?;
    let found = search(&pattern, &text, global, false)?;
    let bytes = text.as_bytes();
    // Byte position of each code point start, and the end: code point index -> byte.
    let starts: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([bytes.len()]).collect();
    let at = |cp: usize| starts.get(cp).copied().unwrap_or(bytes.len());
    let slice = |from: usize, upto: usize| text_val(&bytes[at(from)..at(upto.max(from))]);
    let mut cps = CodePoints::new(bytes);
    let mut parts = Vec::with_capacity(found.len() * 2 + 1);
    let mut previous = 0;
    for f in &found {
        let m = match_object(&pattern, bytes, &mut cps, f);
        let offset = cps.before(f.whole.0);
        let end = cps.before(f.whole.1);
        parts.push(slice(previous, offset));
        parts.push(m);
        previous = end;
    }
    parts.push(slice(previous, starts.len() - 1));
    Ok(parts.into_iter().collect())
}

/// The natives of this module.
pub(crate) fn natives() -> impl Iterator<Item = Fun<JsonData>> {
    let matcher: Fun<JsonData> = (
        "_jq_onig_match",
        v(3),
        Native::new(|mut cv| {
            let test = cv.0.pop_var();
            let flags = cv.0.pop_var();
            let re = cv.0.pop_var();
            let test = matches!(test, Val::Bool(true));
            box_once(onig_match(&cv.1, &re, &flags, test).map_err(|e| Exn::from(Error::str(e))))
        }),
    );
    let parts: Fun<JsonData> = (
        "_jq_onig_parts",
        v(2),
        Native::new(|mut cv| {
            let flags = cv.0.pop_var();
            let re = cv.0.pop_var();
            box_once(onig_parts(&cv.1, &re, &flags).map_err(|e| Exn::from(Error::str(e))))
        }),
    );
    [matcher, parts].into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_points_round_up_inside_a_code_point() {
        let text = "éaü".as_bytes();
        let mut cps = CodePoints::new(text);
        let got: Vec<usize> = (0..=text.len()).map(|p| cps.before(p)).collect();
        assert_eq!(got, [0, 1, 1, 2, 3, 3]);
        assert_eq!(cps.before(2), 1);
    }

    #[test]
    fn unknown_flags_fail_as_in_jq() {
        assert_eq!(
            Flags::parse("gq").err().as_deref(),
            Some("gq is not a valid modifier string")
        );
    }
}
