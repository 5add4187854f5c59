//! The server's own CPU per call (issue 46): the `mcp-devtools` process's user + system time (from
//! `/proc/<pid>/stat`, clock ticks) and its threads' context switches (voluntary and involuntary, summed over
//! `/proc/<pid>/task/*/status`: a measure of the thread hand-offs per call) over [`CALLS`] calls, for
//! - stdio, one call in flight: a cached small read (`circleci_get /me`, 583 bytes), the same read uncached
//!   (`fresh: true`, against the recorded upstream on 127.0.0.1), `tools/list`, a large result
//!   (`github_list_workflow_runs`, `perPage` [`LARGE_PER_PAGE`], `outputFormat: json`) and a 256 KiB one (`perPage`
//!   `recorded_upstream::github::MEDIUM_PER_PAGE`; sizes printed), each with the in-process `serde_json` parse +
//!   serialize of the same result as JSON text as its baseline;
//! - the stdio floor ([`stdio_floor`]: one thread with blocking reads answering the server's own results, from the
//!   same client): the cached read and `tools/list`, what any stdio server pays per call on this machine;
//! - streamable HTTP, one session (one call in flight): the cached read and `tools/list`;
//! - streamable HTTP, [`SESSIONS`] sessions calling the cached read back to back (closed loop);
//! - streamable HTTP, one session, from a raw JSON-RPC client ([`raw`]: `reqwest`, one keep-alive connection, no
//!   SDK): the cached read, then the same calls against [`floor`] (hyper alone, answering the bytes the server
//!   answered): what any HTTP server pays per call on this machine.
//!
//! Whole chain: rmcp clients (stdio; streamable HTTP, in this process) → the binary → the recorded upstream. The
//! binary built by this `cargo bench` (release) is "after"; with `CPU_PER_CALL_BASELINE_BIN` set to another build
//! (e.g. the previous commit's `target/release/mcp-devtools`, copied aside) the same cases run against it first, as
//! "before", in the same run. Linux only (`/proc`).
//!
//! Targets (issue 46): a cached small read at most 50 µs of CPU per call over stdio and 100 µs over HTTP, `tools/list`
//! at most 30 µs, the 256 KiB result at most 3x its parse + serialize, at most two thread hand-offs per small call on
//! stdio. Not a criterion bench: it prints a table. Run with
//! `CPU_PER_CALL_BASELINE_BIN=/path/to/before/mcp-devtools cargo bench -p mcp-devtools-server --bench cpu_per_call`.
//! Results: `BENCHMARKS.md`.
#![allow(missing_docs, dead_code, clippy::unwrap_used, clippy::expect_used)]

#[path = "cpu_per_call/floor.rs"]
mod floor;
#[path = "../tests/common/http.rs"]
mod http;
#[path = "cpu_per_call/raw.rs"]
mod raw;
#[path = "cpu_per_call/stdio_floor.rs"]
mod stdio_floor;

use std::sync::Arc;
use std::time::Instant;

use http::{HttpServer, tokens_file};
use recorded_upstream::RecordedUpstream;
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Map, Value, json};

/// The server binary built by this `cargo bench` (release profile).
const BIN: &str = env!("CARGO_BIN_EXE_mcp-devtools");
/// Calls per small case (the uncached one makes half, the large one a tenth of them).
const CALLS: u32 = 10_000;
/// Runs per page of the large result: the recorded upstream's 100-run page, 1.2 MB as JSON.
const LARGE_PER_PAGE: u32 = 100;
/// Concurrent sessions of the loaded HTTP case.
const SESSIONS: usize = 256;
/// Bearer tokens (principals) the HTTP sessions are spread over: 16 sessions each, half the server's default
/// share of 32 calls in flight per principal, so that the share never refuses a call of this closed loop (at 32
/// sessions a principal, `http_load`'s spread, one run saw a `429`).
const PRINCIPALS: usize = 16;

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

/// One measurement: CPU µs and switches per call over `calls` calls.
#[derive(Clone, Copy)]
struct Row {
    calls: u32,
    cpu_us: f64,
    switches: f64,
}

