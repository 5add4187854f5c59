//! The checks every incoming JSON-RPC message passes before rmcp sees it, on stdio ([`crate::stdio_framing`]) and
//! HTTP ([`crate::http::framing`]) alike, with one wording: size (a limit the caller sets, default
//! [`DEFAULT_MAX_REQUEST_BYTES`]),
//! UTF-8, JSON syntax, nesting depth, and the shape of a message (an object, or an array for a batch).
//!
//! rmcp drops some of these inputs without an answer (stdio: an unparsable line, an over-long line) or answers
//! them with bare HTTP statuses; JSON-RPC 2.0 §5 wants an error response (`-32700` parse error, `-32600` invalid
//! request) with `id: null` when the id cannot be read. The texts here never quote the input (it may hold secrets).

use serde_json::{Value, json};

/// The default request-size limit, bytes (4 MiB, rmcp's own default HTTP body limit).
pub const DEFAULT_MAX_REQUEST_BYTES: usize = 4 * 1024 * 1024;
/// JSON-RPC 2.0 "Parse error": the text is not JSON.
pub const PARSE_ERROR: i32 = -32700;
/// JSON-RPC 2.0 "Invalid Request": JSON, but not an acceptable message.
pub const INVALID_REQUEST: i32 = -32600;
/// How deep arrays and objects may nest (serde_json's recursion limit).
pub const MAX_DEPTH: usize = 128;
/// The one protocol revision that had JSON-RPC batches (removed in 2025-06-18).
pub const BATCH_REVISION: &str = "2025-03-26";

/// Why an incoming message is refused. `Display` is the error message sent back (never quoting the input).
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    /// Longer than the request-size limit, bytes.
    #[error(
        "Invalid Request: the message is larger than {limit} bytes (the server's request-size limit); send a smaller \
         request"
    )]
    TooLarge {
        /// The limit, bytes.
        limit: usize,
    },
    /// Not UTF-8 text.
    #[error("Parse error: the message is not UTF-8 text")]
    NotUtf8,
    /// Not JSON: serde_json's description (position only, no input).
    #[error("Parse error: the message is not valid JSON ({0})")]
    NotJson(String),
    /// Arrays/objects nested deeper than [`MAX_DEPTH`].
    #[error("Invalid Request: the message nests arrays/objects deeper than {MAX_DEPTH} levels; flatten it")]
    TooDeep,
    /// JSON, but neither an object nor an array.
    #[error(
        "Invalid Request: a JSON-RPC message is a JSON object (a batch, an array of them, only at protocol {BATCH_REVISION})"
    )]
    NotAMessage,
    /// A batch (array) on a session whose protocol revision has none.
    #[error(
        "Invalid Request: JSON-RPC batches are not supported at protocol revision {revision} (only \
         {BATCH_REVISION} had them); send one message at a time"
    )]
    BatchUnsupported {
        /// The session's revision, or a phrase saying there is none yet.
        revision: String,
    },
    /// An empty batch `[]` (JSON-RPC 2.0 §6).
    #[error("Invalid Request: an empty batch")]
    EmptyBatch,
    /// A JSON object rmcp cannot read as a client message (e.g. `method` not a string, `jsonrpc` missing).
    #[error(
        "Invalid Request: not a JSON-RPC 2.0 request, notification or response (check jsonrpc, id, method and \
         params)"
    )]
    Unrecognized,
}

impl Rejection {
    /// The JSON-RPC error code.
    pub fn code(&self) -> i32 {
        match self {
            Rejection::NotUtf8 | Rejection::NotJson(_) => PARSE_ERROR,
            _ => INVALID_REQUEST,
        }
    }

    /// The JSON-RPC error response for this rejection, answering `id` (`Value::Null` when unknown).
    pub fn response(&self, id: Value) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "error": {"code": self.code(), "message": self.to_string()}})
    }
}

