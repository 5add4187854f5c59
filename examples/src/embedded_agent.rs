//! Embedding: an agent program that uses the devtools tools in-process — no MCP transport and no child process for
//! the server. It builds the server once ([`DevtoolsServer::new`]) with its own call policy (an
//! [`mcp_policy::Policy`] given to the [`App`], no file needed), and calls tools as its own principal with [`DevtoolsServer::call_tool_as`], which runs each call exactly as the server answers
//! `tools/call` (tool selection, policy, argument and result limits, `_meta`, the `tool_call` span). The network is
//! the recorded upstream, started in this process too (every vendor on 127.0.0.1).
//!
//! What it does: reads the failed GitHub Actions runs (allowed), reads the Jira issue named by the first one
//! (allowed), then tries to comment on that issue (`jira_write`, method POST), which the policy denies: the refusal is an
//! `isError` result with `_meta.code = "policy_denied"` and the rule, and nothing reaches the upstream.
//!
//! Run: `cargo run -p mcp-devtools-examples --bin embedded_agent`.

use std::collections::HashMap;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use mcp_devtools_server::{App, DevtoolsServer, Principal, Settings};
use mcp_policy::Policy;
use recorded_upstream::RecordedUpstream;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use serde_json::{Value, json};

/// The agent's policy: it may read anything, but not write to Jira (first matching rule decides).
const POLICY: &str = r#"version = "embedded-agent-1"

[[rules]]
id = "agents-read-jira"
principal = "agent:*"
tool = "jira_get"
effect = "allow"

[[rules]]
id = "agents-do-not-write-jira"
principal = "agent:*"
vendor = "jira"
effect = "deny"
reason = "agents read Jira; people write it"
"#;

fn main() -> ExitCode {
    mcp_devtools_examples::harness::main("embedded_agent", || async { run().await.map(|()| ExitCode::SUCCESS) })
}

async fn run() -> anyhow::Result<()> {
    let upstream = RecordedUpstream::all().await?;
    let server = build_server(&upstream).await?;
    let agent = Principal::named("agent:triage-bot");
    println!(
        "embedded mcp-devtools: {} tools, policy embedded-agent-1 applied, calling as {agent}",
        server.tools().len()
    );

    // 1. Allowed: the failed runs, projected on the server with jq.
    let runs = call(
        &server,
        &agent,
        "github_list_workflow_runs",
        json!({"owner": "octo-org", "repo": "octo-repo", "perPage": 100,
               "jq": r#"[.workflow_runs[] | select(.conclusion == "failure") | {id, name, message: .head_commit.message}]"#}),
    )
    .await?;
    let runs = data(&runs)?;
    let first = runs.get(0).context("no failed run")?;
    println!(
        "allowed  github_list_workflow_runs: {} failed runs; first: {} {:?}",
        runs.as_array().map_or(0, Vec::len),
        first["id"],
        first["name"].as_str().unwrap_or("?")
    );

    // 2. Allowed: the Jira issue the run's commit names.
    let key = first["message"]
        .as_str()
        .and_then(|message| {
            message
                .split(|c: char| !c.is_ascii_alphanumeric() && c != '-')
                .find(|w| is_issue_key(w))
        })
        .unwrap_or("EX-1")
        .to_owned();
    let issue = call(
        &server,
        &agent,
        "jira_get",
        json!({"path": format!("/rest/api/3/issue/{key}"), "queryParams": {"fields": "status,assignee"},
               "jq": "{key, status: .fields.status.name, assignee: .fields.assignee.displayName}"}),
    )
    .await?;
    println!("allowed  jira_get {key}: {}", data(&issue)?);

    // 3. Denied: a comment on that issue. The policy refuses it before anything is sent.
    let seen = received(&upstream).await;
    let comment = call(
        &server,
        &agent,
        "jira_write",
        json!({"method": "POST", "path": format!("/rest/api/3/issue/{key}/comment"), "body": {"body": "CI failed on this change"}}),
    )
    .await?;
    let meta = serde_json::to_value(&comment.meta)?;
    println!(
        "denied   jira_write POST {key}/comment: {} (rule {}); requests sent upstream: {}",
        meta["code"].as_str().unwrap_or("?"),
        meta["decision"]["rule"].as_str().unwrap_or("?"),
        received(&upstream).await - seen
    );
    println!("         the agent reads: {}", text(&comment));
    Ok(())
}

/// The server over `upstream` with [`POLICY`], structured output on and artifacts in memory.
async fn build_server(upstream: &RecordedUpstream) -> anyhow::Result<DevtoolsServer> {
    let mut settings: HashMap<String, String> = upstream.env().into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
    settings.insert("MCP_STRUCTURED_OUTPUT".into(), "true".into());
    settings.insert("STREAMING_ARTIFACT_STORE".into(), "memory".into());
    let (settings, warnings) = Settings::from_lookup(|name| settings.get(name).cloned());
    for warning in warnings {
        eprintln!("embedded_agent: {warning}");
    }
    let mut app = App::new(settings.tools).await?;
    app.policy = Some(Arc::new(Policy::from_toml(POLICY)?));
    Ok(DevtoolsServer::new(Arc::new(app)))
}

/// Calls `tool` as `principal` in-process; a protocol error (unknown tool) is an error, an `isError` result is not.
async fn call(
    server: &DevtoolsServer,
    principal: &Principal,
    tool: &str,
    args: Value,
) -> anyhow::Result<CallToolResult> {
    let args = args.as_object().cloned().context("arguments must be an object")?;
    let request = CallToolRequestParams::new(tool.to_owned()).with_arguments(args);
    Ok(server.call_tool_as(principal, request).await?)
}

/// `structuredContent.data` of a successful result.
fn data(result: &CallToolResult) -> anyhow::Result<Value> {
    anyhow::ensure!(result.is_error != Some(true), "the tool failed: {}", text(result));
    let structured = result.structured_content.as_ref().context("no structuredContent")?;
    Ok(structured["data"].clone())
}

/// The result's first text block.
fn text(result: &CallToolResult) -> String {
    result
        .content
        .first()
        .and_then(|content| content.as_text())
        .map(|text| text.text.clone())
        .unwrap_or_default()
}

/// `ABC-123`: capitals, a dash, digits.
fn is_issue_key(word: &str) -> bool {
    word.split_once('-').is_some_and(|(project, number)| {
        !project.is_empty()
            && project.chars().all(|c| c.is_ascii_uppercase())
            && !number.is_empty()
            && number.chars().all(|c| c.is_ascii_digit())
    })
}

/// How many requests the recorded upstream has received.
async fn received(upstream: &RecordedUpstream) -> usize {
    upstream
        .server()
        .received_requests()
        .await
        .map_or(0, |requests| requests.len())
}