/// Warms up with a tenth of `calls`, then measures `calls` calls of `once` (which makes `per_once` calls).
async fn measure<F, Fut>(pid: u32, calls: u32, per_once: u32, mut once: F) -> Row
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let tps = ticks_per_second();
    for _ in 0..calls / per_once / 10 {
        once().await;
    }
    let (cpu0, sw0) = (cpu_us(pid, tps), switches(pid));
    for _ in 0..calls / per_once {
        once().await;
    }
    let (cpu1, sw1) = (cpu_us(pid, tps), switches(pid));
    Row {
        calls,
        cpu_us: (cpu1 - cpu0) as f64 / f64::from(calls),
        switches: (sw1.saturating_sub(sw0)) as f64 / f64::from(calls),
    }
}

fn args(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap()
}

/// The cases of one binary, in the order of [`CASES`], and the large and the 256 KiB result's JSON text.
async fn cases(bin: &str, upstream: &RecordedUpstream) -> (Vec<Row>, [String; 2]) {
    let mut env = http::bench_env(upstream);
    env.push(("MCP_STRUCTURED_MAX_BYTES".to_owned(), "15728640".to_owned()));
    let me = args(json!({"path": "/me"}));
    let fresh = args(json!({"path": "/me", "fresh": true}));
    let runs =
        args(json!({"owner": "octo-org", "repo": "octo-repo", "perPage": LARGE_PER_PAGE, "outputFormat": "json"}));
    let medium = args(json!({
        "owner": "octo-org", "repo": "octo-repo", "perPage": recorded_upstream::github::MEDIUM_PER_PAGE, "outputFormat": "json"
    }));

    // stdio
    let command = tokio::process::Command::new(bin).configure(|cmd| {
        cmd.env_clear().envs(env.clone());
    });
    let transport = TokioChildProcess::new(command).unwrap();
    let pid = transport.id().unwrap();
    let client = ().serve(transport).await.unwrap();
    let large = client
        .call_tool(CallToolRequestParams::new("github_list_workflow_runs").with_arguments(runs.clone()))
        .await
        .unwrap();
    let large_text = serde_json::to_string(&large.structured_content.unwrap()).unwrap();
    let medium_result = client
        .call_tool(CallToolRequestParams::new("github_list_workflow_runs").with_arguments(medium.clone()))
        .await
        .unwrap();
    let medium_text = serde_json::to_string(&medium_result.structured_content.unwrap()).unwrap();
    // What the stdio floor answers: the server's own results, as JSON text.
    let cached_result = client
        .call_tool(CallToolRequestParams::new("circleci_get").with_arguments(me.clone()))
        .await
        .unwrap();
    let recorded = [
        serde_json::to_string(&cached_result).unwrap(),
        serde_json::to_string(&client.list_tools(None).await.unwrap()).unwrap(),
    ];
    let mut rows = vec![
        measure(pid, CALLS, 1, || async {
            call(&client, "circleci_get", &me).await;
        })
        .await,
        measure(pid, CALLS / 2, 1, || async {
            call(&client, "circleci_get", &fresh).await;
        })
        .await,
        measure(pid, CALLS, 1, || async { drop(client.list_tools(None).await.unwrap()) }).await,
        measure(pid, CALLS / 10, 1, || async {
            call(&client, "github_list_workflow_runs", &runs).await;
        })
        .await,
        measure(pid, CALLS / 4, 1, || async {
            call(&client, "github_list_workflow_runs", &medium).await;
        })
        .await,
    ];
    client.cancel().await.unwrap();
    rows.extend(stdio_floor_rows(&recorded, &me).await);

    // streamable HTTP
    let dir = tempfile::tempdir().unwrap();
    let pairs: Vec<(String, String)> = (0..PRINCIPALS)
        .map(|i| (format!("bench-token-{i:02}-0123456789"), format!("principal-{i}")))
        .collect();
    let pair_refs: Vec<(&str, &str)> = pairs.iter().map(|(t, p)| (t.as_str(), p.as_str())).collect();
    let tokens = tokens_file(&dir, &pair_refs);
    let server = HttpServer::start_bin(bin, env, &["--tokens-file", tokens.to_str().unwrap()], dir).await;
    let pid = server.child.id().unwrap();
    let client = server.client(&pairs[0].0).await;
    rows.push(
        measure(pid, CALLS, 1, || async {
            call(&client, "circleci_get", &me).await;
        })
        .await,
    );
    rows.push(measure(pid, CALLS, 1, || async { drop(client.list_tools(None).await.unwrap()) }).await);
    client.cancel().await.unwrap();
    let session = raw::Session::open(&server.url, &pairs[0].0).await;
    let answer = session.call(raw::CACHED_READ).await;
    rows.push(
        measure(pid, CALLS, 1, || async {
            session.call(raw::CACHED_READ).await;
        })
        .await,
    );
    rows.push(floor_row(&answer).await);
    let mut clients = Vec::with_capacity(SESSIONS);
    for i in 0..SESSIONS {
        clients.push(server.client(&pairs[i % PRINCIPALS].0).await);
    }
    let clients = Arc::new(clients);
    let me = Arc::new(me);
    let per_session = 8;
    let per_round = u32::try_from(SESSIONS * per_session).unwrap();
    let loaded = measure(pid, per_round * 20, per_round, || {
        let (clients, me) = (clients.clone(), me.clone());
        async move {
            let mut sessions = tokio::task::JoinSet::new();
            for i in 0..SESSIONS {
                let (clients, me) = (clients.clone(), me.clone());
                sessions.spawn(async move {
                    for _ in 0..per_session {
                        call(&clients[i], "circleci_get", &me).await;
                    }
                });
            }
            sessions.join_all().await;
        }
    })
    .await;
    rows.push(loaded);
    if let Ok(clients) = Arc::try_unwrap(clients) {
        for client in clients {
            client.cancel().await.unwrap();
        }
    }
    (rows, [large_text, medium_text])
}

