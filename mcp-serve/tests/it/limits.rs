//! The HTTP transport under hostile clients, through real TCP on 127.0.0.1: half-sent headers and idle keep-alive
//! connections are cut after the header-read timeout, a stalled body gets `408`, connections past the cap wait
//! until one closes, and one principal past its fair share gets `429` + `Retry-After` while another is served.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::time::{Duration, Instant};

use mcp_serve::http::{ConnectionLimits, Drain, FairShare, HttpConfig};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_util::sync::CancellationToken;

use crate::support::{self, ALICE, BOB};

/// A server whose one tool sleeps `arguments.ms` milliseconds.
#[derive(Clone, Default)]
struct Sleeper;

impl ServerHandler for Sleeper {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let ms = request
            .arguments
            .as_ref()
            .and_then(|args| args.get("ms"))
            .and_then(Value::as_u64)
            .unwrap_or(0);
        tokio::time::sleep(Duration::from_millis(ms)).await;
        Ok(CallToolResult::success(vec![ContentBlock::text("slept")]).into())
    }
}

struct Running {
    addr: SocketAddr,
    stop: CancellationToken,
    _dir: tempfile::TempDir,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

async fn start(config: HttpConfig) -> Running {
    let (auth, dir) = support::alice_and_bob();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let stop = CancellationToken::new();
    let shutdown = stop.clone().cancelled_owned();
    tokio::spawn(async move {
        mcp_serve::http::serve(Sleeper::default, listener, auth, &config, Drain::default(), shutdown)
            .await
            .unwrap();
    });
    Running { addr, stop, _dir: dir }
}

fn stateless(connections: ConnectionLimits, fair: FairShare) -> HttpConfig {
    HttpConfig::default()
        .with_stateless(true)
        .with_connections(connections)
        .with_fair(fair)
        .with_shutdown_grace(Duration::from_secs(1))
}

/// A `tools/call` of the sleeping tool as `token`: the status, `Retry-After` and body.
async fn call(addr: SocketAddr, token: &str, ms: u64) -> (u16, Option<String>, String) {
    let response = reqwest::Client::new()
        .post(format!("http://{addr}/mcp"))
        .bearer_auth(token)
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "sleep", "arguments": {"ms": ms}}}))
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let retry = response
        .headers()
        .get("retry-after")
        .map(|value| value.to_str().unwrap().to_string());
    (status, retry, response.text().await.unwrap())
}

/// Reads until the server closes the connection; how long that took.
async fn until_closed(stream: &mut TcpStream, within: Duration) -> Duration {
    let started = Instant::now();
    let mut buf = [0u8; 4096];
    tokio::time::timeout(within, async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
        }
    })
    .await
    .expect("the server closed the connection in time");
    started.elapsed()
}

#[tokio::test]
async fn slow_headers_idle_keep_alive_and_stalled_bodies_are_cut_off() {
    let limits = ConnectionLimits::default()
        .with_header_read_timeout(Duration::from_secs(1))
        .with_body_read_timeout(Duration::from_secs(1));
    let server = start(stateless(limits, FairShare::default())).await;

    // Half a request header, then nothing: closed after the header-read timeout.
    let mut half = TcpStream::connect(server.addr).await.unwrap();
    half.write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .await
        .unwrap();
    // Meanwhile a normal client is served.
    let (status, _, body) = call(server.addr, ALICE, 0).await;
    assert_eq!(status, 200, "{body}");
    let took = until_closed(&mut half, Duration::from_secs(5)).await;
    assert!(took >= Duration::from_millis(500), "closed too early: {took:?}");

    // A keep-alive connection idle after its request: closed after the same time.
    let mut idle = TcpStream::connect(server.addr).await.unwrap();
    idle.write_all(b"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await
        .unwrap();
    let mut head = [0u8; 12];
    idle.read_exact(&mut head).await.unwrap();
    assert_eq!(&head, b"HTTP/1.1 401", "answered (no token), and kept alive");
    until_closed(&mut idle, Duration::from_secs(5)).await;

    // A body that stops after 10 of its 100 bytes: 408 after the body-read timeout.
    let mut stalled = TcpStream::connect(server.addr).await.unwrap();
    let token = format!("Authorization: Bearer {ALICE}\r\n");
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n{token}Accept: application/json, text/event-stream\r\n\
         Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"jsonrpc\""
    );
    stalled.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), stalled.read_to_end(&mut answer))
        .await
        .expect("answered and closed in time")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
}

