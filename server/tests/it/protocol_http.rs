//! Streamable HTTP, raw: sessions belong to the principal that opened them, `DELETE` of an unknown session is
//! 404, faulty bodies get JSON-RPC errors with the same wording as stdio, batches are answered per revision.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::http::{HttpServer, tokens_file};
use serde_json::{Value, json};

const ALICE: &str = "alice-token-protocol-1";
const BOB: &str = "bob-token-protocol-2";

async fn start(extra: &[(&str, &str)]) -> HttpServer {
    let dir = tempfile::tempdir().unwrap();
    let tokens = tokens_file(&dir, &[(ALICE, "alice"), (BOB, "bob")]);
    let env = common::server_env("http://127.0.0.1:9", extra);
    HttpServer::start(env, &["--tokens-file", tokens.to_str().unwrap()], dir).await
}

/// One raw HTTP exchange.
struct Exchange {
    status: u16,
    session: Option<String>,
    /// The JSON body, or the JSON-RPC message of an event stream (the last `data:` line), or the text as a string.
    body: Value,
}

async fn send(
    server: &HttpServer,
    method: reqwest::Method,
    token: &str,
    session: Option<&str>,
    version: Option<&str>,
    body: Vec<u8>,
) -> Exchange {
    let mut request = reqwest::Client::new()
        .request(method, &server.url)
        .bearer_auth(token)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .body(body);
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
    }
    if let Some(version) = version {
        request = request.header("mcp-protocol-version", version);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let session = response
        .headers()
        .get("mcp-session-id")
        .map(|value| value.to_str().unwrap().to_string());
    let text = response.text().await.unwrap();
    let body = serde_json::from_str(&text).unwrap_or_else(|_| {
        text.lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
            .next_back()
            .unwrap_or(Value::String(text.clone()))
    });
    Exchange { status, session, body }
}

async fn post(server: &HttpServer, token: &str, session: Option<&str>, version: Option<&str>, body: Value) -> Exchange {
    send(
        server,
        reqwest::Method::POST,
        token,
        session,
        version,
        serde_json::to_vec(&body).unwrap(),
    )
    .await
}

/// Opens a session for `token` at `version`; returns its id.
async fn open(server: &HttpServer, token: &str, version: &str) -> String {
    let init = post(
        server,
        token,
        None,
        None,
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}),
    )
    .await;
    assert_eq!(init.status, 200, "{}", init.body);
    assert_eq!(init.body["result"]["protocolVersion"], json!(version));
    let session = init.session.expect("a session id");
    let header = (version != "2025-03-26").then_some(version);
    let done = post(
        server,
        token,
        Some(&session),
        header,
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .await;
    assert_eq!(done.status, 202);
    session
}

fn ping(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "ping"})
}

#[tokio::test]
async fn a_session_belongs_to_the_principal_that_opened_it() {
    let server = start(&[]).await;
    let v = Some("2025-06-18");
    let alice = open(&server, ALICE, "2025-06-18").await;
    assert_eq!(post(&server, ALICE, Some(&alice), v, ping(1)).await.status, 200);

    // Bob with Alice's session id: 404 as for an unknown session, on every method and on DELETE.
    assert_eq!(post(&server, BOB, Some(&alice), v, ping(2)).await.status, 404);
    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "artifact_read", "arguments": {"uri": "artifact://x"}}});
    assert_eq!(post(&server, BOB, Some(&alice), v, call).await.status, 404);
    let bob_delete = send(&server, reqwest::Method::DELETE, BOB, Some(&alice), v, Vec::new()).await;
    assert_eq!(bob_delete.status, 404);

    // Alice's session is untouched.
    let alive = post(&server, ALICE, Some(&alice), v, ping(4)).await;
    assert_eq!((alive.status, alive.body["result"].clone()), (200, json!({})));

    // Bob's own session works; DELETE of an unknown or already deleted session is 404.
    let bob = open(&server, BOB, "2025-06-18").await;
    assert_eq!(post(&server, BOB, Some(&bob), v, ping(5)).await.status, 200);
    let unknown = send(
        &server,
        reqwest::Method::DELETE,
        ALICE,
        Some("no-such-session"),
        v,
        Vec::new(),
    )
    .await;
    assert_eq!(unknown.status, 404);
    let deleted = send(&server, reqwest::Method::DELETE, ALICE, Some(&alice), v, Vec::new()).await;
    assert!((200..300).contains(&deleted.status), "{}", deleted.status);
    let again = send(&server, reqwest::Method::DELETE, ALICE, Some(&alice), v, Vec::new()).await;
    assert_eq!(again.status, 404);
    assert_eq!(post(&server, ALICE, Some(&alice), v, ping(6)).await.status, 404);
}

