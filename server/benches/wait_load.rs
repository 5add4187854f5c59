//! Many waits at once over streamable HTTP: [`WAITS`] concurrent `github_wait_for_run` calls on [`RUNS`] distinct
//! workflow runs that stay in progress, against the `mcp-devtools --http 127.0.0.1:0` binary built by this `cargo
//! bench` (release) and a local fake GitHub (`recorded_upstream::live`: conditional answers, request counts). It
//! prints the server's RSS idle and with every wait in flight, and the upstream requests per distinct run per
//! minute against what one request per poll interval allows. Targets (issue 41): at most 50 MB above idle; at most one
//! upstream request per distinct run per poll interval. Then every client goes away and it checks that polling
//! stops. Results: `BENCHMARKS.md`.
//!
//! The waits are spread over [`PRINCIPALS`] bearer tokens (at most 32 calls in flight each, the server's default
//! limit), in stateless HTTP mode (no session per wait), each a raw JSON-RPC POST whose response stream (SSE) is held
//! open and not read. Bounded: about [`WINDOW`] plus set-up, loopback only. Not a criterion bench (a load run has no
//! single iteration to sample); it prints a table. Run with `cargo bench -p mcp-devtools-server --bench wait_load`.
#![allow(missing_docs, dead_code, clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/common/http.rs"]
mod http;

use std::time::{Duration, Instant};

use http::{HttpServer, tokens_file};
use recorded_upstream::RecordedUpstream;
use recorded_upstream::live::Live;

/// The server binary built by this `cargo bench` (release profile).
const BIN: &str = env!("CARGO_BIN_EXE_mcp-devtools");

/// Concurrent waits.
const WAITS: usize = 1_000;
/// Distinct runs waited on.
const RUNS: u64 = 20;
/// Bearer tokens (principals) the waits are spread over.
const PRINCIPALS: usize = 40;
/// The poll interval, fixed (no backoff) so that the allowed request rate is exact.
const POLL: Duration = Duration::from_secs(5);
/// How long upstream requests are counted with every wait in flight.
const WINDOW: Duration = Duration::from_secs(30);
/// The MCP protocol version the raw client speaks.
const PROTOCOL: &str = "2025-06-18";
/// The first run id.
const FIRST_RUN: u64 = 7_000;

fn token(i: usize) -> String {
    format!("wait-bench-token-{i:03}")
}

/// `VmRSS` of `pid`, in KiB, from `/proc`.
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// A raw JSON-RPC session of principal `i` (`initialize` + `notifications/initialized`); its `Mcp-Session-Id`.
async fn raw_session(http: &reqwest::Client, url: &str, i: usize) -> String {
    let init = format!(
        r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{PROTOCOL}","capabilities":{{}},"clientInfo":{{"name":"wait_load","version":"1"}}}}}}"#
    );
    let response = post(http, url, i, None).body(init).send().await.unwrap();
    let session = response.headers()["mcp-session-id"].to_str().unwrap().to_owned();
    response.bytes().await.unwrap();
    let done = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    post(http, url, i, Some(&session)).body(done).send().await.unwrap();
    session
}

/// A POST of principal `i`, in `session` when given.
fn post(http: &reqwest::Client, url: &str, i: usize, session: Option<&str>) -> reqwest::RequestBuilder {
    let request = http
        .post(url)
        .bearer_auth(token(i % PRINCIPALS))
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", PROTOCOL)
        .header("Content-Type", "application/json");
    match session {
        Some(session) => request.header("Mcp-Session-Id", session),
        None => request,
    }
}

/// Starts wait `i` (run `FIRST_RUN + i % RUNS`) in `session` (stateful) or alone (stateless): the POST's response,
/// its stream held open.
async fn start_wait(http: &reqwest::Client, url: &str, i: usize, session: Option<&str>) -> reqwest::Response {
    let run = FIRST_RUN + i as u64 % RUNS;
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/call","params":{{"_meta":{{"progressToken":{i}}},"name":"github_wait_for_run","arguments":{{"owner":"octo-org","repo":"octo-repo","runId":{run},"timeoutSeconds":600}}}}}}"#
    );
    post(http, url, i, session).body(body).send().await.unwrap()
}

fn main() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        for stateless in [true, false] {
            measure(stateless).await;
        }
    });
}

