//! The `artifact_read` tool's parameters and result encoding.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};

use crate::chunk::Chunk;

/// The encoding of [`ArtifactReadResult::data`]; always `"base64"`.
///
/// Its JSON schema is `{"type": "string", "const": "base64", "enum": ["base64"]}`, inlined.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Encoding {
    /// Standard base64 (RFC 4648 §4 alphabet) with `=` padding.
    #[default]
    #[serde(rename = "base64")]
    Base64,
}

impl JsonSchema for Encoding {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "Encoding".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string", "const": "base64", "enum": ["base64"]})
    }
}

/// The `artifact_read` result: `{artifactId, mimeType, offset, nextOffset, totalBytes, eof,
/// encoding: "base64", data}`. Offsets and sizes are in bytes of the artifact.
///
/// `data` decodes on its own to exactly the bytes `[offset, nextOffset)`. The JSON schema has
/// no `format` on integers (so strict draft-07 validators such as Ajv accept it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(transform = strip_integer_formats)]
pub struct ArtifactReadResult {
    /// The artifact's id.
    pub artifact_id: String,
    /// The artifact's MIME type, e.g. `application/json`.
    pub mime_type: String,
    /// First byte of this chunk.
    pub offset: u64,
    /// One past the last byte of this chunk; pass it as `offset` to continue (the tool's description says so).
    #[schemars(description = "One past this chunk's last byte.")]
    pub next_offset: u64,
    /// The artifact's full length in bytes.
    pub total_bytes: u64,
    /// `true` when `nextOffset == totalBytes` (nothing left to read).
    #[schemars(description = "nextOffset == totalBytes.")]
    pub eof: bool,
    /// Always `"base64"` (its `const` says so: no description in the schema).
    #[schemars(description = "")]
    pub encoding: Encoding,
    /// The chunk's bytes, standard base64 with padding.
    pub data: String,
}

impl ArtifactReadResult {
    /// The chunk's bytes, `[offset, nextOffset)`: `data` decoded (a client reading an artifact back concatenates
    /// the chunks' bytes in order).
    ///
    /// # Errors
    /// [`InvalidChunkData`] when `data` is not standard padded base64.
    pub fn decode(&self) -> Result<Vec<u8>, InvalidChunkData> {
        STANDARD
            .decode(&self.data)
            .map_err(|err| InvalidChunkData(err.to_string()))
    }
}

/// `data` of an `artifact_read` chunk is not standard padded base64 ([`ArtifactReadResult::decode`]); the text says
/// where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the chunk's data is not standard base64: {0}")]
pub struct InvalidChunkData(String);

impl From<Chunk> for ArtifactReadResult {
    /// Base64-encodes the chunk's bytes; every other field is copied.
    fn from(chunk: Chunk) -> Self {
        Self {
            data: STANDARD.encode(&chunk.data),
            artifact_id: chunk.artifact_id,
            mime_type: chunk.mime_type,
            offset: chunk.offset,
            next_offset: chunk.next_offset,
            total_bytes: chunk.total_bytes,
            eof: chunk.eof,
            encoding: Encoding::Base64,
        }
    }
}

/// Removes `format` (e.g. `uint64`) from the property schemas: draft-07 validators in strict
/// mode reject unknown formats, and `minimum: 0` already says what matters.
fn strip_integer_formats(schema: &mut Schema) {
    let Some(properties) = schema.get_mut("properties").and_then(serde_json::Value::as_object_mut) else {
        return;
    };
    for property in properties.values_mut() {
        if let Some(object) = property.as_object_mut()
            && object.get("type").and_then(serde_json::Value::as_str) == Some("integer")
        {
            object.remove("format");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;
    use serde_json::json;

    #[test]
    fn serializes_camel_case_base64() {
        let chunk = Chunk {
            artifact_id: "a".repeat(32),
            mime_type: "application/json".into(),
            offset: 2,
            next_offset: 5,
            total_bytes: 5,
            eof: true,
            data: Bytes::from_static(b"llo"),
        };
        let value = serde_json::to_value(ArtifactReadResult::from(chunk)).ok();
        assert_eq!(
            value,
            Some(json!({
                "artifactId": "a".repeat(32),
                "mimeType": "application/json",
                "offset": 2,
                "nextOffset": 5,
                "totalBytes": 5,
                "eof": true,
                "encoding": "base64",
                "data": "bGxv",
            }))
        );
    }

    #[test]
    fn schema_pins_encoding_and_has_no_integer_formats() {
        let schema = serde_json::to_value(schemars::schema_for!(ArtifactReadResult)).unwrap_or_default();
        assert_eq!(schema["type"], "object");
        let text = schema.to_string();
        assert!(!text.contains("uint64"), "{text}");
        assert_eq!(schema["properties"]["encoding"]["const"], "base64", "{schema}");
        assert_eq!(schema["properties"]["encoding"]["enum"][0], "base64");
        let required = schema["required"].as_array().cloned().unwrap_or_default();
        assert_eq!(required.len(), 8, "{schema}");
    }
}
