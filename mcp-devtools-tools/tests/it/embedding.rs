//! Embedding: `DevtoolsServer::call_tool_as` runs a tool call in-process exactly as the server
//! answers `tools/call` — tool selection, policy (a refusal sends nothing upstream), the tool, enterprise `_meta` —
//! against the recorded upstream; and the dispatch table is built once and shared by every clone (the
//! catalogue is not rebuilt per session).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use crate::common;

use mcp_devtools_tools::{DevtoolsServer, Principal, ToolsConfig};
use recorded_upstream::RecordedUpstream;
use rmcp::model::{CallToolRequestParams, ErrorCode};
use serde_json::{Value, json};

const POLICY: &str = r#"
version = "embed-1"

[[rules]]
id = "interns-no-circleci"
principal = "intern-*"
vendor = "circleci"
effect = "deny"
reason = "Interns use GitHub only"
"#;

/// The tools over the recorded upstream (`common::all_config`: structured output on, artifacts in memory, `jq` in
/// the example worker's processes), with the config `more` makes. No principal of its own: every call names one.
async fn server(upstream: &RecordedUpstream, more: impl FnOnce(ToolsConfig) -> ToolsConfig) -> DevtoolsServer {
    let config = more(common::all_config(upstream));
    DevtoolsServer::new(Arc::new(mcp_devtools_tools::App::new(config).await.unwrap()))
}

fn request(tool: &str, args: Value) -> CallToolRequestParams {
    CallToolRequestParams::new(tool.to_owned()).with_arguments(args.as_object().cloned().unwrap())
}

async fn requests_seen(upstream: &RecordedUpstream) -> usize {
    upstream.server().received_requests().await.unwrap_or_default().len()
}

#[tokio::test]
async fn a_call_in_process_takes_the_servers_whole_path() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let policy = dir.path().join("policy.toml");
    std::fs::write(&policy, POLICY).unwrap();
    let server = server(&upstream, |config| {
        config.with_policy_file(Some(policy.clone())).with_enterprise_mode(true)
    })
    .await;
    let intern = Principal::named("intern-7");

    // Allowed: the tool runs against the upstream, with structuredContent and the enterprise _meta.
    let runs = server
        .call_tool_as(
            &intern,
            request(
                "github_list_workflow_runs",
                json!({"owner": "octo-org", "repo": "octo-repo", "perPage": 5, "jq": "[.workflow_runs[].id]"}),
            ),
        )
        .await
        .unwrap();
    assert_ne!(runs.is_error, Some(true), "{runs:?}");
    let structured = runs.structured_content.clone().unwrap();
    assert!(!structured["data"].as_array().unwrap().is_empty(), "{structured}");
    assert_eq!(structured["nextPage"], 2, "{structured}");
    let meta = serde_json::to_value(runs.meta.as_ref().unwrap()).unwrap();
    assert_eq!(meta["mcp-devtools/upstream"]["vendor"], "github");
    assert_eq!(meta["mcp-devtools/upstream"]["credentialLabel"], "GITHUB_TOKEN");

    // Denied by the policy: an isError result with the decision, and nothing sent upstream.
    let before = requests_seen(&upstream).await;
    let denied = server
        .call_tool_as(&intern, request("circleci_get", json!({"path": "/me"})))
        .await
        .unwrap();
    assert_eq!(denied.is_error, Some(true));
    let meta = serde_json::to_value(denied.meta.as_ref().unwrap()).unwrap();
    assert_eq!(meta["code"], "policy_denied");
    assert_eq!(meta["decision"]["rule"], "interns-no-circleci");
    assert_eq!(meta["mcp-devtools/upstream"]["vendor"], "circleci");
    assert_eq!(requests_seen(&upstream).await, before);

    // Another principal is not matched by the rule.
    let me = server
        .call_tool_as(
            &Principal::named("lead"),
            request("circleci_get", json!({"path": "/me"})),
        )
        .await
        .unwrap();
    assert_ne!(me.is_error, Some(true), "{me:?}");
    assert_eq!(requests_seen(&upstream).await, before + 1);

    // An unknown tool is a JSON-RPC invalid-params error, as over a transport.
    let unknown = server
        .call_tool_as(&intern, request("no_such_tool", json!({})))
        .await
        .unwrap_err();
    assert_eq!(unknown.code, ErrorCode::INVALID_PARAMS);
    assert!(unknown.message.contains("tools/list"), "{}", unknown.message);
}

#[tokio::test]
async fn a_tool_left_out_by_the_selection_is_refused_naming_the_setting() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let selection = mcp_devtools_tools::vendors::parse_toolsets(Some("github"), false).unwrap();
    let server = server(&upstream, |config| config.with_selection(selection)).await;
    let names: Vec<String> = server.tools().iter().map(|tool| tool.name.to_string()).collect();
    assert_eq!(
        names,
        [
            "github_list_workflow_runs",
            "github_list_workflow_jobs",
            "github_get",
            "github_get_job_logs",
            "github_wait_for_run",
            "github_wait_for_checks",
            "artifact_read"
        ]
    );
    let refused = server
        .call_tool_as(&Principal::named("a"), request("jira_get", json!({"path": "/x"})))
        .await
        .unwrap_err();
    assert_eq!(refused.code, ErrorCode::INVALID_PARAMS);
    assert!(refused.message.contains("MCP_TOOLSETS"), "{}", refused.message);
}

#[tokio::test]
async fn the_dispatch_table_is_built_once_and_shared_by_every_session() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let server = server(&upstream, |config| config).await;
    let session = server.clone().with_principal(Principal::named("b"));
    let (first, second) = (server.tools(), session.tools());
    assert_eq!(first.len(), 20);
    for (a, b) in first.iter().zip(&second) {
        assert_eq!(a.name, b.name);
        // The same schema objects: listing (or opening a session) builds nothing.
        assert!(Arc::ptr_eq(&a.input_schema, &b.input_schema), "{}", a.name);
        match (&a.output_schema, &b.output_schema) {
            (Some(x), Some(y)) => assert!(Arc::ptr_eq(x, y), "{}", a.name),
            (None, None) => {}
            _ => panic!("{}: outputSchema differs", a.name),
        }
    }
}
