//! Streamable HTTP sessions are bounded (CONTRACT §9.1): an idle session expires and a request naming it gets
//! `404`; past a cap the caller's least recently used idle session is closed, and only when none is idle a new
//! session gets `503` with `Retry-After`; other principals are unaffected; concurrent `initialize` requests cannot
//! overshoot a cap.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::http::{HttpServer, tokens_file};
use serde_json::{Value, json};

thread_local! {
    /// One HTTP client per test (each test runs on its own thread): building one per request is slow.
    static CLIENT: reqwest::Client = reqwest::Client::new();
}

fn client() -> reqwest::Client {
    CLIENT.with(Clone::clone)
}

const ALICE: &str = "alice-token-sessions-1";
const BOB: &str = "bob-token-sessions-2";

async fn start(extra: &[(&str, &str)]) -> HttpServer {
    let dir = tempfile::tempdir().unwrap();
    let tokens = tokens_file(&dir, &[(ALICE, "alice"), (BOB, "bob")]);
    let env = common::server_env("http://127.0.0.1:9", extra);
    HttpServer::start(env, &["--tokens-file", tokens.to_str().unwrap()], dir).await
}

async fn post(server: &HttpServer, token: &str, session: Option<&str>, body: Value) -> reqwest::Response {
    let mut request = client()
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

/// A fake upstream that accepts connections and never answers: a tool call against it stays in flight. Gives its
/// URL and the number of connections it holds.
async fn stuck_upstream() -> (String, tokio::sync::watch::Receiver<usize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (count, held_count) = tokio::sync::watch::channel(0);
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((stream, _)) = listener.accept().await {
            held.push(stream);
            count.send_replace(held.len());
        }
    });
    (format!("http://{addr}"), held_count)
}

fn session_of(response: &reqwest::Response) -> String {
    response.headers()["mcp-session-id"].to_str().unwrap().to_string()
}

/// Starts a tool call on `session` that hangs on the stuck upstream (the session is then busy, not idle).
fn hang(server: &HttpServer, session: String) -> tokio::task::JoinHandle<()> {
    let url = server.url.clone();
    tokio::spawn(async move {
        let response = client()
            .post(&url)
            .bearer_auth(ALICE)
            .header("accept", "application/json, text/event-stream")
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", "2025-06-18")
            .json(&json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
                "name": "github_list_workflow_runs", "arguments": {"owner": "octo-org", "repo": "octo-repo"}}}))
            .send()
            .await
            .unwrap();
        // The answer is an event stream: reading it waits for the tool's result.
        let _ = response.text().await;
    })
}

#[tokio::test]
async fn past_the_cap_the_oldest_idle_session_is_closed_and_503_comes_only_when_none_is_idle() {
    let dir = tempfile::tempdir().unwrap();
    let tokens = tokens_file(&dir, &[(ALICE, "alice"), (BOB, "bob")]);
    let (upstream, mut held) = stuck_upstream().await;
    let env = common::server_env(
        &upstream,
        &[
            ("MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL", "2"),
            ("MCP_HTTP_MAX_SESSIONS", "3"),
        ],
    );
    let server = HttpServer::start(env, &["--tokens-file", tokens.to_str().unwrap()], dir).await;
    let first = session_of(&open(&server, ALICE).await);
    let second = session_of(&open(&server, ALICE).await);
    assert_eq!(post(&server, ALICE, Some(&second), ping(1)).await.status(), 200);
    // At her cap (2), a third session closes her least recently used idle one (the first).
    let third = open(&server, ALICE).await;
    assert_eq!(third.status(), 200);
    let third = session_of(&third);
    assert_eq!(post(&server, ALICE, Some(&first), ping(2)).await.status(), 404);
    assert_eq!(post(&server, ALICE, Some(&second), ping(3)).await.status(), 200);
    // Both of her sessions busy with a call in flight: none is idle, so a new one gets 503 with Retry-After.
    let calls = [hang(&server, second.clone()), hang(&server, third.clone())];
    tokio::time::timeout(std::time::Duration::from_secs(10), held.wait_for(|n| *n >= 2))
        .await
        .expect("both calls reached the stuck upstream")
        .unwrap();
    let refused = open(&server, ALICE).await;
    assert_eq!(refused.status(), 503);
    let retry: u64 = refused.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!(retry >= 1);
    assert_eq!(
        post(&server, ALICE, Some(&second), ping(4)).await.status(),
        200,
        "the busy session lives on"
    );
    // Bob is not affected by Alice's cap; the server-wide cap (3) holds for him too, and only his own idle session
    // is closed to make room, never Alice's.
    let bob = session_of(&open(&server, BOB).await);
    assert_eq!(open(&server, BOB).await.status(), 200);
    assert_eq!(post(&server, BOB, Some(&bob), ping(5)).await.status(), 404);
    assert_eq!(post(&server, ALICE, Some(&third), ping(6)).await.status(), 200);
    for call in calls {
        call.abort();
    }
}

#[tokio::test]
async fn a_deleted_session_no_longer_counts() {
    let server = start(&[("MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL", "1")]).await;
    let first = session_of(&open(&server, ALICE).await);
    let deleted = client()
        .delete(&server.url)
        .bearer_auth(ALICE)
        .header("mcp-session-id", &first)
        .header("mcp-protocol-version", "2025-06-18")
        .send()
        .await
        .unwrap();
    assert!(deleted.status().is_success(), "{}", deleted.status());
    assert_eq!(post(&server, ALICE, Some(&first), ping(1)).await.status(), 404);
    assert_eq!(open(&server, ALICE).await.status(), 200);
}

#[tokio::test]
async fn concurrent_initializes_do_not_overshoot_the_cap() {
    let server = start(&[("MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL", "3")]).await;
    let url = server.url.clone();
    let opens: Vec<_> = (0..12)
        .map(|_| {
            let url = url.clone();
            tokio::spawn(async move {
                client()
                    .post(&url)
                    .bearer_auth(ALICE)
                    .header("accept", "application/json, text/event-stream")
                    .json(&initialize())
                    .send()
                    .await
                    .unwrap()
            })
        })
        .collect();
    let mut sessions = Vec::new();
    for open in opens {
        let response = open.await.unwrap();
        match response.status().as_u16() {
            200 => sessions.push(session_of(&response)),
            503 => {}
            other => panic!("unexpected status {other}"),
        }
    }
    assert!(!sessions.is_empty());
    let mut live = 0;
    for (i, session) in sessions.iter().enumerate() {
        let done = post(
            &server,
            ALICE,
            Some(session),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        )
        .await;
        if done.status() == 202 && post(&server, ALICE, Some(session), ping(i as u64)).await.status() == 200 {
            live += 1;
        }
    }
    assert!(live <= 3, "{live} live sessions past a cap of 3");
}
