//! rmcp glue (feature `rmcp`): advertise an `outputSchema` and build results with and without `structuredContent`
//! (CONTRACT §2, §7, `docs/CONTRACT.md`). Pure helpers only: the async result path (projection through a runner,
//! rendering off the async workers, the artifact store) is the `mcp-results` crate's `Responder`.
//!
//! ```
//! use mcp_envelope::rmcp::{error_result, success_result};
//! use serde_json::json;
//!
//! let ok = success_result("data: 1".into(), Some(json!({"data": 1})));
//! assert_eq!(ok.structured_content, Some(json!({"data": 1})));
//! assert_eq!(error_result("boom".into()).is_error, Some(true));
//! ```

use std::sync::Arc;

use rmcp::model::{CallToolResult, ContentBlock, Tool};
use serde_json::{Map, Value};

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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
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
}
