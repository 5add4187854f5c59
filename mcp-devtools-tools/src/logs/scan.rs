//! One pass over a log as it streams in (private module: its items are re-exported by `logs`, and the concern is documented on `Scanner`).

use std::collections::VecDeque;

use memchr::{memchr, memchr_iter, memrchr};

use super::clock::StepClock;
use super::grep::Grep;
use super::hay;
use super::line::{self, split_time};
use super::model::LogLine;

/// Size of the read buffer: lines are processed once this much has arrived (a longer line grows it).
pub const BLOCK_BYTES: usize = 1 << 20;

/// Bytes a kept line is counted for beyond its text (the JSON of `n`, `time` and `kind`).
const LINE_OVERHEAD: usize = 72;

/// What to keep. [`Options::new`] keeps every line up to a byte limit; the `with_*` methods narrow it.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct Options {
    /// The last this many kept lines of each selected step; `None`: all of them.
    pub tail: Option<usize>,
    /// Keep only lines matching this (with `context` lines around each).
    pub grep: Option<Grep>,
    /// Lines kept before and after each match.
    pub context: usize,
    /// Keep escape sequences in the text.
    pub raw: bool,
    /// Stop keeping lines past this many bytes of them (about their JSON size).
    pub keep_limit: usize,
}

impl Options {
    /// Every line of the selected steps, no context, escape sequences removed, up to `keep_limit` bytes.
    pub fn new(keep_limit: usize) -> Self {
        Self {
            tail: None,
            grep: None,
            context: 0,
            raw: false,
            keep_limit,
        }
    }

    /// With [`Options::tail`] set.
    #[must_use]
    pub fn with_tail(mut self, tail: Option<usize>) -> Self {
        self.tail = tail;
        self
    }

    /// With [`Options::grep`] set.
    #[must_use]
    pub fn with_grep(mut self, grep: Option<Grep>) -> Self {
        self.grep = grep;
        self
    }

    /// With [`Options::context`] set.
    #[must_use]
    pub fn with_context(mut self, context: usize) -> Self {
        self.context = context;
        self
    }

    /// With [`Options::raw`] set.
    #[must_use]
    pub fn with_raw(mut self, raw: bool) -> Self {
        self.raw = raw;
        self
    }

    /// With [`Options::keep_limit`] set.
    #[must_use]
    pub fn with_keep_limit(mut self, keep_limit: usize) -> Self {
        self.keep_limit = keep_limit;
        self
    }
}

/// The result of a scan, per step (in the order the steps were given).
#[derive(Debug, Clone, Default)]
pub struct Scanned {
    /// Per step: (lines of the step, number of its first line, kept lines).
    pub steps: Vec<StepLines>,
    /// Lines in the whole log.
    pub total_lines: u64,
    /// Bytes read.
    pub bytes: u64,
    /// The kept lines passed `keep_limit`; `steps[..].lines` are then empty.
    pub overflow: bool,
}

/// The lines of one step.
#[derive(Debug, Clone, Default)]
pub struct StepLines {
    /// Lines of the log that belong to the step.
    pub total: u64,
    /// Number of its first line.
    pub first: Option<u64>,
    /// The kept lines, in order.
    pub lines: Vec<LogLine>,
}

#[derive(Debug, Default)]
struct Step {
    selected: bool,
    total: u64,
    first: Option<u64>,
    kept: VecDeque<LogLine>,
    /// The last `context` lines seen of this step, for the context before a match in a later block.
    recent: VecDeque<(u64, Vec<u8>)>,
    after_until: u64,
    last_kept: u64,
}

