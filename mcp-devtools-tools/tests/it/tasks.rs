//! The MCP Tasks extension (`io.modelcontextprotocol/tasks`) with the wait tools, whole chain in-process: an rmcp
//! client that declares the extension calls `github_wait_for_run` on a live run of the recorded upstream
//! (`recorded_upstream::live`: `in_progress` for a few polls, then `completed`) and gets a task; it polls `tasks/get`
//! to `completed` with the tool's result; another principal's `tasks/get` and `tasks/cancel` are *not found*;
//! `tasks/cancel` settles the task `cancelled` and stops the upstream polling; a client without the extension gets
//! the blocking result and `-32021` for `tasks/get`; an unreachable task store (Redis) gives the blocking result with
//! a warning in the log, and `tasks/get` says the store is unreachable.
//!
//! Tasks live in memory here (the server's own store); the Redis store across two server processes is tested in
//! `server/tests/it/replicas.rs`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::common;

use common::assert_valid;
use mcp_devtools_tools::{App, DevtoolsServer, Principal, TasksConfig, WaitConfig};
use recorded_upstream::RecordedUpstream;
use recorded_upstream::live::Live;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, ClientCapabilities, ClientConfig, CreateTaskResult,
    ErrorCode, GetTaskParams, Implementation,
};
use rmcp::service::{RunningService, ServiceError};
use rmcp::{ClientHandler, ErrorData, RoleClient, ServiceExt};
use serde_json::{Value, json};

type Client<H> = RunningService<RoleClient, H>;

/// The live run's id.
const LIVE_RUN: u64 = 4343;

/// Mounts the live run: `in_progress` for its first `polls` polls, then `completed`.
async fn mount_live_run(upstream: &RecordedUpstream, polls: usize) -> Live {
    Live::mount(upstream.server(), LIVE_RUN, polls, usize::MAX).await
}

/// Every vendor of `upstream`, the wait tools polling every 50-200 ms, and tasks polled every 100 ms
/// (`pollIntervalMs`) with a 60 s `ttlMs`.
async fn server(upstream: &RecordedUpstream) -> DevtoolsServer {
    let wait = WaitConfig::default().with_intervals(Duration::from_millis(50), Duration::from_millis(200));
    let tasks = TasksConfig::default()
        .with_ttl(Duration::from_secs(60))
        .with_poll_interval(Duration::from_millis(100));
    let config = common::all_config(upstream).with_wait(wait).with_tasks(tasks);
    DevtoolsServer::new(Arc::new(App::new(config).await.expect("the tools build")))
}

/// `github_wait_for_run`'s arguments for the live run, with `extra`.
fn live_args(extra: Value) -> Value {
    let mut args = json!({"owner": "octo-org", "repo": "octo-repo", "runId": LIVE_RUN});
    if let (Some(args), Some(extra)) = (args.as_object_mut(), extra.as_object()) {
        args.extend(extra.clone());
    }
    args
}

/// A client (`handler`: its capabilities) of `server` answering as `principal`, over an in-memory pipe.
async fn connect<H: ClientHandler>(server: &DevtoolsServer, principal: &str, handler: H) -> Client<H> {
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    let server = server.clone().with_principal(Principal::named(principal));
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    handler.serve(client_end).await.expect("MCP handshake")
}

/// The capabilities of a client that declares the tasks extension.
fn declaring() -> ClientConfig {
    ClientConfig::new(
        ClientCapabilities::builder().enable_tasks().build(),
        Implementation::new("tasks-it", "1"),
    )
}

fn wait_for_run(extra: Value) -> CallToolRequestParams {
    CallToolRequestParams::new("github_wait_for_run").with_arguments(live_args(extra).as_object().cloned().unwrap())
}

async fn start<H: ClientHandler>(client: &Client<H>, extra: Value) -> CreateTaskResult {
    match client.call_tool_once(wait_for_run(extra)).await.expect("tools/call") {
        CallToolResponse::Task(task) => task,
        other => panic!("expected a task, got {other:?}"),
    }
}

async fn get<H: ClientHandler>(client: &Client<H>, id: &str) -> Value {
    serde_json::to_value(client.get_task(GetTaskParams::new(id)).await.expect("tasks/get")).unwrap()
}

