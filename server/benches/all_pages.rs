//! `allPages` against single-page calls (issue 45, point 2): 100 pages of 100 workflow runs read by one
//! `github_list_workflow_runs` call with `allPages: 100`, against 100 single-page calls (`page` 1..=100) from the same
//! client; the wall time of each and the server's peak memory (`VmHWM` of the `mcp-devtools` process, from
//! `/proc/<pid>/status`), over its idle RSS after `initialize`, against the merged value (the compact JSON bytes of
//! the merged envelope, `incomplete.bytes`: over the bound it is an artifact).
//!
//! Whole chain: rmcp client over stdio → the binary built by this `cargo bench` (release) → a fake GitHub on
//! 127.0.0.1 serving the recorded 100-run page (`fixtures/github/runs-large.json`, 1.2 MB) as each of pages 1..=100,
//! `Link` rel="next" to the following page (none on page 100). Each side runs in a fresh server process with the
//! settings' defaults (structured output on, 256 KiB bound, the `fs` artifact store in a temporary directory), so
//! each page of the single calls is an artifact too, and each peak is that side's own. Linux only (`/proc`).
//!
//! The merged value is also measured in memory: this process builds the same merged `serde_json::Value` (the page
//! parsed 100 times, each page's runs moved into the first's list, as the server merges with a `jq`; the same
//! `serde_json` features), and its RSS growth meanwhile is the value's size in memory, allocator overhead included.
//! Without `jq`, as here, the server no longer builds it: each page is written into the result as it arrives.
//!
//! Each side runs [`ROUNDS`] times, alternated; the table gives the median wall time and the highest peak of each.
//!
//! Targets (issue 45): the merged call takes at most the time of the single calls, and the server's peak memory is at
//! most 2x the merged value. Not a criterion bench: one run, a table. Run with
//! `cargo bench -p mcp-devtools-server --bench all_pages` (`BENCH_LOG=info` passes the server's log through as its
//! `RUST_LOG`: each call's time, and when the merge ended). Results: `BENCHMARKS.md`.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use recorded_upstream::wiremock::matchers::{method, path};
use recorded_upstream::wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};

/// The server binary built by this `cargo bench` (release profile).
const BIN: &str = env!("CARGO_BIN_EXE_mcp-devtools");
/// Pages read, each of [`PER_PAGE`] runs.
const PAGES: u64 = 100;
/// Runs per page: the recorded 100-run page.
const PER_PAGE: u64 = 100;
/// Where the fake GitHub serves the runs.
const RUNS: &str = "/repos/octo-org/octo-repo/actions/runs";
const MIB: f64 = 1024.0 * 1024.0;

/// The memory of the merged value of [`PAGES`] copies of `body` (a runs page), bytes: this process's RSS growth while
/// it builds it, each page parsed and its runs moved into the first page's list, as the server merges them for a `jq`.
fn merged_value_memory(body: &[u8]) -> u64 {
    let before = status(std::process::id(), "VmRSS:");
    let mut merged: Value = serde_json::from_slice(body).unwrap();
    for _ in 1..PAGES {
        let mut page: Value = serde_json::from_slice(body).unwrap();
        let runs = std::mem::take(page["workflow_runs"].as_array_mut().unwrap());
        merged["workflow_runs"].as_array_mut().unwrap().extend(runs);
    }
    let grown = status(std::process::id(), "VmRSS:").saturating_sub(before);
    assert_eq!(
        merged["workflow_runs"].as_array().map(Vec::len),
        Some((PAGES * PER_PAGE) as usize)
    );
    drop(merged);
    grown
}

/// Page `page` of the runs: the recorded page's body, with a `Link` to the next page until [`PAGES`].
struct Pages {
    origin: String,
    body: Vec<u8>,
}

