//! A thin framing layer in front of rmcp's stdio transport, so that every line gets its answer.
//!
//! rmcp 3.11's newline-delimited transport drops an unparsable line (bad JSON, not UTF-8, nested deeper than 128
//! levels) with only a log line, drops an over-long line the same way, exits on a notification or response that
//! arrives before `initialize`, and refuses every JSON-RPC batch. This layer reads stdin line by line and:
//! - answers a line over the request-size limit, or one that is not UTF-8 / JSON / at most
//!   128 levels deep / an object or array, with a JSON-RPC error from [`crate::incoming`] carrying the line's `id`
//!   when it can be read ([`incoming::readable_id`], from the first 4 KiB of an over-long line), else `id: null`,
//!   without buffering more than the limit;
//! - drops a notification or response sent before `initialize` (logged at debug with its kind only);
//! - at protocol revision `2025-03-26` (negotiated by the `initialize` exchange it watches) splits a batch into its
//!   messages and answers with one array of their responses (JSON-RPC 2.0 §6); at any other revision answers a
//!   batch with one `-32600` error;
//! - answers a request rmcp could not read (`-32600` with its id; rmcp would log the whole line) and drops such a
//!   notification or response;
//! - passes every other line to rmcp unchanged, through an in-memory pipe. rmcp's answers pass back unchanged.
//!
//! Nothing here logs the line itself: it may hold secrets.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::Value;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::mpsc;

use crate::incoming::{self, BATCH_REVISION, Kind, Rejection};

/// Size of each in-memory pipe between this layer and rmcp, bytes.
const PIPE_BYTES: usize = 256 * 1024;
/// How much of an over-long line is kept to read its `id` from ([`incoming::readable_id`]), bytes.
const ID_HEAD_BYTES: usize = 4096;

/// One line read from the input.
#[derive(Debug, PartialEq, Eq)]
enum Line {
    /// The line's bytes, without its newline.
    Text(Vec<u8>),
    /// The line was longer than the limit; its bytes were skipped but for the first [`ID_HEAD_BYTES`].
    TooLong(Vec<u8>),
}

/// Reads the next line into `buf` (cleared first), keeping at most `limit` bytes: a longer line is skipped to its
/// newline and reported as [`Line::TooLong`] with its first bytes. `None` at end of input. A last line without a newline counts.
async fn next_line(
    reader: &mut (impl AsyncBufRead + Unpin),
    buf: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<Option<Line>> {
    buf.clear();
    let mut too_long = false;
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            return Ok(match (too_long, buf.is_empty()) {
                (true, _) => Some(Line::TooLong(std::mem::take(buf))),
                (false, true) => None,
                (false, false) => Some(Line::Text(std::mem::take(buf))),
            });
        }
        let (take, ends) = match available.iter().position(|&b| b == b'\n') {
            Some(newline) => (newline, true),
            None => (available.len(), false),
        };
        if !too_long && buf.len().saturating_add(take) > limit {
            too_long = true;
            buf.truncate(ID_HEAD_BYTES);
        }
        if too_long {
            // Only the first bytes, to read the id from.
            let room = ID_HEAD_BYTES.saturating_sub(buf.len());
            buf.extend_from_slice(&available[..take.min(room)]);
        } else {
            buf.extend_from_slice(&available[..take]);
        }
        reader.consume(if ends { take + 1 } else { take });
        if ends {
            return Ok(Some(if too_long {
                Line::TooLong(std::mem::take(buf))
            } else {
                Line::Text(std::mem::take(buf))
            }));
        }
    }
}

/// A batch waiting for its responses.
struct Batch {
    /// Ids (as JSON text) of the batch's requests not answered yet.
    waiting: HashSet<String>,
    /// Responses collected so far.
    responses: Vec<Value>,
}

/// What the two pumps share.
#[derive(Default)]
struct State {
    /// An `initialize` request was passed to rmcp.
    initialize_seen: bool,
    /// The id (JSON text) of the `initialize` request whose response names the revision.
    initialize_id: Option<String>,
    /// The negotiated protocol revision.
    revision: Option<String>,
    /// Batches being answered.
    batches: Vec<Batch>,
}

type Shared = Arc<Mutex<State>>;

fn lock(state: &Shared) -> std::sync::MutexGuard<'_, State> {
    state.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Starts the layer between `input`/`output` (the process's stdin/stdout) and rmcp: returns the reader and writer
/// to give rmcp as its transport. Lines are limited to `limit` bytes. The pumps end when `input` ends (rmcp then
/// sees end of file) and when rmcp closes its side.
pub fn spawn<R, W>(input: R, output: W, limit: usize) -> (DuplexStream, DuplexStream)
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (rmcp_reads, to_rmcp) = tokio::io::duplex(PIPE_BYTES);
    let (rmcp_writes, from_rmcp) = tokio::io::duplex(PIPE_BYTES);
    let (replies_tx, replies_rx) = mpsc::channel::<Value>(64);
    let state = Shared::default();
    tokio::spawn(inbound(
        BufReader::new(input),
        to_rmcp,
        replies_tx,
        state.clone(),
        limit,
    ));
    tokio::spawn(outbound(BufReader::new(from_rmcp), output, replies_rx, state));
    (rmcp_reads, rmcp_writes)
}