#[tokio::test]
async fn connections_past_the_cap_wait_until_one_closes() {
    let limits = ConnectionLimits::default()
        .with_max_connections(2)
        .with_header_read_timeout(Duration::from_secs(2));
    let server = start(stateless(limits, FairShare::default())).await;
    let _hold_one = TcpStream::connect(server.addr).await.unwrap();
    let _hold_two = TcpStream::connect(server.addr).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let started = Instant::now();
    let third = tokio::spawn(call(server.addr, ALICE, 0));
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert!(!third.is_finished(), "a third connection was served past the cap of 2");
    let (status, _, body) = tokio::time::timeout(Duration::from_secs(10), third)
        .await
        .expect("served once the idle connections were cut")
        .unwrap();
    assert_eq!(status, 200, "{body}");
    assert!(started.elapsed() >= Duration::from_millis(1500));
}

#[tokio::test]
async fn one_principal_past_its_share_gets_429_and_others_are_served() {
    let fair = FairShare::default()
        .with_max_concurrent_per_principal(2)
        .with_rate_per_principal(None);
    let server = start(stateless(ConnectionLimits::default(), fair)).await;
    let slow: Vec<_> = (0..2).map(|_| tokio::spawn(call(server.addr, ALICE, 2000))).collect();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (status, retry, body) = call(server.addr, ALICE, 0).await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(retry.as_deref(), Some("1"));
    let (status, _, body) = call(server.addr, BOB, 0).await;
    assert_eq!(status, 200, "bob is unaffected: {body}");
    for call in slow {
        let (status, _, body) = call.await.unwrap();
        assert_eq!(status, 200, "{body}");
    }
    let (status, _, body) = call(server.addr, ALICE, 0).await;
    assert_eq!(status, 200, "alice is served again once her calls ended: {body}");
}

#[tokio::test]
async fn a_call_arriving_as_its_principals_share_frees_up_waits_instead_of_429() {
    // A client keeping exactly its share busy sends its next call the moment it reads an answer, which can be just
    // before the server has ended that answer's stream (cpu_per_call saw a 429 so).
    let fair = FairShare::default()
        .with_max_concurrent_per_principal(1)
        .with_rate_per_principal(None);
    let server = start(stateless(ConnectionLimits::default(), fair)).await;
    let first = tokio::spawn(call(server.addr, ALICE, 40));
    tokio::time::sleep(Duration::from_millis(10)).await;
    let (status, _, body) = call(server.addr, ALICE, 0).await;
    assert_eq!(status, 200, "waited for the first call to end: {body}");
    assert_eq!(first.await.unwrap().0, 200);
}

#[tokio::test]
async fn a_rate_per_principal_answers_429_with_retry_after() {
    let fair = FairShare::default()
        .with_max_concurrent_per_principal(100)
        .with_rate_per_principal(NonZeroU32::new(2));
    let server = start(stateless(ConnectionLimits::default(), fair)).await;
    // Ten calls at once: the burst (2) passes, the rest would need seconds of refill.
    let calls: Vec<_> = (0..10).map(|_| tokio::spawn(call(server.addr, ALICE, 0))).collect();
    let mut served = 0;
    let mut refused = 0;
    for call in calls {
        let (status, retry, body) = call.await.unwrap();
        match status {
            200 => served += 1,
            429 => {
                refused += 1;
                let retry: u64 = retry.expect("Retry-After").parse().unwrap();
                assert!((1..=2).contains(&retry), "{retry}");
            }
            other => panic!("unexpected {other}: {body}"),
        }
    }
    assert!(served >= 2, "the burst is served: {served}");
    assert!(refused >= 1, "calls past the rate are refused: {refused}");
    let (status, _, body) = call(server.addr, BOB, 0).await;
    assert_eq!(status, 200, "bob has his own rate: {body}");
}
