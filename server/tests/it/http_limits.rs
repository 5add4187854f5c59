//! Slow clients and greedy principals over HTTP (CONTRACT §9.2, §9.3), through the server binary and its settings:
//! connections that send half a request header hold no slot past `MCP_HTTP_HEADER_READ_TIMEOUT_SECONDS`, a client
//! past `MCP_HTTP_MAX_CONNECTIONS` waits and is then served, and a principal past `MCP_HTTP_RATE_PER_PRINCIPAL` gets
//! `429` with `Retry-After` while another principal is served. Each test takes a few seconds at most.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::time::{Duration, Instant};

use common::http::{HttpServer, tokens_file};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const ALICE: &str = "alice-token-limits-1";
const BOB: &str = "bob-token-limits-2";

async fn start(extra: &[(&str, &str)]) -> HttpServer {
    let dir = tempfile::tempdir().unwrap();
    let tokens = tokens_file(&dir, &[(ALICE, "alice"), (BOB, "bob")]);
    let env = common::server_env("http://127.0.0.1:9", extra);
    HttpServer::start(env, &["--tokens-file", tokens.to_str().unwrap()], dir).await
}

/// The `host:port` of the server.
fn authority(server: &HttpServer) -> String {
    let rest = server.url.strip_prefix("http://").unwrap();
    rest.split('/').next().unwrap().to_string()
}

/// An `initialize` as `token`: the status and `Retry-After`.
async fn initialize(server: &HttpServer, token: &str) -> (u16, Option<String>) {
    let response = reqwest::Client::new()
        .post(&server.url)
        .bearer_auth(token)
        .header("accept", "application/json, text/event-stream")
        .json(&json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}))
        .send()
        .await
        .unwrap();
    let retry = response
        .headers()
        .get("retry-after")
        .map(|value| value.to_str().unwrap().to_string());
    (response.status().as_u16(), retry)
}

/// Reads until the server closes `stream`; panics when it is still open after `within`.
async fn closed_within(stream: &mut TcpStream, within: Duration) {
    let mut buf = [0u8; 1024];
    tokio::time::timeout(within, async {
        while let Ok(n) = stream.read(&mut buf).await {
            if n == 0 {
                break;
            }
        }
    })
    .await
    .expect("the server closed the slow connection");
}

#[tokio::test]
async fn half_sent_headers_are_cut_off_and_a_waiting_client_is_then_served() {
    let server = start(&[
        ("MCP_HTTP_HEADER_READ_TIMEOUT_SECONDS", "1"),
        ("MCP_HTTP_MAX_CONNECTIONS", "3"),
    ])
    .await;
    let mut slow = Vec::new();
    for _ in 0..3 {
        let mut stream = TcpStream::connect(authority(&server)).await.unwrap();
        stream
            .write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            .await
            .unwrap();
        slow.push(stream);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    // Every connection slot is held by a slow client: this one waits until the header-read timeout frees them.
    let started = Instant::now();
    let (status, _) = tokio::time::timeout(Duration::from_secs(10), initialize(&server, ALICE))
        .await
        .expect("served once the slow connections were cut");
    assert_eq!(status, 200);
    assert!(
        started.elapsed() >= Duration::from_millis(500),
        "served past the connection cap of 3: {:?}",
        started.elapsed()
    );
    for stream in &mut slow {
        closed_within(stream, Duration::from_secs(5)).await;
    }
}

#[tokio::test]
async fn past_the_rate_a_principal_gets_429_and_another_is_served() {
    let server = start(&[("MCP_HTTP_RATE_PER_PRINCIPAL", "2")]).await;
    let calls: Vec<_> = (0..10)
        .map(|_| {
            let url = server.url.clone();
            tokio::spawn(async move {
                let response = reqwest::Client::new()
                    .post(&url)
                    .bearer_auth(ALICE)
                    .header("accept", "application/json, text/event-stream")
                    .json(&json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                        "protocolVersion": "2025-06-18", "capabilities": {},
                        "clientInfo": {"name": "raw", "version": "1"}}}))
                    .send()
                    .await
                    .unwrap();
                let retry = response.headers().get("retry-after").cloned();
                (response.status().as_u16(), retry)
            })
        })
        .collect();
    let mut refused = 0;
    for call in calls {
        let (status, retry) = call.await.unwrap();
        if status == 429 {
            refused += 1;
            assert!(retry.is_some(), "429 without Retry-After");
        } else {
            assert_eq!(status, 200);
        }
    }
    assert!(
        refused >= 1,
        "ten calls at once past a rate of 2 per second: none refused"
    );
    let (status, _) = initialize(&server, BOB).await;
    assert_eq!(status, 200, "bob has his own rate");
}
