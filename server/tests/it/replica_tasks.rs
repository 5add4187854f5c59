//! Tasks across replicas (CONTRACT §10, §12), whole chain: two `mcp-devtools --http` processes with
//! `MCP_HTTP_STATELESS=true` keep their tasks in one Redis (`MCP_TASKS_REDIS_URL`). An rmcp client that declares
//! the tasks extension starts `github_wait_for_run` on replica one; replica two answers `tasks/get` for it (working
//! with its progress, then completed with the tool's result), not for another principal, and its `tasks/cancel`
//! stops replica one's polling of the upstream (the live run's request count stops growing).
//!
//! Needs the Redis that `scripts/test` starts (`MCP_DEVTOOLS_TEST_REDIS_URL`). Without it the test prints why and
//! passes, unless `MCP_DEVTOOLS_REQUIRE_SERVICES=1`, which makes a missing service a failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use crate::common;

use common::http::{HttpServer, tokens_file};
use recorded_upstream::RecordedUpstream;
use recorded_upstream::live::Live;
use rmcp::RoleClient;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, ClientCapabilities, ClientConfig, ErrorCode,
    GetTaskParams, Implementation, ProtocolVersion,
};
use rmcp::service::{ClientLifecycleMode, RunningService, ServiceError};
use serde_json::{Value, json};

const ALICE: &str = "alice-token-tasks-1";
const BOB: &str = "bob-token-tasks-2";
/// A run that completes after a few polls.
const FINISHING_RUN: u64 = 5151;
/// A run that never completes.
const ENDLESS_RUN: u64 = 5252;

type Client = RunningService<RoleClient, ClientConfig>;

/// The Redis of the shared-state tests, or `None` (after printing why) when the test should skip.
fn redis() -> Option<String> {
    let url = std::env::var("MCP_DEVTOOLS_TEST_REDIS_URL")
        .ok()
        .filter(|v| !v.is_empty());
    if url.is_none() {
        assert!(
            std::env::var("MCP_DEVTOOLS_REQUIRE_SERVICES").as_deref() != Ok("1"),
            "MCP_DEVTOOLS_REQUIRE_SERVICES=1 but MCP_DEVTOOLS_TEST_REDIS_URL is not set"
        );
        eprintln!("SKIPPED: no Redis test server (set MCP_DEVTOOLS_TEST_REDIS_URL, or run scripts/test)");
    }
    url
}

/// One replica: stateless HTTP, tasks in `redis` (clients asked to poll every 100 ms), the wait tools polling every
/// 50-200 ms, principals alice and bob.
async fn replica(upstream: &str, redis: &str) -> HttpServer {
    let dir = tempfile::tempdir().unwrap();
    let tokens = tokens_file(&dir, &[(ALICE, "alice"), (BOB, "bob")]);
    let env = common::server_env(
        upstream,
        &[
            ("MCP_STRUCTURED_OUTPUT", "true"),
            ("MCP_HTTP_STATELESS", "true"),
            ("MCP_TASKS_REDIS_URL", redis),
            ("MCP_TASKS_POLL_INTERVAL_MS", "100"),
            ("MCP_TASKS_TTL_MS", "120000"),
            ("MCP_WAIT_POLL_MS", "50"),
            ("MCP_WAIT_MAX_POLL_MS", "200"),
            ("RUST_LOG", "info"),
        ],
    );
    HttpServer::start(env, &["--tokens-file", tokens.to_str().unwrap()], dir).await
}

/// A client of `server` as `token` that declares the tasks extension on every request (MCP 2026-07-28: the
/// `server/discover` lifecycle and per-request capabilities, which a stateless server reads).
async fn declaring(server: &HttpServer, token: &str) -> Client {
    let config = ClientConfig::new(
        ClientCapabilities::builder().enable_tasks().build(),
        Implementation::new("replica-tasks", "1"),
    );
    let lifecycle = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    let client = server.client_as(token, config, lifecycle).await;
    let negotiated = client.peer_info().map(|info| info.protocol_version.clone());
    assert_eq!(negotiated, Some(ProtocolVersion::V_2026_07_28));
    client
}

