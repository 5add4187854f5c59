//! Load over streamable HTTP (issue 12 point 2): 1, 32 and 256 concurrent sessions, each calling a cached
//! `circleci_get /me` back to back for a fixed time; calls per second, latency percentiles, errors, and the server's
//! RSS after the run. Whole chain: rmcp streamable-HTTP clients (one per session, all in this process) → the
//! `mcp-devtools --http 127.0.0.1:0` binary built by this `cargo bench` (release) → its HTTP cache (the recorded
//! CircleCI upstream on 127.0.0.1 is read once per principal). Target at 256 sessions: at least 2,000 calls/s, p99 at
//! most 50 ms, no errors. Results: `BENCHMARKS.md`.
//!
//! Sessions are spread over [`PRINCIPALS`] bearer tokens (session `i` uses token `i % PRINCIPALS`), so that at 256
//! sessions each principal has 32 sessions and at most 32 calls in flight: within the server's default per-principal
//! limits (100 sessions, 32 concurrent calls). The server runs with its default settings otherwise.
//!
//! Bounded: [`SECONDS`] per level (at most [`MAX_CALLS_PER_SESSION`] calls per session), loopback only. Not a
//! criterion bench (a load run has no single iteration to sample); it prints a table. Run with
//! `cargo bench -p mcp-devtools-server --bench http_load`.
#![allow(missing_docs, dead_code, clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/common/http.rs"]
mod http;

use std::sync::Arc;
use std::time::{Duration, Instant};

use http::{HttpServer, tokens_file};
use recorded_upstream::RecordedUpstream;
use rmcp::RoleClient;
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use serde_json::{Map, Value, json};
use tokio::sync::Barrier;

/// The server binary built by this `cargo bench` (release profile).
const BIN: &str = env!("CARGO_BIN_EXE_mcp-devtools");

/// Bearer tokens (principals) the sessions are spread over.
const PRINCIPALS: usize = 8;
/// Concurrent sessions per level.
const LEVELS: [usize; 3] = [1, 32, 256];
/// Measured time per level, in seconds.
const SECONDS: u64 = 5;
/// Upper bound on calls per session per level.
const MAX_CALLS_PER_SESSION: usize = 50_000;

/// One level's figures.
struct Row {
    sessions: usize,
    calls: usize,
    errors: usize,
    misses: usize,
    elapsed: Duration,
    /// Per-call latencies in microseconds, sorted.
    latencies: Vec<u64>,
}

impl Row {
    fn percentile_ms(&self, p: f64) -> f64 {
        if self.latencies.is_empty() {
            return f64::NAN;
        }
        let rank = ((p / 100.0) * self.latencies.len() as f64).ceil() as usize;
        self.latencies[rank.clamp(1, self.latencies.len()) - 1] as f64 / 1000.0
    }
}

fn token(i: usize) -> String {
    format!("bench-token-{}", i % PRINCIPALS)
}

fn arguments() -> Map<String, Value> {
    json!({"path": "/me"}).as_object().cloned().unwrap()
}

/// One cached call; `Ok(hit)` on success (whether the HTTP cache answered), `Err` on a failed or `isError` call.
async fn call(client: &RunningService<RoleClient, ()>, args: &Map<String, Value>) -> Result<bool, String> {
    let result = client
        .call_tool(CallToolRequestParams::new("circleci_get").with_arguments(args.clone()))
        .await
        .map_err(|e| e.to_string())?;
    if result.is_error == Some(true) {
        return Err(format!("{:?}", result.content));
    }
    Ok(result
        .structured_content
        .as_ref()
        .and_then(|s| s["cache"]["hit"].as_bool())
        .unwrap_or(false))
}

