//! A runaway or crashing `jq` program cannot hurt the server: the projection runs in a limited, killable worker
//! process (`mcp_projection::Isolated`, a pool of long-lived workers). Whole chain: rmcp client → `mcp-devtools`
//! binary → its `--jq-worker` children → wiremock upstream. Each runaway is followed by a normal call on the same
//! session (the server is still alive and the pool serves again). Linux only: the memory limit is `RLIMIT_AS`, and
//! workers are found in `/proc`.
#![cfg(target_os = "linux")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::time::{Duration, Instant};

use common::{call, connect, repo_args, server_env, text};
use recorded_upstream::RecordedUpstream;
use recorded_upstream::wiremock::matchers::{method, path};
use recorded_upstream::wiremock::{Mock, ResponseTemplate};
use rmcp::RoleClient;
use rmcp::model::CallToolResult;
use rmcp::service::RunningService;
use serde_json::{Value, json};

const RUNS: &str = "github_list_workflow_runs";

/// A normal call on the same session: the recorded runs fixture's `total_count`.
async fn assert_alive(client: &RunningService<RoleClient, ()>) {
    let result = call(client, RUNS, repo_args("octo-repo", json!({"jq": ".total_count"}))).await;
    assert_eq!(
        result.structured_content,
        Some(json!({"data": 593, "nextPage": 2})),
        "{}",
        text(&result)
    );
}

fn assert_stopped(result: &CallToolResult, starts_with: &str) {
    assert_eq!(result.is_error, Some(true), "{}", text(result));
    assert!(result.structured_content.is_none());
    assert!(text(result).starts_with(starts_with), "{}", text(result));
    assert!(text(result).contains("Simplify it"), "{}", text(result));
}

/// Busy worker processes started with `memory_mib` (each test uses its own value): running, with more than 0.3 s of
/// CPU time (a runaway; idle pooled workers sleep on their stdin, a starting one has used a few milliseconds).
fn busy_workers(memory_mib: u64) -> usize {
    common::workers::workers(memory_mib, true).len()
}