impl Respond for Pages {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let page: u64 = request
            .url
            .query_pairs()
            .find(|(name, _)| name == "page")
            .map_or(1, |(_, value)| value.parse().unwrap());
        let mut response =
            ResponseTemplate::new(200).set_body_raw(self.body.clone(), "application/json; charset=utf-8");
        if page < PAGES {
            let next = format!(
                "<{}{RUNS}?per_page={PER_PAGE}&page={}>; rel=\"next\"",
                self.origin,
                page + 1
            );
            response = response.insert_header("link", next.as_str());
        }
        response
    }
}

/// A `/proc/<pid>/status` field, bytes (its value is in kB).
fn status(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with(field)).unwrap();
    line.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() * 1024
}

/// One side's figures in one round.
#[derive(Debug, Clone, Copy)]
struct Side {
    wall: Duration,
    idle_rss: u64,
    peak: u64,
}

/// Rounds of each side, alternated (single calls, then `allPages`), each in a fresh server; the table gives each
/// side's median wall time and its highest peak, so one run's ratio does not hang on one moment's load.
const ROUNDS: usize = 3;

/// A fresh server against `upstream`, artifacts in `dir`; its client and pid.
async fn start(upstream: &str, dir: &std::path::Path) -> (RunningService<RoleClient, ()>, u32) {
    let env = [
        ("PATH".to_owned(), std::env::var("PATH").unwrap_or_default()),
        ("GITHUB_API_BASE".to_owned(), upstream.to_owned()),
        ("GITHUB_TOKEN".to_owned(), "bench-token".to_owned()),
        ("MCP_STRUCTURED_OUTPUT".to_owned(), "true".to_owned()),
        ("STREAMING_ARTIFACT_STORE".to_owned(), "fs".to_owned()),
        ("STREAMING_ARTIFACT_DIR".to_owned(), dir.display().to_string()),
        (
            "RUST_LOG".to_owned(),
            std::env::var("BENCH_LOG").unwrap_or_else(|_| "error".to_owned()),
        ),
    ];
    let command = tokio::process::Command::new(BIN).configure(|cmd| {
        cmd.env_clear().envs(env);
    });
    let transport = TokioChildProcess::new(command).unwrap();
    let pid = transport.id().unwrap();
    let client = ().serve(transport).await.unwrap();
    (client, pid)
}

async fn call(client: &RunningService<RoleClient, ()>, args: Value) -> CallToolResult {
    let args = args.as_object().cloned().unwrap();
    let result = client
        .call_tool(CallToolRequestParams::new("github_list_workflow_runs").with_arguments(args))
        .await
        .unwrap();
    assert_ne!(result.is_error, Some(true), "{result:?}");
    result
}

/// The 100 single-page calls, one after another, as a program following `nextPage` makes them, in a fresh server.
async fn single_calls(upstream: &str) -> Side {
    let dir = tempfile::tempdir().unwrap();
    let (client, pid) = start(upstream, dir.path()).await;
    let idle_rss = status(pid, "VmRSS:");
    let t0 = Instant::now();
    let mut page = Some(1u64);
    let mut calls = 0;
    while let Some(n) = page {
        let args = json!({"owner": "octo-org", "repo": "octo-repo", "perPage": PER_PAGE, "page": n});
        page = call(&client, args).await.structured_content.unwrap()["nextPage"].as_u64();
        calls += 1;
    }
    let side = Side {
        wall: t0.elapsed(),
        idle_rss,
        peak: status(pid, "VmHWM:"),
    };
    assert_eq!(calls, PAGES);
    client.cancel().await.unwrap();
    side
}

