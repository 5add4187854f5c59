//! `artifact_read` as a library tool: reads an oversized result (or a binary body) back from the
//! [`ArtifactStore`] in base64 chunks.
//!
//! - [`route`]: the whole tool for an rmcp `ToolRouter`, in one call.
//! - [`call`] / [`read`]: for servers that dispatch by hand.
//! - [`tool`], [`input_schema`], [`output_schema`], [`DESCRIPTION`]: what `tools/list` shows.
//!
//! Another owner's, unknown, malformed and expired ids all get the same error text,
//! [`mcp_artifacts::NOT_FOUND_MESSAGE`], so ids cannot be probed.

use std::sync::Arc;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use mcp_artifacts::{ArtifactStore, Chunk, DEFAULT_READ_MAX_BYTES};
use rmcp::handler::server::router::tool::ToolRoute;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{CallToolResult, JsonObject, Tool, ToolAnnotations};
use rmcp::service::{RequestContext, RoleServer};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::args;
use crate::error;

/// The chunk object this tool returns (`structuredContent`; [`ArtifactReadResult::decode`] gives its bytes) and
/// the text of its one error for ids the caller may not read.
pub use mcp_artifacts::{ArtifactReadResult, NOT_FOUND_MESSAGE};

/// The tool name.
pub const NAME: &str = "artifact_read";

/// The tool description shown in `tools/list`.
pub const DESCRIPTION: &str = "Read an oversized tool result saved as an artifact (incomplete.artifactId), one chunk \
                               at a time. Each chunk's data is base64 of bytes [offset, nextOffset); continue with \
                               offset = nextOffset until eof is true, then decode and concatenate the chunks.";

/// Arguments of `artifact_read`: `{artifactId, offset?, maxBytes?}` (integers may be digit strings).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ArtifactReadArgs {
    /// The `incomplete.artifactId` of an oversized result.
    pub artifact_id: String,
    /// The byte offset to read from: 0 (the default), then the previous chunk's `nextOffset` (the tool's description
    /// says so once; the schema says only the default).
    #[schemars(description = "Default 0.")]
    #[serde(default, deserialize_with = "crate::args::integer::optional")]
    pub offset: Option<u64>,
    /// Most bytes to return in this chunk (default 65536, clamped to 1..=1048576).
    #[schemars(description = "Default 65536, at most 1048576.")]
    #[serde(default, deserialize_with = "crate::args::integer::optional")]
    pub max_bytes: Option<u64>,
}

/// The compact `inputSchema` ([`crate::schema::input_schema`] of [`ArtifactReadArgs`]).
pub fn input_schema() -> JsonObject {
    crate::schema::input_schema::<ArtifactReadArgs>()
}

/// The compact `outputSchema`: [`ArtifactReadResult`]'s schema, `{artifactId, mimeType, offset, nextOffset,
/// totalBytes, eof, encoding: "base64", data}`.
pub fn output_schema() -> JsonObject {
    mcp_envelope::compact_output_schema(mcp_envelope::output_schema_for::<ArtifactReadResult>())
}

/// The annotations: read-only and closed world (no upstream), titled "Read artifact". `destructiveHint` and
/// `idempotentHint` are left out: the MCP spec gives them meaning only when `readOnlyHint` is false.
pub fn annotations() -> ToolAnnotations {
    ToolAnnotations::with_title("Read artifact")
        .read_only(true)
        .open_world(false)
}

/// The `tools/list` entry; `outputSchema` only when `structured` (the structured-output switch).
pub fn tool(structured: bool) -> Tool {
    let tool = Tool::new(NAME, DESCRIPTION, Arc::new(input_schema())).with_annotations(annotations());
    if structured {
        mcp_envelope::rmcp::tool_with_output_schema(tool, output_schema())
    } else {
        tool
    }
}

