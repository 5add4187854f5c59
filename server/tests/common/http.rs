//! An `mcp-devtools --http 127.0.0.1:0` child process: its URL (read from the line it prints on stderr), its whole
//! stderr (for log checks), a tokens file for named principals, and rmcp streamable-HTTP clients.

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, RoleClient};
use sha2::{Digest, Sha256};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Child;

/// A running HTTP server child.
pub struct HttpServer {
    /// The child process (killed on drop).
    pub child: Child,
    /// `http://127.0.0.1:PORT/mcp`.
    pub url: String,
    /// Everything the server wrote on stderr so far.
    pub stderr: Arc<Mutex<String>>,
    /// Temporary files (tokens, policy) kept alive as long as the server.
    pub dir: tempfile::TempDir,
}

/// The environment a bench starts the server with: `upstream`'s settings (every vendor pointed at the recorded
/// upstream, `RecordedUpstream::env`), structured output on, artifacts in memory, only errors logged, and `PATH`.
pub fn bench_env(upstream: &recorded_upstream::RecordedUpstream) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = upstream
        .env()
        .into_iter()
        .map(|(name, value)| (name.to_owned(), value))
        .collect();
    env.extend([
        ("PATH".to_owned(), std::env::var("PATH").unwrap_or_default()),
        ("MCP_STRUCTURED_OUTPUT".to_owned(), "true".to_owned()),
        ("STREAMING_ARTIFACT_STORE".to_owned(), "memory".to_owned()),
        ("RUST_LOG".to_owned(), "error".to_owned()),
    ]);
    env
}

/// Writes a tokens file mapping SHA-256(token) → principal for each pair, into `dir`.
pub fn tokens_file(dir: &tempfile::TempDir, pairs: &[(&str, &str)]) -> PathBuf {
    let mut text = String::from("[tokens]\n");
    for (token, principal) in pairs {
        text.push_str(&format!(
            "\"{}\" = \"{principal}\"\n",
            hex::encode(Sha256::digest(token.as_bytes()))
        ));
    }
    let path = dir.path().join("tokens.toml");
    std::fs::write(&path, text).unwrap();
    path
}

impl HttpServer {
    /// Starts the binary with `env` (nothing else inherited) and `args` after `--http 127.0.0.1:0`; waits (at most
    /// 20 s) for the line naming its URL.
    pub async fn start(env: Vec<(String, String)>, args: &[&str], dir: tempfile::TempDir) -> HttpServer {
        Self::start_bin(super::BIN, env, args, dir).await
    }

    /// [`HttpServer::start`] of the binary at `bin` (a bench compares two builds).
    pub async fn start_bin(bin: &str, env: Vec<(String, String)>, args: &[&str], dir: tempfile::TempDir) -> HttpServer {
        let mut child = tokio::process::Command::new(bin)
            .env_clear()
            .envs(env)
            .current_dir(dir.path())
            .args(["--http", "127.0.0.1:0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("spawn the server");
        let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
        let stderr = Arc::new(Mutex::new(String::new()));
        let url = tokio::time::timeout(Duration::from_secs(20), async {
            loop {
                let line = lines
                    .next_line()
                    .await
                    .unwrap()
                    .unwrap_or_else(|| panic!("the server exited: {}", stderr.lock().unwrap()));
                stderr.lock().unwrap().push_str(&format!("{line}\n"));
                if let Some(url) = line.strip_prefix("mcp-devtools: serving streamable HTTP at ") {
                    return url.to_string();
                }
            }
        })
        .await
        .expect("the server printed its URL");
        let sink = stderr.clone();
        tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                sink.lock().unwrap().push_str(&format!("{line}\n"));
            }
        });
        HttpServer {
            child,
            url,
            stderr,
            dir,
        }
    }

    /// An rmcp client over streamable HTTP sending `Authorization: Bearer <token>`.
    pub async fn client(&self, token: &str) -> RunningService<RoleClient, ()> {
        self.client_as(token, (), ClientLifecycleMode::Initialize).await
    }

    /// [`HttpServer::client`] with `handler` as the client (its capabilities, its notification handlers), in the
    /// `lifecycle` it asks for: [`ClientLifecycleMode::Initialize`] (what [`HttpServer::client`] does), or
    /// `server/discover` with every request carrying the client's capabilities in `_meta` (MCP 2026-07-28: what a
    /// stateless server needs to see them).
    pub async fn client_as<H: ClientHandler>(
        &self,
        token: &str,
        handler: H,
        lifecycle: ClientLifecycleMode,
    ) -> RunningService<RoleClient, H> {
        let config = StreamableHttpClientTransportConfig::with_uri(self.url.clone()).auth_header(token.to_string());
        handler
            .serve_with_lifecycle(StreamableHttpClientTransport::from_config(config), lifecycle)
            .await
            .unwrap_or_else(|err| panic!("MCP handshake over HTTP: {err:?}\nserver log:\n{}", self.logs()))
    }

    /// Sends SIGTERM and waits (at most 30 s) for the exit status.
    pub async fn terminate(&mut self) -> std::process::ExitStatus {
        let pid = self.child.id().expect("the server is running").to_string();
        let status = tokio::process::Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .await
            .unwrap();
        assert!(status.success());
        tokio::time::timeout(Duration::from_secs(30), self.child.wait())
            .await
            .expect("the server exits after SIGTERM")
            .unwrap()
    }

    /// The server's stderr so far.
    pub fn logs(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }
}
