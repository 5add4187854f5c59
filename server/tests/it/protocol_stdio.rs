//! Every request gets its answer on stdio, cancelled work stops, and no jq worker outlives the server. Raw JSON-RPC
//! lines to the real binary (an SDK client would hide these faults), with its stderr kept for log checks.
#![cfg(target_os = "linux")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{repo_args, server_env};
use recorded_upstream::RecordedUpstream;
use serde_json::{Value, json};
use std::pin::Pin;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader, Lines};
use tokio::net::TcpListener;
use tokio::process::{Child, ChildStdout};
use tokio::sync::mpsc;

const NO_UPSTREAM: &str = "http://127.0.0.1:9";

/// What the server's stdin is.
#[derive(Clone, Copy)]
enum StdinKind {
    /// A pipe (tokio's `Stdio::piped`).
    Pipe,
    /// One end of a Unix socket pair, the other end held open here: how Node (libuv) spawns its children.
    Socket,
}

/// The server over stdio, spoken to in raw lines.
struct Raw {
    child: Child,
    stdin: Option<Pin<Box<dyn AsyncWrite + Send>>>,
    out: Lines<BufReader<ChildStdout>>,
    stderr: Arc<Mutex<String>>,
}

impl Raw {
    async fn start(env: Vec<(String, String)>) -> Raw {
        Raw::start_with(env, StdinKind::Pipe).await
    }

    async fn start_with(env: Vec<(String, String)>, kind: StdinKind) -> Raw {
        let (child_stdin, ours) = match kind {
            StdinKind::Pipe => (Stdio::piped(), None),
            StdinKind::Socket => {
                let (theirs, ours) = std::os::unix::net::UnixStream::pair().unwrap();
                ours.set_nonblocking(true).unwrap();
                (Stdio::from(std::os::fd::OwnedFd::from(theirs)), Some(ours))
            }
        };
        let mut child = tokio::process::Command::new(common::BIN)
            .env_clear()
            .envs(env)
            .stdin(child_stdin)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("spawn the server");
        let stdin: Option<Pin<Box<dyn AsyncWrite + Send>>> = match ours {
            Some(socket) => Some(Box::pin(tokio::net::UnixStream::from_std(socket).unwrap())),
            None => child
                .stdin
                .take()
                .map(|pipe| Box::pin(pipe) as Pin<Box<dyn AsyncWrite + Send>>),
        };
        let out = BufReader::new(child.stdout.take().unwrap()).lines();
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut err_lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let sink = stderr.clone();
        tokio::spawn(async move {
            while let Ok(Some(line)) = err_lines.next_line().await {
                sink.lock().unwrap().push_str(&format!("{line}\n"));
            }
        });
        Raw {
            child,
            stdin,
            out,
            stderr,
        }
    }

    async fn write(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).await.expect("write to the server");
        stdin.flush().await.unwrap();
    }

    async fn send(&mut self, message: Value) {
        let mut line = serde_json::to_vec(&message).unwrap();
        line.push(b'\n');
        self.write(&line).await;
    }

    /// The next line the server writes (at most 30 s), as JSON.
    async fn next(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(30), self.out.next_line())
            .await
            .expect("the server answered in time")
            .unwrap()
            .unwrap_or_else(|| panic!("the server closed stdout; stderr:\n{}", self.logs()));
        serde_json::from_str(&line).expect("the server wrote JSON")
    }

    /// `initialize` at `version` (id 0), then `notifications/initialized`; returns the negotiated revision.
    async fn init(&mut self, version: &str) -> String {
        self.send(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}))
            .await;
        let answer = self.next().await;
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        answer["result"]["protocolVersion"].as_str().unwrap().to_string()
    }

    async fn ping(&mut self, id: u64) {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": "ping"})).await;
        assert_eq!(self.next().await, json!({"jsonrpc": "2.0", "id": id, "result": {}}));
    }

    fn logs(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    fn pid(&self) -> u32 {
        self.child.id().unwrap()
    }
}

