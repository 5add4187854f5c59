//! The jq dialect, run by jaq with its standard library.
//!
//! Definitions: `jaq_core::defs()` + `jaq_std::defs()` + `jaq_json::defs()`;
//! native filters: `jaq_core::funs()` + `jaq_std::funs()` + `jaq_json::funs()`,
//! and jq's regular expressions on Oniguruma (`regex.rs`; the filters `test`,
//! `match`, `sub`, … are defined on them in `jq_defs.jq`, replacing jaq's,
//! which use the `regex` crate's syntax). Two natives are made safe for a
//! server:
//!
//! - `env` would expose the server's environment (credentials): it is
//!   replaced by a filter that fails with a clear message;
//! - `halt` / `halt_error`: jaq's `unwrap_valr` calls `process::exit` on a
//!   halt; this module never uses it and turns a halt into a runtime error.
//!
//! `input`/`inputs` and module imports (`import`/`include`) are not available.
//!
//! jq 1.8.1 semantics that definitions cannot reach (error texts, updates
//! through `null`, `?//`, division by zero, …) come from the patched copies
//! of jaq-core and jaq-json in the repository's `forks/` folder.

use jaq_core::box_iter::box_once;
use jaq_core::load::{Arena, File, Loader, lex, parse};
use jaq_core::native::Fun;
use jaq_core::{Compiler, Ctx, Error, Exn, Native, Vars, compile};
use jaq_json::Val;

use super::data::JsonData;

/// A compiled jq program.
#[derive(Clone)]
pub(crate) struct JqProgram {
    filter: std::sync::Arc<jaq_core::Filter<JsonData>>,
}

impl std::fmt::Debug for JqProgram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JqProgram")
    }
}

const ENV_DISABLED: &str =
    "`env` and `$ENV` are not available in a projection (they would expose the server's environment)";

fn natives() -> impl Iterator<Item = Fun<JsonData>> {
    let env: Fun<JsonData> = (
        "env",
        Box::new([]),
        Native::new(|_cv| box_once(Err(Exn::from(Error::str(ENV_DISABLED))))),
    );
    // `nan` / `infinite` without a division (a division by zero fails, as in jq).
    let nan: Fun<JsonData> = (
        "_jq_nan",
        Box::new([]),
        Native::new(|_cv| box_once(Ok(Val::from(f64::NAN)))),
    );
    let infinite: Fun<JsonData> = (
        "_jq_infinite",
        Box::new([]),
        Native::new(|_cv| box_once(Ok(Val::from(f64::INFINITY)))),
    );
    jaq_core::funs()
        .chain(jaq_std::funs())
        .chain(jaq_json::funs())
        .filter(|(name, args, _)| !(*name == "env" && args.is_empty()))
        .chain([env, nan, infinite])
        .chain(super::regex::natives())
        .chain(super::formats::natives())
}

/// Why a program with `def` is refused.
const NO_DEF: &str = "user-defined functions (`def`) are not allowed: a recursive `def` can recurse without end and \
                      jaq has no depth budget; use the built-in functions (map, select, recurse, reduce, ...)";

/// Whether `code` defines a function (`def name: ...;`) anywhere, string interpolations included. jaq has no
/// step or depth budget, so `def f: 1 + f; f` would overflow any stack and abort the process; every built-in
/// recursion is bounded by its input instead. Code that does not lex is left to the loader's error.
fn defines_functions(code: &str) -> bool {
    fn any_def(tokens: &[lex::Token<&str>]) -> bool {
        tokens.iter().any(|lex::Token(text, tok)| match tok {
            lex::Tok::Word => *text == "def",
            lex::Tok::Block(inner) => any_def(inner),
            lex::Tok::Str(parts) => parts.iter().any(|part| match part {
                lex::StrPart::Term(term) => any_def(std::slice::from_ref(term)),
                _ => false,
            }),
            _ => false,
        })
    }
    lex::Lexer::new(code).lex().is_ok_and(|tokens| any_def(&tokens))
}

/// Why a text is not a runnable jq program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum JqCompileError {
    /// The text does not parse as jq (the JMESPath fallback may apply). A
    /// one-line description.
    Syntax(String),
    /// The text parses as jq but cannot run: it names an undefined filter or
    /// variable (`lenght/0 is not defined`), defines functions, or imports a
    /// module. A one-line description.
    Invalid(String),
}