/// The whole tool for an rmcp `ToolRouter<S>` (structured output on): `router.with_route(artifact_read::route(store,
/// owner_of))`. `owner_of` names the caller of a request (the owner the result pipeline put the artifact for,
/// e.g. the authenticated principal, or one constant for a single-user stdio server).
pub fn route<S, F>(store: Arc<dyn ArtifactStore>, owner_of: F) -> ToolRoute<S>
where
    S: Send + Sync + 'static,
    F: Fn(&RequestContext<RoleServer>) -> String + Send + Sync + 'static,
{
    route_with(store, true, owner_of)
}

/// [`route`] with the structured-output switch given (off: no `outputSchema`, no `structuredContent`).
pub fn route_with<S, F>(store: Arc<dyn ArtifactStore>, structured: bool, owner_of: F) -> ToolRoute<S>
where
    S: Send + Sync + 'static,
    F: Fn(&RequestContext<RoleServer>) -> String + Send + Sync + 'static,
{
    ToolRoute::new_dyn(tool(structured), move |context: ToolCallContext<'_, S>| {
        let owner = owner_of(&context.request_context);
        let store = store.clone();
        let arguments = context.arguments;
        Box::pin(async move { Ok(call(store.as_ref(), &owner, arguments, structured).await.into()) })
    })
}

/// Runs `artifact_read` for `owner` with the raw `arguments` (absent = `{}`): an argument error names the argument
/// ([`args::parse`]); otherwise as [`read`].
pub async fn call(
    store: &dyn ArtifactStore,
    owner: &str,
    arguments: Option<JsonObject>,
    structured: bool,
) -> CallToolResult {
    match args::parse::<ArtifactReadArgs>(NAME, arguments) {
        Ok(args) => read(store, owner, &args, structured).await,
        Err(err) => error(err.to_string()),
    }
}

/// Reads one chunk for `owner`. The text is the chunk object as compact JSON (never truncated: `maxBytes` sizes
/// it); with `structured`, `structuredContent` is the same object.
///
/// Error results: [`mcp_artifacts::NOT_FOUND_MESSAGE`] for another owner's, unknown, malformed and expired ids;
/// `artifact_read failed: ...` for an offset past the end (the text gives the size) or a store failure.
pub async fn read(store: &dyn ArtifactStore, owner: &str, args: &ArtifactReadArgs, structured: bool) -> CallToolResult {
    // The store clamps `maxBytes` (`ArtifactStore::read_chunk`, the one place); only its default is applied here.
    let max_bytes = args.max_bytes.unwrap_or(DEFAULT_READ_MAX_BYTES);
    let offset = args.offset.unwrap_or(0);
    let chunk = match store.read_chunk(owner, &args.artifact_id, offset, max_bytes).await {
        Ok(chunk) => chunk,
        Err(err) if err.is_not_found() => return error(mcp_artifacts::NOT_FOUND_MESSAGE),
        Err(err) => return error(format!("{NAME} failed: {err}")),
    };
    chunk_result(chunk, structured)
}

/// The chunk's result: the [`ArtifactReadResult`] object as compact JSON text and, with `structured`, as
/// `structuredContent`. The base64 is encoded once, straight from the store's `Bytes`, into its place in the text:
/// base64's alphabet needs no JSON escaping, so the (up to 1.4 MB) data is never scanned for escapes here; the
/// structured copy is one `memcpy` of it.
fn chunk_result(chunk: Chunk, structured: bool) -> CallToolResult {
    let data = chunk.data.clone();
    let mut object = chunk_value(chunk);
    // The object with `"data":""` as compact JSON (preserve_order keeps the field order), then the base64 written
    // into that empty string: only the structural key can match, as every quote inside a JSON string is escaped.
    let header = Value::Object(object.clone()).to_string();
    let Some(at) = header.find(EMPTY_DATA).map(|at| at + EMPTY_DATA.len() - 1) else {
        // Not reachable with serde_json's compact output; kept correct rather than fast.
        object.insert("data".into(), Value::String(STANDARD.encode(&data)));
        let value = Value::Object(object);
        return mcp_envelope::rmcp::success_result(value.to_string(), structured.then_some(value));
    };
    let mut text = String::with_capacity(header.len() + data.len().div_ceil(3) * 4);
    text.push_str(&header[..at]);
    STANDARD.encode_string(&data, &mut text);
    let encoded_end = text.len();
    text.push_str(&header[at..]);
    let structured = structured.then(|| {
        object.insert("data".into(), Value::String(text[at..encoded_end].to_owned()));
        Value::Object(object)
    });
    mcp_envelope::rmcp::success_result(text, structured)
}

