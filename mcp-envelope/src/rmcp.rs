//! rmcp glue (feature `rmcp`): advertise an `outputSchema` and build results with and without `structuredContent`
//!. Pure helpers only: the async result path (projection through a runner,
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

/// A successful result: `content[0]` is `text` with control characters and bidi overrides shown escaped
/// ([`crate::sanitize::escape_controls`]); `structuredContent` is set, exact, only when `structured` is `Some`.
pub fn success_result(text: String, structured: Option<Value>) -> CallToolResult {
    let mut result = CallToolResult::success(vec![ContentBlock::text(sanitized(text))]);
    result.structured_content = structured;
    result
}

/// An error result: `isError: true`, `text` only (control characters and bidi overrides shown escaped, see
/// [`crate::sanitize`]), no `structuredContent` key at all.
pub fn error_result(text: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(sanitized(text))])
}

fn sanitized(text: String) -> String {
    match crate::sanitize::escape_controls(&text) {
        std::borrow::Cow::Borrowed(_) => text,
        std::borrow::Cow::Owned(escaped) => escaped,
    }
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
    fn text_blocks_show_controls_escaped_and_structured_content_keeps_them() {
        let raw = "Not Found\u{1b}[2J\u{1b}]8;;http://evil.example/\u{7}click here\u{1b}]8;;\u{7}";
        let ok = serde_json::to_value(success_result(raw.into(), Some(json!({"data": raw})))).unwrap();
        let shown = ok["content"][0]["text"].as_str().unwrap();
        assert_eq!(
            shown,
            "Not Found\\u001b[2J\\u001b]8;;http://evil.example/\\u0007click here\\u001b]8;;\\u0007"
        );
        assert_eq!(ok["structuredContent"]["data"], json!(raw));
        let err = serde_json::to_value(error_result(format!("GitHub API 404: {raw}"))).unwrap();
        assert!(!err["content"][0]["text"].as_str().unwrap().contains('\u{1b}'));
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
