//! Toolsets and read-only mode (CONTRACT §11), in-process (rmcp client over an in-memory pipe → the tools →
//! recorded upstream): the selection (`ToolsConfig::selection`; the bundled server's `MCP_TOOLSETS` / `--toolsets`
//! and `MCP_READ_ONLY` / `--read-only`) narrows `tools/list`, and a tool left out is not callable either (a JSON-RPC
//! error naming the setting, nothing sent upstream). The settings and flags themselves, start-up and logs:
//! `server/tests/it/toolsets.rs`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{Client, call, connect, text};
use mcp_devtools_tools::ToolsConfig;
use recorded_upstream::RecordedUpstream;
use rmcp::model::CallToolRequestParams;
use serde_json::json;

async fn names(client: &Client) -> Vec<String> {
    let tools = client.list_all_tools().await.expect("tools/list");
    tools.iter().map(|tool| tool.name.to_string()).collect()
}

/// Every vendor of `upstream` (GitHub with `common::GITHUB_TOKEN`), structured output off, offering the toolsets
/// `toolsets` (`None`: all) and only the read tools when `read_only`.
fn config(upstream: &RecordedUpstream, toolsets: Option<&str>, read_only: bool) -> ToolsConfig {
    let selection = mcp_devtools_tools::vendors::parse_toolsets(toolsets, read_only).unwrap();
    let mut config = common::all_config(upstream)
        .with_structured_output(false)
        .with_selection(selection);
    config.github = common::github(&upstream.uri(), Some(common::GITHUB_TOKEN));
    config
}

#[tokio::test]
async fn toolsets_and_read_only_narrow_what_is_listed_and_callable() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let client = connect(config(&upstream, Some("github, jira"), true)).await;
    assert_eq!(
        names(&client).await,
        [
            "github_list_workflow_runs",
            "github_list_workflow_jobs",
            "github_get",
            "github_get_job_logs",
            "github_wait_for_run",
            "github_wait_for_checks",
            "artifact_read",
            "jira_get"
        ]
    );
    // A listed tool works.
    let runs = call(
        &client,
        "github_list_workflow_runs",
        json!({"owner": "octo-org", "repo": "octo-repo"}),
    )
    .await;
    assert_ne!(runs.is_error, Some(true), "{}", text(&runs));
    // A tool of another toolset, and a write tool in read-only mode, are refused naming the setting.
    let before = upstream.server().received_requests().await.unwrap_or_default().len();
    for (tool, setting) in [
        ("circleci_get", "MCP_TOOLSETS=github,jira"),
        ("jira_write", "MCP_READ_ONLY=true"),
    ] {
        let err = client
            .call_tool(
                CallToolRequestParams::new(tool)
                    .with_arguments(json!({"path": "/rest/api/3/issue"}).as_object().cloned().unwrap()),
            )
            .await
            .expect_err("a tool left out is not callable");
        let message = err.to_string();
        assert!(message.contains(setting), "{tool}: {message}");
        assert!(message.contains("is not offered"), "{tool}: {message}");
    }
    let after = upstream.server().received_requests().await.unwrap_or_default().len();
    assert_eq!(before, after, "a refused call sends nothing upstream");
    client.cancel().await.unwrap();
}

/// One toolset alone: its tools and `artifact_read` (which reads back the oversized results of its read tool), none
/// of another toolset.
#[tokio::test]
async fn one_toolset_lists_its_tools_and_artifact_read() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let client = connect(config(&upstream, Some("confluence"), false)).await;
    let listed = names(&client).await;
    assert!(listed.contains(&"conf_write".to_owned()) && listed.contains(&"artifact_read".to_owned()));
    assert!(
        !listed
            .iter()
            .any(|name| name.starts_with("jira_") || name.starts_with("github_"))
    );
    client.cancel().await.unwrap();
}
