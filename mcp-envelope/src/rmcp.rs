//! rmcp glue (feature `rmcp`): advertise an `outputSchema`, build results
//! with and without `structuredContent` (CONTRACT §2, §7), and
//! [`StructuredOutput`], which gives any rmcp tool structured output in a few
//! lines.
//!
//! ```
//! use mcp_envelope::rmcp::StructuredOutput;
//! use mcp_envelope::{paged_output_schema, OutputFormat, PageMeta, SizeBound, TextSource};
//! use rmcp::model::Tool;
//! use serde_json::{json, Map};
//! use std::sync::Arc;
//!
//! // Once, at startup (the switch and the bound come from configuration).
//! let output = StructuredOutput::new(true, SizeBound::default(), TextSource::Envelope);
//! let tool = output.tool(
//!     Tool::new("list_runs", "List workflow runs", Arc::new(Map::new())),
//!     paged_output_schema(),
//! );
//! assert!(tool.output_schema.is_some());
//!
//! // In the tool handler: upstream body + metadata + the caller's jq/outputFormat.
//! let body = json!({"workflow_runs": [{"id": 30433642}]});
//! let result = output.result(
//!     body,
//!     PageMeta::new(Some(2)),
//!     Some(".workflow_runs | map(.id)"),
//!     OutputFormat::Toon,
//!     |full_bytes| Some(format!("artifact-of-{}-bytes", full_bytes.len())), // used only when oversized
//! );
//! assert_eq!(result.structured_content, Some(json!({"data": [30433642], "nextPage": 2})));
//! ```
//!
//! For an async artifact store, call [`crate::prepare()`] yourself, take the
//! bytes with [`crate::Oversized::into_parts`], `.await` the store, then
//! [`crate::PendingIncomplete::finish`] and [`success_result`].

use std::sync::Arc;

use rmcp::model::{CallToolResult, ContentBlock, Tool};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::bound::SizeBound;
use crate::prepare::{TextSource, prepare, prepare_text};
use crate::render::OutputFormat;

/// `tool` with `outputSchema` set to `schema` (from
/// [`crate::output_schema_for`] or one of the envelope schema functions).
pub fn tool_with_output_schema(tool: Tool, schema: Map<String, Value>) -> Tool {
    tool.with_raw_output_schema(Arc::new(schema))
}

/// A successful result: `content[0]` is `text`; `structuredContent` is set
/// only when `structured` is `Some`.
pub fn success_result(text: String, structured: Option<Value>) -> CallToolResult {
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = structured;
    result
}

/// An error result: `isError: true`, `text` only, no `structuredContent`
/// key at all (CONTRACT §7).
pub fn error_result(text: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(text)])
}

/// Structured output for a tool in one call: project, render + truncate the
/// text, seal, store an oversized value, build the `CallToolResult`.
///
/// `enabled` is the server-wide switch (`MCP_STRUCTURED_OUTPUT`, CONTRACT
/// §1): when false, [`StructuredOutput::tool`] adds no `outputSchema` and
/// [`StructuredOutput::result`] returns the same text with no
/// `structuredContent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StructuredOutput {
    /// The switch: advertise schemas and attach `structuredContent`.
    pub enabled: bool,
    /// The bound on the compact `structuredContent` (`MCP_STRUCTURED_MAX_BYTES`).
    pub bound: SizeBound,
    /// Whether the text is rendered from the envelope or from `data` alone.
    pub text_source: TextSource,
}

impl StructuredOutput {
    /// Configuration for one tool family.
    pub fn new(enabled: bool, bound: SizeBound, text_source: TextSource) -> Self {
        Self {
            enabled,
            bound,
            text_source,
        }
    }

    /// `tool` with `outputSchema = schema` when enabled, unchanged otherwise.
    pub fn tool(&self, tool: Tool, schema: Map<String, Value>) -> Tool {
        if self.enabled {
            tool_with_output_schema(tool, schema)
        } else {
            tool
        }
    }

    /// The result of a successful upstream call with body `data` and tool
    /// metadata `meta`. `store` receives the full compact bytes of an
    /// oversized value (CONTRACT §5) and returns the artifact id, or `None`
    /// if saving failed; it is not called otherwise. A projection (or any
    /// other) failure gives an [`error_result`] whose text says what to do.
    pub fn result<M: Serialize>(
        &self,
        data: Value,
        meta: M,
        jq: Option<&str>,
        format: OutputFormat,
        store: impl FnOnce(Vec<u8>) -> Option<String>,
    ) -> CallToolResult {
        if !self.enabled {
            return match prepare_text(data, meta, jq, format, self.text_source) {
                Ok(text) => success_result(text, None),
                Err(e) => error_result(e.to_string()),
            };
        }
        let prepared = match prepare(data, meta, jq, format, self.text_source, &self.bound) {
            Ok(p) => p,
            Err(e) => return error_result(e.to_string()),
        };
        match prepared.sealed.into_envelope(store).into_value() {
            Ok(structured) => success_result(prepared.text, Some(structured)),
            Err(e) => error_result(format!(
                "could not serialize the structured result: {e}; this is a server defect, please report it"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::envelope::NoMeta;
    use serde_json::json;

    #[test]
    fn error_result_has_no_structured_content_key() {
        let v = serde_json::to_value(error_result("boom".into())).unwrap();
        assert_eq!(v["isError"], json!(true));
        assert!(v.get("structuredContent").is_none());
        assert_eq!(v["content"][0]["text"], json!("boom"));
    }

    #[test]
    fn success_result_sets_structured_only_when_given() {
        let v = serde_json::to_value(success_result("t".into(), None)).unwrap();
        assert!(v.get("structuredContent").is_none());
        let v = serde_json::to_value(success_result("t".into(), Some(json!({"data": 1})))).unwrap();
        assert_eq!(v["structuredContent"], json!({"data": 1}));
        assert_eq!(v["content"][0]["text"], json!("t"));
    }

    #[test]
    fn disabled_gives_same_text_without_structured() {
        let on = StructuredOutput::new(true, SizeBound::default(), TextSource::Data);
        let off = StructuredOutput { enabled: false, ..on };
        let body = json!({"issues": [{"key": "PLAT-1"}]});
        let a = on.result(body.clone(), NoMeta {}, None, OutputFormat::Json, |_| None);
        let b = off.result(body, NoMeta {}, None, OutputFormat::Json, |_| None);
        assert_eq!(a.content, b.content);
        assert!(b.structured_content.is_none());
        assert_eq!(
            a.structured_content,
            Some(json!({"data": {"issues": [{"key": "PLAT-1"}]}}))
        );
    }

    #[test]
    fn projection_error_is_error_result() {
        let on = StructuredOutput::new(true, SizeBound::default(), TextSource::Envelope);
        let r = on.result(json!([1, 2]), NoMeta {}, Some(".[]"), OutputFormat::Json, |_| None);
        assert_eq!(r.is_error, Some(true));
        assert!(r.structured_content.is_none());
    }

    #[test]
    fn oversized_goes_to_store() {
        let on = StructuredOutput::new(true, SizeBound::new(16_384).0, TextSource::Envelope);
        let mut seen = 0;
        let r = on.result(json!("x".repeat(20_000)), NoMeta {}, None, OutputFormat::Toon, |b| {
            seen = b.len();
            Some("a1".into())
        });
        let s = r.structured_content.unwrap();
        assert_eq!(s["data"], Value::Null);
        assert_eq!(s["incomplete"]["bytes"], json!(seen));
        assert_eq!(s["incomplete"]["artifactId"], json!("a1"));
    }
}
