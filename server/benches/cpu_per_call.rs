//! The server's own CPU per call over stdio (issue 46): the `mcp-devtools` process's user + system time (from
//! `/proc/<pid>/stat`, clock ticks) and its threads' context switches (voluntary and involuntary, summed over
//! `/proc/<pid>/task/*/status`: a measure of the thread hand-offs per call) over [`CALLS`] calls made one at a time,
//! for a cached small read (`circleci_get /me`, 583 bytes), the same read uncached (`fresh: true`, against the
//! recorded upstream on 127.0.0.1), `tools/list`, and a large result (`github_list_workflow_runs`, `perPage`
//! [`LARGE_PER_PAGE`], `outputFormat: json`; its size is printed), with the in-process `serde_json` parse + serialize
//! of the same result as JSON text as the baseline of the last row. Whole chain: rmcp client over stdio → the binary built
//! by this `cargo bench` (release) → the recorded upstream. Linux only (`/proc`).
//!
//! Targets (issue 46): a cached small read at most 50 µs of CPU per call, `tools/list` at most 30 µs, the large
//! result at most 3x its parse + serialize, at most two thread hand-offs per small call. Not a criterion bench: it
//! prints a table. Run with `cargo bench -p mcp-devtools-server --bench cpu_per_call`. Results: `BENCHMARKS.md`.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use std::time::Instant;

use recorded_upstream::RecordedUpstream;
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Map, Value, json};

/// The server binary built by this `cargo bench` (release profile).
const BIN: &str = env!("CARGO_BIN_EXE_mcp-devtools");
/// Calls per small case (the large one makes a tenth of them).
const CALLS: u32 = 10_000;
/// Runs per page of the large result: the recorded upstream's 100-run page, 1.2 MB as JSON (it records no page near
/// the 256 KiB: any other `perPage` gets its 48 KB default page).
const LARGE_PER_PAGE: u32 = 100;

/// The process's CPU time so far, in microseconds (user + system; `/proc/<pid>/stat` fields 14 and 15).
fn cpu_us(pid: u32, ticks_per_second: u64) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    ticks * 1_000_000 / ticks_per_second
}

/// Context switches of the process's live threads so far (voluntary + involuntary).
fn switches(pid: u32) -> u64 {
    let mut total = 0;
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).unwrap().flatten() {
        let Ok(status) = std::fs::read_to_string(task.path().join("status")) else {
            continue;
        };
        for line in status.lines() {
            if let Some(n) = line
                .strip_prefix("voluntary_ctxt_switches:")
                .or_else(|| line.strip_prefix("nonvoluntary_ctxt_switches:"))
            {
                total += n.trim().parse::<u64>().unwrap_or(0);
            }
        }
    }
    total
}

fn ticks_per_second() -> u64 {
    let out = std::process::Command::new("getconf").arg("CLK_TCK").output().unwrap();
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
}

async fn call(client: &RunningService<RoleClient, ()>, tool: &str, args: &Map<String, Value>) -> usize {
    let result = client
        .call_tool(CallToolRequestParams::new(tool.to_owned()).with_arguments(args.clone()))
        .await
        .unwrap();
    assert_ne!(result.is_error, Some(true), "{tool}: {result:?}");
    result
        .content
        .iter()
        .filter_map(|c| c.as_text())
        .map(|t| t.text.len())
        .sum()
}

/// One row: `calls` of `what`, CPU µs and switches per call.
struct Row {
    name: &'static str,
    calls: u32,
    cpu_us: f64,
    switches: f64,
    wall_us: f64,
}

