//! `other_server --self-test`: drives the server with rmcp clients over in-memory pipes and prints what it saw.
//! Every check is an error when it does not hold (exit status 1). The outputSchema and structuredContent values
//! are printed whole, so the package's test (`tests/self_test.rs`) also validates them against each other with a
//! JSON Schema validator.

use anyhow::{Context, ensure};
use mcp_results::artifact_read::{ArtifactReadResult, NOT_FOUND_MESSAGE};
use rmcp::model::{CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, Implementation};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServerHandler, ServiceExt};
use serde_json::{Value, json};

/// A client named `name` connected to its own session of `server` over an in-memory pipe.
async fn connect<S: ServerHandler + Clone>(
    server: &S,
    name: &str,
) -> anyhow::Result<RunningService<RoleClient, ClientConfig>> {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let server = server.clone();
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let config = ClientConfig::new(ClientCapabilities::default(), Implementation::new(name, "1.0"));
    Ok(config.serve(client_io).await?)
}

async fn call(
    client: &RunningService<RoleClient, ClientConfig>,
    tool: &str,
    args: Value,
) -> anyhow::Result<CallToolResult> {
    let params =
        CallToolRequestParams::new(tool.to_owned()).with_arguments(args.as_object().cloned().unwrap_or_default());
    Ok(client.call_tool(params).await?)
}

fn text(result: &CallToolResult) -> String {
    result
        .content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone())
        .unwrap_or_default()
}

/// Runs every check against `server`; the report, one line per check.
pub async fn run<S: ServerHandler + Clone>(server: S) -> anyhow::Result<String> {
    let mut report = Vec::new();
    let alice = connect(&server, "alice").await?;

    let tools = alice.list_all_tools().await?;
    let list = tools
        .iter()
        .find(|t| t.name == "list_widgets")
        .context("list_widgets is listed")?;
    let read = tools
        .iter()
        .find(|t| t.name == "artifact_read")
        .context("artifact_read is listed")?;
    let schema = Value::Object((*list.output_schema.clone().context("list_widgets has an outputSchema")?).clone());
    ensure!(read.output_schema.is_some(), "artifact_read has an outputSchema");
    ensure!(
        schema["properties"]["data"].is_object() && schema["properties"]["incomplete"].is_object(),
        "the outputSchema is the envelope's: {schema}"
    );
    report.push("tools/list: list_widgets and artifact_read, both with an outputSchema".to_owned());
    report.push(format!("list_widgets outputSchema: {schema}"));

    let small = call(&alice, "list_widgets", json!({"count": 3})).await?;
    let structured = small
        .structured_content
        .clone()
        .context("list_widgets gives structuredContent")?;
    ensure!(
        structured["data"][2] == json!({"id": 3, "name": "widget 3"}),
        "three widgets: {structured}"
    );
    report.push(format!("list_widgets {{count: 3}}: structuredContent {structured}"));

    let projected = call(
        &alice,
        "list_widgets",
        json!({"count": 5, "jq": "map(.id)", "outputFormat": "json"}),
    )
    .await?;
    let data = projected
        .structured_content
        .clone()
        .context("projected structuredContent")?;
    ensure!(data == json!({"data": [1, 2, 3, 4, 5]}), "jq map(.id): {data}");
    report.push(format!("list_widgets {{count: 5, jq: \"map(.id)\"}}: {data}"));

    let count = 20_000;
    let big = call(&alice, "list_widgets", json!({"count": count})).await?;
    let structured = big.structured_content.clone().context("oversized structuredContent")?;
    let incomplete = &structured["incomplete"];
    ensure!(
        structured["data"].is_null() && incomplete["reason"] == "size",
        "oversized: {structured}"
    );
    report.push(format!(
        "list_widgets {{count: {count}}}: structuredContent {structured}"
    ));
    let id = incomplete["artifactId"].as_str().context("an artifact id")?.to_owned();
    let (mut bytes, mut offset, mut chunks) = (Vec::new(), 0u64, 0);
    loop {
        let chunk = call(
            &alice,
            "artifact_read",
            json!({"artifactId": id, "offset": offset, "maxBytes": 1_048_576}),
        )
        .await?;
        let chunk = chunk
            .structured_content
            .context("artifact_read gives structuredContent")?;
        let chunk: ArtifactReadResult = serde_json::from_value(chunk)?;
        bytes.extend(chunk.decode()?);
        offset = chunk.next_offset;
        chunks += 1;
        if chunk.eof {
            break;
        }
    }
    let widgets: Vec<Value> = (1..=count)
        .map(|id| json!({"id": id, "name": format!("widget {id}")}))
        .collect();
    let expected = serde_json::to_vec(&json!({"data": widgets}))?;
    ensure!(bytes == expected, "the artifact is the compact envelope, byte for byte");
    report.push(format!(
        "list_widgets {{count: {count}}}: oversized ({} bytes > {} bytes), artifact {id}; artifact_read: {chunks} \
         chunk(s), {} bytes, byte-exact",
        incomplete["bytes"],
        incomplete["limitBytes"],
        bytes.len()
    ));

    let bob = connect(&server, "bob").await?;
    let other = call(&bob, "artifact_read", json!({"artifactId": id})).await?;
    ensure!(
        other.is_error == Some(true) && other.structured_content.is_none(),
        "bob gets an error result"
    );
    ensure!(
        text(&other) == NOT_FOUND_MESSAGE,
        "bob gets the not-found text: {}",
        text(&other)
    );
    report.push(format!(
        "artifact_read of alice's artifact as bob: isError, {:?}",
        text(&other)
    ));

    let bad = call(&alice, "list_widgets", json!({"count": "many"})).await?;
    ensure!(bad.is_error == Some(true), "a bad argument is an error result");
    ensure!(
        text(&bad).contains("count"),
        "the error names the argument: {}",
        text(&bad)
    );
    report.push(format!("list_widgets {{count: \"many\"}}: isError, {:?}", text(&bad)));

    let guest = connect(&server, "guest").await?;
    let refused = call(&guest, "list_widgets", json!({"count": 3})).await?;
    let meta = serde_json::to_value(&refused.meta)?;
    ensure!(
        refused.is_error == Some(true)
            && meta["code"] == "policy_denied"
            && meta["decision"]["rule"] == "guests-do-not-list",
        "the policy refuses guest's list_widgets: {meta}"
    );
    report.push(format!(
        "list_widgets as guest: isError, policy_denied by rule {}",
        meta["decision"]["rule"]
    ));

    alice.cancel().await?;
    bob.cancel().await?;
    guest.cancel().await?;
    report.push("self-test passed".to_owned());
    Ok(report.join("\n"))
}
