//! A raw JSON-RPC driver over the server's stdio: it keeps every response line exactly as the server wrote it, for
//! byte-for-byte comparisons and wire snapshots.

use std::process::Stdio;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout};

/// A server child process spoken to line by line.
pub struct RawSession {
    child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
    next_id: u64,
    /// The raw `initialize` response line.
    pub initialize: String,
}

impl RawSession {
    /// Spawns the server with `env` and completes the `initialize` handshake (protocol 2025-06-18).
    pub async fn start(env: Vec<(String, String)>) -> Self {
        let mut child = tokio::process::Command::new(super::BIN)
            .env_clear()
            .envs(env)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .expect("spawn the server");
        let stdin = child.stdin.take().expect("stdin");
        let lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let mut session = RawSession {
            child,
            stdin,
            lines,
            next_id: 1,
            initialize: String::new(),
        };
        session.initialize = session
            .request(
                "initialize",
                json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}),
            )
            .await;
        session
            .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        session
    }

    async fn send(&mut self, message: &Value) {
        let mut line = serde_json::to_vec(message).expect("serialize");
        line.push(b'\n');
        self.stdin.write_all(&line).await.expect("write to the server");
        self.stdin.flush().await.expect("flush");
    }

    /// Sends a request and returns the raw response line (without the newline).
    pub async fn request(&mut self, method: &str, params: Value) -> String {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        loop {
            let line = self
                .lines
                .next_line()
                .await
                .expect("read")
                .expect("the server closed stdout");
            // Any depth (CONTRACT §8): parsed on a growing stack and freed without recursion.
            let value: Value = adapters_http::decode::parse_json(line.as_bytes()).expect("the server wrote JSON");
            let answered = value["id"] == json!(id);
            mcp_envelope::nesting::drop_flat(value);
            if answered {
                return line;
            }
        }
    }

    /// `tools/list`, raw.
    pub async fn list_tools(&mut self) -> String {
        self.request("tools/list", json!({})).await
    }

    /// `tools/call`, raw.
    pub async fn call(&mut self, tool: &str, arguments: Value) -> String {
        self.request("tools/call", json!({"name": tool, "arguments": arguments}))
            .await
    }

    /// Closes stdin and waits for the server to exit.
    pub async fn stop(mut self) {
        drop(self.stdin);
        let _ = tokio::time::timeout(std::time::Duration::from_secs(5), self.child.wait()).await;
    }
}