fn assert_error(answer: &Value, code: i64, id: Value, contains: &str) {
    assert_eq!(answer["id"], id, "{answer}");
    assert_eq!(answer["error"]["code"], json!(code), "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.contains(contains), "{message}");
}

#[tokio::test]
async fn every_faulty_line_gets_an_error_and_the_session_goes_on() {
    let mut raw = Raw::start(server_env(NO_UPSTREAM, &[("MCP_MAX_REQUEST_BYTES", "1048576")])).await;
    raw.init("2025-06-18").await;

    // A fault after a readable id is answered with that id (a client waits on it), else with `id: null`.
    raw.write(b"{\"jsonrpc\":\"2.0\",\"id\":5,\n").await;
    assert_error(
        &raw.next().await,
        -32700,
        json!(5),
        "Parse error: the message is not valid JSON",
    );
    raw.write(b"{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\n").await;
    assert_error(&raw.next().await, -32700, Value::Null, "not valid JSON");
    raw.write(b"\xff\xfe{\"jsonrpc\":\"2.0\"}\n").await;
    assert_error(&raw.next().await, -32700, Value::Null, "not UTF-8");

    // 130 levels of nesting in the arguments.
    let deep = format!(
        r#"{{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{{"name":"github_list_workflow_runs","arguments":{{"owner":{}1{}}}}}}}"#,
        "[".repeat(130),
        "]".repeat(130)
    );
    raw.write(format!("{deep}\n").as_bytes()).await;
    assert_error(&raw.next().await, -32600, json!(6), "deeper than 128 levels");
    // 200 levels inside the arguments, the id a string.
    let deeper = format!(
        r#"{{"jsonrpc":"2.0","id":"deep-1","method":"tools/call","params":{{"name":"github_list_workflow_runs","arguments":{{"owner":{}1{}}}}}}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    raw.write(format!("{deeper}\n").as_bytes()).await;
    assert_error(&raw.next().await, -32600, json!("deep-1"), "deeper than 128 levels");

    // A line over the limit (2 MiB > 1 MiB) is skipped, answered, and the next line is read normally.
    let mut long = br#"{"jsonrpc":"2.0","id":7,"method":"ping","params":{"pad":""#.to_vec();
    long.extend(std::iter::repeat_n(b'x', 2 * 1024 * 1024));
    long.extend_from_slice(b"\"}}\n");
    raw.write(&long).await;
    assert_error(
        &raw.next().await,
        -32600,
        json!(7),
        "the message is larger than 1048576 bytes (the server's request-size limit)",
    );
    raw.write(b"42\n").await;
    assert_error(
        &raw.next().await,
        -32600,
        Value::Null,
        "a JSON-RPC message is a JSON object",
    );

    raw.ping(8).await;
}

#[tokio::test]
async fn messages_before_initialize_do_not_end_the_process() {
    let mut raw = Raw::start(server_env(NO_UPSTREAM, &[])).await;
    raw.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    raw.send(json!({"jsonrpc": "2.0", "id": 99, "result": {}})).await;
    raw.ping(1).await;
    assert_eq!(raw.init("2025-06-18").await, "2025-06-18");
    raw.ping(2).await;
}

#[tokio::test]
async fn batches_are_answered_per_the_negotiated_revision() {
    let mut old = Raw::start(server_env(NO_UPSTREAM, &[])).await;
    assert_eq!(old.init("2025-03-26").await, "2025-03-26");
    old.send(json!([
        {"jsonrpc": "2.0", "id": "a", "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 1}},
        {"jsonrpc": "2.0", "id": "b", "method": "tools/list"},
        7
    ]))
    .await;
    let answer = old.next().await;
    let items = answer.as_array().unwrap_or_else(|| panic!("one array: {answer}"));
    assert_eq!(items.len(), 3, "{answer}");
    let by_id = |id: Value| items.iter().find(|item| item["id"] == id).unwrap().clone();
    assert_eq!(by_id(json!("a"))["result"], json!({}));
    assert!(by_id(json!("b"))["result"]["tools"].as_array().unwrap().len() > 3);
    assert_error(&by_id(Value::Null), -32600, Value::Null, "JSON object");
    old.ping(1).await;

    let mut new = Raw::start(server_env(NO_UPSTREAM, &[])).await;
    assert_eq!(new.init("2025-06-18").await, "2025-06-18");
    new.send(json!([{"jsonrpc": "2.0", "id": 1, "method": "ping"}])).await;
    assert_error(
        &new.next().await,
        -32600,
        Value::Null,
        "batches are not supported at protocol revision 2025-06-18",
    );
    new.ping(2).await;
}

#[tokio::test]
async fn debug_logs_never_echo_a_bad_line() {
    const SECRET: &str = "ghp_PlantedInABadLine0042";
    let mut raw = Raw::start(server_env(NO_UPSTREAM, &[("RUST_LOG", "debug")])).await;
    raw.init("2025-06-18").await;
    raw.write(format!("{{\"jsonrpc\":\"2.0\",\"id\":3,\"params\":{{\"token\":\"{SECRET}\"}},\n").as_bytes())
        .await;
    assert_error(&raw.next().await, -32700, json!(3), "Parse error");
    raw.write(format!("{{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":7,\"token\":\"{SECRET}\"}}\n").as_bytes())
        .await;
    let _ = raw.next().await;
    // A notification no one can read is dropped with a debug line (which must not echo it either).
    raw.write(format!("{{\"jsonrpc\":\"2.0\",\"method\":7,\"token\":\"{SECRET}\"}}\n").as_bytes())
        .await;
    raw.ping(5).await;
    // stderr is read beside stdout: wait (at most 5 s) for the debug line that was written before the ping's answer.
    let mut logs = raw.logs();
    for _ in 0..100 {
        if logs.contains("ignored a notification") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        logs = raw.logs();
    }
    assert!(logs.contains("DEBUG"), "debug logging is on:\n{logs}");
    assert!(logs.contains("Parse error"), "the log names the problem:\n{logs}");
    assert!(!logs.contains(SECRET), "the log echoes the line:\n{logs}");
}

/// A fake upstream: the first connection never gets an answer; reports `"closed"` when the client closes it, or
/// `"still open"` after 5 s. Later connections get an empty runs page at once.
async fn slow_then_fast_upstream() -> (String, mpsc::Receiver<&'static str>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let uri = format!("http://{}", listener.local_addr().unwrap());
    let (tx, rx) = mpsc::channel(4);
    tokio::spawn(async move {
        let mut first = true;
        loop {
            let (mut socket, _) = listener.accept().await.unwrap();
            let slow = std::mem::take(&mut first);
            let tx = tx.clone();
            tokio::spawn(async move {
                let mut buf = vec![0u8; 64 * 1024];
                let mut seen = Vec::new();
                while !seen.windows(4).any(|w| w == b"\r\n\r\n") {
                    match socket.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => seen.extend_from_slice(&buf[..n]),
                    }
                }
                if slow {
                    let outcome = tokio::select! {
                        _ = socket.read(&mut buf) => "closed",
                        () = tokio::time::sleep(Duration::from_secs(5)) => "still open",
                    };
                    let _ = tx.send(outcome).await;
                } else {
                    let body = r#"{"total_count":0,"workflow_runs":[]}"#;
                    let response = format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                        body.len()
                    );
                    let _ = socket.write_all(response.as_bytes()).await;
                }
            });
        }
    });
    (uri, rx)
}

#[tokio::test]
async fn a_cancelled_call_drops_its_upstream_request_and_the_next_call_works() {
    let (uri, mut outcome) = slow_then_fast_upstream().await;
    let mut raw = Raw::start(server_env(&uri, &[("MCP_STRUCTURED_OUTPUT", "true")])).await;
    raw.init("2025-06-18").await;
    raw.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "github_list_workflow_runs", "arguments": repo_args("slow", json!({}))}}))
        .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    raw.send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1, "reason": "user"}}),
    )
    .await;
    assert_eq!(
        outcome.recv().await,
        Some("closed"),
        "the upstream saw its connection close before its 5 s delay ended"
    );
    raw.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "github_list_workflow_runs", "arguments": repo_args("fast", json!({"outputFormat": "json"}))}}))
        .await;
    let answer = raw.next().await;
    assert_eq!(answer["id"], json!(2), "no answer to the cancelled call: {answer}");
    assert_eq!(answer["result"]["isError"], json!(false), "{answer}");
}