async fn level(server: &HttpServer, sessions: usize) -> Row {
    let mut clients = Vec::with_capacity(sessions);
    for i in 0..sessions {
        let client = server.client(&token(i)).await;
        // Fills (or hits) this principal's cache entry; not measured.
        call(&client, &arguments()).await.unwrap();
        clients.push(client);
    }
    let barrier = Arc::new(Barrier::new(sessions + 1));
    let mut tasks = tokio::task::JoinSet::new();
    for client in clients {
        let barrier = barrier.clone();
        tasks.spawn(async move {
            let args = arguments();
            let (mut latencies, mut errors, mut misses) = (Vec::new(), 0, 0);
            barrier.wait().await;
            let deadline = Instant::now() + Duration::from_secs(SECONDS);
            while Instant::now() < deadline && latencies.len() < MAX_CALLS_PER_SESSION {
                let start = Instant::now();
                match call(&client, &args).await {
                    Ok(hit) => misses += usize::from(!hit),
                    Err(e) => {
                        if errors == 0 {
                            eprintln!("call failed: {e}");
                        }
                        errors += 1;
                    }
                }
                latencies.push(start.elapsed().as_micros() as u64);
            }
            let _ = client.cancel().await;
            (latencies, errors, misses)
        });
    }
    barrier.wait().await;
    let start = Instant::now();
    let mut row = Row {
        sessions,
        calls: 0,
        errors: 0,
        misses: 0,
        elapsed: Duration::ZERO,
        latencies: Vec::new(),
    };
    while let Some(done) = tasks.join_next().await {
        let (latencies, errors, misses) = done.unwrap();
        row.calls += latencies.len();
        row.errors += errors;
        row.misses += misses;
        row.latencies.extend(latencies);
    }
    // Time until the last session's last call returned (the cancels after it are small beside 5 s).
    row.elapsed = start.elapsed();
    row.latencies.sort_unstable();
    row
}

/// `VmRSS` and `VmHWM` (peak) of `pid`, in KiB, from `/proc`.
fn rss_kib(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument is accepted and ignored.
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let upstream = RecordedUpstream::circleci().await.unwrap();
        let dir = tempfile::tempdir().unwrap();
        let pairs: Vec<(String, String)> = (0..PRINCIPALS).map(|i| (token(i), format!("bench-{i}"))).collect();
        let pairs: Vec<(&str, &str)> = pairs.iter().map(|(t, p)| (t.as_str(), p.as_str())).collect();
        let tokens = tokens_file(&dir, &pairs);
        let env = vec![
            ("PATH".to_string(), std::env::var("PATH").unwrap_or_default()),
            ("MCP_STRUCTURED_OUTPUT".to_string(), "true".to_string()),
            ("STREAMING_ARTIFACT_STORE".to_string(), "memory".to_string()),
            ("RUST_LOG".to_string(), "error".to_string()),
            ("CIRCLECI_TOKEN".to_string(), "recorded-upstream-token".to_string()),
            ("CIRCLECI_API_BASE".to_string(), format!("{}/api/v2", upstream.uri())),
        ];
        let mut server = HttpServer::start(env, &["--tokens-file", tokens.to_str().unwrap()], dir).await;
        let pid = server.child.id().unwrap();
        let (rss_start, _) = rss_kib(pid);
        println!(
            "\nhttp_load: cached circleci_get /me over streamable HTTP, {PRINCIPALS} principals, {SECONDS} s per level\n"
        );
        println!("| sessions | calls | calls/s | p50 ms | p90 ms | p99 ms | max ms | errors | cache misses |");
        println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for sessions in LEVELS {
            let row = level(&server, sessions).await;
            println!(
                "| {} | {} | {:.0} | {:.2} | {:.2} | {:.2} | {:.2} | {} | {} |",
                row.sessions,
                row.calls,
                row.calls as f64 / row.elapsed.as_secs_f64(),
                row.percentile_ms(50.0),
                row.percentile_ms(90.0),
                row.percentile_ms(99.0),
                row.percentile_ms(100.0),
                row.errors,
                row.misses,
            );
        }
        let (rss, peak) = rss_kib(pid);
        println!(
            "\nserver RSS: {:.1} MiB at start, {:.1} MiB after the run (peak {:.1} MiB)",
            rss_start as f64 / 1024.0,
            rss as f64 / 1024.0,
            peak as f64 / 1024.0
        );
        let status = server.terminate().await;
        println!("server exit after SIGTERM: {status}");
    });
}
