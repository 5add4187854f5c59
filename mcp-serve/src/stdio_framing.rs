//! The stdio transport rmcp serves on: a thin framing layer that gives every line its answer, and hands each message
//! to rmcp already parsed.
//!
//! rmcp 3.11's newline-delimited transport drops an unparsable line (bad JSON, not UTF-8, nested deeper than 128
//! levels) with only a log line, drops an over-long line the same way, exits on a notification or response that
//! arrives before `initialize`, and refuses every JSON-RPC batch. [`StdioTransport`] reads stdin line by line and:
//! - answers a line over the request-size limit, or one that is not UTF-8 / JSON / at most
//!   128 levels deep / an object or array, with a JSON-RPC error from [`crate::incoming`] carrying the line's `id`
//!   when it can be read ([`incoming::readable_id`], from the first 4 KiB of an over-long line), else `id: null`,
//!   without buffering more than the limit;
//! - drops a notification or response sent before `initialize` (logged at debug with its kind only);
//! - at protocol revision `2025-03-26` (negotiated by the `initialize` exchange it watches) splits a batch into its
//!   messages and answers with one array of their responses (JSON-RPC 2.0 §6); at any other revision answers a
//!   batch with one `-32600` error;
//! - answers a request rmcp could not read (`-32600` with its id) and drops such a notification or response;
//! - hands every other message to rmcp as the typed message it parsed (one parse per message), and writes rmcp's
//!   answers to stdout as they are sent (no task or pipe in between: issue 46, each hop between tasks costs thread
//!   wake-ups). A `tools/list` answer equal to the last one is written from that one's JSON text, serialized once
//!   ([`StdioTransport`] keeps it), so the same list costs a comparison, not a serialization. With
//!   [`StdioTransport::with_static_tool_list`] (the handler's list never changes), a later `tools/list` request is
//!   answered here from that text without reaching rmcp: a read and a write, as cheap as a stdio server can be
//!   (the memo is dropped should the server send `notifications/tools/list_changed`).
//!
//! Nothing here logs the line itself: it may hold secrets.

use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::RoleServer;
use rmcp::model::{
    ClientJsonRpcMessage, ClientRequest, JsonRpcMessage, ListToolsResult, ServerJsonRpcMessage, ServerNotification,
    ServerResult,
};
use rmcp::transport::Transport;
use serde_json::Value;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

use crate::incoming::{self, BATCH_REVISION, Kind, Rejection};

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

/// Lines of a reader, at most `limit` bytes kept of each. Cancel-safe: rmcp polls [`Transport::receive`] in a
/// `select!` and drops the future when another branch is ready; a line half read stays here and the next read goes
/// on with it.
struct Lines<R> {
    reader: R,
    buf: Vec<u8>,
    too_long: bool,
}

impl<R: AsyncBufRead + Unpin> Lines<R> {
    fn new(reader: R) -> Self {
        Lines {
            reader,
            buf: Vec::new(),
            too_long: false,
        }
    }