/// One pass over one job's log as it streams in, keeping only the lines asked for ([`Options`]).
///
/// Bytes are gathered into one read buffer ([`BLOCK_BYTES`]) and processed a block of whole lines at a time: lines
/// are counted (`memchr`), the step of each line is found only where a step may change ([`StepClock`]), and only
/// the kept lines are ever decoded. `tailLines` keeps a ring of the last lines of each selected step. `grep` runs
/// the regex over the whole block at once (as ripgrep does), over the block with its escape sequences and control
/// characters left out (`hay`: a code may split a word), and checks each hit's line on its own plain text (the part
/// after the timestamp, as the tool returns it). Memory: the read buffer, the kept lines, and `context` lines per selected step.
/// Past `keep_limit` bytes of kept lines the scanner stops keeping and reports [`Scanned::overflow`] (the caller
/// then hands the whole log over as an artifact).
#[derive(Debug)]
pub struct Scanner {
    options: Options,
    steps: Vec<Step>,
    clock: Option<StepClock>,
    current: usize,
    buf: Vec<u8>,
    lines: u64,
    bytes: u64,
    kept_bytes: usize,
    overflow: bool,
    scratch: Vec<u8>,
    /// The block search's haystack when a segment has lines to make plain (reused).
    hay: Vec<u8>,
}

impl Scanner {
    /// A scanner for a log with `selected.len()` steps, keeping lines of the steps marked `true`. With a `clock`,
    /// lines are assigned to steps by their timestamps (GitHub); without, by [`Scanner::set_step`] (CircleCI).
    pub fn new(options: Options, selected: &[bool], clock: Option<StepClock>) -> Self {
        let mut steps: Vec<Step> = selected
            .iter()
            .map(|&selected| Step {
                selected,
                ..Step::default()
            })
            .collect();
        if steps.is_empty() {
            steps.push(Step {
                selected: true,
                ..Step::default()
            });
        }
        let current = clock.as_ref().and_then(StepClock::current).unwrap_or(0);
        Self {
            options,
            steps,
            clock,
            current,
            buf: Vec::with_capacity(BLOCK_BYTES + 4096),
            lines: 0,
            bytes: 0,
            kept_bytes: 0,
            overflow: false,
            scratch: Vec::new(),
            hay: Vec::new(),
        }
    }

    /// Takes the next bytes of the log.
    pub fn feed(&mut self, bytes: &[u8]) {
        self.bytes += bytes.len() as u64;
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= BLOCK_BYTES {
            self.process(false);
        }
    }

    /// The lines from here on belong to step `index` (the pending partial line ends first).
    pub fn set_step(&mut self, index: usize) {
        self.process(true);
        self.current = index.min(self.steps.len() - 1);
    }

    /// Ends the log.
    pub fn finish(mut self) -> Scanned {
        self.process(true);
        let overflow = self.overflow;
        Scanned {
            steps: self
                .steps
                .into_iter()
                .map(|step| StepLines {
                    total: step.total,
                    first: step.first,
                    lines: if overflow { Vec::new() } else { step.kept.into() },
                })
                .collect(),
            total_lines: self.lines,
            bytes: self.bytes,
            overflow,
        }
    }

    /// Processes the whole lines in the buffer (all of it when `all`: the last line may lack its `\n`).
    fn process(&mut self, all: bool) {
        let end = if all {
            self.buf.len()
        } else {
            match memrchr(b'\n', &self.buf) {
                Some(newline) => newline + 1,
                None => return,
            }
        };
        if end == 0 {
            return;
        }
        let buf = std::mem::take(&mut self.buf);
        self.block(&buf[..end]);
        self.buf = buf;
        self.buf.drain(..end);
    }

    /// Splits a block of whole lines where the step changes.
    fn block(&mut self, block: &[u8]) {
        let mut start = 0;
        let mut scan = 0;
        loop {
            match self.next_switch(block, scan) {
                None => {
                    self.segment(&block[start..]);
                    return;
                }
                Some(at) => {
                    self.segment(&block[start..at]);
                    self.current = self.clock.as_ref().and_then(StepClock::current).unwrap_or(self.current);
                    start = at;
                    scan = next_line(block, at);
                }
            }
        }
    }

