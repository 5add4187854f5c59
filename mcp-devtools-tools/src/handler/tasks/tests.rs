//! The tasks extension through a real rmcp client over an in-memory pipe, with the toy vendor's `toy_wait` (the
//! tests' task tool): a declaring client gets a task and polls it to its result; another principal cannot see or
//! cancel it; `tasks/cancel` stops the work; a client without the extension gets the blocking answer and `-32021`;
//! an unreachable store falls back to the blocking answer.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_results::tasks::{RedisTaskStoreConfig, TaskId};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, ClientCapabilities, ClientConfig, CreateTaskResult,
    ErrorCode, GetTaskParams, Implementation, TaskStatus,
};
use rmcp::service::{RunningService, ServiceError};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};

use crate::vendors::toy::steps_taken;
use crate::{App, DevtoolsServer, Principal, TasksConfig, ToolsConfig};

type Client<H> = RunningService<RoleClient, H>;

/// The tools with the toy vendor, tasks polled every 100 ms (`pollIntervalMs`), in memory unless `tasks` says.
async fn server(tasks: TasksConfig) -> DevtoolsServer {
    let config = ToolsConfig::default()
        .with_structured_output(true)
        .with_tasks(tasks.with_poll_interval(Duration::from_millis(100)));
    DevtoolsServer::new(Arc::new(App::new(config).await.unwrap()))
}

/// `server` answering as `principal`, to a client whose `config` is given, over an in-memory pipe.
async fn connect<H: rmcp::ClientHandler>(server: &DevtoolsServer, principal: &str, client: H) -> Client<H> {
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    let server = server.clone().with_principal(Principal::named(principal));
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    client.serve(client_end).await.unwrap()
}

/// A client that declares the tasks extension.
fn declaring() -> ClientConfig {
    ClientConfig::new(
        ClientCapabilities::builder().enable_tasks().build(),
        Implementation::new("tasks-test", "1"),
    )
}

fn call(tool: &str, args: Value) -> CallToolRequestParams {
    CallToolRequestParams::new(tool.to_owned()).with_arguments(args.as_object().cloned().unwrap())
}

/// A unique label for `toy_wait`'s step count.
fn label() -> String {
    TaskId::random().to_string()
}

async fn start<H: rmcp::ClientHandler>(client: &Client<H>, args: Value) -> CreateTaskResult {
    match client.call_tool_once(call("toy_wait", args)).await.unwrap() {
        CallToolResponse::Task(task) => task,
        other => panic!("expected a task, got {other:?}"),
    }
}

async fn get<H: rmcp::ClientHandler>(client: &Client<H>, id: &str) -> Value {
    serde_json::to_value(client.get_task(GetTaskParams::new(id)).await.unwrap()).unwrap()
}