/// Waits (up to ~10 s) until [`common::workers::workers`]`(memory_mib, busy)` is non-empty (`want_some`) or empty,
/// and returns it.
async fn wait_for_workers(memory_mib: u64, busy: bool, want_some: bool) -> Vec<u32> {
    for _ in 0..100 {
        let workers = common::workers::workers(memory_mib, busy);
        if workers.is_empty() != want_some {
            return workers;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    common::workers::workers(memory_mib, busy)
}

#[tokio::test]
async fn a_cancelled_call_kills_its_jq_worker() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let env = server_env(
        &upstream.uri(),
        &[("MCP_JQ_MAX_MEMORY_MIB", "313"), ("MCP_JQ_TIMEOUT_SECONDS", "60")],
    );
    let mut raw = Raw::start(env).await;
    raw.init("2025-06-18").await;
    raw.send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "github_list_workflow_runs",
        "arguments": repo_args("octo-repo", json!({"jq": "last(range(1e15))"}))}}),
    )
    .await;
    assert!(!wait_for_workers(313, true, true).await.is_empty(), "a worker runs");
    raw.send(json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}))
        .await;
    assert_eq!(
        wait_for_workers(313, true, false).await,
        Vec::<u32>::new(),
        "the worker was killed"
    );
    raw.ping(2).await;
}