/// `tasks/get` every 50 ms until the task is not working (at most 20 s): every answer, in order.
async fn poll_until_settled<H: ClientHandler>(client: &Client<H>, id: &str) -> Vec<Value> {
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

fn json_rpc_error(err: ServiceError) -> ErrorData {
    match err {
        ServiceError::McpError(error) => error,
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

#[tokio::test]
async fn a_declaring_client_gets_a_task_for_a_wait_and_polls_it_to_the_tools_result() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let live = mount_live_run(&upstream, 6).await;
    let server = server(&upstream).await;
    let alice = connect(&server, "alice", declaring()).await;
    assert!(
        alice.peer_info().unwrap().capabilities.supports_tasks(),
        "the server advertises the extension"
    );

    let started = Instant::now();
    let task = start(&alice, json!({"timeoutSeconds": 30})).await;
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "answered at once: {:?}",
        started.elapsed()
    );
    let created = serde_json::to_value(&task).unwrap();
    assert_eq!(created["resultType"], "task", "{created}");
    assert_eq!(created["status"], "working");
    assert_eq!(
        (created["ttlMs"].clone(), created["pollIntervalMs"].clone()),
        (json!(60_000), json!(100))
    );

    let seen = poll_until_settled(&alice, &task.task.task_id).await;
    assert!(
        seen.iter()
            .any(|answer| answer["status"] == "working" && answer["statusMessage"] == "in_progress: 1 of 2 done"),
        "the wait's progress while working: {seen:#?}"
    );
    let done = seen.last().unwrap();
    assert_eq!(done["status"], "completed", "{done}");
    let result = &done["result"];
    assert_eq!(result["isError"], false, "{result}");
    let data = &result["structuredContent"]["data"];
    assert_eq!(
        (data["stoppedBy"].clone(), data["conclusion"].clone()),
        (json!("finished"), json!("failure")),
        "{data}"
    );
    // The stored result is the tool's result: it validates against the tool's outputSchema.
    assert_valid(&listed_tool_of(&alice).await, &result["structuredContent"]);
    assert!(
        live.requests() >= 7,
        "polled until completed: {} requests",
        live.requests()
    );
}

async fn listed_tool_of<H: ClientHandler>(client: &Client<H>) -> rmcp::model::Tool {
    client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .find(|tool| tool.name == "github_wait_for_run")
        .expect("listed")
}

#[tokio::test]
async fn another_principal_finds_no_task_and_tasks_cancel_stops_the_polling() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let live = mount_live_run(&upstream, usize::MAX).await;
    let server = server(&upstream).await;
    let alice = connect(&server, "alice", declaring()).await;
    let bob = connect(&server, "bob", declaring()).await;
    let task = start(&alice, json!({"timeoutSeconds": 60})).await;
    let id = task.task.task_id.as_str();
    let deadline = Instant::now() + Duration::from_secs(10);
    while live.requests() < 3 {
        assert!(Instant::now() < deadline, "the task's wait does not poll");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    // Bob: not found, exactly as for an id that never existed; his cancel changes nothing.
    let unknown = json_rpc_error(bob.get_task(GetTaskParams::new("0".repeat(32))).await.unwrap_err());
    let theirs = json_rpc_error(bob.get_task(GetTaskParams::new(id)).await.unwrap_err());
    assert_eq!(theirs.code, ErrorCode::INVALID_PARAMS);
    assert_eq!((theirs.code, &theirs.message), (unknown.code, &unknown.message));
    let cancel = json_rpc_error(bob.cancel_task(CancelTaskParams::new(id)).await.unwrap_err());
    assert_eq!((cancel.code, &cancel.message), (unknown.code, &unknown.message));
    assert_eq!(get(&alice, id).await["status"], "working");

    // Alice's cancel: the task settles cancelled and the run is polled no more.
    alice
        .cancel_task(CancelTaskParams::new(id))
        .await
        .expect("tasks/cancel");
    let seen = poll_until_settled(&alice, id).await;
    assert_eq!(seen.last().unwrap()["status"], "cancelled", "{seen:?}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let stopped_at = live.requests();
    tokio::time::sleep(Duration::from_millis(1000)).await;
    assert_eq!(live.requests(), stopped_at, "the upstream is polled no more");
    assert_eq!(server.app().wait_loops(), 0, "the wait's poll loop ended");
}

#[tokio::test]
async fn a_client_without_the_extension_gets_the_result_itself_and_minus_32021_for_tasks_get() {
    let upstream = RecordedUpstream::all().await.unwrap();
    mount_live_run(&upstream, 2).await;
    let server = server(&upstream).await;
    let plain = connect(&server, "alice", ()).await;
    let result = plain
        .call_tool(wait_for_run(json!({"timeoutSeconds": 30})))
        .await
        .expect("tools/call");
    let data = &common::structured(&result)["data"];
    assert_eq!(data["stoppedBy"], "finished", "the blocking answer: {data}");
    let refused = json_rpc_error(plain.get_task(GetTaskParams::new("0".repeat(32))).await.unwrap_err());
    assert_eq!(
        refused.code,
        ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY,
        "{refused:?}"
    );
    assert_eq!(
        refused.data,
        Some(json!({"requiredCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}})),
        "{refused:?}"
    );
}

#[tokio::test]
async fn an_unreachable_task_store_answers_the_wait_itself_and_says_so_in_the_log() {
    common::capture_log();
    let upstream = RecordedUpstream::all().await.unwrap();
    mount_live_run(&upstream, 2).await;
    // A port nothing listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let redis = mcp_results::tasks::RedisTaskStoreConfig::new(format!("redis://127.0.0.1:{port}/0"));
    let wait = WaitConfig::default().with_intervals(Duration::from_millis(50), Duration::from_millis(200));
    let tasks = TasksConfig::default().with_redis(Some(redis));
    let config = common::all_config(&upstream).with_wait(wait).with_tasks(tasks);
    let server = DevtoolsServer::new(Arc::new(
        App::new(config).await.expect("an unreachable Redis is no error"),
    ));
    let alice = connect(&server, "alice", declaring()).await;

    match alice
        .call_tool_once(wait_for_run(json!({"timeoutSeconds": 30})))
        .await
        .expect("tools/call")
    {
        CallToolResponse::Complete(result) => {
            let data = &common::structured(&result)["data"];
            assert_eq!(data["stoppedBy"], "finished", "the blocking answer: {data}");
        }
        other => panic!("expected the blocking answer, got {other:?}"),
    }
    let failed = json_rpc_error(alice.get_task(GetTaskParams::new("0".repeat(32))).await.unwrap_err());
    assert_eq!(failed.code, ErrorCode::INTERNAL_ERROR);
    assert!(
        failed.message.starts_with("the task store is unreachable: "),
        "{failed:?}"
    );
    let log = common::log();
    assert!(
        log.lines()
            .any(|line| line.contains("WARN") && line.contains("the task store did not take the task")),
        "{log}"
    );
}