/// Polls `tasks/get` every 20 ms until the task is no longer working; every answer seen, in order.
async fn poll_until_settled<H: rmcp::ClientHandler>(client: &Client<H>, id: &str) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut seen = Vec::new();
    loop {
        let answer = get(client, id).await;
        let working = answer["status"] == "working";
        seen.push(answer);
        if !working {
            return seen;
        }
        assert!(Instant::now() < deadline, "still working after 10 s: {seen:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn mcp_error(err: ServiceError) -> rmcp::ErrorData {
    match err {
        ServiceError::McpError(error) => error,
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

#[tokio::test]
async fn a_declaring_client_gets_a_task_and_polls_it_to_its_result_with_progress_on_the_way() {
    let server = server(TasksConfig::default()).await;
    let alice = connect(&server, "alice", declaring()).await;
    assert!(alice.peer_info().unwrap().capabilities.supports_tasks(), "advertised");
    let label = label();
    let task = start(&alice, json!({"label": label, "steps": 5, "stepMs": 60})).await;
    let created = serde_json::to_value(&task).unwrap();
    assert_eq!(created["resultType"], "task");
    assert_eq!(created["status"], "working");
    assert_eq!(created["ttlMs"], 3_600_000, "the default ttl: {created}");
    assert_eq!(created["pollIntervalMs"], 100);
    assert!(TaskId::parse(&task.task.task_id).is_some(), "{created}");

    let seen = poll_until_settled(&alice, &task.task.task_id).await;
    let progress: Vec<&str> = seen
        .iter()
        .filter_map(|answer| answer["statusMessage"].as_str())
        .collect();
    assert!(
        progress.iter().any(|message| message.starts_with("step ")),
        "progress while working: {seen:?}"
    );
    let last = seen.last().unwrap();
    assert_eq!(last["status"], "completed", "{last}");
    assert_eq!(last["resultType"], "complete");
    assert_eq!(
        last["result"]["structuredContent"],
        json!({"data": {"steps": 5}}),
        "{last}"
    );
    assert_eq!(last["result"]["isError"], false);
    assert_eq!(steps_taken(&label), 5);
    // Kept: a later poll answers the same.
    assert_eq!(&get(&alice, &task.task.task_id).await, last);
}

#[tokio::test]
async fn another_principal_cannot_see_or_cancel_a_task_and_learns_nothing() {
    let server = server(TasksConfig::default()).await;
    let alice = connect(&server, "alice", declaring()).await;
    let bob = connect(&server, "bob", declaring()).await;
    let label = label();
    let task = start(&alice, json!({"label": label, "steps": 20, "stepMs": 20})).await;
    let id = task.task.task_id.as_str();

    let theirs = mcp_error(bob.get_task(GetTaskParams::new(id)).await.unwrap_err());
    let unknown = mcp_error(
        bob.get_task(GetTaskParams::new(TaskId::random().as_str()))
            .await
            .unwrap_err(),
    );
    assert_eq!(theirs.code, ErrorCode::INVALID_PARAMS);
    assert_eq!(
        (theirs.code, &theirs.message),
        (unknown.code, &unknown.message),
        "the same answer"
    );
    let cancel = mcp_error(bob.cancel_task(CancelTaskParams::new(id)).await.unwrap_err());
    assert_eq!((cancel.code, &cancel.message), (unknown.code, &unknown.message));

    let settled = poll_until_settled(&alice, id).await;
    assert_eq!(
        settled.last().unwrap()["status"],
        "completed",
        "bob's cancel did nothing"
    );
    assert_eq!(steps_taken(&label), 20);
}

#[tokio::test]
async fn tasks_cancel_stops_the_work_and_the_task_settles_cancelled() {
    let server = server(TasksConfig::default()).await;
    let alice = connect(&server, "alice", declaring()).await;
    let label = label();
    let task = start(&alice, json!({"label": label, "steps": 1000, "stepMs": 20})).await;
    let id = task.task.task_id.as_str();
    let deadline = Instant::now() + Duration::from_secs(5);
    while steps_taken(&label) < 2 {
        assert!(Instant::now() < deadline, "toy_wait does not run");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }

    alice.cancel_task(CancelTaskParams::new(id)).await.unwrap();
    let seen = poll_until_settled(&alice, id).await;
    let last = seen.last().unwrap();
    assert_eq!(last["status"], "cancelled", "{last}");
    assert!(last.get("result").is_none(), "{last}");
    let stopped_at = steps_taken(&label);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(steps_taken(&label), stopped_at, "the work stopped");
    assert!(stopped_at < 1000, "{stopped_at}");
}

#[tokio::test]
async fn an_is_error_result_is_completed_and_a_panicking_call_is_failed() {
    let server = server(TasksConfig::default()).await;
    let alice = connect(&server, "alice", declaring()).await;
    let failing = start(&alice, json!({"label": label(), "steps": 1, "stepMs": 1, "fail": true})).await;
    let failing = poll_until_settled(&alice, &failing.task.task_id).await;
    let failing = failing.last().unwrap();
    assert_eq!(failing["status"], "completed", "isError is completed: {failing}");
    assert_eq!(failing["result"]["isError"], true);

    let panicking = start(
        &alice,
        json!({"label": label(), "steps": 1, "stepMs": 1, "panic": true}),
    )
    .await;
    let panicking = poll_until_settled(&alice, &panicking.task.task_id).await;
    let panicking = panicking.last().unwrap();
    assert_eq!(panicking["status"], "failed", "{panicking}");
    assert_eq!(panicking["error"]["code"], -32603);
    assert_eq!(
        panicking["statusMessage"],
        "Internal error: the tool failed unexpectedly"
    );
}

#[tokio::test]
async fn other_calls_and_clients_without_the_extension_get_the_answer_itself() {
    let server = server(TasksConfig::default()).await;
    // A tool that does not run as a task, from a declaring client.
    let alice = connect(&server, "alice", declaring()).await;
    match alice
        .call_tool_once(call("toy_get", json!({"name": "mia"})))
        .await
        .unwrap()
    {
        CallToolResponse::Complete(result) => {
            assert_eq!(
                result.structured_content,
                Some(json!({"data": {"greeting": "hello mia"}}))
            );
        }
        other => panic!("toy_get is not a task tool: {other:?}"),
    }
    // A client that did not declare the extension: the blocking answer, and -32021 for tasks/*.
    let plain = connect(&server, "alice", ()).await;
    let label = label();
    let result = plain
        .call_tool(call("toy_wait", json!({"label": label, "steps": 2, "stepMs": 1})))
        .await
        .unwrap();
    assert_eq!(result.structured_content, Some(json!({"data": {"steps": 2}})));
    assert_eq!(steps_taken(&label), 2);
    let refused = mcp_error(
        plain
            .get_task(GetTaskParams::new(TaskId::random().as_str()))
            .await
            .unwrap_err(),
    );
    assert_eq!(
        refused.code,
        ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY,
        "{refused:?}"
    );
    let refused = mcp_error(
        plain
            .cancel_task(CancelTaskParams::new(TaskId::random().as_str()))
            .await
            .unwrap_err(),
    );
    assert_eq!(
        refused.code,
        ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY,
        "{refused:?}"
    );
}

#[tokio::test]
async fn an_unreachable_task_store_answers_the_call_itself_and_tasks_get_says_why() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let redis = RedisTaskStoreConfig::new(format!("redis://127.0.0.1:{port}/0"));
    let server = server(TasksConfig::default().with_redis(Some(redis))).await;
    let alice = connect(&server, "alice", declaring()).await;
    let label = label();
    match alice
        .call_tool_once(call("toy_wait", json!({"label": label, "steps": 2, "stepMs": 1})))
        .await
        .unwrap()
    {
        CallToolResponse::Complete(result) => {
            assert_eq!(result.structured_content, Some(json!({"data": {"steps": 2}})));
        }
        other => panic!("expected the blocking answer, got {other:?}"),
    }
    let failed = mcp_error(
        alice
            .get_task(GetTaskParams::new(TaskId::random().as_str()))
            .await
            .unwrap_err(),
    );
    assert_eq!(failed.code, ErrorCode::INTERNAL_ERROR);
    assert!(
        failed.message.starts_with("the task store is unreachable: "),
        "{failed:?}"
    );
}

#[tokio::test]
async fn tasks_update_is_refused_and_statuses_are_the_extensions() {
    let server = server(TasksConfig::default()).await;
    let alice = connect(&server, "alice", declaring()).await;
    let task = start(&alice, json!({"label": label(), "steps": 1, "stepMs": 1})).await;
    let update = rmcp::model::UpdateTaskParams::new(task.task.task_id.clone(), Default::default());
    let refused = mcp_error(alice.update_task(update).await.unwrap_err());
    assert_eq!(refused.code, ErrorCode::INVALID_PARAMS);
    assert_eq!(task.task.status, TaskStatus::Working);
}