    /// The start of the first line at or after `from` that moves the clock to another step (moving it).
    fn next_switch(&mut self, block: &[u8], from: usize) -> Option<usize> {
        let clock = self.clock.as_mut()?;
        if from >= block.len() {
            return None;
        }
        let last_start = memrchr(b'\n', &block[..block.len() - 1]).map_or(0, |i| i + 1).max(from);
        if let (Some(time), _) = split_time(&block[last_start..])
            && !clock.may_move(time)
        {
            return None;
        }
        let mut at = from;
        while at < block.len() {
            let end = memchr(b'\n', &block[at..]).map_or(block.len(), |i| at + i);
            if let (Some(time), text) = split_time(&block[at..end])
                && clock.advance(time, text)
            {
                return Some(at);
            }
            at = end + 1;
        }
        None
    }

    /// Lines that all belong to the current step.
    fn segment(&mut self, segment: &[u8]) {
        if segment.is_empty() {
            return;
        }
        let first = self.lines + 1;
        let index = self.current;
        let step = &mut self.steps[index];
        step.first.get_or_insert(first);
        let count = if step.selected && !self.overflow && self.options.grep.is_some() {
            // The search counts the lines it skips: no second pass to count them.
            self.grep_segment(segment, first)
        } else {
            let count = count_lines(segment);
            if step.selected && !self.overflow {
                self.tail_segment(segment, count, first);
            }
            count
        };
        self.steps[index].total += count;
        self.lines += count;
    }

    fn tail_segment(&mut self, segment: &[u8], count: u64, first: u64) {
        let keep = self.options.tail.map_or(count, |tail| count.min(tail as u64));
        let mut start = segment.len();
        let mut body_end = segment.len() - usize::from(segment.ends_with(b"\n"));
        let mut found = Vec::with_capacity(keep as usize);
        for _ in 0..keep {
            start = memrchr(b'\n', &segment[..body_end]).map_or(0, |i| i + 1);
            found.push((start, body_end));
            if start == 0 {
                break;
            }
            body_end = start - 1;
        }
        let _ = start;
        let last = first + count - 1;
        for (offset, (start, end)) in found.into_iter().rev().enumerate().map(|(i, r)| (i as u64, r)) {
            let n = last + 1 - keep + offset;
            self.keep(n, &segment[start..end]);
        }
    }

    /// Keeps the matching lines of `segment` (and their context): returns the number of its lines.
    fn grep_segment(&mut self, segment: &[u8], first: u64) -> u64 {
        let Some(grep) = self.options.grep.clone() else {
            return count_lines(segment);
        };
        let context = self.options.context;
        // The haystack of the block search: the segment itself (searched for the pattern's literals, or its own
        // plain text), or a copy with the lines' plain texts.
        let mut hay = std::mem::take(&mut self.hay);
        let by_literals = grep.by_literals(segment);
        let copied = !by_literals && hay::fill(segment, line::has_other_dropped(segment), &mut hay);
        let hay_bytes: &[u8] = if copied { &hay } else { segment };
        let line_by_line = grep.line_by_line(by_literals);
        let (mut at, mut hat) = (0usize, 0usize);
        let mut n = first;
        while at < segment.len() && hat < hay_bytes.len() && !self.overflow {
            if n > self.steps[self.current].after_until && !line_by_line {
                // Jump to the line of the next hit, in both texts.
                let Some(hit) = grep.next_hit(hay_bytes, hat, by_literals) else {
                    break;
                };
                let candidate = line_start(hay_bytes, hit).max(hat);
                let skipped = memchr_iter(b'\n', &hay_bytes[hat..candidate]).count();
                at = if copied {
                    skip_lines(segment, at, skipped)
                } else {
                    candidate
                };
                hat = candidate;
                n += skipped as u64;
                if at >= segment.len() {
                    break;
                }
            }
            let end = memchr(b'\n', &segment[at..]).map_or(segment.len(), |i| at + i);
            let (_, text) = split_time(&segment[at..end]);
            if grep.matches(text, &mut self.scratch) {
                self.keep_before(segment, at, n, first, context);
                self.steps[self.current].after_until = n + context as u64;
            }
            if n <= self.steps[self.current].after_until {
                self.keep(n, &segment[at..end]);
            }
            at = end + 1;
            hat = next_line(hay_bytes, hat);
            n += 1;
        }
        self.hay = hay;
        let count = n - first + segment.get(at..).map_or(0, count_lines);
        self.remember_recent(segment, first, count, context);
        count
    }

