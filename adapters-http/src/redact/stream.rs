//! [`RedactStream`]: redaction over a body read piece by piece, so a secret falling across two reads is still
//! found (private module; the type is at the crate root).
//!
//! Each of the two passes (configured secrets, then signed-URL credentials) holds back the last bytes of what it
//! was given, as many as a match could still need (one byte less than its longest pattern); a match that starts
//! before that point is complete, since leftmost-longest matching cannot extend it with bytes it has not seen. A
//! credential value being dropped (`sig=…`) runs on across reads without being held. So what a pass holds is at
//! most its longest pattern, whatever the pieces, and the output is byte for byte [`super::Redactor::redact_bytes`]
//! of the whole body.

use super::signed_url::{MARK, MAX_LEN, Reach, Value, next_opening, reach};
use super::{Matcher, Redactor};

/// Redacts a body given in pieces: [`RedactStream::push`] each piece as it arrives and hand on what it returns,
/// then [`RedactStream::finish`] for the rest. Made by [`Redactor::stream`].
#[derive(Debug)]
pub struct RedactStream {
    redactor: Redactor,
    urls: UrlPass,
    secrets: Vec<u8>,
}

#[derive(Debug, Default)]
struct UrlPass {
    held: Vec<u8>,
    /// The byte before `held` in the whole text (`None` at its start).
    prev: Option<u8>,
    /// The credential value being dropped, if any.
    open: Option<Value>,
    /// The open value has not started yet: it may be one the secrets' pass already replaced
    /// (`token=[redacted GITHUB_TOKEN]`), which is kept as it is.
    fresh: bool,
}

/// How a value that the secrets' pass replaced begins.
const ALREADY: &[u8] = b"[redacted";

impl RedactStream {
    pub(super) fn new(redactor: Redactor) -> Self {
        Self {
            redactor,
            urls: UrlPass::default(),
            secrets: Vec::new(),
        }
    }

    /// The redacted bytes that `piece` completes (possibly none; possibly some of earlier pieces).
    pub fn push(&mut self, piece: &[u8]) -> Vec<u8> {
        self.run(piece, false)
    }

    /// The redacted rest, at the end of the body.
    pub fn finish(&mut self) -> Vec<u8> {
        self.run(&[], true)
    }

    fn run(&mut self, piece: &[u8], last: bool) -> Vec<u8> {
        let mut middle = Vec::with_capacity(piece.len() + 16);
        match &self.redactor.inner {
            Some(matcher) => secrets_pass(matcher, &mut self.secrets, piece, last, &mut middle),
            None => middle.extend_from_slice(piece),
        }
        if !self.redactor.signed_urls {
            return middle;
        }
        let mut out = Vec::with_capacity(middle.len() + 16);
        self.urls.run(&middle, last, &mut out);
        out
    }
}

impl UrlPass {
    fn run(&mut self, piece: &[u8], last: bool, out: &mut Vec<u8>) {
        let (mut buf, cut) = joined(&mut self.held, piece, MAX_LEN, last);
        let mut pos = 0;
        loop {
            if self.open.is_some() && self.fresh {
                let hay = &buf[pos..];
                let n = hay.len().min(ALREADY.len());
                if hay[..n] == ALREADY[..n] {
                    if n < ALREADY.len() && !last {
                        break;
                    }
                    if n == ALREADY.len() {
                        self.open = None;
                    }
                }
                self.fresh = false;
                if self.open.is_some() {
                    out.extend_from_slice(MARK);
                }
            }
            if let Some(value) = self.open {
                match reach(&buf[pos..], value, last) {
                    Reach::Ends(n) => {
                        pos += n;
                        self.open = None;
                    }
                    Reach::Continues(n) => {
                        pos += n;
                        break;
                    }
                }
            }
            let next = next_opening(&buf, pos, self.prev)
                .filter(|opening| opening.start < cut)
                .map(|opening| (opening.end, opening.value));
            match next {
                Some((end, value)) => {
                    out.extend_from_slice(&buf[pos..end]);
                    pos = end;
                    self.open = Some(value);
                    self.fresh = true;
                }
                None => {
                    let upto = cut.max(pos);
                    out.extend_from_slice(&buf[pos..upto]);
                    pos = upto;
                    break;
                }
            }
        }
        if pos > 0 {
            self.prev = Some(buf[pos - 1]);
        }
        buf.drain(..pos);
        self.held = buf;
    }
}

/// The configured secrets' pass over `held` + `piece`: every complete match replaced, the undecided tail kept in
/// `held`.
fn secrets_pass(matcher: &Matcher, held: &mut Vec<u8>, piece: &[u8], last: bool, out: &mut Vec<u8>) {
    let (mut buf, cut) = joined(held, piece, matcher.max_len, last);
    let mut pos = 0;
    for (start, end, form) in matcher.find_iter(&buf) {
        if start >= cut {
            break;
        }
        out.extend_from_slice(&buf[pos..start]);
        out.extend_from_slice(matcher.replacements[form].as_bytes());
        pos = end;
    }
    let upto = cut.max(pos);
    out.extend_from_slice(&buf[pos..upto]);
    buf.drain(..upto);
    *held = buf;
}

/// What a pass holds followed by `piece`, and where its decided part ends: matches that start before the cut are
/// complete (one byte less than the longest pattern, `max_len`, is kept back), or everything at the end (`last`).
fn joined(held: &mut Vec<u8>, piece: &[u8], max_len: usize, last: bool) -> (Vec<u8>, usize) {
    let mut buf = std::mem::take(held);
    buf.extend_from_slice(piece);
    let cut = if last {
        buf.len()
    } else {
        buf.len().saturating_sub(max_len.saturating_sub(1))
    };
    (buf, cut)
}