#[tokio::test]
async fn a_cpu_runaway_is_killed_at_the_timeout_and_the_server_keeps_serving() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let env = server_env(
        &upstream.uri(),
        &[
            ("MCP_STRUCTURED_OUTPUT", "true"),
            ("MCP_JQ_TIMEOUT_SECONDS", "2"),
            ("MCP_JQ_MAX_MEMORY_MIB", "301"),
        ],
    );
    let client = connect(env).await;
    let started = Instant::now();
    let result = call(
        &client,
        RUNS,
        repo_args("octo-repo", json!({"jq": "last(range(1e15))"})),
    )
    .await;
    let took = started.elapsed();
    assert_stopped(&result, "the jq program was stopped: it ran longer than 2 s");
    assert!(
        (Duration::from_secs(2)..Duration::from_secs(6)).contains(&took),
        "{took:?}"
    );
    assert_eq!(busy_workers(301), 0, "the worker was killed, not left running");
    assert_alive(&client).await;
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_memory_runaway_hits_its_limit_fast_and_the_server_keeps_serving() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let env = server_env(
        &upstream.uri(),
        // The timeout is far off, so only the memory limit can stop these programs, however loaded the machine is.
        &[
            ("MCP_STRUCTURED_OUTPUT", "true"),
            ("MCP_JQ_MAX_MEMORY_MIB", "64"),
            ("MCP_JQ_TIMEOUT_SECONDS", "60"),
        ],
    );
    let client = connect(env).await;
    // One 1 GB string (the machine could hold it: only the limit refuses it), then a gradual growth.
    for jq in ["\"x\" * 1000000000 | length", "[range(1e10)] | length"] {
        let started = Instant::now();
        let result = call(&client, RUNS, repo_args("octo-repo", json!({"jq": jq}))).await;
        assert_stopped(
            &result,
            "the jq program was stopped: it used more than 64 MiB of memory",
        );
        assert!(
            started.elapsed() < Duration::from_secs(50),
            "{jq}: the limit, not the 60 s timeout"
        );
        assert_alive(&client).await;
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_runaway_after_a_write_still_reports_the_write() {
    let upstream = RecordedUpstream::atlassian().await.unwrap();
    let uri = upstream.uri();
    let env = server_env(
        &uri,
        &[
            ("JIRA_BASE_URL", uri.as_str()),
            ("ATLASSIAN_USER_EMAIL", "mia@example.com"),
            ("ATLASSIAN_API_TOKEN", "ATATT-isolation-SECRET"),
            ("MCP_JQ_MAX_MEMORY_MIB", "64"),
        ],
    );
    let client = connect(env).await;
    let args = json!({"method": "POST", "path": "/rest/api/3/issue", "jq": "\"x\" * 1000000000 | length",
                      "body": {"fields": {"summary": "Once"}}});
    let result = call(&client, "jira_write", args).await;
    assert_ne!(result.is_error, Some(true), "{}", text(&result));
    let text = text(&result);
    assert!(
        text.starts_with(
            "The write succeeded (HTTP 201); only the jq projection of its response failed: the jq program was stopped"
        ),
        "{text}"
    );
    assert!(
        text.contains("Do not repeat the write") && !text.contains("SECRET"),
        "{text}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn normal_projections_are_unchanged_and_exact() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let body = r#"{"total_count": 1, "workflow_runs": [{"id": 18446744073709551615, "above_2_53": 9007199254740993,
                   "min_i64": -9223372036854775808, "float": 0.30000000000000004, "tiny": 5e-324}]}"#;
    Mock::given(method("GET"))
        .and(path("/repos/octo-org/exact/actions/runs"))
        .respond_with(ResponseTemplate::new(200).set_body_raw(body, "application/json"))
        .with_priority(1)
        .mount(upstream.server())
        .await;
    let client = connect(server_env(&upstream.uri(), &[("MCP_STRUCTURED_OUTPUT", "true")])).await;
    let result = call(
        &client,
        RUNS,
        repo_args(
            "exact",
            json!({"jq": ".workflow_runs[0] | [.[]]", "outputFormat": "json"}),
        ),
    )
    .await;
    let want = r#"[18446744073709551615, 9007199254740993, -9223372036854775808, 0.30000000000000004, 5e-324]"#;
    let want: Value = serde_json::from_str(want).unwrap();
    assert_eq!(result.structured_content, Some(json!({"data": want, "nextPage": null})));
    let parsed: Value = serde_json::from_str(&text(&result)).unwrap();
    assert_eq!(parsed["data"], want, "the text shows the same digits");
    // A large page (100 runs, 1.2 MB) and the JMESPath fallback go through the worker too.
    let result = call(
        &client,
        RUNS,
        repo_args("octo-repo", json!({"perPage": 100, "jq": "length(workflow_runs[*])"})),
    )
    .await;
    assert_eq!(result.structured_content.unwrap()["data"], json!(100));
    client.cancel().await.unwrap();
}

/// Process ids of the worker processes started with `memory_mib`, alive (not zombies).
fn worker_pids(memory_mib: u64) -> std::collections::BTreeSet<u32> {
    common::workers::workers(memory_mib, false).into_iter().collect()
}

#[tokio::test]
async fn projections_reuse_the_pooled_workers_instead_of_starting_one_per_call() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let env = server_env(
        &upstream.uri(),
        &[("MCP_STRUCTURED_OUTPUT", "true"), ("MCP_JQ_MAX_MEMORY_MIB", "307")],
    );
    let client = connect(env).await;
    assert_alive(&client).await;
    // Wait until the pre-started pool has settled (no worker starting or retiring).
    let mut before = worker_pids(307);
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let now = worker_pids(307);
        if now == before && !now.is_empty() {
            break;
        }
        before = now;
    }
    assert!(!before.is_empty(), "workers are pre-started and kept");
    for _ in 0..10 {
        assert_alive(&client).await;
    }
    assert_eq!(worker_pids(307), before, "ten projections, no new process");
    client.cancel().await.unwrap();
}
