//! The HTTP transport's settings, through the server binary (CONTRACT §9; the behaviour behind each is tested in
//! mcp-serve): connections that send half a request header hold no slot past `MCP_HTTP_HEADER_READ_TIMEOUT_SECONDS`,
//! a client past `MCP_HTTP_MAX_CONNECTIONS` waits and is then served, a principal past `MCP_HTTP_RATE_PER_PRINCIPAL`
//! gets `429` with `Retry-After` while another principal is served, and the `Origin`, session-cap and request-size
//! settings take effect. Each test takes a few seconds at most.
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

/// A `POST` of `body` as `token` with `headers`: the status, the session id and the text.
async fn post(
    server: &HttpServer,
    token: &str,
    headers: &[(&str, &str)],
    body: Vec<u8>,
) -> (u16, Option<String>, String) {
    let mut request = reqwest::Client::new()
        .post(&server.url)
        .bearer_auth(token)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .body(body);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let session = response
        .headers()
        .get("mcp-session-id")
        .map(|value| value.to_str().unwrap().to_string());
    (status, session, response.text().await.unwrap())
}

/// The session, `Origin` and size settings reach the transport (their behaviour is tested in-process in
/// mcp-serve): an origin outside `MCP_HTTP_ALLOWED_ORIGINS` gets `403`, one inside it a session; past
/// `MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL` the older idle session is closed; a body past `MCP_MAX_REQUEST_BYTES` gets
/// `413` naming the limit; the tokens file's principals own their sessions.
#[tokio::test]
async fn session_origin_and_size_settings_reach_the_transport() {
    let server = start(&[
        ("MCP_HTTP_ALLOWED_ORIGINS", "https://app.example.com"),
        ("MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL", "1"),
        ("MCP_MAX_REQUEST_BYTES", "65536"),
    ])
    .await;
    let init = serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}))
    .unwrap();
    let (status, session, _) = post(&server, ALICE, &[("origin", "http://evil.example")], init.clone()).await;
    assert_eq!((status, session), (403, None));
    let (status, first, _) = post(&server, ALICE, &[("origin", "https://app.example.com")], init.clone()).await;
    assert_eq!(status, 200);
    let first = first.expect("a session id");

    let ping = serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": 1, "method": "ping"})).unwrap();
    let on = |session: &str| {
        [
            ("mcp-session-id", session.to_string()),
            ("mcp-protocol-version", "2025-06-18".into()),
        ]
    };
    let headers = on(&first);
    let headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
    assert_eq!(
        post(&server, BOB, &headers, ping.clone()).await.0,
        404,
        "bob cannot use alice's session"
    );
    let mut big = br#"{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":""#.to_vec();
    big.extend(std::iter::repeat_n(b'x', 100_000));
    big.extend_from_slice(b"\"}}");
    let (status, _, text) = post(&server, ALICE, &headers, big).await;
    assert_eq!(status, 413);
    assert!(text.contains("larger than 65536 bytes"), "{text}");

    // Her cap is 1: a second session closes the first (idle).
    let (status, second, _) = post(&server, ALICE, &[], init).await;
    assert_eq!(status, 200);
    assert!(second.is_some());
    assert_eq!(
        post(&server, ALICE, &headers, ping).await.0,
        404,
        "the older session was closed"
    );
}