/// jq 1.8.1 behaviour on top of jaq's standard library (see the file).
const JQ_DEFS: &str = include_str!("jq_defs.jq");

/// The definitions every program is compiled with: jaq's, then ours (which
/// replace theirs), then `builtins` and `have_decnum`. Parsed once per
/// process.
fn definitions() -> Result<Vec<jaq_core::load::parse::Def<&'static str>>, String> {
    type Defs = Vec<jaq_core::load::parse::Def<&'static str>>;
    static DEFS: std::sync::OnceLock<Result<Defs, String>> = std::sync::OnceLock::new();
    DEFS.get_or_init(|| {
        let ours = jaq_core::load::parse(JQ_DEFS, |p| p.defs())
            .ok_or_else(|| "internal error: the jq 1.8.1 definitions do not parse".to_owned())?;
        let generated = jaq_core::load::parse(generated_defs(), |p| p.defs())
            .ok_or_else(|| "internal error: the generated definitions do not parse".to_owned())?;
        Ok(jaq_core::defs()
            .chain(jaq_std::defs())
            .chain(jaq_json::defs())
            .chain(ours)
            .chain(generated)
            .collect())
    })
    .clone()
}

/// `def builtins: [...]` (every filter a program can call, as `name/arity`,
/// helpers starting with `_` left out, as in jq) and `def have_decnum`
/// and `have_literal_numbers` (whether number literals keep their digits:
/// true when serde_json is built with `arbitrary_precision`, see `convert`).
fn generated_defs() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        let mut names: Vec<String> = natives()
            .map(|(name, args, _)| format!("{name}/{}", args.len()))
            .chain(
                jaq_core::defs()
                    .chain(jaq_std::defs())
                    .chain(jaq_json::defs())
                    .chain(jaq_core::load::parse(JQ_DEFS, |p| p.defs()).unwrap_or_default())
                    .map(|def| format!("{}/{}", def.name, def.args.len())),
            )
            .filter(|name| !name.starts_with(['_', '!', '@']))
            .collect();
        names.sort();
        names.dedup();
        let list = names.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(",");
        format!(
            "def builtins: [{list}];\ndef have_decnum: {keeps};\ndef have_literal_numbers: {keeps};\n",
            keeps = super::convert::keeps_literal_digits()
        )
    })
}

/// jaq's lexer rejects a UTF-16 surrogate pair escape such as
/// `"\ud83d\udd14"` (valid in jq and JSON). Each escaped pair (preceded by
/// an odd number of backslashes, so it is an escape, not an escaped
/// backslash) is replaced by the character it encodes (`🔔`), which means the
/// same in a jq string; a lone low surrogate escape (`"\udc00"`) by U+FFFD, as
/// jq reads it. Anything else is left alone.
fn decode_surrogate_pairs(code: &str) -> std::borrow::Cow<'_, str> {
    fn hex4(s: &str) -> Option<u32> {
        let digits = s.get(..4)?;
        digits
            .bytes()
            .all(|b| b.is_ascii_hexdigit())
            .then(|| u32::from_str_radix(digits, 16).ok())
            .flatten()
    }
    if !code.contains("\\u") && !code.contains("\\U") {
        return std::borrow::Cow::Borrowed(code);
    }
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    let mut backslashes = 0usize;
    while let Some(c) = rest.chars().next() {
        if c == '\\' && backslashes.is_multiple_of(2) && rest.len() >= 12 && rest.as_bytes().get(1) == Some(&b'u') {
            let pair = (hex4(&rest[2..]), rest.get(6..8), hex4(rest.get(8..).unwrap_or("")));
            if let (Some(high @ 0xD800..=0xDBFF), Some("\\u"), Some(low @ 0xDC00..=0xDFFF)) = pair {
                let code_point = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                if let Some(decoded) = char::from_u32(code_point) {
                    out.push(decoded);
                    rest = &rest[12..];
                    backslashes = 0;
                    continue;
                }
            }
        }
        if c == '\\' && backslashes.is_multiple_of(2) && rest.as_bytes().get(1) == Some(&b'u') {
            // A lone low surrogate: jq reads the literal as JSON, where it becomes U+FFFD.
            if let Some(0xDC00..=0xDFFF) = hex4(rest.get(2..).unwrap_or("")) {
                out.push('\u{FFFD}');
                rest = &rest[6..];
                backslashes = 0;
                continue;
            }
        }
        backslashes = if c == '\\' { backslashes + 1 } else { 0 };
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    std::borrow::Cow::Owned(out)
}

