//! The wait tools through SDK clients we did not write (issue 41): the official TypeScript SDK client
//! (`clients/ts/wait.mjs`) over stdio and streamable HTTP, and the official Python SDK client
//! (`clients/python/wait.py`) over stdio, call `github_wait_for_run` on live runs of the recorded upstream
//! ([`Live`]: `in_progress` for a number of polls, then `completed` with a failed job), the server polling fast
//! (`MCP_WAIT_POLL_MS` 100, a heartbeat every 300 ms).
//!
//! The scripts check what the clients see: the progress notifications (they arrive, increase, carry `total` and the
//! message), the result (the SDKs validate `structuredContent` against `outputSchema` themselves), a 1.5 s request
//! timeout that progress resets outliving a wait of seconds, and the same call without the reset timing out. Each
//! time a call ends without its answer (a request timeout, an `AbortSignal`, a cancelled Python task, a closed
//! client) the script says so and waits, and this side proves from the fake upstream's request log that the server
//! stopped polling that run: no request from 1 s after the stop on.
//!
//! TODO(tasks, issue 41 point 3): a wait called as a task through the TypeScript SDK. The pinned
//! `@modelcontextprotocol/sdk` 1.32.2 (npm's latest on 2026-12-05) has no client side for the Tasks extension
//! (`io.modelcontextprotocol/tasks`, SEP-2663: declared in `capabilities.extensions`, a `CreateTaskResult` with
//! `resultType: "task"`, `ttlMs` and `pollIntervalMs`, the result inline in `tasks/get`), which rmcp 3.11 and our
//! server speak. What it has is the 2025-11-25 experimental core tasks (`client.experimental.tasks`,
//! `capabilities.tasks`, `params.task`, `{task: {taskId, status, ttl, pollInterval}}`, `tasks/result`): other
//! shapes, and its `callTool` rejects a result without `structuredContent` for a tool with an `outputSchema`. Its
//! capability schema does let a client declare any extension, and `client.request` sends any method, so a test
//! could drive our tasks by hand-written messages through its transport, but that tests our server (which
//! `mcp-devtools-tools/tests/it/tasks.rs` and `replica_tasks.rs` do with rmcp), not the SDK's tasks support. Here
//! the SDK sees the extension advertised and, not declaring it, gets the blocking call (`wait.mjs` checks both).
//! When an SDK release implements the extension (`grep -r modelcontextprotocol/tasks
//! clients/ts/node_modules/@modelcontextprotocol/sdk/dist`), pin it and add a case to `clients/ts/wait.mjs`:
//! declare the extension, call `github_wait_for_run` on a live run, poll `tasks/get` to `completed`, validate the
//! result against the tool's `outputSchema`, and `tasks/cancel` stopping the polling (`Live::requests`, as here).
//! The Python SDK (`mcp` 2.3.0) has a generic client extension mechanism but no tasks client either.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::http::HttpServer;
use recorded_upstream::RecordedUpstream;
use recorded_upstream::live::Live;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

/// Fast polling and a 300 ms heartbeat, for every server here.
const WAIT_SETTINGS: [(&str, &str); 3] = [
    ("MCP_WAIT_POLL_MS", "100"),
    ("MCP_WAIT_MAX_POLL_MS", "100"),
    ("MCP_WAIT_PROGRESS_MS", "300"),
];
/// In-progress answers of the jobs route of the run the `progress` case waits for: about 4 s of polling at 100 ms.
const PROGRESS_POLLS: usize = 40;
/// How long after a stop a request still counts as one sent before it.
const STOP_WITHIN: Duration = Duration::from_secs(1);
/// How long this side then watches the request log.
const WATCH: Duration = Duration::from_secs(1);
/// The longest one script may run (they take 6 to 10 s; more on a loaded machine).
const SCRIPT_LIMIT: Duration = Duration::from_secs(30);

fn clients_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../clients")
}