/// The cached read's CPU per call against [`floor`] answering `answer` (the real server's answer to it).
async fn floor_row(answer: &raw::Answer) -> Row {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("answer");
    let mut recorded = format!("{}\n", answer.content_type).into_bytes();
    recorded.extend_from_slice(&answer.body);
    std::fs::write(&file, recorded).unwrap();
    let exe = std::env::current_exe().unwrap();
    let floor = HttpServer::start_bin(
        exe.to_str().unwrap(),
        Vec::new(),
        &[floor::FLOOR_ARG, file.to_str().unwrap()],
        tempfile::tempdir().unwrap(),
    )
    .await;
    let session = raw::Session::open(&floor.url, "no token").await;
    let pid = floor.child.id().unwrap();
    let row = measure(pid, CALLS, 1, || async {
        session.call(raw::CACHED_READ).await;
    })
    .await;
    drop(dir);
    row
}

/// The cached read and `tools/list` against [`stdio_floor`] answering `recorded` (the real server's results, in
/// the order of [`stdio_floor::RECORDED`]), from the same rmcp client as the stdio rows.
async fn stdio_floor_rows(recorded: &[String; 2], me: &Map<String, Value>) -> [Row; 2] {
    let dir = tempfile::tempdir().unwrap();
    for (method, result) in stdio_floor::RECORDED.iter().zip(recorded) {
        std::fs::write(dir.path().join(stdio_floor::file_name(method)), result).unwrap();
    }
    let exe = std::env::current_exe().unwrap();
    let command = tokio::process::Command::new(exe).configure(|cmd| {
        cmd.arg(stdio_floor::STDIO_FLOOR_ARG).arg(dir.path());
    });
    let transport = TokioChildProcess::new(command).unwrap();
    let pid = transport.id().unwrap();
    let client = ().serve(transport).await.unwrap();
    let rows = [
        measure(pid, CALLS, 1, || async {
            call(&client, "circleci_get", me).await;
        })
        .await,
        measure(pid, CALLS, 1, || async { drop(client.list_tools(None).await.unwrap()) }).await,
    ];
    client.cancel().await.unwrap();
    rows
}