/// The one call with `allPages`, in a fresh server; with the merged value's bytes (`incomplete.bytes`).
async fn all_pages(upstream: &str) -> (Side, u64) {
    let dir = tempfile::tempdir().unwrap();
    let (client, pid) = start(upstream, dir.path()).await;
    let idle_rss = status(pid, "VmRSS:");
    let t0 = Instant::now();
    let args = json!({"owner": "octo-org", "repo": "octo-repo", "perPage": PER_PAGE, "allPages": PAGES});
    let result = call(&client, args).await;
    let side = Side {
        wall: t0.elapsed(),
        idle_rss,
        peak: status(pid, "VmHWM:"),
    };
    let structured = result.structured_content.unwrap();
    let pages = json!({"read": PAGES, "stoppedBy": "last_page", "error": null});
    assert_eq!(structured["pages"], pages, "{structured}");
    assert_eq!(structured["incomplete"]["reason"], "size", "{structured}");
    assert!(
        structured["incomplete"]["artifactId"].is_string(),
        "saved: {structured}"
    );
    client.cancel().await.unwrap();
    (side, structured["incomplete"]["bytes"].as_u64().unwrap())
}

/// The median wall time and the highest peak of `rounds` (idle RSS: the first round's).
fn summary(rounds: &[Side]) -> Side {
    let mut walls: Vec<Duration> = rounds.iter().map(|side| side.wall).collect();
    walls.sort();
    Side {
        wall: walls[walls.len() / 2],
        idle_rss: rounds[0].idle_rss,
        peak: rounds.iter().map(|side| side.peak).max().unwrap(),
    }
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let upstream = MockServer::start().await;
        let body = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/github/runs-large.json")).unwrap();
        let page_bytes = body.len();
        let value_memory = merged_value_memory(&body);
        let origin = upstream.uri();
        Mock::given(method("GET"))
            .and(path(RUNS))
            .respond_with(Pages { origin, body })
            .mount(&upstream)
            .await;

        let (mut singles, mut merges, mut value_bytes) = (Vec::new(), Vec::new(), 0);
        for _ in 0..ROUNDS {
            singles.push(single_calls(&upstream.uri()).await);
            let (side, bytes) = all_pages(&upstream.uri()).await;
            merges.push(side);
            value_bytes = bytes;
        }
        let (single, merged) = (summary(&singles), summary(&merges));

        let mib = |bytes: u64| bytes as f64 / MIB;
        println!(
            "stdio, release; {PAGES} pages of {PER_PAGE} runs ({page_bytes} bytes each) from 127.0.0.1; merged value: \
             {value_bytes} bytes as compact JSON ({:.1} MiB, the merged envelope, saved as an artifact), {:.1} MiB as a \
             serde_json::Value in memory; {ROUNDS} rounds of each side, alternated",
            mib(value_bytes),
            mib(value_memory)
        );
        let walls = |rounds: &[Side]| {
            let walls: Vec<String> = rounds.iter().map(|side| format!("{:.2}", side.wall.as_secs_f64())).collect();
            walls.join(", ")
        };
        println!("| side | wall, median (s) | rounds (s) | server idle RSS (MiB) | server peak RSS (MiB) | peak over idle (MiB) |");
        println!("|---|---:|---|---:|---:|---:|");
        for (name, side, rounds) in [
            (format!("{PAGES} single-page calls (page 1..={PAGES})"), &single, &singles),
            (format!("one call, allPages: {PAGES}"), &merged, &merges),
        ] {
            println!(
                "| {name} | {:.2} | {} | {:.1} | {:.1} | {:.1} |",
                side.wall.as_secs_f64(),
                walls(rounds),
                mib(side.idle_rss),
                mib(side.peak),
                mib(side.peak.saturating_sub(side.idle_rss)),
            );
        }
        println!(
            "wall, allPages / single calls (medians): {:.2}x (target <= 1)",
            merged.wall.as_secs_f64() / single.wall.as_secs_f64()
        );
        let grown = merged.peak.saturating_sub(merged.idle_rss) as f64;
        println!(
            "server peak RSS over idle / merged value in memory: {:.2}x; / merged value as JSON: {:.2}x (target <= 2)",
            grown / value_memory as f64,
            grown / value_bytes as f64
        );
    });
}
