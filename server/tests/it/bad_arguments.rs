//! Bad arguments on the wire (raw JSON-RPC lines to the binary, which an SDK client would not send): `arguments`
//! that is not an object, or `null`, gets a clear answer. What each tool answers to each kind of bad argument is
//! tested in-process beside the tools (`mcp-devtools-tools/tests/it/bad_arguments.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::raw::RawSession;
use common::server_env;
use recorded_upstream::RecordedUpstream;
use serde_json::{Value, json};

const RUNS: &str = "github_list_workflow_runs";
const ARTIFACT: &str = "artifact_read";

/// Every upstream points at the local fake, with credentials, so a request sent by mistake is seen (never lost to
/// a missing-credential error or sent to the internet).
fn env(upstream: &str) -> Vec<(String, String)> {
    let circleci_base = format!("{upstream}/api/v2");
    let confluence_base = format!("{upstream}/wiki");
    server_env(
        upstream,
        &[
            ("MCP_STRUCTURED_OUTPUT", "true"),
            ("CIRCLECI_API_BASE", circleci_base.as_str()),
            ("CIRCLECI_TOKEN", "test-circleci-token"),
            ("JIRA_BASE_URL", upstream),
            ("CONFLUENCE_BASE_URL", confluence_base.as_str()),
            ("BITBUCKET_BASE_URL", upstream),
            ("ATLASSIAN_USER_EMAIL", "tester@example.com"),
            ("ATLASSIAN_API_TOKEN", "test-atlassian-token"),
        ],
    )
}

/// `arguments` that is not an object cannot be read by rmcp: the server answers JSON-RPC invalid params (-32602)
/// saying `arguments` must be an object (rmcp alone says "method not found: tools/call"); `null` is the same as
/// absent, so the required argument is named. The server keeps answering.
#[tokio::test]
async fn arguments_that_are_not_an_object_get_a_clear_answer() {
    let upstream = RecordedUpstream::start().await;
    let mut session = RawSession::start(env(&upstream.uri())).await;
    for arguments in [json!([1, 2]), json!("owner=o"), json!(42), json!(true)] {
        let line = session.call(RUNS, arguments.clone()).await;
        let response: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(response["error"]["code"], json!(-32602), "{arguments}: {line}");
        let message = response["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.starts_with("Invalid tools/call params: arguments must be a JSON object"),
            "{arguments}: {line}"
        );
    }
    let line = session.call(RUNS, Value::Null).await;
    let response: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(response["result"]["isError"], json!(true), "{line}");
    let text = response["result"]["content"][0]["text"].as_str().unwrap_or_default();
    assert!(text.contains("missing field `owner`"), "{line}");
    let line = session.call(ARTIFACT, json!({})).await;
    assert!(
        line.contains("missing field `artifactId`"),
        "the server still answers: {line}"
    );
    assert!(upstream.server().received_requests().await.unwrap().is_empty());
    session.stop().await;
}