/// Reads client lines, answers the faulty ones through `replies`, passes the rest to rmcp.
async fn inbound(
    mut input: impl AsyncBufRead + Unpin,
    mut to_rmcp: DuplexStream,
    replies: mpsc::Sender<Value>,
    state: Shared,
    limit: usize,
) {
    let mut buf = Vec::new();
    loop {
        let line = match next_line(&mut input, &mut buf, limit).await {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(err) => {
                tracing::warn!(error = %err, "reading stdin failed; ending the session");
                break;
            }
        };
        let outcome = match line {
            Line::TooLong(head) => Outcome::reply(reject(&Rejection::TooLarge { limit }, &head)),
            Line::Text(bytes) if bytes.trim_ascii().is_empty() => continue,
            Line::Text(bytes) => match incoming::parse(bytes.trim_ascii_end(), limit) {
                Err(rejection) => Outcome::reply(reject(&rejection, &bytes)),
                Ok(Value::Array(items)) => batch(&state, items),
                Ok(value) => single(&state, bytes, &value),
            },
        };
        if forward_lines(&mut to_rmcp, outcome.forward).await.is_err() {
            break;
        }
        if let Some(reply) = outcome.reply
            && replies.send(reply).await.is_err()
        {
            break;
        }
    }
    // Dropping `to_rmcp` ends rmcp's input: the session ends as with a closed stdin.
}

/// What to do with one input line: lines to pass to rmcp (without newlines), and an answer of our own.
#[derive(Default)]
struct Outcome {
    forward: Vec<Vec<u8>>,
    reply: Option<Value>,
}

impl Outcome {
    fn reply(reply: Value) -> Outcome {
        Outcome {
            forward: Vec::new(),
            reply: Some(reply),
        }
    }

    fn forward(line: Vec<u8>) -> Outcome {
        Outcome {
            forward: vec![line],
            reply: None,
        }
    }
}

fn unrecognized(id: Value) -> Value {
    let rejection = Rejection::Unrecognized;
    tracing::warn!(code = rejection.code(), reason = %rejection, "answered an unusable request with an error");
    rejection.response(id)
}

/// The error answering the refused message `bytes` (all or its first bytes), with its id when that can be read
/// ([`incoming::readable_id`]), else `null`.
fn reject(rejection: &Rejection, bytes: &[u8]) -> Value {
    tracing::warn!(code = rejection.code(), reason = %rejection, "answered an unusable message with an error");
    rejection.response(incoming::readable_id(bytes))
}

/// A single message: dropped before `initialize` unless it is a request, else passed on. A message rmcp cannot
/// read is answered here (a request, with its id) or dropped (a notification or response).
fn single(state: &Shared, bytes: Vec<u8>, value: &Value) -> Outcome {
    if !incoming::understood(&bytes) {
        return match incoming::kind(value) {
            Some(Kind::Request { id, .. }) => Outcome::reply(unrecognized(id)),
            kind => {
                tracing::debug!(?kind, "ignored a notification or response that is not a valid message");
                Outcome::default()
            }
        };
    }
    let mut state = lock(state);
    match incoming::kind(value) {
        Some(Kind::Request { id, method }) => {
            if method == "initialize" {
                state.initialize_seen = true;
                state.initialize_id = Some(id.to_string());
            }
            Outcome::forward(bytes)
        }
        Some(kind) if !state.initialize_seen => {
            tracing::debug!(?kind, "ignored a message sent before initialize");
            Outcome::default()
        }
        _ => Outcome::forward(bytes),
    }
}

/// A batch: split at revision 2025-03-26, else one error.
fn batch(state: &Shared, items: Vec<Value>) -> Outcome {
    let mut state = lock(state);
    if state.revision.as_deref() != Some(BATCH_REVISION) {
        let revision = state
            .revision
            .clone()
            .unwrap_or_else(|| "(none yet: initialize first)".to_string());
        return Outcome::reply(reject(&Rejection::BatchUnsupported { revision }, b""));
    }
    if items.is_empty() {
        return Outcome::reply(reject(&Rejection::EmptyBatch, b""));
    }
    let mut waiting = HashSet::new();
    let mut responses = Vec::new();
    let mut lines = Vec::new();
    for item in items {
        let line = serde_json::to_vec(&item).unwrap_or_default();
        match incoming::kind(&item) {
            Some(Kind::Request { id, .. }) if !incoming::understood(&line) => responses.push(unrecognized(id)),
            Some(_) if !incoming::understood(&line) => {}
            Some(kind) => {
                if let Kind::Request { id, .. } = kind {
                    waiting.insert(id.to_string());
                }
                lines.push(line);
            }
            None => responses.push(reject(&Rejection::NotAMessage, b"")),
        }
    }
    if waiting.is_empty() {
        // Only notifications/responses (no answer due from rmcp), plus maybe invalid items: answered now.
        return Outcome {
            forward: lines,
            reply: (!responses.is_empty()).then_some(Value::Array(responses)),
        };
    }
    state.batches.push(Batch { waiting, responses });
    Outcome {
        forward: lines,
        reply: None,
    }
}

