//! Shared helpers for the whole-chain tests: MCP client → `mcp-devtools` binary (child process, stdio) → wiremock
//! upstream serving the recorded fixtures.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

pub mod faults;
pub mod http;
pub mod oauth;
pub mod proxy;
pub mod raw;
pub mod tls;
pub mod workers;

use std::process::Stdio;
use std::sync::Arc;

use rmcp::model::{CallToolRequestParams, CallToolResult, Tool};
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value;
use tokio::io::AsyncReadExt as _;
use tokio::sync::Mutex;

pub use recorded_upstream::check::{assert_valid, fixture_json, is_rfc3339_millis_utc, repo_args, text};

/// The server binary built by cargo for these tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_mcp-devtools");

/// The environment a test server runs with: nothing inherited but PATH, so no real token or config leaks in. Its log
/// level is `error`: warnings the tests provoke on purpose (a refused call, a full quota, a clamped setting) would
/// otherwise leak into the test output; a test that checks the log sets `RUST_LOG` itself in `extra`.
pub fn server_env(upstream: &str, extra: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut env = vec![
        ("PATH".to_string(), std::env::var("PATH").unwrap_or_default()),
        ("USER".to_string(), "tester".to_string()),
        ("GITHUB_API_BASE".to_string(), upstream.to_string()),
        ("GITHUB_TOKEN".to_string(), "test-token".to_string()),
        ("STREAMING_ARTIFACT_STORE".to_string(), "memory".to_string()),
        ("RUST_LOG".to_string(), "error".to_string()),
    ];
    for (key, value) in extra {
        env.retain(|(k, _)| k != key);
        env.push((key.to_string(), value.to_string()));
    }
    env
}

/// An rmcp client connected to a fresh server child process with `env`.
pub async fn connect(env: Vec<(String, String)>) -> RunningService<RoleClient, ()> {
    let command = tokio::process::Command::new(BIN).configure(|cmd| {
        cmd.env_clear().envs(env);
    });
    ().serve(TokioChildProcess::new(command).expect("spawn the server"))
        .await
        .expect("MCP handshake")
}

/// [`connect`], with the server's stderr (its log) gathered into the returned buffer as it is written.
pub async fn connect_logged(env: Vec<(String, String)>) -> (RunningService<RoleClient, ()>, Arc<Mutex<Vec<u8>>>) {
    let command = tokio::process::Command::new(BIN).configure(|cmd| {
        cmd.env_clear().envs(env);
    });
    let (transport, stderr) = TokioChildProcess::builder(command)
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn the server");
    let log = Arc::new(Mutex::new(Vec::new()));
    if let Some(mut stderr) = stderr {
        let log = Arc::clone(&log);
        tokio::spawn(async move {
            let mut chunk = [0u8; 8192];
            while let Ok(n) = stderr.read(&mut chunk).await {
                if n == 0 {
                    break;
                }
                log.lock().await.extend_from_slice(&chunk[..n]);
            }
        });
    }
    let client = ().serve(transport).await.expect("MCP handshake");
    (client, log)
}

/// Calls `tool` with `args` (a JSON object).
pub async fn call(client: &RunningService<RoleClient, ()>, tool: &str, args: Value) -> CallToolResult {
    let args = args.as_object().cloned().expect("arguments are an object");
    client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args))
        .await
        .expect("tools/call")
}

/// `tools/list`'s entry for `name` (its schemas), from every page.
pub async fn listed_tool(client: &RunningService<RoleClient, ()>, name: &str) -> Tool {
    client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("{name} is listed"))
}

/// A server against every vendor of `upstream` (its settings, [`recorded_upstream::RecordedUpstream::env`]) with
/// `structuredContent` on, and `extra` settings.
pub async fn connect_to_all(
    upstream: &recorded_upstream::RecordedUpstream,
    extra: &[(&str, &str)],
) -> RunningService<RoleClient, ()> {
    let settings: Vec<(String, String)> = upstream.env().into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
    let mut pairs: Vec<(&str, &str)> = settings.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    pairs.push(("MCP_STRUCTURED_OUTPUT", "true"));
    pairs.extend_from_slice(extra);
    connect(server_env(&upstream.uri(), &pairs)).await
}
