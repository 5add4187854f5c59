//! What crosses the worker's pipes (shared by [`crate::Isolated`] and [`crate::worker`]).
//!
//! stdout starts with [`GREETING`], so a program that is not a worker (a host that forgot
//! [`crate::worker::run_if_requested`]) is told apart at once. Then both directions carry frames: an 8-byte
//! big-endian length, then that many bytes of JSON text (serde_json with `float_roundtrip` and `arbitrary_precision`:
//! numbers keep their digits, key order is kept, any nesting depth):
//! - request (stdin): `{"jq": "<expression>", "data": <value>}`;
//! - response (stdout): `{"ok": <projected value>}`, `{"error": "<ProjectionError text>"}` or
//!   `{"internal": "<why the worker could not serve>"}`.
//!
//! The worker serves requests until its stdin ends. Anything else (a cut frame, an exit) is a stopped worker.

use std::io::{Read, Write};

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The first bytes a worker writes to stdout, before any frame.
pub const GREETING: &[u8; 16] = b"mcp-jq-worker/1\n";

/// One projection to run.
#[derive(Debug, Serialize, Deserialize)]
pub struct Request<D> {
    /// The expression.
    pub jq: String,
    /// The value it is applied to.
    pub data: D,
}

/// The worker's answer to one [`Request`].
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Response {
    /// The projected value.
    Ok(Value),
    /// The projection failed: the [`mcp_envelope::ProjectionError`] text.
    Error(String),
    /// The worker could not serve the request (e.g. it could not set its limits).
    Internal(String),
}

/// `value` as compact JSON, serialized on a stack that grows on the heap as needed (`serde_stacker`), so data of any
/// nesting depth crosses the pipe.
///
/// # Errors
/// serde_json's, for a value that cannot be JSON.
pub fn encode<T: Serialize>(value: &T) -> serde_json::Result<Vec<u8>> {
    let mut out = Vec::new();
    value.serialize(serde_stacker::Serializer::new(&mut serde_json::Serializer::new(
        &mut out,
    )))?;
    Ok(out)
}

/// `bytes` parsed as JSON of any nesting depth.
///
/// # Errors
/// serde_json's, for text that is not one whole JSON value of type `T`.
pub fn decode<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> serde_json::Result<T> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    deserializer.disable_recursion_limit();
    let value = T::deserialize(serde_stacker::Deserializer::new(&mut deserializer))?;
    deserializer.end()?;
    Ok(value)
}

/// Writes one frame (blocking; the worker side).
///
/// # Errors
/// The write's.
pub fn write_frame(out: &mut impl Write, payload: &[u8]) -> std::io::Result<()> {
    let len = u64::try_from(payload.len()).unwrap_or(u64::MAX);
    out.write_all(&len.to_be_bytes())?;
    out.write_all(payload)?;
    out.flush()
}

/// Reads one frame (blocking; the worker side): `None` at a clean end of input (before a frame starts).
///
/// # Errors
/// The read's, or `UnexpectedEof` for a cut frame.
pub fn read_frame(input: &mut impl Read) -> std::io::Result<Option<Vec<u8>>> {
    let mut len = [0_u8; 8];
    let mut filled = 0;
    while filled < len.len() {
        match input.read(&mut len[filled..])? {
            0 if filled == 0 => return Ok(None),
            0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            n => filled += n,
        }
    }
    let len = usize::try_from(u64::from_be_bytes(len))
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "frame too large"))?;
    let mut payload = Vec::new();
    payload
        .try_reserve_exact(len)
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::OutOfMemory, "frame too large"))?;
    input.take(len as u64).read_to_end(&mut payload)?;
    if payload.len() != len {
        return Err(std::io::ErrorKind::UnexpectedEof.into());
    }
    Ok(Some(payload))
}
