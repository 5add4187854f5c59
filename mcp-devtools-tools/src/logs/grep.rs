//! A `grep` pattern (private module: its items are re-exported by `logs`, and the concern is documented on `Grep`).

use aho_corasick::{AhoCorasick, Input, MatchKind, Span, packed};
use regex::bytes::Regex;
use regex_syntax::hir::literal::{ExtractKind, Extractor};

use super::line::{self, ESC};

/// At most this many literal patterns (a match's possible starts and their seams): a small set is searched with
/// vector instructions (Teddy).
const MAX_PATTERNS: usize = 64;
/// Literals shorter than this would flag most lines: the pattern is then searched the other way.
const MIN_LITERAL: usize = 3;

/// A `grep` pattern, compiled for the block search and for checking one line.
///
/// Lines are found in two ways. Most patterns have a short set of literals that every match starts with (`error`,
/// `FAILED` for `error|FAILED`): a line's plain text can only match where it holds one of them, either as it is in
/// the raw line or split by escape sequences, and a split one shows in the raw line as a start of the literal
/// followed by ESC. So the raw block is searched for those literals and those starts-then-ESC, and each line found
/// is checked on its own plain text: exact, and nothing is made plain but the lines found. Other patterns (or a
/// block holding other control characters) search the block made plain.
#[derive(Debug, Clone)]
pub struct Grep {
    block: Regex,
    line: Regex,
    /// The pattern may anchor at a line start (`^`, `\A`): without `starts`, every line is checked on its own text.
    anchored: bool,
    /// The literals every match starts with and their seams (`None`: the pattern has no short set of them).
    starts: Option<Starts>,
}

/// The searcher of a match's possible starts: Teddy where the CPU has it, else an Aho-Corasick automaton (whose own
/// choice of prefilter may be a search for the first bytes only, far slower here).
#[derive(Debug, Clone)]
enum Starts {
    Packed(packed::Searcher),
    Automaton(AhoCorasick),
}

impl Grep {
    /// Compiles `pattern` (Rust `regex` syntax, as ripgrep's).
    ///
    /// # Errors
    /// The regex parser's message.
    pub fn new(pattern: &str) -> Result<Self, regex::Error> {
        let build = |multi_line| {
            regex::bytes::RegexBuilder::new(pattern)
                .multi_line(multi_line)
                .size_limit(8 << 20)
                .build()
        };
        Ok(Self {
            block: build(true)?,
            line: build(false)?,
            anchored: pattern.contains('^') || pattern.contains("\\A"),
            starts: starts(pattern),
        })
    }

    /// Whether the raw block can be searched for the literals ([`Grep`]): the pattern has them and the block has no
    /// byte to drop other than ESC and `\r` (a code splitting a literal then always starts with ESC, and a `\r`
    /// only cuts a line's text, never splits what is left).
    pub(super) fn by_literals(&self, block: &[u8]) -> bool {
        self.starts.is_some() && !line::has_other_dropped(block)
    }

    /// Whether every line must be checked: the block search over `hay` cannot see line starts after timestamps.
    pub(super) fn line_by_line(&self, by_literals: bool) -> bool {
        self.anchored && !by_literals
    }

    /// Where the next line to check is hit at or after `from`: in the raw block by the literals, else in the
    /// block's plain haystack by the pattern.
    pub(super) fn next_hit(&self, hay: &[u8], from: usize, by_literals: bool) -> Option<usize> {
        match (&self.starts, by_literals) {
            (Some(Starts::Packed(starts)), true) => starts.find_in(hay, Span::from(from..hay.len())).map(|m| m.start()),
            (Some(Starts::Automaton(starts)), true) => starts.find(Input::new(hay).range(from..)).map(|m| m.start()),
            _ => self.block.find_at(hay, from).map(|m| m.start()),
        }
    }

    /// Whether one line's text (after its timestamp) matches: its plain text, as the tool returns it.
    pub(super) fn matches(&self, text: &[u8], scratch: &mut Vec<u8>) -> bool {
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        if line::has_dropped(text) {
            line::plain_into(text, scratch);
            self.line.is_match(scratch)
        } else {
            self.line.is_match(text)
        }
    }
}

/// The searcher of the literals that every match of `pattern` starts with, each cut to at most 8 bytes (a start
/// of a start is one too), and of each literal's proper starts followed by ESC; `None` when the pattern has no
/// short set of literals of at least [`MIN_LITERAL`] bytes.
fn starts(pattern: &str) -> Option<Starts> {
    let hir = regex_syntax::ParserBuilder::new()
        .utf8(false)
        .build()
        .parse(pattern)
        .ok()?;
    let full = Extractor::new().kind(ExtractKind::Prefix).extract(&hir);
    for keep in [8, 6, 4, MIN_LITERAL] {
        let mut seq = full.clone();
        seq.keep_first_bytes(keep);
        seq.dedup();
        let literals = seq.literals()?;
        if literals.is_empty() || literals.iter().any(|l| l.len() < MIN_LITERAL) {
            return None;
        }
        let mut patterns: Vec<Vec<u8>> = Vec::new();
        for literal in literals {
            let bytes = literal.as_bytes();
            patterns.push(bytes.to_vec());
            patterns.extend((1..bytes.len()).map(|cut| [&bytes[..cut], &[ESC]].concat()));
        }
        patterns.sort();
        patterns.dedup();
        if patterns.len() <= MAX_PATTERNS {
            let packed = packed::Config::new()
                .match_kind(packed::MatchKind::LeftmostFirst)
                .builder()
                .extend(&patterns)
                .build();
            return match packed {
                Some(packed) => Some(Starts::Packed(packed)),
                None => AhoCorasick::builder()
                    .match_kind(MatchKind::LeftmostFirst)
                    .build(&patterns)
                    .ok()
                    .map(Starts::Automaton),
            };
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Which patterns are searched by their literals (the differential test in `logs` covers both ways).
    #[test]
    fn literals_when_short_and_few() {
        let by_literals = |pattern: &str| Grep::new(pattern).map(|g| g.starts.is_some()).ok();
        assert_eq!(by_literals("error|FAILED"), Some(true));
        assert_eq!(by_literals("^Traceback"), Some(true));
        assert_eq!(by_literals("(?i)error"), Some(true));
        assert_eq!(by_literals(r"\d+ failed"), Some(false));
        assert_eq!(by_literals("e|F"), Some(false));
        assert_eq!(by_literals("x*"), Some(false));
        let grep = Grep::new("error").ok();
        assert!(grep.as_ref().is_some_and(|g| g.by_literals(b"a \x1b[1mcode\r\n")));
        assert!(grep.is_some_and(|g| !g.by_literals(b"a bell \x07\n")));
    }
}