#[tokio::test]
async fn faulty_bodies_get_json_rpc_errors_worded_as_on_stdio() {
    let server = start(&[("MCP_MAX_REQUEST_BYTES", "1048576")]).await;
    let v = Some("2025-06-18");
    let session = open(&server, ALICE, "2025-06-18").await;
    let raw = |body: Vec<u8>| send(&server, reqwest::Method::POST, ALICE, Some(&session), v, body);

    let truncated = raw(br#"{"jsonrpc":"2.0","id":5,"#.to_vec()).await;
    assert_eq!(truncated.status, 400);
    assert_eq!(truncated.body["error"]["code"], json!(-32700), "{}", truncated.body);
    assert_eq!(truncated.body["id"], json!(5), "the id before the fault is read");
    let no_id = raw(br#"{"jsonrpc":"2.0","method":"ping","#.to_vec()).await;
    assert_eq!((no_id.status, no_id.body["id"].clone()), (400, Value::Null));

    let deep = format!(
        r#"{{"jsonrpc":"2.0","id":6,"method":"ping","params":{{"x":{}{}}}}}"#,
        "[".repeat(130),
        "]".repeat(130)
    );
    let deep = raw(deep.into_bytes()).await;
    assert_eq!(deep.status, 400);
    assert_eq!(deep.body["id"], json!(6), "{}", deep.body);
    let deeper = format!(
        r#"{{"jsonrpc":"2.0","id":"deep-1","method":"tools/call","params":{{"name":"github_list_workflow_runs","arguments":{{"owner":{}1{}}}}}}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    let deeper = raw(deeper.into_bytes()).await;
    assert_eq!((deeper.status, deeper.body["id"].clone()), (400, json!("deep-1")));
    assert_eq!(deeper.body["error"]["code"], json!(-32600));
    assert!(
        deep.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("deeper than 128 levels")
    );

    let mut big = br#"{"jsonrpc":"2.0","id":7,"method":"ping","params":{"pad":""#.to_vec();
    big.extend(std::iter::repeat_n(b'x', 2 * 1024 * 1024));
    big.extend_from_slice(b"\"}}");
    let big = raw(big).await;
    assert_eq!(big.status, 413);
    assert_eq!(
        big.body["error"]["message"],
        json!(
            "Invalid Request: the message is larger than 1048576 bytes (the server's request-size limit); send a smaller request"
        )
    );

    let unreadable = raw(br#"{"jsonrpc":"2.0","id":8,"method":7}"#.to_vec()).await;
    assert_eq!((unreadable.status, unreadable.body["id"].clone()), (400, json!(8)));
    assert_eq!(unreadable.body["error"]["code"], json!(-32600));

    assert_eq!(post(&server, ALICE, Some(&session), v, ping(9)).await.status, 200);
}

#[tokio::test]
async fn batches_are_answered_per_the_session_revision() {
    let server = start(&[]).await;
    let old = open(&server, ALICE, "2025-03-26").await;
    let batch = json!([ping(1), {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, "junk"]);
    let answer = post(&server, ALICE, Some(&old), None, batch.clone()).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let items = answer
        .body
        .as_array()
        .unwrap_or_else(|| panic!("an array: {}", answer.body));
    assert_eq!(items.len(), 3, "{}", answer.body);
    assert_eq!(items[0], json!({"jsonrpc": "2.0", "id": 1, "result": {}}));
    assert_eq!(items[1]["id"], json!(2));
    assert!(items[1]["result"]["tools"].as_array().unwrap().len() > 3);
    assert_eq!(items[2]["error"]["code"], json!(-32600));
    let notifications = json!([{"jsonrpc": "2.0", "method": "notifications/progress",
        "params": {"progressToken": 1, "progress": 1}}]);
    assert_eq!(post(&server, ALICE, Some(&old), None, notifications).await.status, 202);

    let new = open(&server, ALICE, "2025-06-18").await;
    let refused = post(&server, ALICE, Some(&new), Some("2025-06-18"), batch).await;
    assert_eq!(refused.status, 400);
    assert!(
        refused.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("batches are not supported at protocol revision 2025-06-18"),
        "{}",
        refused.body
    );
}