async fn measure<F, Fut>(name: &'static str, pid: u32, tps: u64, calls: u32, mut once: F) -> Row
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    for _ in 0..calls / 10 {
        once().await;
    }
    let (cpu0, sw0, t0) = (cpu_us(pid, tps), switches(pid), Instant::now());
    for _ in 0..calls {
        once().await;
    }
    let wall = t0.elapsed().as_secs_f64() * 1e6;
    let (cpu1, sw1) = (cpu_us(pid, tps), switches(pid));
    Row {
        name,
        calls,
        cpu_us: (cpu1 - cpu0) as f64 / f64::from(calls),
        switches: (sw1.saturating_sub(sw0)) as f64 / f64::from(calls),
        wall_us: wall / f64::from(calls),
    }
}

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let upstream = RecordedUpstream::all().await.unwrap();
        let mut env: Vec<(String, String)> = upstream
            .env()
            .into_iter()
            .map(|(name, value)| (name.to_owned(), value))
            .collect();
        env.extend([
            ("PATH".to_owned(), std::env::var("PATH").unwrap_or_default()),
            ("MCP_STRUCTURED_OUTPUT".to_owned(), "true".to_owned()),
            ("MCP_STRUCTURED_MAX_BYTES".to_owned(), "15728640".to_owned()),
            ("STREAMING_ARTIFACT_STORE".to_owned(), "memory".to_owned()),
            ("RUST_LOG".to_owned(), "error".to_owned()),
        ]);
        let command = tokio::process::Command::new(BIN).configure(|cmd| {
            cmd.env_clear().envs(env);
        });
        let transport = TokioChildProcess::new(command).unwrap();
        let pid = transport.id().unwrap();
        let client = ().serve(transport).await.unwrap();
        let tps = ticks_per_second();

        let me = json!({"path": "/me"}).as_object().cloned().unwrap();
        let fresh = json!({"path": "/me", "fresh": true}).as_object().cloned().unwrap();
        let runs = json!({"owner": "octo-org", "repo": "octo-repo", "perPage": LARGE_PER_PAGE, "outputFormat": "json"})
            .as_object()
            .cloned()
            .unwrap();
        let small = call(&client, "circleci_get", &me).await;
        let large_text = client
            .call_tool(CallToolRequestParams::new("github_list_workflow_runs").with_arguments(runs.clone()))
            .await
            .unwrap();
        // The structured value as JSON text: what the server parsed from upstream and serialized (twice: text and
        // structuredContent) for this call.
        let large_text = serde_json::to_string(&large_text.structured_content.unwrap()).unwrap();

        let mut rows = vec![
            measure("cached circleci_get /me", pid, tps, CALLS, || async {
                call(&client, "circleci_get", &me).await;
            })
            .await,
            measure("uncached circleci_get /me (fresh)", pid, tps, CALLS / 2, || async {
                call(&client, "circleci_get", &fresh).await;
            })
            .await,
            measure("tools/list", pid, tps, CALLS, || async {
                client.list_tools(None).await.unwrap();
            })
            .await,
        ];
        rows.push(
            measure(
                "large result (github_list_workflow_runs)",
                pid,
                tps,
                CALLS / 10,
                || async {
                    call(&client, "github_list_workflow_runs", &runs).await;
                },
            )
            .await,
        );
        // The baseline of the large row: parse + serialize of the same text, in this process, one thread.
        let t0 = Instant::now();
        let rounds = 200;
        for _ in 0..rounds {
            let value: Value = serde_json::from_str(&large_text).unwrap();
            std::hint::black_box(serde_json::to_string(&value).unwrap());
        }
        let baseline = t0.elapsed().as_secs_f64() * 1e6 / f64::from(rounds);

        println!(
            "stdio, one call in flight; small result {small} bytes of text, large {} bytes",
            large_text.len()
        );
        println!("| case | calls | server CPU per call (µs) | context switches per call | wall per call (µs) |");
        println!("|---|---|---|---|---|");
        for row in &rows {
            println!(
                "| {} | {} | {:.1} | {:.2} | {:.1} |",
                row.name, row.calls, row.cpu_us, row.switches, row.wall_us
            );
        }
        println!(
            "| serde_json parse + serialize of the large text (this process) | {rounds} | {baseline:.1} | - | - |"
        );
        println!("large result CPU / baseline: {:.2}x", rows[3].cpu_us / baseline);
        client.cancel().await.unwrap();
    });
}
