//! `artifact_read`: reads an oversized result back in base64 chunks (CONTRACT §3, §5).

use mcp_artifacts::{ArtifactReadResult, clamp_read_max_bytes};
use rmcp::model::{CallToolResult, JsonObject};
use schemars::JsonSchema;
use serde::Deserialize;

use super::{OutputContract, ToolSpec, input_schema, read_only};
use crate::app::App;
use crate::args;
use crate::principal::Principal;
use crate::respond;

/// The tool name.
pub const NAME: &str = "artifact_read";

/// Arguments of `artifact_read`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ArtifactReadArgs {
    /// The `incomplete.artifactId` of an oversized result.
    pub artifact_id: String,
    /// Byte offset to read from (default 0); pass the previous chunk's `nextOffset` to continue.
    #[serde(default, deserialize_with = "crate::args::integer::optional")]
    pub offset: Option<u64>,
    /// Most bytes to return in this chunk (default 65536, clamped to 1..=1048576).
    #[serde(default, deserialize_with = "crate::args::integer::optional")]
    pub max_bytes: Option<u64>,
}

/// The `tools/list` entry.
pub fn spec() -> ToolSpec {
    ToolSpec {
        name: NAME,
        description: "Read an oversized tool result saved as an artifact (incomplete.artifactId), one chunk at a \
                      time. Each chunk's data is base64 of bytes [offset, nextOffset); continue with \
                      offset = nextOffset until eof is true, then decode and concatenate the chunks.",
        input_schema: input_schema::<ArtifactReadArgs>(),
        output: Some(OutputContract::ArtifactChunk),
        annotations: read_only("Read artifact", false),
        vendor: crate::vendor::Vendor::None,
    }
}

/// Runs `artifact_read`. The text is the chunk object as compact JSON (never truncated: `maxBytes` sizes it);
/// with the switch on, `structuredContent` is the same object.
pub async fn call(app: &App, principal: &Principal, arguments: Option<JsonObject>) -> CallToolResult {
    let args = match args::parse::<ArtifactReadArgs>(NAME, arguments) {
        Ok(args) => args,
        Err(err) => return respond::error(err.to_string()),
    };
    let max_bytes = clamp_read_max_bytes(args.max_bytes);
    let offset = args.offset.unwrap_or(0);
    let chunk = match app
        .store
        .read_chunk(principal.as_str(), &args.artifact_id, offset, max_bytes)
        .await
    {
        Ok(chunk) => chunk,
        // CONTRACT §5: another principal's, unknown, malformed and expired ids all get exactly this text.
        Err(err) if err.is_not_found() => return respond::error(mcp_artifacts::NOT_FOUND_MESSAGE),
        Err(err) => return respond::error(format!("{NAME} failed: {err}")),
    };
    let result = ArtifactReadResult::from(chunk);
    let value = match serde_json::to_value(&result) {
        Ok(value) => value,
        Err(err) => return respond::error(format!("Internal error: the chunk could not be serialized: {err}")),
    };
    let text = value.to_string();
    mcp_envelope::rmcp::success_result(text, app.settings.structured_output.then_some(value))
}