/// Starts `github_wait_for_run` on `run` as a task; its id.
async fn start(client: &Client, run: u64) -> String {
    let args = json!({"owner": "octo-org", "repo": "octo-repo", "runId": run, "timeoutSeconds": 60});
    let request = CallToolRequestParams::new("github_wait_for_run").with_arguments(args.as_object().cloned().unwrap());
    match client.call_tool_once(request).await.expect("tools/call") {
        CallToolResponse::Task(task) => {
            assert_eq!(
                (task.task.ttl_ms, task.task.poll_interval_ms),
                (Some(120_000), Some(100))
            );
            task.task.task_id
        }
        other => panic!("expected a task, got {other:?}"),
    }
}

async fn get(client: &Client, id: &str) -> Value {
    serde_json::to_value(client.get_task(GetTaskParams::new(id)).await.expect("tasks/get")).unwrap()
}

/// `tasks/get` every 50 ms until the task is not working (at most 20 s): every answer, in order.
async fn poll_until_settled(client: &Client, id: &str) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut seen = Vec::new();
    loop {
        let answer = get(client, id).await;
        let working = answer["status"] == "working";
        seen.push(answer);
        if !working {
            return seen;
        }
        assert!(Instant::now() < deadline, "still working after 20 s: {:?}", seen.last());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn json_rpc_error(err: ServiceError) -> rmcp::ErrorData {
    match err {
        ServiceError::McpError(error) => error,
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_started_on_one_replica_is_answered_and_cancelled_on_the_other() {
    let Some(redis) = redis() else {
        return;
    };
    let upstream = RecordedUpstream::github().await.unwrap();
    Live::mount(upstream.server(), FINISHING_RUN, 6, usize::MAX).await;
    let endless = Live::mount(upstream.server(), ENDLESS_RUN, usize::MAX, usize::MAX).await;
    let one = replica(&upstream.uri(), &redis).await;
    let two = replica(&upstream.uri(), &redis).await;
    let alice_one = declaring(&one, ALICE).await;
    let alice_two = declaring(&two, ALICE).await;
    let bob_two = declaring(&two, BOB).await;

    // Started on one, followed on two to its result.
    let id = start(&alice_one, FINISHING_RUN).await;
    let seen = poll_until_settled(&alice_two, &id).await;
    assert!(
        seen.iter().any(|answer| answer["status"] == "working"
            && answer["statusMessage"]
                .as_str()
                .is_some_and(|m| m.starts_with("in_progress: "))),
        "replica two sees the wait's progress: {seen:#?}"
    );
    let done = seen.last().unwrap();
    assert_eq!(done["status"], "completed", "{done}");
    let data = &done["result"]["structuredContent"]["data"];
    assert_eq!(
        (data["stoppedBy"].clone(), data["conclusion"].clone()),
        (json!("finished"), json!("failure")),
        "{data}"
    );

    // Another principal, on either replica: not found, as an id that never existed.
    let unknown = json_rpc_error(bob_two.get_task(GetTaskParams::new("0".repeat(32))).await.unwrap_err());
    let theirs = json_rpc_error(bob_two.get_task(GetTaskParams::new(id.as_str())).await.unwrap_err());
    assert_eq!(theirs.code, ErrorCode::INVALID_PARAMS);
    assert_eq!((theirs.code, &theirs.message), (unknown.code, &unknown.message));

    // Started on one, cancelled on two: one stops polling the upstream.
    let id = start(&alice_one, ENDLESS_RUN).await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while endless.requests() < 3 {
        assert!(Instant::now() < deadline, "replica one does not poll the run");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(get(&alice_two, &id).await["status"], "working");
    let cancel = json_rpc_error(
        bob_two
            .cancel_task(CancelTaskParams::new(id.as_str()))
            .await
            .unwrap_err(),
    );
    assert_eq!(cancel.code, ErrorCode::INVALID_PARAMS, "bob cannot cancel it");
    alice_two
        .cancel_task(CancelTaskParams::new(id.as_str()))
        .await
        .expect("tasks/cancel on two");
    let seen = poll_until_settled(&alice_two, &id).await;
    assert_eq!(seen.last().unwrap()["status"], "cancelled", "{seen:?}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let stopped_at = endless.requests();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(endless.requests(), stopped_at, "replica one polls the run no more");

    let logs = one.logs();
    assert!(
        logs.contains("task created") && logs.contains("task cancelled by tasks/cancel"),
        "{logs}"
    );
    assert!(!logs.contains(ALICE), "a token in the log:\n{logs}");
}