    /// The next line, keeping at most `limit` bytes: a longer line is skipped to its newline and reported as
    /// [`Line::TooLong`] with its first bytes. `None` at end of input. A last line without a newline counts.
    async fn next(&mut self, limit: usize) -> std::io::Result<Option<Line>> {
        loop {
            // The only await: everything after it runs to the end of this turn of the loop.
            let available = self.reader.fill_buf().await?;
            if available.is_empty() {
                let ended = match (self.too_long, self.buf.is_empty()) {
                    (true, _) => Some(Line::TooLong(std::mem::take(&mut self.buf))),
                    (false, true) => None,
                    (false, false) => Some(Line::Text(std::mem::take(&mut self.buf))),
                };
                self.too_long = false;
                return Ok(ended);
            }
            let (take, ends) = match available.iter().position(|&b| b == b'\n') {
                Some(newline) => (newline, true),
                None => (available.len(), false),
            };
            if !self.too_long && self.buf.len().saturating_add(take) > limit {
                self.too_long = true;
                self.buf.truncate(ID_HEAD_BYTES);
            }
            if self.too_long {
                // Only the first bytes, to read the id from.
                let room = ID_HEAD_BYTES.saturating_sub(self.buf.len());
                self.buf.extend_from_slice(&available[..take.min(room)]);
            } else {
                self.buf.extend_from_slice(&available[..take]);
            }
            self.reader.consume(if ends { take + 1 } else { take });
            if ends {
                let line = std::mem::take(&mut self.buf);
                let too_long = std::mem::replace(&mut self.too_long, false);
                return Ok(Some(if too_long {
                    Line::TooLong(line)
                } else {
                    Line::Text(line)
                }));
            }
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

/// The last `tools/list` answer and its JSON text.
struct ToolsMemo {
    result: ListToolsResult,
    json: Arc<[u8]>,
}

/// What the reading and the writing side share.
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
    /// The last `tools/list` answer, serialized.
    tools: Option<ToolsMemo>,
    /// `tools/list` requests are answered from [`State::tools`] when it is kept
    /// ([`StdioTransport::with_static_tool_list`]).
    static_tools: bool,
}

/// The writing side: stdout behind a lock (rmcp's sends run concurrently), and the shared state.
struct Output<W> {
    writer: tokio::sync::Mutex<W>,
    state: Mutex<State>,
}

impl<W: AsyncWrite + Unpin + Send> Output<W> {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    async fn write(&self, bytes: &[u8]) -> std::io::Result<()> {
        let mut writer = self.writer.lock().await;
        writer.write_all(bytes).await?;
        writer.flush().await
    }
}

/// rmcp's transport over the process's stdin (`R`) and stdout (`W`): see the module doc. Build it with
/// [`StdioTransport::new`] and give it to rmcp's `serve`.
pub struct StdioTransport<R, W> {
    lines: Lines<BufReader<R>>,
    limit: usize,
    /// Messages of a batch not handed to rmcp yet.
    queue: VecDeque<ClientJsonRpcMessage>,
    output: Arc<Output<W>>,
}

impl<R, W> StdioTransport<R, W>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    /// The transport reading `input` (stdin) and writing `output` (stdout); lines are limited to `limit` bytes.
    pub fn new(input: R, output: W, limit: usize) -> Self {
        StdioTransport {
            lines: Lines::new(BufReader::new(input)),
            limit,
            queue: VecDeque::new(),
            output: Arc::new(Output {
                writer: tokio::sync::Mutex::new(output),
                state: Mutex::new(State::default()),
            }),
        }
    }

    /// This transport, told that the handler's `tools/list` answer is the same all session long (it does not
    /// declare `listChanged`, MCP "Tools": the list it answers is fixed when the session starts). After the first
    /// `tools/list` answer, a `tools/list` request is answered here with that answer's result (same JSON text, the
    /// request's `id`) and rmcp never sees it. Off by default: a handler whose list changes without notifying would
    /// be answered stale. A `notifications/tools/list_changed` from the server drops the kept answer.
    #[must_use]
    pub fn with_static_tool_list(self, static_tool_list: bool) -> Self {
        self.output.state().static_tools = static_tool_list;
        self
    }

    /// Writes a reply of this layer's own (one line, newline included) on a task of its own, so that
    /// [`Transport::receive`] never stops in the middle of a write when rmcp drops its future.
    fn reply(&self, bytes: Vec<u8>) {
        let output = self.output.clone();
        tokio::spawn(async move {
            if let Err(err) = output.write(&bytes).await {
                tracing::debug!(error = %err, "writing an error answer to stdout failed");
            }
        });
    }
}

impl<R, W> Transport<RoleServer> for StdioTransport<R, W>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = std::io::Error;

