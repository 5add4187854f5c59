//! Connections served on single-threaded runtimes ([`ConnectionThreads`]), through real TCP on 127.0.0.1: each
//! connection goes to the next thread, a session opened on one connection is served from another (on another
//! thread), and the threads end when the server has shut down.

use std::net::SocketAddr;
use std::time::Duration;

use mcp_serve::http::{ConnectionThreads, Drain, HttpConfig};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::support::{self, ALICE};

/// A server whose every tool answers the name of the thread its handler ran on.
#[derive(Clone, Default)]
struct WhichThread;

impl ServerHandler for WhichThread {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn call_tool(
        &self,
        _request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = std::thread::current().name().unwrap_or_default().to_string();
        Ok(CallToolResult::success(vec![ContentBlock::text(name)]).into())
    }
}

/// The live threads of this process whose name starts with `prefix` (Linux: `/proc/self/task/*/comm`).
fn threads_named(prefix: &str) -> usize {
    std::fs::read_dir("/proc/self/task")
        .map(|tasks| {
            tasks
                .flatten()
                .filter(|task| {
                    std::fs::read_to_string(task.path().join("comm")).is_ok_and(|name| name.starts_with(prefix))
                })
                .count()
        })
        .unwrap_or(0)
}

/// `POST`s `body` as Alice on `session` over `client`'s connection: the session id answered and the message.
async fn post(
    client: &reqwest::Client,
    addr: SocketAddr,
    session: Option<&str>,
    body: Value,
) -> (Option<String>, Value) {
    let mut request = client
        .post(format!("http://{addr}/mcp"))
        .bearer_auth(ALICE)
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .json(&body);
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
    }
    let response = request.send().await.unwrap();
    assert!(response.status().is_success(), "{}", response.status());
    let id = response
        .headers()
        .get("mcp-session-id")
        .map(|id| id.to_str().unwrap().to_string());
    let text = response.text().await.unwrap();
    let message = text
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .filter_map(|data| serde_json::from_str(data.trim()).ok())
        .next_back()
        .unwrap_or(Value::Null);
    (id, message)
}

/// The thread name a `tools/call` on `session` answers.
async fn thread_of_call(client: &reqwest::Client, addr: SocketAddr, session: &str) -> String {
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "which"}});
    let (_, message) = post(client, addr, Some(session), call).await;
    message["result"]["content"][0]["text"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn connections_are_spread_over_the_threads_and_sessions_cross_them() {
    let (auth, _dir) = support::alice_and_bob();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let config = HttpConfig::default()
        .with_threads(ConnectionThreads::default().with_count(2))
        .with_shutdown_grace(Duration::from_secs(1));
    let stop = CancellationToken::new();
    let shutdown = stop.clone().cancelled_owned();
    let before = threads_named("mcp-http-");
    let served = tokio::spawn(async move {
        mcp_serve::http::serve(
            WhichThread::default,
            listener,
            auth,
            &config,
            Drain::default(),
            shutdown,
        )
        .await
    });

    // Two clients, two connections: one on each thread, each session served where it was opened.
    let mut sessions = Vec::new();
    for _ in 0..2 {
        let client = reqwest::Client::new();
        let (id, _) = post(&client, addr, None, support::initialize("2025-06-18")).await;
        let id = id.expect("a session id");
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        post(&client, addr, Some(&id), initialized).await;
        let thread = thread_of_call(&client, addr, &id).await;
        assert!(thread.starts_with("mcp-http-"), "{thread}");
        sessions.push((client, id, thread));
    }
    assert_ne!(
        sessions[0].2, sessions[1].2,
        "the second connection went to the other thread"
    );
    assert_eq!(threads_named("mcp-http-"), before + 2);

    // The first session, called over the second client's connection (the other thread): served where it lives.
    let thread = thread_of_call(&sessions[1].0, addr, &sessions[0].1).await;
    assert_eq!(thread, sessions[0].2);

    drop(sessions);
    stop.cancel();
    tokio::time::timeout(Duration::from_secs(10), served)
        .await
        .expect("the server shut down")
        .unwrap()
        .unwrap();
    let ended = async {
        while threads_named("mcp-http-") > before {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(5), ended)
        .await
        .expect("the connection threads ended");
}