/// The live runs of one script, by case: `progress` completes after [`PROGRESS_POLLS`], the others never do.
struct Runs {
    upstream: RecordedUpstream,
    by_case: Vec<(&'static str, u64, Live)>,
}

impl Runs {
    async fn mount(cases: &[&'static str]) -> Runs {
        let upstream = RecordedUpstream::all().await.unwrap();
        let mut by_case = Vec::new();
        for (i, case) in cases.iter().enumerate() {
            let run_id = 4300 + i as u64;
            let polls = if *case == "progress" {
                PROGRESS_POLLS
            } else {
                usize::MAX
            };
            by_case.push((
                *case,
                run_id,
                Live::mount(upstream.server(), run_id, polls, usize::MAX).await,
            ));
        }
        Runs { upstream, by_case }
    }

    /// `RUNS` for the script: case -> run id.
    fn json(&self) -> String {
        let map: serde_json::Map<String, serde_json::Value> = self
            .by_case
            .iter()
            .map(|(case, id, _)| ((*case).to_owned(), json!(id)))
            .collect();
        serde_json::Value::Object(map).to_string()
    }

    fn live(&self, run_id: u64) -> &Live {
        &self
            .by_case
            .iter()
            .find(|(_, id, _)| *id == run_id)
            .unwrap_or_else(|| panic!("no live run {run_id}"))
            .2
    }

    /// Requests for the run of `case` so far (its route and its jobs route).
    fn answers(&self, case: &str) -> usize {
        let (_, _, live) = self.by_case.iter().find(|(name, _, _)| *name == case).unwrap();
        live.requests()
    }

    /// The server's settings: every vendor of the upstream, structured output, fast waits.
    fn server_env(&self) -> Vec<(String, String)> {
        let mut env: Vec<(String, String)> = self
            .upstream
            .env()
            .into_iter()
            .map(|(name, value)| (name.to_owned(), value))
            .collect();
        for (name, value) in [
            ("MCP_STRUCTURED_OUTPUT", "true"),
            ("STREAMING_ARTIFACT_STORE", "memory"),
            ("RUST_LOG", "error"),
        ]
        .into_iter()
        .chain(WAIT_SETTINGS)
        {
            env.push((name.to_owned(), value.to_owned()));
        }
        env
    }

    /// The server over streamable HTTP (loopback, no auth).
    async fn http_server(&self) -> HttpServer {
        let mut env = self.server_env();
        env.push(("PATH".to_owned(), std::env::var("PATH").unwrap_or_default()));
        HttpServer::start(env, &["--no-auth"], tempfile::tempdir().unwrap()).await
    }

    /// The environment a script gets to spawn the server itself over stdio.
    fn stdio_env(&self) -> Vec<(&'static str, String)> {
        let env: serde_json::Map<String, serde_json::Value> =
            self.server_env().into_iter().map(|(k, v)| (k, json!(v))).collect();
        vec![
            ("MCP_DEVTOOLS_BIN", common::BIN.to_owned()),
            ("SERVER_ENV", serde_json::Value::Object(env).to_string()),
        ]
    }
}

/// What the request log showed around one stop the script reported.
#[derive(Debug)]
struct Stop {
    line: String,
    /// Requests for the run (both routes) when the script said it stopped.
    at_stop: usize,
    /// [`STOP_WITHIN`] later.
    settled: usize,
    /// [`WATCH`] after that.
    later: usize,
}

/// Runs `program script cases…` with `env`; at each `stopped RUN_ID` line reads that run's request counter then,
/// [`STOP_WITHIN`] later and [`WATCH`] after that, and answers `next`. Returns stdout, stderr and the stops.
async fn drive(program: &Path, script: &str, cases: &[&str], runs: &Runs, env: Vec<(&str, String)>) -> Outcome {
    let dir = clients_dir();
    let mut command = tokio::process::Command::new(program);
    command
        .arg(script)
        .args(cases)
        .current_dir(dir.join(if script.ends_with(".py") { "python" } else { "ts" }))
        .env("RUNS", runs.json())
        .env_remove("GITHUB_TOKEN")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true);
    for (name, value) in env {
        command.env(name, value);
    }
    let mut child = command
        .spawn()
        .unwrap_or_else(|err| panic!("cannot run {}: {err} (scripts/test installs it)", program.display()));
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();
    let stderr = Arc::new(Mutex::new(String::new()));
    let mut pipe = child.stderr.take().unwrap();
    let sink = stderr.clone();
    tokio::spawn(async move {
        let mut text = String::new();
        let _ = pipe.read_to_string(&mut text).await;
        sink.lock().unwrap().push_str(&text);
    });
    let mut out = String::new();
    let mut stops = Vec::new();
    let finished = tokio::time::timeout(SCRIPT_LIMIT, async {
        while let Some(line) = stdout.next_line().await.unwrap() {
            out.push_str(&line);
            out.push('\n');
            let Some(rest) = line.strip_prefix("stopped ") else {
                continue;
            };
            let run_id: u64 = rest.split(' ').next().unwrap().parse().unwrap();
            let live = runs.live(run_id);
            let at_stop = live.requests();
            tokio::time::sleep(STOP_WITHIN).await;
            let settled = live.requests();
            tokio::time::sleep(WATCH).await;
            let later = live.requests();
            stops.push(Stop {
                line: line.clone(),
                at_stop,
                settled,
                later,
            });
            stdin.write_all(b"next\n").await.unwrap();
            stdin.flush().await.unwrap();
        }
        child.wait().await.unwrap()
    })
    .await;
    let stderr = stderr.lock().unwrap().clone();
    let status = finished.unwrap_or_else(|_| panic!("{script} ran over {SCRIPT_LIMIT:?}:\n{out}\n{stderr}"));
    assert!(status.success(), "{script} {cases:?} failed:\n{out}\n{stderr}");
    assert!(
        out.contains(&format!(" {} passed, 0 failed", cases.len())),
        "{script} did not run every case:\n{out}\n{stderr}"
    );
    Outcome { out, stops }
}

struct Outcome {
    out: String,
    stops: Vec<Stop>,
}

impl Outcome {
    /// The run of `case` stopped (the script said so) and the server sent no request for it from [`STOP_WITHIN`]
    /// after the stop on, having polled it before.
    fn assert_polling_stopped(&self, runs: &Runs, case: &str) -> &Stop {
        let (_, run_id, _) = runs.by_case.iter().find(|(name, _, _)| *name == case).unwrap();
        let stop = self
            .stops
            .iter()
            .find(|stop| stop.line.starts_with(&format!("stopped {run_id}")))
            .unwrap_or_else(|| panic!("{case}: no stop reported for run {run_id}:\n{}", self.out));
        assert!(
            stop.at_stop >= 3,
            "{case}: the server had polled run {run_id} only {} times before the stop",
            stop.at_stop
        );
        assert_eq!(
            stop.later, stop.settled,
            "{case}: the server still polled run {run_id} {STOP_WITHIN:?} after the stop: {stop:?}"
        );
        stop
    }
}

fn node() -> PathBuf {
    let dir = clients_dir().join("ts");
    assert!(
        dir.join("node_modules/@modelcontextprotocol/sdk").exists(),
        "run scripts/test first: it runs npm ci in {}",
        dir.display()
    );
    PathBuf::from("node")
}

fn python() -> PathBuf {
    let python = clients_dir().join("python/.venv/bin/python");
    assert!(
        python.exists(),
        "run scripts/test first: it creates {}",
        python.display()
    );
    python
}

#[tokio::test]
async fn typescript_sdk_over_stdio_gets_progress_and_resets_its_timeout_on_it() {
    let cases = ["progress", "timeout"];
    let runs = Runs::mount(&cases).await;
    let outcome = drive(&node(), "wait.mjs", &cases, &runs, runs.stdio_env()).await;
    outcome.assert_polling_stopped(&runs, "timeout");
    assert!(runs.answers("progress") > PROGRESS_POLLS, "waited until it completed");
}

#[tokio::test]
async fn typescript_sdk_over_stdio_abort_and_closed_stdin_stop_the_polling() {
    let cases = ["abort", "close"];
    let runs = Runs::mount(&cases).await;
    let outcome = drive(&node(), "wait.mjs", &cases, &runs, runs.stdio_env()).await;
    outcome.assert_polling_stopped(&runs, "abort");
    outcome.assert_polling_stopped(&runs, "close");
}

#[tokio::test]
async fn typescript_sdk_over_http_gets_progress_and_resets_its_timeout_on_it() {
    let cases = ["progress", "timeout"];
    let runs = Runs::mount(&cases).await;
    let server = runs.http_server().await;
    let outcome = drive(
        &node(),
        "wait.mjs",
        &cases,
        &runs,
        vec![("MCP_URL", server.url.clone())],
    )
    .await;
    outcome.assert_polling_stopped(&runs, "timeout");
    assert!(runs.answers("progress") > PROGRESS_POLLS, "waited until it completed");
}

#[tokio::test]
async fn typescript_sdk_over_http_abort_and_a_closed_client_stop_the_polling() {
    let cases = ["abort", "close"];
    let runs = Runs::mount(&cases).await;
    let server = runs.http_server().await;
    let outcome = drive(
        &node(),
        "wait.mjs",
        &cases,
        &runs,
        vec![("MCP_URL", server.url.clone())],
    )
    .await;
    outcome.assert_polling_stopped(&runs, "abort");
    outcome.assert_polling_stopped(&runs, "close");
}

#[tokio::test]
async fn python_sdk_over_stdio_gets_progress() {
    let cases = ["progress"];
    let runs = Runs::mount(&cases).await;
    drive(&python(), "wait.py", &cases, &runs, runs.stdio_env()).await;
    assert!(runs.answers("progress") > PROGRESS_POLLS, "waited until it completed");
}

#[tokio::test]
async fn python_sdk_over_stdio_read_timeout_and_a_cancelled_task_stop_the_polling() {
    let cases = ["timeout", "cancel"];
    let runs = Runs::mount(&cases).await;
    let outcome = drive(&python(), "wait.py", &cases, &runs, runs.stdio_env()).await;
    outcome.assert_polling_stopped(&runs, "timeout");
    outcome.assert_polling_stopped(&runs, "cancel");
}