/// jq's `$__loc__`: `{"file":"<top-level>","line":N}`, `N` the line of the program where it stands. jaq has
/// no such variable, so each occurrence is written as that object (in an object construction's shorthand,
/// `{$__loc__}`, as `"__loc__": {…}`), unless the program binds a variable of that name (`. as $__loc__`).
fn expand_loc(code: &str) -> std::borrow::Cow<'_, str> {
    use lex::{StrPart, Tok, Token};
    fn walk<'a>(tokens: &[Token<&'a str>], in_object: bool, found: &mut Vec<(&'a str, bool)>, bound: &mut bool) {
        let sep =
            |t: Option<&Token<&str>>| t.is_none_or(|Token(s, k)| matches!(k, Tok::Sym) && (*s == "," || *s == "}"));
        for (i, token) in tokens.iter().enumerate() {
            match &token.1 {
                Tok::Var if token.0 == "$__loc__" => {
                    let before = i.checked_sub(1).and_then(|b| tokens.get(b));
                    if before.is_some_and(|Token(s, k)| matches!(k, Tok::Word) && *s == "as") {
                        *bound = true;
                    }
                    found.push((token.0, in_object && sep(before) && sep(tokens.get(i + 1))));
                }
                Tok::Block(inner) => walk(inner, token.0.starts_with('{'), found, bound),
                Tok::Str(parts) => {
                    for part in parts {
                        if let StrPart::Term(t) = part {
                            walk(std::slice::from_ref(t), false, found, bound);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    if !code.contains("$__loc__") {
        return std::borrow::Cow::Borrowed(code);
    }
    let Ok(tokens) = lex::Lexer::new(code).lex() else {
        return std::borrow::Cow::Borrowed(code);
    };
    let (mut found, mut bound) = (Vec::new(), false);
    walk(&tokens, false, &mut found, &mut bound);
    if bound || found.is_empty() {
        return std::borrow::Cow::Borrowed(code);
    }
    let mut out = String::with_capacity(code.len() + found.len() * 40);
    let mut at = 0;
    found.sort_by_key(|(text, _)| offset_in(code, text));
    for (text, shorthand) in found {
        let offset = offset_in(code, text);
        let line = code[..offset].matches('\n').count() + 1;
        out.push_str(&code[at..offset]);
        let object = format!("{{\"file\":\"<top-level>\",\"line\":{line}}}");
        if shorthand {
            out.push_str(&format!("\"__loc__\": {object}"));
        } else {
            out.push_str(&format!("({object})"));
        }
        at = offset + text.len();
    }
    out.push_str(&code[at..]);
    std::borrow::Cow::Owned(out)
}

/// Programs compiled lately, by their text: at most this many are kept.
const COMPILED_KEPT: u64 = 64;

/// Compiled programs by their text. Compiling loads jaq's whole standard library with the program (several milliseconds
/// in a release build, where applying `.key` to an issue takes about 20 µs), and code-mode callers send the same few
/// programs again and again. Failed compilations are not kept. A well-kept cache crate (moka) evicts by recency and
/// frequency; the values are `Arc`s, so a hit costs a clone of a pointer.
fn compiled() -> &'static moka::sync::Cache<String, JqProgram> {
    static CACHE: std::sync::OnceLock<moka::sync::Cache<String, JqProgram>> = std::sync::OnceLock::new();
    CACHE.get_or_init(|| moka::sync::Cache::new(COMPILED_KEPT))
}

impl JqProgram {
    /// Compile `code` as a jq program, or take it from the programs compiled lately ([`compiled`]).
    pub(crate) fn compile(code: &str) -> Result<Self, JqCompileError> {
        if let Some(program) = compiled().get(code) {
            return Ok(program);
        }
        let program = Self::compile_uncached(code)?;
        compiled().insert(code.to_owned(), program.clone());
        Ok(program)
    }

    /// Compile `code` as a jq program.
    fn compile_uncached(code: &str) -> Result<Self, JqCompileError> {
        let code = decode_surrogate_pairs(code);
        let code = expand_loc(&code).into_owned();
        let code: &str = &code;
        let defs = definitions().map_err(JqCompileError::Invalid)?;
        let loader = Loader::new(defs);
        let arena = Arena::default();
        let modules = loader.load(&arena, File { code, path: () }).map_err(|errs| {
            let io = errs.iter().any(|(_, e)| matches!(e, jaq_core::load::Error::Io(_)));
            let text = describe_load_errors(code, errs);
            if io {
                JqCompileError::Invalid(text)
            } else {
                JqCompileError::Syntax(text)
            }
        })?;
        if defines_functions(code) {
            return Err(JqCompileError::Invalid(NO_DEF.to_string()));
        }
        let filter = Compiler::default()
            .with_funs(natives())
            .compile(modules)
            .map_err(|errs| JqCompileError::Invalid(describe_compile_errors(errs)))?;
        Ok(Self {
            filter: std::sync::Arc::new(filter),
        })
    }

    /// Run the program on `input`, collecting at most `max_outputs` outputs.
    /// Returns the outputs and whether more were left uncounted.
    pub(crate) fn run(&self, input: Val, max_outputs: usize) -> Result<(Vec<Val>, bool), String> {
        let ctx = Ctx::<JsonData>::new(&self.filter.lut, Vars::new([]));
        let mut outputs = self.filter.id.run((ctx, input));
        let mut values = Vec::new();
        for item in outputs.by_ref() {
            match item {
                Ok(v) => values.push(v),
                Err(exn) => return Err(describe_exception(exn)),
            }
            if values.len() >= max_outputs {
                let more = outputs.next().is_some();
                return Ok((values, more));
            }
        }
        Ok((values, false))
    }
}

fn describe_exception(exn: Exn<'_, Val>) -> String {
    match exn.get_err() {
        Ok(err) => error_message(err),
        Err(exn) => match exn.get_halt() {
            Ok(code) => format!("halt({code}) is not supported in a projection"),
            Err(_) => "uncaught jq exception (break outside its label?)".to_owned(),
        },
    }
}

/// jq's message for an error value: `error("text")` gives `text`; other
/// values are shown as JSON.
fn error_message(err: Error<Val>) -> String {
    let text = err.to_string();
    match err.into_val() {
        Val::TStr(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        _ => text,
    }
}

/// Byte offset of `part` (a sub-slice of `code`) within `code`.
fn offset_in(code: &str, part: &str) -> usize {
    let start = code.as_ptr() as usize;
    let at = part.as_ptr() as usize;
    at.checked_sub(start).filter(|o| *o <= code.len()).unwrap_or(0)
}

fn near(code: &str, part: &str) -> String {
    let offset = offset_in(code, part);
    let snippet: String = part.chars().take(20).collect();
    if snippet.is_empty() {
        format!("at byte {offset} (end of expression)")
    } else {
        format!("at byte {offset} (near `{snippet}`)")
    }
}

fn lex_expect(expect: &lex::Expect<&str>) -> String {
    match expect {
        lex::Expect::Delim(d) => match *d {
            "(" => "closing parenthesis".to_owned(),
            "[" => "closing bracket".to_owned(),
            "{" => "closing brace".to_owned(),
            "\"" => "closing quote".to_owned(),
            other => format!("closing delimiter for `{other}`"),
        },
        other => other.as_str().to_owned(),
    }
}

fn describe_load_errors(code: &str, errs: Vec<(File<&str, ()>, jaq_core::load::Error<&str>)>) -> String {
    let mut parts = Vec::new();
    for (_file, err) in errs {
        match err {
            jaq_core::load::Error::Io(items) => {
                for (path, msg) in items {
                    parts.push(format!("cannot load module `{path}`: {msg}"));
                }
            }
            jaq_core::load::Error::Lex(items) => {
                for (expect, rest) in items {
                    parts.push(format!("expected {} {}", lex_expect(&expect), near(code, rest)));
                }
            }
            jaq_core::load::Error::Parse(items) => {
                for (expect, found) in items {
                    parts.push(parse_error(code, &expect, found));
                }
            }
        }
    }
    if parts.is_empty() {
        "syntax error".to_owned()
    } else {
        parts.join("; ")
    }
}

fn parse_error(code: &str, expect: &parse::Expect<&str>, found: &str) -> String {
    if found.is_empty() {
        format!("expected {} at the end of the expression", expect.as_str())
    } else {
        format!("expected {} {}", expect.as_str(), near(code, found))
    }
}

fn describe_compile_errors(errs: compile::Errors<&str, ()>) -> String {
    let mut parts = Vec::new();
    for (_file, items) in errs {
        for (name, undefined) in items {
            parts.push(match undefined {
                compile::Undefined::Filter(arity) => format!("{name}/{arity} is not defined"),
                compile::Undefined::Var => format!("{name} is not defined"),
                other => format!("{} {name} is not defined", other.as_str()),
            });
        }
    }
    if parts.is_empty() {
        "compile error".to_owned()
    } else {
        parts.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn program_is_send_sync() {
        assert_send_sync::<JqProgram>();
    }

    #[test]
    fn a_program_compiled_again_is_taken_from_the_cache() {
        let code = ".cache_probe | length";
        let first = JqProgram::compile(code).expect("compiles");
        let again = JqProgram::compile(code).expect("compiles");
        assert!(std::sync::Arc::ptr_eq(&first.filter, &again.filter));
        // A failed compilation is not kept: it fails again with the same message.
        let bad = "cache_probe_undefined";
        let message = |r: Result<JqProgram, JqCompileError>| format!("{:?}", r.err());
        assert_eq!(message(JqProgram::compile(bad)), message(JqProgram::compile(bad)));
        assert!(compiled().get(bad).is_none());
    }

    #[test]
    fn compile_error_messages() {
        let e = JqProgram::compile("workflow_runs[*].id").err();
        assert!(matches!(e, Some(JqCompileError::Syntax(_))), "{e:?}");
        let e = JqProgram::compile("foo").err();
        assert_eq!(e, Some(JqCompileError::Invalid("foo/0 is not defined".to_owned())));
        let e = JqProgram::compile(". as $x | $y").err();
        assert_eq!(e, Some(JqCompileError::Invalid("$y is not defined".to_owned())));
        let e = JqProgram::compile(".a | (").err();
        assert!(
            matches!(&e, Some(JqCompileError::Syntax(s)) if s.contains("expected")),
            "{e:?}"
        );
    }

    #[test]
    fn surrogate_pairs_are_decoded_only_in_escapes() {
        assert_eq!(decode_surrogate_pairs(r#""\ud83d\udd14""#), "\"\u{1F514}\"");
        assert_eq!(decode_surrogate_pairs(r#".["\uD83D\uDD14x"]"#), ".[\"\u{1F514}x\"]");
        // An escaped backslash followed by `ud83d` is not an escape (the lone low surrogate after it is U+FFFD).
        assert_eq!(decode_surrogate_pairs(r#""\\ud83d\udd14""#), "\"\\\\ud83d\u{FFFD}\"");
        // A lone low surrogate is U+FFFD, as jq reads it.
        assert_eq!(decode_surrogate_pairs(r#""\ude00x""#), "\"\u{FFFD}x\"");
        // A lone high surrogate and ordinary escapes stay for the lexer.
        assert_eq!(decode_surrogate_pairs(r#""\ud83d""#), r#""\ud83d""#);
        assert_eq!(decode_surrogate_pairs(r#""\u00e9\u00e9""#), r#""\u00e9\u00e9""#);
    }

    #[test]
    fn loc_is_the_line_where_it_stands() {
        assert_eq!(expand_loc("1"), "1");
        assert_eq!(expand_loc("$__loc__"), r#"({"file":"<top-level>","line":1})"#);
        assert_eq!(
            expand_loc("{a: 1, $__loc__}"),
            r#"{a: 1, "__loc__": {"file":"<top-level>","line":1}}"#
        );
        assert_eq!(
            expand_loc("1 |\n{a: $__loc__} | \"\\($__loc__.line)\""),
            "1 |\n{a: ({\"file\":\"<top-level>\",\"line\":2})} | \"\\(({\"file\":\"<top-level>\",\"line\":2}).line)\""
        );
        assert_eq!(expand_loc(". as $__loc__ | $__loc__"), ". as $__loc__ | $__loc__");
    }

    #[test]
    fn our_definitions_parse() {
        assert!(definitions().is_ok());
        assert!(generated_defs().contains("\"map/1\""), "{}", generated_defs());
        assert!(!generated_defs().contains("\"_jq_"), "{}", generated_defs());
    }
}
