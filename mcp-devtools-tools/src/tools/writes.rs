//! The text-only results of the write tools (`{jira,conf,bb}_{post,put,patch,delete}`): the write
//! already happened upstream (a 2xx HTTP status), so nothing after it may read as a failed call, which a caller
//! would retry and so repeat the write. The result library shows the value ([`Responder::text`]); the HTTP wording
//! is this server's.

use bytes::Bytes;
use mcp_envelope::rmcp::success_result;
use mcp_results::{Responder, TextOutcome, View};
use rmcp::model::CallToolResult;
use serde_json::Value;

/// The result of a write whose response body is JSON (`status` its 2xx HTTP status): the body projected by the
/// optional `jq` and rendered. A `jq` that fails gives a success whose text says the write succeeded and only the
/// projection failed, followed by the unprojected body.
pub(crate) async fn text(results: &Responder, data: Value, status: u16, view: &View) -> CallToolResult {
    success_result(
        match results.text(data, view).await {
            TextOutcome::Shown(text) => text,
            TextOutcome::Unprojected { reason, text } => format!(
                "The write succeeded (HTTP {status}); only the jq projection of its response failed: {reason}. \
                 Do not repeat the write. The unprojected response follows.\n{text}"
            ),
            TextOutcome::NotShown(reason) => {
                format!("The write succeeded (HTTP {status}); its response could not be shown: {reason}")
            }
            // A later outcome: say what is known.
            _ => format!("The write succeeded (HTTP {status})."),
        },
        None,
    )
}

/// The result of a write whose response body is binary: the body is put into the store for `owner` (never turned
/// into a string) and the text names its id, media type and size.
pub(crate) async fn binary(
    results: &Responder,
    owner: &str,
    media_type: String,
    bytes: Bytes,
    status: u16,
) -> CallToolResult {
    let len = bytes.len();
    let id = results.put_artifact(owner, &media_type, bytes).await;
    let where_ = match &id {
        Some(id) => format!("saved as artifact {id} (read it with artifact_read)"),
        None => "could not be saved".to_owned(),
    };
    let mut result = success_result(
        format!(
            "The write succeeded (HTTP {status}); its response body is binary ({media_type}, {len} bytes) and was \
             {where_}."
        ),
        None,
    );
    if let Some(id) = id {
        // Structured output on: the artifact is a resource too (its resource_link after the text).
        results.add_link(&mut result, &id, &media_type, len as u64);
    }
    result
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use std::sync::Arc;

    use super::*;
    use mcp_artifacts::{MemoryStore, StoreConfig};
    use mcp_envelope::{OutputFormat, SizeBound};
    use serde_json::json;

    fn text_of(result: &CallToolResult) -> String {
        result.content[0].as_text().unwrap().text.clone()
    }

    #[tokio::test]
    async fn a_write_whose_jq_fails_still_says_it_succeeded() {
        let store = Arc::new(MemoryStore::new(StoreConfig::default()));
        let results = Responder::new(store, SizeBound::default(), Arc::new(mcp_projection::InProcess));
        let view = View::new(Some(".[]".into()), OutputFormat::Json);
        let result = text(&results, json!([1, 2]), 201, &view).await;
        assert_ne!(result.is_error, Some(true));
        assert!(result.structured_content.is_none());
        let shown = text_of(&result);
        assert!(
            shown.starts_with("The write succeeded (HTTP 201); only the jq projection"),
            "{shown}"
        );
        assert!(shown.contains("Do not repeat the write"), "{shown}");

        let view = View::new(Some(".key".into()), OutputFormat::Json);
        let ok = text(&results, json!({"key": "PLAT-1"}), 201, &view).await;
        assert_eq!(text_of(&ok), "\"PLAT-1\"");
        assert!(ok.structured_content.is_none());

        let saved = binary(
            &results,
            "alice",
            "image/png".into(),
            Bytes::from_static(b"\x89PNG"),
            200,
        )
        .await;
        let shown = text_of(&saved);
        assert!(
            shown.contains("binary (image/png, 4 bytes) and was saved as artifact"),
            "{shown}"
        );
    }
}