/// The cases, in the order [`cases`] measures them.
const CASES: [&str; 12] = [
    "stdio: cached circleci_get /me",
    "stdio: uncached circleci_get /me (fresh)",
    "stdio: tools/list",
    "stdio: large result (github_list_workflow_runs, 100 runs)",
    "stdio: 256 KiB result (github_list_workflow_runs, 21 runs)",
    "stdio floor: one thread, blocking reads, answering the same results: cached circleci_get /me",
    "stdio floor: one thread, blocking reads, answering the same results: tools/list",
    "HTTP, 1 session: cached circleci_get /me",
    "HTTP, 1 session: tools/list",
    "HTTP, 1 session, raw JSON-RPC client: cached circleci_get /me",
    "HTTP floor: hyper alone answering the same bytes, raw JSON-RPC client",
    "HTTP, 256 sessions: cached circleci_get /me",
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|arg| arg == floor::FLOOR_ARG) {
        floor::serve(&args[at + 1]);
        return;
    }
    if let Some(at) = args.iter().position(|arg| arg == stdio_floor::STDIO_FLOOR_ARG) {
        stdio_floor::serve(&args[at + 1]);
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let upstream = RecordedUpstream::all().await.unwrap();
        let before = match std::env::var("CPU_PER_CALL_BASELINE_BIN") {
            Ok(bin) => Some(cases(&bin, &upstream).await.0),
            Err(_) => None,
        };
        let (after, [large_text, medium_text]) = cases(BIN, &upstream).await;

        // The baselines of the large rows: parse + serialize of the same text, in this process, one thread.
        let parse_serialize = |text: &str, rounds: u32| {
            let t0 = Instant::now();
            for _ in 0..rounds {
                let value: Value = serde_json::from_str(text).unwrap();
                std::hint::black_box(serde_json::to_string(&value).unwrap());
            }
            t0.elapsed().as_secs_f64() * 1e6 / f64::from(rounds)
        };
        let rounds = 200;
        let baseline = parse_serialize(&large_text, rounds);
        let medium_baseline = parse_serialize(&medium_text, rounds * 4);

        println!(
            "large result: {} bytes as JSON; 256 KiB result: {} bytes",
            large_text.len(),
            medium_text.len()
        );
        println!(
            "| case | calls | before: CPU µs per call | after: CPU µs per call | after / before | before: context switches per call | after: context switches per call |"
        );
        println!("|---|---:|---:|---:|---:|---:|---:|");
        for (i, name) in CASES.iter().enumerate() {
            let a = after[i];
            let (b_cpu, b_sw, ratio) = match &before {
                Some(before) => (
                    format!("{:.1}", before[i].cpu_us),
                    format!("{:.2}", before[i].switches),
                    format!("{:.2}x", a.cpu_us / before[i].cpu_us),
                ),
                None => ("-".into(), "-".into(), "-".into()),
            };
            println!(
                "| {name} | {} | {b_cpu} | {:.1} | {ratio} | {b_sw} | {:.2} |",
                a.calls, a.cpu_us, a.switches
            );
        }
        println!("| serde_json parse + serialize of the large text (this process) | {rounds} | - | {baseline:.1} | - | - | - |");
        println!(
            "| serde_json parse + serialize of the 256 KiB text (this process) | {} | - | {medium_baseline:.1} | - | - | - |",
            rounds * 4
        );
        for (name, row, base) in [("large", 3, baseline), ("256 KiB", 4, medium_baseline)] {
            match &before {
                Some(before) => println!(
                    "{name} result CPU / parse + serialize: before {:.2}x, after {:.2}x",
                    before[row].cpu_us / base,
                    after[row].cpu_us / base
                ),
                None => println!("{name} result CPU / parse + serialize: {:.2}x", after[row].cpu_us / base),
            }
        }
    });
}