async fn forward_lines(to_rmcp: &mut DuplexStream, lines: Vec<Vec<u8>>) -> Result<(), ()> {
    if lines.is_empty() {
        return Ok(());
    }
    for mut line in lines {
        line.push(b'\n');
        if to_rmcp.write_all(&line).await.is_err() {
            return Err(());
        }
    }
    to_rmcp.flush().await.map_err(|_| ())
}

/// Writes rmcp's lines and this layer's replies to `output`; collects batch responses and notes the revision.
async fn outbound(
    mut from_rmcp: BufReader<DuplexStream>,
    mut output: impl AsyncWrite + Unpin,
    mut replies: mpsc::Receiver<Value>,
    state: Shared,
) {
    let mut line = Vec::new();
    let mut replies_open = true;
    loop {
        line.clear();
        let out = tokio::select! {
            read = from_rmcp.read_until(b'\n', &mut line) => match read {
                Ok(0) | Err(_) => break,
                Ok(_) => route(&state, &line),
            },
            reply = replies.recv(), if replies_open => match reply {
                Some(reply) => Some(encode(&reply)),
                None => {
                    replies_open = false;
                    None
                }
            },
        };
        if let Some(out) = out {
            let written = match out {
                Routed::Same => output.write_all(&line).await,
                Routed::New(bytes) => output.write_all(&bytes).await,
            };
            if written.is_err() || output.flush().await.is_err() {
                break;
            }
        }
    }
    let _ = output.flush().await;
}

/// An outgoing line: rmcp's unchanged, or a new one.
enum Routed {
    Same,
    New(Vec<u8>),
}

fn encode(value: &Value) -> Routed {
    let mut bytes = serde_json::to_vec(value).unwrap_or_default();
    bytes.push(b'\n');
    Routed::New(bytes)
}

/// Decides what becomes of one of rmcp's lines: written as is, held for a batch (`None`), or completing a batch.
fn route(state: &Shared, line: &[u8]) -> Option<Routed> {
    let mut state = lock(state);
    if state.initialize_id.is_none() && state.batches.is_empty() {
        return Some(Routed::Same);
    }
    let Ok(value) = serde_json::from_slice::<Value>(line) else {
        return Some(Routed::Same);
    };
    let Some(id) = value
        .get("id")
        .filter(|_| value.get("method").is_none())
        .map(Value::to_string)
    else {
        return Some(Routed::Same);
    };
    if state.initialize_id.as_deref() == Some(id.as_str()) {
        state.initialize_id = None;
        state.revision = value
            .pointer("/result/protocolVersion")
            .and_then(Value::as_str)
            .map(String::from);
        return Some(Routed::Same);
    }
    let Some(index) = state.batches.iter().position(|batch| batch.waiting.contains(&id)) else {
        return Some(Routed::Same);
    };
    let batch = &mut state.batches[index];
    batch.waiting.remove(&id);
    batch.responses.push(value);
    if !batch.waiting.is_empty() {
        return None;
    }
    let done = state.batches.remove(index);
    Some(encode(&Value::Array(done.responses)))
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn lines(input: &[u8], limit: usize) -> Vec<Line> {
        let mut reader = BufReader::with_capacity(4, input);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        while let Some(line) = next_line(&mut reader, &mut buf, limit).await.unwrap() {
            out.push(line);
        }
        out
    }

    #[tokio::test]
    async fn long_lines_are_skipped_to_their_newline() {
        let got = lines(b"abc\n0123456789\nxy\nlast", 5).await;
        assert_eq!(
            got,
            vec![
                Line::Text(b"abc".to_vec()),
                Line::TooLong(b"0123456789".to_vec()),
                Line::Text(b"xy".to_vec()),
                Line::Text(b"last".to_vec())
            ]
        );
        assert_eq!(
            lines(b"0123456789", 5).await,
            vec![Line::TooLong(b"0123456789".to_vec())]
        );
        let long = vec![b'x'; 3 * ID_HEAD_BYTES];
        assert_eq!(lines(&long, 5).await, vec![Line::TooLong(vec![b'x'; ID_HEAD_BYTES])]);
        assert_eq!(lines(b"12345\n", 5).await, vec![Line::Text(b"12345".to_vec())]);
    }
}