/// Parses one message's text: UTF-8, JSON, at most [`MAX_DEPTH`] levels deep, an object or an array. `limit` is
/// checked against `bytes.len()`.
///
/// # Errors
/// The [`Rejection`] saying what is wrong.
pub fn parse(bytes: &[u8], limit: usize) -> Result<Value, Rejection> {
    if bytes.len() > limit {
        return Err(Rejection::TooLarge { limit });
    }
    let text = std::str::from_utf8(bytes).map_err(|_| Rejection::NotUtf8)?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match serde_json::from_str::<Value>(text) {
        Ok(value @ (Value::Object(_) | Value::Array(_))) => Ok(value),
        Ok(_) => Err(Rejection::NotAMessage),
        Err(err) if err.to_string().starts_with("recursion limit exceeded") => Err(Rejection::TooDeep),
        Err(err) => Err(Rejection::NotJson(err.to_string())),
    }
}

/// The `id` of a message that [`parse`] refused (too deep, not JSON, cut short), when it can still be read: the
/// top-level object's `"id"` member, a string or a number, found by one pass over the text that counts nesting
/// without recursing (so a value nested thousands of levels deep, before or after `id`, is no obstacle) and stops
/// at the first syntax it cannot follow. `Value::Null` otherwise, as JSON-RPC 2.0 §5 asks when the id cannot be
/// read: not an object, no `id` before the fault, or an `id` that is not a string or number.
pub fn readable_id(bytes: &[u8]) -> Value {
    let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace());
    let Some(start) = start.filter(|&at| bytes[at] == b'{') else {
        return Value::Null;
    };
    let mut depth = 0usize;
    let mut at = start;
    // At depth 1: the next string is a member name (after `{` or `,`), not a value (after `:`).
    let mut name_next = false;
    while at < bytes.len() {
        match bytes[at] {
            b'"' => {
                let Some(end) = string_end(bytes, at) else {
                    return Value::Null;
                };
                if depth == 1 && name_next && &bytes[at + 1..end] == b"id" {
                    return id_after_name(&bytes[end + 1..]);
                }
                name_next = false;
                at = end;
            }
            b'{' | b'[' => {
                depth += 1;
                name_next = depth == 1;
            }
            b'}' | b']' => match depth.checked_sub(1) {
                Some(0) | None => return Value::Null,
                Some(outer) => depth = outer,
            },
            b',' if depth == 1 => name_next = true,
            _ => {}
        }
        at += 1;
    }
    Value::Null
}

/// Index of the `"` closing the string that opens at `open`, skipping escapes.
fn string_end(bytes: &[u8], open: usize) -> Option<usize> {
    let mut at = open + 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            b'"' => return Some(at),
            _ => at += 1,
        }
    }
    None
}

/// The string or number after `: ` at the start of `rest` (what follows an `"id"` name).
fn id_after_name(rest: &[u8]) -> Value {
    let rest = rest.trim_ascii_start();
    let Some(value) = rest.strip_prefix(b":") else {
        return Value::Null;
    };
    match serde_json::Deserializer::from_slice(value.trim_ascii_start())
        .into_iter::<Value>()
        .next()
    {
        Some(Ok(id @ (Value::String(_) | Value::Number(_)))) => id,
        _ => Value::Null,
    }
}

/// Whether rmcp can read `message` (one object's text) as a client message; one that it cannot is answered with
/// [`Rejection::Unrecognized`]. A second parse of the message: the transports here learn it from rmcp's own parse
/// instead (stdio parses once and falls back to [`parse`]; HTTP reads rmcp's `415`).
pub fn understood(message: &[u8]) -> bool {
    let message = message.strip_prefix("\u{feff}".as_bytes()).unwrap_or(message);
    serde_json::from_slice::<rmcp::model::ClientJsonRpcMessage>(message).is_ok()
}

/// What kind of JSON-RPC message an object is.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// `method` and `id`: expects an answer with this id (`method` is empty when it is not a string).
    Request {
        /// The request's id.
        id: Value,
        /// The method.
        method: String,
    },
    /// `method` without `id`.
    Notification,
    /// No `method`: a response or error from the client.
    Response,
}

