//! Artifact quotas in-process (CONTRACT §5; rmcp client over an in-memory pipe): when the oversized value does not fit the caller's
//! artifact quota, the call still succeeds, `data` is `null` and `incomplete.artifactId` is `null`; the same call
//! under the default quota gets an id that reads back.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{assert_valid, call, connect, github_config, repo_args, text};
use mcp_devtools_tools::ToolsConfig;
use recorded_upstream::RecordedUpstream;
use serde_json::{Value, json};

/// Calls the 48 KB runs page with a 16 KiB bound and the config `more` makes; returns `incomplete.artifactId`.
async fn oversized_artifact_id(more: impl FnOnce(ToolsConfig) -> ToolsConfig) -> Value {
    let upstream = RecordedUpstream::github().await.unwrap();
    let config = common::with_max_bytes(github_config(&upstream.uri()).with_structured_output(true), 16384);
    let client = connect(more(config)).await;
    let tools = client.list_all_tools().await.unwrap();
    let runs_tool = tools.iter().find(|t| t.name == "github_list_workflow_runs").unwrap();

    let result = call(&client, "github_list_workflow_runs", repo_args("octo-repo", json!({}))).await;
    assert_ne!(result.is_error, Some(true), "{}", text(&result));
    let structured = result.structured_content.clone().expect("structuredContent");
    assert_valid(runs_tool, &structured);
    assert_eq!(structured["data"], Value::Null);
    assert_eq!(structured["incomplete"]["reason"], "size");
    assert!(structured["incomplete"]["bytes"].as_u64().unwrap() > 16_384);
    let artifact_id = structured["incomplete"]["artifactId"].clone();
    if let Some(id) = artifact_id.as_str() {
        let chunk = call(&client, "artifact_read", json!({"artifactId": id, "maxBytes": 16})).await;
        assert_ne!(chunk.is_error, Some(true), "{}", text(&chunk));
    }
    client.cancel().await.unwrap();
    artifact_id
}

#[tokio::test]
async fn over_the_principal_quota_the_result_carries_a_null_artifact_id() {
    let id = oversized_artifact_id(|config| common::with_max_principal_bytes(config, 1024)).await;
    assert_eq!(id, Value::Null);
    let id = oversized_artifact_id(|config| common::with_max_store_bytes(config, 1024)).await;
    assert_eq!(id, Value::Null);
    let id = oversized_artifact_id(|config| config).await;
    assert!(id.is_string(), "under the default quota the value is saved: {id}");
}