    /// Keeps the `context` lines before line `n` (at `at` in `segment`, whose first line is `first`).
    fn keep_before(&mut self, segment: &[u8], at: usize, n: u64, first: u64, context: usize) {
        if context == 0 {
            return;
        }
        let from = n
            .saturating_sub(context as u64)
            .max(self.steps[self.current].last_kept + 1);
        let mut lines = Vec::new();
        let mut end = at;
        let mut line_n = n;
        while line_n > from && end > 0 && line_n > first {
            let start = line_start(segment, end - 1);
            lines.push((line_n - 1, start, end - 1));
            end = start;
            line_n -= 1;
        }
        let older: Vec<(u64, Vec<u8>)> = self.steps[self.current]
            .recent
            .iter()
            .filter(|(k, _)| *k >= from && *k < line_n)
            .cloned()
            .collect();
        for (k, text) in older {
            self.keep(k, &text);
        }
        for (k, start, end) in lines.into_iter().rev() {
            self.keep(k, &segment[start..end]);
        }
    }

    fn remember_recent(&mut self, segment: &[u8], first: u64, count: u64, context: usize) {
        if context == 0 {
            return;
        }
        let recent = &mut self.steps[self.current].recent;
        let mut end = segment.len() - usize::from(segment.ends_with(b"\n"));
        let mut tail = Vec::new();
        for k in 0..(context as u64).min(count) {
            let start = memrchr(b'\n', &segment[..end]).map_or(0, |i| i + 1);
            tail.push((first + count - 1 - k, segment[start..end].to_vec()));
            if start == 0 {
                break;
            }
            end = start - 1;
        }
        for line in tail.into_iter().rev() {
            recent.push_back(line);
        }
        while recent.len() > context {
            recent.pop_front();
        }
    }

    /// Keeps line `n` (once), evicting the oldest kept line past `tail`.
    fn keep(&mut self, n: u64, raw_line: &[u8]) {
        let raw = self.options.raw;
        let tail = self.options.tail;
        let step = &mut self.steps[self.current];
        if n <= step.last_kept {
            return;
        }
        step.last_kept = n;
        let line = line::parse(n, raw_line, raw);
        self.kept_bytes += line.text.len() + LINE_OVERHEAD;
        step.kept.push_back(line);
        if let Some(tail) = tail
            && step.kept.len() > tail
            && let Some(old) = step.kept.pop_front()
        {
            self.kept_bytes -= old.text.len() + LINE_OVERHEAD;
        }
        if self.kept_bytes > self.options.keep_limit {
            self.overflow = true;
            for step in &mut self.steps {
                step.kept.clear();
                step.recent.clear();
            }
        }
    }
}

/// The number of lines in `bytes` (the last one may lack its `\n`).
fn count_lines(bytes: &[u8]) -> u64 {
    memchr_iter(b'\n', bytes).count() as u64 + u64::from(!bytes.is_empty() && !bytes.ends_with(b"\n"))
}

/// The start of the line holding `offset`.
fn line_start(segment: &[u8], offset: usize) -> usize {
    memrchr(b'\n', &segment[..offset]).map_or(0, |i| i + 1)
}

/// The start of the line `lines` lines after the one starting at `at` (the end when there are fewer).
fn skip_lines(block: &[u8], mut at: usize, mut lines: usize) -> usize {
    // Whole chunks are skipped by counting their newlines (vectorized); the last one is walked.
    const CHUNK: usize = 16 << 10;
    while lines > 0 && at + CHUNK <= block.len() {
        let newlines = memchr_iter(b'\n', &block[at..at + CHUNK]).count();
        if newlines >= lines {
            break;
        }
        lines -= newlines;
        at += CHUNK;
    }
    if lines == 0 {
        return at;
    }
    memchr_iter(b'\n', &block[at..])
        .nth(lines - 1)
        .map_or(block.len(), |i| at + i + 1)
}

/// The start of the line after the one starting at `at`.
fn next_line(block: &[u8], at: usize) -> usize {
    memchr(b'\n', &block[at..]).map_or(block.len(), |i| at + i + 1)
}
