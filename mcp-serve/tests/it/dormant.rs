//! Quiet streamable-HTTP sessions sleep and come back, through real TCP on 127.0.0.1: a session with nothing in
//! flight for `dormant_after` loses its rmcp worker (the next request restores it, replaying `initialize` to a fresh
//! handler), a session in use keeps it, and a sleeping session still expires after the idle time with `404`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use mcp_serve::Principal;
use mcp_serve::http::{Auth, Drain, HttpConfig, SessionLimits};
use rmcp::model::{InitializeRequestParams, InitializeResult, ServerCapabilities, ServerConfig};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

/// A server that counts the `initialize` requests it answers (a restore replays one).
#[derive(Clone)]
struct Counting(Arc<AtomicUsize>);

impl ServerHandler for Counting {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        self.0.fetch_add(1, Ordering::SeqCst);
        context.peer.set_peer_info(request.clone());
        self.negotiate_initialize(&request)
    }
}

struct Running {
    addr: SocketAddr,
    initializes: Arc<AtomicUsize>,
    stop: CancellationToken,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

async fn start(sessions: SessionLimits) -> Running {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let auth = Auth::open(addr, Principal::local_user()).unwrap();
    let initializes = Arc::new(AtomicUsize::new(0));
    let handler = Counting(initializes.clone());
    let config = HttpConfig::default()
        .with_sessions(sessions)
        .with_shutdown_grace(Duration::from_secs(1));
    let stop = CancellationToken::new();
    let shutdown = stop.clone().cancelled_owned();
    tokio::spawn(async move {
        mcp_serve::http::serve(
            move || handler.clone(),
            listener,
            auth,
            &config,
            Drain::default(),
            shutdown,
        )
        .await
        .unwrap();
    });
    Running {
        addr,
        initializes,
        stop,
    }
}

/// A `POST` of `body` on `session`: the status and the body.
async fn post(addr: SocketAddr, session: Option<&str>, body: Value) -> (u16, Option<String>, String) {
    let mut request = reqwest::Client::new()
        .post(format!("http://{addr}/mcp"))
        .header("accept", "application/json, text/event-stream")
        .json(&body);
    if let Some(session) = session {
        request = request
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", "2025-06-18");
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let id = response
        .headers()
        .get("mcp-session-id")
        .map(|value| value.to_str().unwrap().to_string());
    (status, id, response.text().await.unwrap())
}

async fn open(addr: SocketAddr) -> String {
    let (status, id, _) = post(
        addr,
        None,
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
    )
    .await;
    assert_eq!(status, 200);
    let session = id.expect("a session id");
    let (status, _, _) = post(
        addr,
        Some(&session),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .await;
    assert_eq!(status, 202);
    session
}

/// `tools/list` on `session` answers with a result.
async fn list(addr: SocketAddr, session: &str) {
    let (status, _, body) = post(
        addr,
        Some(session),
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"result\""), "{body}");
}

#[tokio::test]
async fn a_quiet_session_sleeps_and_the_next_request_restores_it() {
    let server = start(
        SessionLimits::default()
            .with_idle(Duration::from_secs(60))
            .with_dormant_after(Duration::from_secs(2)),
    )
    .await;
    let session = open(server.addr).await;
    // In use (requests within `dormant_after`): no sleep, no restore.
    let opened = server.initializes.load(Ordering::SeqCst);
    list(server.addr, &session).await;
    assert_eq!(server.initializes.load(Ordering::SeqCst), opened);
    // Quiet past `dormant_after`: the worker ended; the next request restores it (one more `initialize`), the one
    // after that finds it live.
    tokio::time::sleep(Duration::from_secs(3)).await;
    list(server.addr, &session).await;
    assert_eq!(server.initializes.load(Ordering::SeqCst), opened + 1);
    list(server.addr, &session).await;
    assert_eq!(server.initializes.load(Ordering::SeqCst), opened + 1);
}

#[tokio::test]
async fn a_sleeping_session_still_expires_with_404() {
    let server = start(
        SessionLimits::default()
            .with_idle(Duration::from_secs(2))
            .with_dormant_after(Duration::from_millis(200)),
    )
    .await;
    let session = open(server.addr).await;
    let opened = server.initializes.load(Ordering::SeqCst);
    // It sleeps: the next request restores it (one more `initialize`).
    tokio::time::sleep(Duration::from_millis(600)).await;
    list(server.addr, &session).await;
    assert_eq!(server.initializes.load(Ordering::SeqCst), opened + 1);
    // It sleeps again, then expires while asleep.
    let opened = opened + 1;
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let (status, _, _) = post(
        server.addr,
        Some(&session),
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    )
    .await;
    assert_eq!(status, 404);
    // Not restored: no handler saw another `initialize`.
    assert_eq!(server.initializes.load(Ordering::SeqCst), opened);
}