/// SIGTERM (or SIGINT) while a call runs a jq worker: the server finishes or cancels it within the grace, exits
/// cleanly and leaves no worker, with stdin a pipe or a socket the client keeps open (tokio's blocking-pool stdin
/// once kept a socket-stdin server alive after `serve finished`, until SIGKILL).
async fn signal_ends_the_server_and_its_workers(kind: StdinKind, signal: &str, memory_mib: u64) {
    let upstream = RecordedUpstream::github().await.unwrap();
    let memory = memory_mib.to_string();
    let env = server_env(
        &upstream.uri(),
        &[
            ("MCP_JQ_MAX_MEMORY_MIB", memory.as_str()),
            ("MCP_JQ_TIMEOUT_SECONDS", "60"),
            ("MCP_HTTP_SHUTDOWN_GRACE_SECONDS", "1"),
        ],
    );
    let mut raw = Raw::start_with(env, kind).await;
    raw.init("2025-06-18").await;
    raw.send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "github_list_workflow_runs",
        "arguments": repo_args("octo-repo", json!({"jq": "last(range(1e15))"}))}}),
    )
    .await;
    assert!(
        !wait_for_workers(memory_mib, true, true).await.is_empty(),
        "a worker runs"
    );
    let status = tokio::process::Command::new("kill")
        .args([signal, &raw.pid().to_string()])
        .status()
        .await
        .unwrap();
    assert!(status.success());
    // The grace (1 s), the last answers' 0.2 s and rmcp's end: well under 10 s.
    let exit = tokio::time::timeout(Duration::from_secs(10), raw.child.wait())
        .await
        .unwrap_or_else(|_| panic!("the server exits after {signal}; stderr:\n{}", raw.logs()))
        .unwrap();
    assert!(exit.success(), "a clean exit: {exit:?}\n{}", raw.logs());
    assert_eq!(
        wait_for_workers(memory_mib, false, false).await,
        Vec::<u32>::new(),
        "no orphaned worker"
    );
    assert!(raw.stdin.is_some(), "stdin was held open all along");
}

#[tokio::test]
async fn sigterm_ends_the_stdio_server_and_its_jq_workers() {
    signal_ends_the_server_and_its_workers(StdinKind::Pipe, "-TERM", 317).await;
}

#[tokio::test]
async fn sigterm_ends_the_stdio_server_whose_stdin_is_an_open_socket() {
    signal_ends_the_server_and_its_workers(StdinKind::Socket, "-TERM", 321).await;
}

#[tokio::test]
async fn sigint_ends_the_stdio_server_whose_stdin_is_an_open_socket() {
    signal_ends_the_server_and_its_workers(StdinKind::Socket, "-INT", 323).await;
}

#[tokio::test]
async fn sigkill_of_the_server_still_ends_its_jq_workers() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let env = server_env(
        &upstream.uri(),
        &[("MCP_JQ_MAX_MEMORY_MIB", "319"), ("MCP_JQ_TIMEOUT_SECONDS", "60")],
    );
    let mut raw = Raw::start(env).await;
    raw.init("2025-06-18").await;
    raw.send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "github_list_workflow_runs",
        "arguments": repo_args("octo-repo", json!({"jq": "last(range(1e15))"}))}}),
    )
    .await;
    assert!(!wait_for_workers(319, true, true).await.is_empty(), "a worker runs");
    raw.child.start_kill().unwrap();
    raw.child.wait().await.unwrap();
    assert_eq!(
        wait_for_workers(319, false, false).await,
        Vec::<u32>::new(),
        "the parent-death signal ended the worker"
    );
}