    fn send(&mut self, item: ServerJsonRpcMessage) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let bytes = encode(&mut self.output.state(), &item);
        let output = self.output.clone();
        async move {
            match bytes {
                Some(bytes) => output.write(&bytes).await,
                None => Ok(()),
            }
        }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            if let Some(message) = self.queue.pop_front() {
                return Some(message);
            }
            let line = match self.lines.next(self.limit).await {
                Ok(Some(line)) => line,
                Ok(None) => return None,
                Err(err) => {
                    tracing::warn!(error = %err, "reading stdin failed; ending the session");
                    return None;
                }
            };
            let outcome = {
                let mut state = self.output.state();
                match line {
                    Line::TooLong(head) => Outcome::reply(reject(&Rejection::TooLarge { limit: self.limit }, &head)),
                    Line::Text(bytes) if bytes.trim_ascii().is_empty() => continue,
                    Line::Text(bytes) => classify(&mut state, bytes.trim_ascii_end(), self.limit),
                }
            };
            if let Some(reply) = outcome.reply {
                self.reply(reply);
            }
            self.queue.extend(outcome.forward);
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.output.writer.lock().await.flush().await
    }
}

/// What to do with one input line: messages to hand to rmcp, and an answer of our own (one line of JSON text).
#[derive(Default)]
struct Outcome {
    forward: Vec<ClientJsonRpcMessage>,
    reply: Option<Vec<u8>>,
}

impl Outcome {
    fn reply(reply: Value) -> Outcome {
        Outcome::reply_line(line(&reply))
    }

    fn reply_line(reply: Vec<u8>) -> Outcome {
        Outcome {
            forward: Vec::new(),
            reply: Some(reply),
        }
    }

    fn forward(message: ClientJsonRpcMessage) -> Outcome {
        Outcome {
            forward: vec![message],
            reply: None,
        }
    }
}

