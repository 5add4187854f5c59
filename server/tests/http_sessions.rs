//! Streamable HTTP sessions are bounded (CONTRACT §9.1): an idle session expires and a request naming it gets
//! `404`; past the per-principal cap a new session gets `503` with `Retry-After`, other principals are unaffected.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::http::{HttpServer, tokens_file};
use serde_json::{Value, json};

const ALICE: &str = "alice-token-sessions-1";
const BOB: &str = "bob-token-sessions-2";

async fn start(extra: &[(&str, &str)]) -> HttpServer {
    let dir = tempfile::tempdir().unwrap();
    let tokens = tokens_file(&dir, &[(ALICE, "alice"), (BOB, "bob")]);
    let env = common::server_env("http://127.0.0.1:9", extra);
    HttpServer::start(env, &["--tokens-file", tokens.to_str().unwrap()], dir).await
}

async fn post(server: &HttpServer, token: &str, session: Option<&str>, body: Value) -> reqwest::Response {
    let mut request = reqwest::Client::new()
        .post(&server.url)
        .bearer_auth(token)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .body(serde_json::to_vec(&body).unwrap());
    if let Some(session) = session {
        request = request
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", "2025-06-18");
    }
    request.send().await.unwrap()
}

fn initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}})
}

/// Opens a session for `token`; returns the response (status 200 with a session id, or the refusal).
async fn open(server: &HttpServer, token: &str) -> reqwest::Response {
    let init = post(server, token, None, initialize()).await;
    if init.status() != 200 {
        return init;
    }
    let session = init.headers()["mcp-session-id"].to_str().unwrap().to_string();
    let done = post(
        server,
        token,
        Some(&session),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .await;
    assert_eq!(done.status(), 202);
    init
}

fn ping(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "ping"})
}

#[tokio::test]
async fn an_idle_session_expires_and_gets_404() {
    let server = start(&[
        ("MCP_HTTP_SESSION_IDLE_SECONDS", "1"),
        ("MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL", "1"),
    ])
    .await;
    let init = open(&server, ALICE).await;
    let session = init.headers()["mcp-session-id"].to_str().unwrap().to_string();
    assert_eq!(post(&server, ALICE, Some(&session), ping(1)).await.status(), 200);
    tokio::time::sleep(std::time::Duration::from_millis(2500)).await;
    let late = post(&server, ALICE, Some(&session), ping(2)).await;
    assert_eq!(late.status(), 404, "an expired session must get 404");
    // The client initializes again and carries on: the expired session no longer counts against the cap (1).
    let again = open(&server, ALICE).await;
    assert_eq!(again.status(), 200);
}

#[tokio::test]
async fn past_the_per_principal_cap_a_new_session_gets_503_with_retry_after() {
    let server = start(&[
        ("MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL", "2"),
        ("MCP_HTTP_MAX_SESSIONS", "3"),
    ])
    .await;
    let first = open(&server, ALICE).await;
    assert_eq!(first.status(), 200);
    assert_eq!(open(&server, ALICE).await.status(), 200);
    let refused = open(&server, ALICE).await;
    assert_eq!(refused.status(), 503);
    let retry: u64 = refused.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!(retry >= 1);
    // Bob is not affected by Alice's cap, but the server-wide cap (3) holds for him too.
    assert_eq!(open(&server, BOB).await.status(), 200);
    assert_eq!(open(&server, BOB).await.status(), 503);
    // Alice closes one session: she may open another.
    let session = first.headers()["mcp-session-id"].to_str().unwrap().to_string();
    let deleted = reqwest::Client::new()
        .delete(&server.url)
        .bearer_auth(ALICE)
        .header("mcp-session-id", &session)
        .header("mcp-protocol-version", "2025-06-18")
        .send()
        .await
        .unwrap();
    assert!(deleted.status().is_success(), "{}", deleted.status());
    assert_eq!(open(&server, ALICE).await.status(), 200);
}