/// `"data":""` in the compact text of [`chunk_value`]'s object.
const EMPTY_DATA: &str = r#""data":"""#;

/// The chunk as the [`ArtifactReadResult`] JSON object, with `data` left empty (filled by [`chunk_result`]).
fn chunk_value(chunk: Chunk) -> Map<String, Value> {
    let Chunk {
        artifact_id,
        mime_type,
        offset,
        next_offset,
        total_bytes,
        eof,
        data: _,
    } = chunk;
    let mut object = Map::with_capacity(8);
    object.insert("artifactId".into(), Value::String(artifact_id));
    object.insert("mimeType".into(), Value::String(mime_type));
    object.insert("offset".into(), Value::from(offset));
    object.insert("nextOffset".into(), Value::from(next_offset));
    object.insert("totalBytes".into(), Value::from(total_bytes));
    object.insert("eof".into(), Value::Bool(eof));
    object.insert("encoding".into(), Value::from("base64"));
    object.insert("data".into(), Value::String(String::new()));
    object
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use bytes::Bytes;

    #[test]
    fn chunk_result_is_the_read_result_in_text_and_structured() {
        let chunk = Chunk {
            artifact_id: "a".repeat(32),
            mime_type: "application/json".into(),
            offset: 2,
            next_offset: 5,
            total_bytes: 9,
            eof: false,
            data: Bytes::from_static(b"llo"),
        };
        let expected = serde_json::to_value(ArtifactReadResult::from(chunk.clone())).unwrap();
        // A mime type that holds the marker's text, escaped, must not move the data.
        let tricky = Chunk {
            mime_type: r#"x/"data":"""#.into(),
            ..chunk.clone()
        };
        let tricky_expected = serde_json::to_value(ArtifactReadResult::from(tricky.clone())).unwrap();
        for (chunk, expected) in [(chunk, expected), (tricky, tricky_expected)] {
            let result = chunk_result(chunk.clone(), true);
            assert_eq!(result.structured_content.as_ref(), Some(&expected));
            let text = &result.content[0].as_text().unwrap().text;
            assert_eq!(serde_json::from_str::<Value>(text).unwrap(), expected);
            assert_eq!(text, &expected.to_string());
            assert!(chunk_result(chunk, false).structured_content.is_none());
        }
    }

    #[tokio::test]
    async fn max_bytes_defaults_here_and_is_clamped_by_the_store() {
        let store = mcp_artifacts::MemoryStore::default();
        let body = Bytes::from(vec![b'x'; 2 * 1024 * 1024]);
        let id = store.put("alice", "application/json", body).await.unwrap().to_string();
        for (max_bytes, want) in [
            (Value::Null, DEFAULT_READ_MAX_BYTES),
            (Value::from(0), mcp_artifacts::MIN_READ_MAX_BYTES),
            (Value::from(7), 7),
            (Value::from(u64::MAX), mcp_artifacts::MAX_READ_MAX_BYTES),
        ] {
            let mut args = serde_json::json!({"artifactId": id});
            if !max_bytes.is_null() {
                args["maxBytes"] = max_bytes.clone();
            }
            let result = call(&store, "alice", args.as_object().cloned(), true).await;
            assert_ne!(result.is_error, Some(true), "maxBytes {max_bytes}");
            let chunk = result.structured_content.unwrap();
            assert_eq!(chunk["nextOffset"], Value::from(want), "maxBytes {max_bytes}");
        }
    }
}