/// One line, as a typed message when rmcp can read it (the common case: one parse), else through the checks of
/// [`incoming::parse`] (a batch, or an answer saying what is wrong).
fn classify(state: &mut State, bytes: &[u8], limit: usize) -> Outcome {
    let text = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
    if let Ok(message) = serde_json::from_slice::<ClientJsonRpcMessage>(text) {
        return single(state, message);
    }
    match incoming::parse(bytes, limit) {
        Err(rejection) => Outcome::reply(reject(&rejection, bytes)),
        Ok(Value::Array(items)) => batch(state, items),
        // JSON, but no message rmcp can read.
        Ok(value) => match incoming::kind(&value) {
            Some(Kind::Request { id, .. }) => Outcome::reply(unrecognized(id)),
            kind => {
                tracing::debug!(?kind, "ignored a notification or response that is not a valid message");
                Outcome::default()
            }
        },
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

/// A single message rmcp can read: dropped before `initialize` unless it is a request, else handed on.
fn single(state: &mut State, message: ClientJsonRpcMessage) -> Outcome {
    match &message {
        JsonRpcMessage::Request(request) => {
            match &request.request {
                ClientRequest::InitializeRequest(_) => {
                    state.initialize_seen = true;
                    state.initialize_id = serde_json::to_string(&request.id).ok();
                }
                ClientRequest::ListToolsRequest(_) if state.static_tools => {
                    if let Some(memo) = &state.tools {
                        return Outcome::reply_line(answer(&request.id, &memo.json));
                    }
                }
                _ => {}
            }
            Outcome::forward(message)
        }
        _ if !state.initialize_seen => {
            tracing::debug!(kind = kind_name(&message), "ignored a message sent before initialize");
            Outcome::default()
        }
        _ => Outcome::forward(message),
    }
}

fn kind_name(message: &ClientJsonRpcMessage) -> &'static str {
    match message {
        JsonRpcMessage::Request(_) => "request",
        JsonRpcMessage::Response(_) => "response",
        JsonRpcMessage::Notification(_) => "notification",
        JsonRpcMessage::Error(_) => "error",
    }
}

/// A batch: split at revision 2025-03-26, else one error.
fn batch(state: &mut State, items: Vec<Value>) -> Outcome {
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
    let mut forward = Vec::new();
    for item in items {
        let kind = incoming::kind(&item);
        let message = serde_json::from_value::<ClientJsonRpcMessage>(item).ok();
        match (kind, message) {
            (Some(Kind::Request { id, .. }), None) => responses.push(unrecognized(id)),
            (Some(_), None) => {}
            (Some(kind), Some(message)) => {
                if let Kind::Request { id, .. } = kind {
                    waiting.insert(id.to_string());
                }
                forward.push(message);
            }
            (None, _) => responses.push(reject(&Rejection::NotAMessage, b"")),
        }
    }
    if waiting.is_empty() {
        // Only notifications/responses (no answer due from rmcp), plus maybe invalid items: answered now.
        return Outcome {
            forward,
            reply: (!responses.is_empty()).then(|| line(&Value::Array(responses))),
        };
    }
    state.batches.push(Batch { waiting, responses });
    Outcome { forward, reply: None }
}

/// The line to write for one of rmcp's messages (with its newline), or `None` when it is held for a batch; notes
/// the negotiated revision from the `initialize` answer, and answers `tools/list` from the memo when it can.
fn encode(state: &mut State, message: &ServerJsonRpcMessage) -> Option<Vec<u8>> {
    let id = match message {
        JsonRpcMessage::Response(response) => Some(&response.id),
        JsonRpcMessage::Error(error) => error.id.as_ref(),
        _ => None,
    };
    if let Some(id) = id
        && (state.initialize_id.is_some() || !state.batches.is_empty())
    {
        let id = serde_json::to_string(id).unwrap_or_default();
        if state.initialize_id.as_deref() == Some(id.as_str()) {
            state.initialize_id = None;
            if let JsonRpcMessage::Response(response) = message
                && let ServerResult::InitializeResult(result) = &response.result
            {
                state.revision = Some(result.protocol_version.to_string());
            }
        } else if let Some(index) = state.batches.iter().position(|batch| batch.waiting.contains(&id)) {
            let batch = &mut state.batches[index];
            batch.waiting.remove(&id);
            batch.responses.push(serde_json::to_value(message).unwrap_or_default());
            if !batch.waiting.is_empty() {
                return None;
            }
            let done = state.batches.remove(index);
            return Some(line(&Value::Array(done.responses)));
        }
    }
    match message {
        JsonRpcMessage::Response(response) => {
            if let ServerResult::ListToolsResult(result) = &response.result {
                return Some(tools_list(state, &response.id, result));
            }
        }
        JsonRpcMessage::Notification(notification) => {
            if let ServerNotification::ToolListChangedNotification(_) = &notification.notification {
                state.tools = None;
            }
        }
        _ => {}
    }
    Some(line(message))
}

/// `value` as one line of JSON text.
fn line(value: &impl serde::Serialize) -> Vec<u8> {
    let mut bytes = serde_json::to_vec(value).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

/// The `tools/list` answer to request `id`: `{"jsonrpc":"2.0","id":<id>,"result":<result>}`, rmcp's serialization
/// of the response, with the result's JSON text taken from the memo when the result equals the memo's (tool
/// schemas are shared, so equal lists compare their schemas by pointer), else serialized and kept as the memo.
fn tools_list(state: &mut State, id: &rmcp::model::RequestId, result: &ListToolsResult) -> Vec<u8> {
    let json = match &state.tools {
        Some(memo) if memo.result == *result => memo.json.clone(),
        _ => {
            let json: Arc<[u8]> = serde_json::to_vec(result).unwrap_or_default().into();
            state.tools = Some(ToolsMemo {
                result: result.clone(),
                json: json.clone(),
            });
            json
        }
    };
    answer(id, &json)
}

/// The line `{"jsonrpc":"2.0","id":<id>,"result":<result>}` (rmcp's serialization of a response), `result` being
/// the result's JSON text.
fn answer(id: &rmcp::model::RequestId, result: &[u8]) -> Vec<u8> {
    let id = serde_json::to_string(id).unwrap_or_default();
    let mut bytes = Vec::with_capacity(result.len() + id.len() + 40);
    bytes.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
    bytes.extend_from_slice(id.as_bytes());
    bytes.extend_from_slice(b",\"result\":");
    bytes.extend_from_slice(result);
    bytes.extend_from_slice(b"}\n");
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn lines(input: &[u8], limit: usize) -> Vec<Line> {
        let mut lines = Lines::new(BufReader::with_capacity(4, input));
        let mut out = Vec::new();
        while let Some(line) = lines.next(limit).await.unwrap() {
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

    #[test]
    fn tools_list_is_rmcps_serialization_first_and_from_the_memo() {
        use rmcp::model::{NumberOrString, RequestId, Tool};
        let schema = Arc::new(
            serde_json::json!({"type": "object"})
                .as_object()
                .cloned()
                .unwrap_or_default(),
        );
        let tools = vec![Tool::new("a_tool", "Does \"a\" thing", schema)];
        let result = ListToolsResult::with_all_items(tools.clone());
        let mut state = State::default();
        for id in [
            RequestId::from(NumberOrString::Number(7)),
            RequestId::from(NumberOrString::String("x".into())),
        ] {
            let message = ServerJsonRpcMessage::response(ServerResult::ListToolsResult(result.clone()), id);
            let expected = line(&message);
            assert_eq!(encode(&mut state, &message), Some(expected));
        }
        assert!(state.tools.is_some(), "the memo is kept");
        // Another list replaces the memo.
        let other = ListToolsResult::with_all_items(vec![]);
        let message = ServerJsonRpcMessage::response(
            ServerResult::ListToolsResult(other.clone()),
            RequestId::from(NumberOrString::Number(8)),
        );
        assert_eq!(encode(&mut state, &message), Some(line(&message)));
        assert!(state.tools.as_ref().is_some_and(|memo| memo.result == other));
    }

    #[test]
    fn a_static_tool_list_is_answered_from_the_memo_until_the_server_says_it_changed() {
        use rmcp::model::{NumberOrString, RequestId, Tool, ToolListChangedNotification};
        let list = |id: u32| -> ClientJsonRpcMessage {
            serde_json::from_value(serde_json::json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"})).unwrap()
        };
        // No memo yet: rmcp answers.
        let mut state = State {
            static_tools: true,
            ..State::default()
        };
        let first = single(&mut state, list(1));
        assert_eq!((first.forward.len(), first.reply.is_none()), (1, true));
        let tools = ListToolsResult::with_all_items(vec![Tool::new("a_tool", "A", Arc::new(Default::default()))]);
        let answered = ServerJsonRpcMessage::response(
            ServerResult::ListToolsResult(tools),
            RequestId::from(NumberOrString::Number(1)),
        );
        encode(&mut state, &answered);
        // Then the memo answers, with the request's id, and rmcp never sees the request.
        let second = single(&mut state, list(2));
        assert!(second.forward.is_empty());
        let mut expected = answered.clone();
        if let JsonRpcMessage::Response(response) = &mut expected {
            response.id = RequestId::from(NumberOrString::Number(2));
        }
        assert_eq!(second.reply, Some(line(&expected)));
        // Not told the list is static: rmcp answers every time.
        state.static_tools = false;
        assert_eq!(single(&mut state, list(3)).forward.len(), 1);
        // The server says the list changed: rmcp answers again.
        state.static_tools = true;
        let changed = ServerJsonRpcMessage::notification(ServerNotification::ToolListChangedNotification(
            ToolListChangedNotification::default(),
        ));
        encode(&mut state, &changed);
        assert_eq!(single(&mut state, list(4)).forward.len(), 1);
    }
}