/// One run: a fresh fake upstream and server, [`WAITS`] waits, the table.
async fn measure(stateless: bool) {
    let upstream = RecordedUpstream::all().await.unwrap();
    let mut runs = Vec::new();
    for run in FIRST_RUN..FIRST_RUN + RUNS {
        runs.push(Live::mount(upstream.server(), run, usize::MAX, usize::MAX).await);
    }
    let dir = tempfile::tempdir().unwrap();
    let pairs: Vec<(String, String)> = (0..PRINCIPALS).map(|i| (token(i), format!("waiter-{i}"))).collect();
    let pairs: Vec<(&str, &str)> = pairs.iter().map(|(t, p)| (t.as_str(), p.as_str())).collect();
    let tokens = tokens_file(&dir, &pairs);
    let poll = POLL.as_millis().to_string();
    let env: Vec<(String, String)> = [
        ("PATH", std::env::var("PATH").unwrap_or_default()),
        ("MCP_STRUCTURED_OUTPUT", "true".to_owned()),
        ("MCP_HTTP_STATELESS", stateless.to_string()),
        ("MCP_HTTP_MAX_CONNECTIONS", "4096".to_owned()),
        ("STREAMING_ARTIFACT_STORE", "memory".to_owned()),
        ("RUST_LOG", "error".to_owned()),
        ("GITHUB_TOKEN", "recorded-upstream-token".to_owned()),
        ("GITHUB_API_BASE", upstream.uri()),
        ("MCP_WAIT_POLL_MS", poll.clone()),
        ("MCP_WAIT_MAX_POLL_MS", poll),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .chain(
        std::env::var("MALLOC_ARENA_MAX")
            .ok()
            .map(|v| ("MALLOC_ARENA_MAX".to_owned(), v)),
    )
    .collect();
    let mut server = HttpServer::start(env, &["--tokens-file", tokens.to_str().unwrap()], dir).await;
    let pid = server.child.id().unwrap();
    let http = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
    // Warm up: one finished wait (a recorded run), so the idle figure includes the code paths.
    let warm = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"github_wait_for_run","arguments":{"owner":"octo-org","repo":"octo-repo","runId":2802600146}}}"#;
    // Stateful: one session per principal (opened before the idle figure), its waits concurrent in it.
    let mut sessions = Vec::new();
    if !stateless {
        for i in 0..PRINCIPALS {
            sessions.push(raw_session(&http, &server.url, i).await);
        }
    }
    let answer = post(&http, &server.url, 0, sessions.first().map(String::as_str))
        .body(warm)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(answer.contains("\"stoppedBy\":\"finished\""), "warm-up: {answer}");
    tokio::time::sleep(Duration::from_secs(1)).await;
    let idle = rss_kib(pid);

    let started = Instant::now();
    let mut pending = tokio::task::JoinSet::new();
    for i in 0..WAITS {
        let (http, url) = (http.clone(), server.url.clone());
        let session = sessions.get(i % PRINCIPALS).cloned();
        pending.spawn(async move { start_wait(&http, &url, i, session.as_deref()).await });
    }
    let mut open = Vec::with_capacity(WAITS);
    while let Some(response) = pending.join_next().await {
        let response = response.unwrap();
        assert!(
            response.status().is_success(),
            "a wait was refused: {}",
            response.status()
        );
        open.push(response);
    }
    let all_open = started.elapsed();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let before: Vec<usize> = runs.iter().map(Live::requests).collect();
    let window_start = Instant::now();
    tokio::time::sleep(WINDOW).await;
    let window = window_start.elapsed();
    let during: Vec<usize> = runs.iter().zip(&before).map(|(run, b)| run.requests() - b).collect();
    let loaded = rss_kib(pid);

    drop(open);
    tokio::time::sleep(POLL + Duration::from_secs(2)).await;
    let after_close: Vec<usize> = runs.iter().map(Live::requests).collect();
    tokio::time::sleep(POLL * 2).await;
    let later: Vec<usize> = runs.iter().map(Live::requests).collect();
    let after_all = rss_kib(pid);

    let per_minute = |requests: usize| requests as f64 * 60.0 / window.as_secs_f64();
    let max_per_run = during.iter().copied().max().unwrap_or(0);
    let allowed = 60.0 / POLL.as_secs_f64();
    let mode = if stateless {
        "stateless"
    } else {
        "one session per principal"
    };
    println!(
        "\nwait_load: {WAITS} concurrent github_wait_for_run over streamable HTTP ({mode}), {RUNS} runs, poll {POLL:?}\n"
    );
    println!("| measure | value | target | met |");
    println!("|---|---:|---:|---|");
    println!(
        "| waits in flight | {WAITS} (all open after {:.1} s) | {WAITS} | yes |",
        all_open.as_secs_f64()
    );
    let delta_mib = (loaded.saturating_sub(idle)) as f64 / 1024.0;
    println!(
        "| server RSS idle / with every wait | {:.1} MiB / {:.1} MiB (+{:.1} MiB) | at most +50 MB | {} |",
        idle as f64 / 1024.0,
        loaded as f64 / 1024.0,
        delta_mib,
        if delta_mib * 1.048_576 <= 50.0 { "yes" } else { "no" }
    );
    println!(
        "| upstream requests per distinct run per minute (max of {RUNS}) | {:.1} | at most {allowed:.1} (one per poll) | {} |",
        per_minute(max_per_run),
        if per_minute(max_per_run) <= allowed + 60.0 / window.as_secs_f64() {
            "yes"
        } else {
            "no"
        }
    );
    println!(
        "| upstream requests per minute, all runs | {:.0} | at most {:.0} | |",
        per_minute(during.iter().sum()),
        allowed * RUNS as f64
    );
    let stopped = after_close == later;
    println!(
        "| upstream requests after every client left ({:.0} s) | {} | 0 | {} |",
        (POLL * 2).as_secs_f64(),
        later.iter().zip(&after_close).map(|(l, a)| l - a).sum::<usize>(),
        if stopped { "yes" } else { "no" }
    );
    println!(
        "\nserver RSS after the clients left: {:.1} MiB",
        after_all as f64 / 1024.0
    );
    let status = server.terminate().await;
    println!("server exit after SIGTERM: {status}");
}