/// Classifies a parsed message object (`None` for anything that is not an object).
pub fn kind(message: &Value) -> Option<Kind> {
    let object = message.as_object()?;
    Some(match (object.get("method"), object.get("id")) {
        (Some(method), Some(id)) => Kind::Request {
            id: id.clone(),
            method: method.as_str().unwrap_or_default().to_string(),
        },
        (Some(_), None) => Kind::Notification,
        (None, _) => Kind::Response,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_fault_has_its_code_and_never_quotes_the_input() {
        let secret = "ghp_PlantedSecret";
        let truncated = format!(r#"{{"jsonrpc":"2.0","id":5,"params":"{secret}","#);
        let err = parse(truncated.as_bytes(), 1 << 20).unwrap_err();
        assert_eq!(err.code(), PARSE_ERROR);
        assert!(!err.to_string().contains(secret));
        assert_eq!(parse(b"\xff\xfe", 100), Err(Rejection::NotUtf8));
        let deep = format!("{}{}", "[".repeat(130), "]".repeat(130));
        assert_eq!(parse(deep.as_bytes(), 1 << 20), Err(Rejection::TooDeep));
        assert_eq!(parse(b"12", 100), Err(Rejection::NotAMessage));
        assert!(understood(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#));
        assert!(!understood(br#"{"jsonrpc":"2.0","id":1,"method":7}"#));
        assert_eq!(parse(b"{}", 1), Err(Rejection::TooLarge { limit: 1 }));
        assert!(parse("\u{feff}{}".as_bytes(), 100).is_ok());
        let response = Rejection::NotUtf8.response(Value::Null);
        assert_eq!(response["error"]["code"], json!(-32700));
        assert_eq!(response["id"], Value::Null);
    }

    #[test]
    fn ids_are_read_from_refused_messages() {
        let deep = "[".repeat(200);
        let before = format!(r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"arguments":{deep}}}}}"#);
        assert!(parse(before.as_bytes(), 1 << 20).is_err());
        assert_eq!(readable_id(before.as_bytes()), json!(7));
        let closed = format!(
            r#"{{"params":{{"a":{deep}{}}},"method":"x", "id" : "abc\"d"}}"#,
            "]".repeat(200)
        );
        assert_eq!(parse(closed.as_bytes(), 1 << 20), Err(Rejection::TooDeep));
        assert_eq!(readable_id(closed.as_bytes()), json!("abc\"d"));
        assert_eq!(
            readable_id(br#"{"jsonrpc":"2.0","id":12,"method":"ping","params":{"#),
            json!(12)
        );
        assert_eq!(
            readable_id(br#"{"params":{"id":3},"method":"ping"#),
            Value::Null,
            "not the top level's id"
        );
        assert_eq!(readable_id(br#"{"x":"\"id\"","id":4,"#), json!(4));
        assert_eq!(readable_id(br#"{"method":"id","x":1,"id":5}"#), json!(5));
        assert_eq!(
            readable_id(br#"{"id":{"a":1}}"#),
            Value::Null,
            "an id is a string or a number"
        );
        assert_eq!(readable_id(br#"[{"id":1}"#), Value::Null, "a batch");
        assert_eq!(
            readable_id(br#"{"a":[1,2]],"id":1}"#),
            Value::Null,
            "unbalanced before the id"
        );
        assert_eq!(readable_id(b"not json"), Value::Null);
        assert_eq!(readable_id("\u{feff} {\"id\": 9,".as_bytes()), json!(9));
    }

    #[test]
    fn kinds() {
        assert_eq!(
            kind(&json!({"id": 1, "method": "ping"})),
            Some(Kind::Request {
                id: json!(1),
                method: "ping".into()
            })
        );
        assert_eq!(
            kind(&json!({"method": "notifications/initialized"})),
            Some(Kind::Notification)
        );
        assert_eq!(kind(&json!({"id": 1, "result": {}})), Some(Kind::Response));
        assert_eq!(kind(&json!(1)), None);
    }
}
