//! The wait tools (`github_wait_for_run`, `github_wait_for_checks`, `circleci_wait_for_pipeline`) through an rmcp
//! client over an in-memory pipe, against the recorded upstream (finished runs, checks and pipelines) and live fakes
//! mounted on it: a run and a commit whose state moves on with each poll, answering `If-None-Match` with `304` as
//! GitHub does. Polling is fast here (`WaitConfig` 50-200 ms, settle 300 ms).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common;

use common::{assert_valid, listed_tool, structured, text};
use mcp_devtools_tools::{DevtoolsServer, ToolsConfig, WaitConfig};
use recorded_upstream::RecordedUpstream;
use recorded_upstream::live::Live;
use recorded_upstream::wiremock::matchers::{method, path, path_regex};
use recorded_upstream::wiremock::{Mock, Request, Respond, ResponseTemplate};
use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CancelledNotificationParam, ClientRequest, ProgressNotificationParam,
};
use rmcp::service::{NotificationContext, PeerRequestOptions, RunningService};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};

/// A recorded run that failed (its derived jobs: one failed, with a recorded log).
const FAILED_RUN: u64 = 2_802_600_146;
/// The live run's id.
const LIVE_RUN: u64 = 4242;

fn config(upstream: &RecordedUpstream) -> ToolsConfig {
    common::all_config(upstream).with_wait(
        WaitConfig::default()
            .with_intervals(Duration::from_millis(50), Duration::from_millis(200))
            .with_settle(Duration::from_millis(300))
            .with_max_failed_polls(2),
    )
}

/// A client that keeps the progress notifications it receives.
#[derive(Clone, Default)]
struct Watcher {
    progress: Arc<Mutex<Vec<ProgressNotificationParam>>>,
}

impl ClientHandler for Watcher {
    async fn on_progress(&self, params: ProgressNotificationParam, _context: NotificationContext<RoleClient>) {
        self.progress.lock().unwrap().push(params);
    }
}

type WatchingClient = RunningService<RoleClient, Watcher>;

async fn connect(server: DevtoolsServer) -> (WatchingClient, Watcher) {
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    let watcher = Watcher::default();
    let client = watcher.clone().serve(client_end).await.expect("MCP handshake");
    (client, watcher)
}

async fn call(client: &WatchingClient, tool: &str, args: Value) -> rmcp::model::CallToolResult {
    client
        .call_tool(CallToolRequestParams::new(tool.to_owned()).with_arguments(args.as_object().cloned().unwrap()))
        .await
        .expect("tools/call")
}

async fn mount_live_run(upstream: &RecordedUpstream, polls: usize, fail_from: usize) -> Live {
    Live::mount(upstream.server(), LIVE_RUN, polls, fail_from).await
}

fn live_args(extra: Value) -> Value {
    let mut args = json!({"owner": "octo-org", "repo": "octo-repo", "runId": LIVE_RUN});
    if let (Some(args), Some(extra)) = (args.as_object_mut(), extra.as_object()) {
        args.extend(extra.clone());
    }
    args
}

#[tokio::test]
async fn a_run_is_waited_for_until_it_completed_with_progress_and_conditional_polls() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let live = mount_live_run(&upstream, 4, usize::MAX).await;
    let server = common::server(config(&upstream)).await;
    let (client, watcher) = connect(server).await;
    let result = call(&client, "github_wait_for_run", live_args(json!({"timeoutSeconds": 30}))).await;
    let tool = listed_tool_of(&client, "github_wait_for_run").await;
    let data = structured(&result)["data"].clone();
    assert_valid(&tool, &structured(&result));
    assert_eq!(data["stoppedBy"], "finished", "{data}");
    assert_eq!(data["timedOut"], false);
    assert_eq!(data["state"], "completed");
    assert_eq!(data["conclusion"], "failure");
    assert_eq!(data["url"], "https://github.com/octo-org/octo-repo/actions/runs/4242");
    assert_eq!(data["durationMs"], 300_000);
    assert_eq!(data["jobs"].as_array().unwrap().len(), 2);
    let failed = failed_jobs(&data);
    assert_eq!(failed.len(), 1, "{data}");
    assert_eq!(failed[0]["jobId"], 42_422, "{data}");
    assert_eq!(failed[0]["runId"], LIVE_RUN);
    assert_eq!(failed[0]["logTail"], Value::Null, "not asked");
    assert!(data["polls"].as_u64().unwrap() >= 5, "{data}");
    let progress = watcher.progress.lock().unwrap().clone();
    assert!(progress.len() >= 2, "{progress:?}");
    assert!(
        progress.windows(2).all(|pair| pair[1].progress > pair[0].progress),
        "progress increases: {progress:?}"
    );
    let last = progress.last().unwrap();
    assert_eq!(last.total, Some(2.0));
    assert_eq!(last.message.as_deref(), Some("completed: 2 of 2 done"));
    assert!(
        progress
            .iter()
            .any(|p| p.message.as_deref() == Some("in_progress: 1 of 2 done")),
        "{progress:?}"
    );
    // While jobs ran, each poll was one request (the jobs list): the run itself was read first and once its jobs
    // were done.
    assert_eq!(live.run_answers(), 2, "{} requests in all", live.requests());
    // The unchanged in_progress answers were 304s after the first.
    assert!(live.not_modified() >= 3, "{} 304s", live.not_modified());
}

async fn listed_tool_of(client: &WatchingClient, name: &str) -> rmcp::model::Tool {
    client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .find(|t| t.name == name)
        .unwrap()
}

#[tokio::test]
async fn a_finished_run_answers_at_once_with_the_failed_jobs_log_tail() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let client = common::connect(config(&upstream)).await;
    let started = Instant::now();
    let args = json!({"owner": "octo-org", "repo": "octo-repo", "runId": FAILED_RUN, "failedLogTail": 5});
    let result = common::call(&client, "github_wait_for_run", args).await;
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_valid(&listed_tool(&client, "github_wait_for_run").await, &structured(&result));
    let data = &structured(&result)["data"];
    assert_eq!(data["stoppedBy"], "finished", "{data}");
    assert_eq!(data["conclusion"], "failure");
    assert_eq!(data["polls"], 1);
    let failed = failed_jobs(data);
    assert_eq!(failed.len(), 1, "{data}");
    let tail = failed[0]["logTail"].as_array().unwrap();
    assert_eq!(tail.len(), 5, "{failed:?}");
    assert!(failed[0]["jobId"].as_u64().is_some());
    // Only the failed job's log is read.
    let tails = data["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|job| !job["logTail"].is_null())
        .count();
    assert_eq!(tails, 1);
}

#[tokio::test]
async fn an_unknown_run_is_an_error_naming_it() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let client = common::connect(config(&upstream)).await;
    let args = json!({"owner": "octo-org", "repo": "octo-repo", "runId": 1});
    let result = common::call(&client, "github_wait_for_run", args).await;
    assert_eq!(result.is_error, Some(true));
    let text = text(&result);
    assert!(
        text.contains("workflow run 1 of octo-org/octo-repo was not found"),
        "{text}"
    );
}

#[tokio::test]
async fn a_wait_times_out_with_the_last_state_seen() {
    let upstream = RecordedUpstream::all().await.unwrap();
    mount_live_run(&upstream, usize::MAX, usize::MAX).await;
    let client = common::connect(config(&upstream)).await;
    let result = common::call(&client, "github_wait_for_run", live_args(json!({"timeoutSeconds": 1}))).await;
    let data = &structured(&result)["data"];
    assert_eq!(data["timedOut"], true, "{data}");
    assert_eq!(data["stoppedBy"], "timeout");
    assert_eq!(data["state"], "in_progress");
    assert_eq!(data["conclusion"], Value::Null);
    // timeoutSeconds 0: the current state, after one poll.
    let result = common::call(&client, "github_wait_for_run", live_args(json!({"timeoutSeconds": 0}))).await;
    let data = &structured(&result)["data"];
    assert_eq!(data["state"], "in_progress", "{data}");
    assert_eq!(data["timedOut"], true);
}

#[tokio::test]
async fn upstream_errors_end_the_wait_naming_the_last_state_seen() {
    let upstream = RecordedUpstream::all().await.unwrap();
    mount_live_run(&upstream, usize::MAX, 2).await;
    let client = common::connect(config(&upstream)).await;
    let result = common::call(&client, "github_wait_for_run", live_args(json!({"timeoutSeconds": 30}))).await;
    let data = &structured(&result)["data"];
    assert_eq!(data["stoppedBy"], "upstream_error", "{data}");
    assert_eq!(data["state"], "in_progress");
    assert!(data["lastError"].as_str().unwrap().contains("500"), "{data}");
}

#[tokio::test]
async fn waits_on_one_run_share_its_polls_and_a_cancelled_wait_stops_polling() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let live = mount_live_run(&upstream, usize::MAX, usize::MAX).await;
    let server = common::server(config(&upstream)).await;
    let app = server.app().clone();
    let (first, _) = connect(server.clone()).await;
    let (second, _) = connect(server).await;
    let send = |client: &WatchingClient| {
        let peer = client.peer().clone();
        async move {
            let params = CallToolRequestParams::new("github_wait_for_run")
                .with_arguments(live_args(json!({"timeoutSeconds": 60})).as_object().cloned().unwrap());
            let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
            peer.send_cancellable_request(request, PeerRequestOptions::no_options())
                .await
                .unwrap()
        }
    };
    let one = send(&first).await;
    let two = send(&second).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(app.wait_loops(), 1, "one poll loop for two waits on one run");
    let answers = live.requests();
    // 1.5 s at 50-200 ms: one loop polls at most ~12 times; two would poll twice as often.
    assert!((3..=14).contains(&answers), "{answers} polls of the run");
    for (client, handle) in [(&first, &one), (&second, &two)] {
        let cancel = CancelledNotificationParam::new(Some(handle.id.clone()), Some("test".to_owned()));
        client.peer().notify_cancelled(cancel).await.unwrap();
    }
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let after_cancel = live.requests();
    assert_eq!(app.wait_loops(), 0, "the loop stopped with its last follower");
    tokio::time::sleep(Duration::from_millis(1000)).await;
    assert_eq!(live.requests(), after_cancel, "no request after the cancel");
}

#[tokio::test]
async fn the_servers_drain_ends_a_wait_with_a_clear_result() {
    let upstream = RecordedUpstream::all().await.unwrap();
    mount_live_run(&upstream, usize::MAX, usize::MAX).await;
    let server = common::server(config(&upstream)).await;
    let app = server.app().clone();
    let (client, _) = connect(server).await;
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(500)).await;
        app.shutdown.cancel();
    });
    let started = Instant::now();
    let result = call(
        &client,
        "github_wait_for_run",
        live_args(json!({"timeoutSeconds": 600})),
    )
    .await;
    assert!(started.elapsed() < Duration::from_secs(5));
    let data = &structured(&result)["data"];
    assert_eq!(data["stoppedBy"], "shutdown", "{data}");
    assert_eq!(data["state"], "in_progress");
}

/// Check runs of a commit that has none at first, then one in progress, then that one completed.
struct LateCheck(Arc<AtomicUsize>);

impl Respond for LateCheck {
    fn respond(&self, _request: &Request) -> ResponseTemplate {
        let n = self.0.fetch_add(1, Ordering::SeqCst);
        let check = |status: &str, conclusion: Value| {
            json!({"id": 7, "name": "late", "status": status, "conclusion": conclusion,
                   "html_url": "https://github.com/octo-org/octo-repo/runs/7",
                   "details_url": "https://ci.example.com/7", "app": {"slug": "some-ci"},
                   "started_at": "2026-12-05T10:00:00Z",
                   "completed_at": if conclusion.is_null() { Value::Null } else { json!(jiff::Timestamp::now().to_string()) }})
        };
        let runs = match n {
            0 => vec![],
            1..=3 => vec![check("in_progress", Value::Null)],
            _ => vec![check("completed", json!("success"))],
        };
        ResponseTemplate::new(200).set_body_json(json!({"total_count": runs.len(), "check_runs": runs}))
    }
}

/// A combined status whose one status finished at the moment of each answer (a fresh push's).
struct FreshStatus;

impl Respond for FreshStatus {
    fn respond(&self, _request: &Request) -> ResponseTemplate {
        let now = jiff::Timestamp::now().to_string();
        ResponseTemplate::new(200).set_body_json(json!({
            "state": "success", "total_count": 1, "sha": "late-sha",
            "statuses": [{"id": 9, "context": "ci/legacy", "state": "success", "target_url": "https://ci.example.com/9",
                          "created_at": now, "updated_at": now}]}))
    }
}

#[tokio::test]
async fn a_late_check_is_waited_for_and_checks_settle() {
    let upstream = RecordedUpstream::all().await.unwrap();
    Mock::given(method("GET"))
        .and(path_regex("^/repos/octo-org/octo-repo/commits/late-sha/check-runs$"))
        .respond_with(LateCheck(Arc::default()))
        .with_priority(1)
        .mount(upstream.server())
        .await;
    Mock::given(method("GET"))
        .and(path_regex("^/repos/octo-org/octo-repo/commits/late-sha/status$"))
        .respond_with(FreshStatus)
        .with_priority(1)
        .mount(upstream.server())
        .await;
    let client = common::connect(config(&upstream)).await;
    let args = json!({"owner": "octo-org", "repo": "octo-repo", "ref": "late-sha", "timeoutSeconds": 30});
    let result = common::call(&client, "github_wait_for_checks", args).await;
    assert_valid(
        &listed_tool(&client, "github_wait_for_checks").await,
        &structured(&result),
    );
    let data = &structured(&result)["data"];
    assert_eq!(data["stoppedBy"], "finished", "{data}");
    assert_eq!(data["conclusion"], "success");
    let jobs = data["jobs"].as_array().unwrap();
    assert_eq!(jobs.len(), 2, "the late check and the status: {data}");
    assert_eq!(jobs[0]["kind"], "check_run");
    assert_eq!(jobs[0]["status"], "completed");
    assert_eq!(jobs[0]["jobId"], Value::Null, "not an Actions job");
    assert_eq!(jobs[1]["kind"], "status");
    assert_eq!(jobs[1]["name"], "ci/legacy");
}

#[tokio::test]
async fn a_pull_requests_finished_checks_answer_at_once_and_an_empty_combined_status_is_no_status() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let client = common::connect(config(&upstream)).await;
    let runs = recorded_upstream::github::commits::pull_requests(&recorded_runs());
    let pull = runs.values().find(|pull| pull["state"] == "open").unwrap().clone();
    let number = pull["number"].as_u64().unwrap();
    let args = json!({"owner": "octo-org", "repo": "octo-repo", "pullNumber": number});
    let started = Instant::now();
    let result = common::call(&client, "github_wait_for_checks", args).await;
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "finished long ago: no settle wait"
    );
    let data = &structured(&result)["data"];
    assert_eq!(data["stoppedBy"], "finished", "{data}");
    assert!(
        data["target"]
            .as_str()
            .unwrap()
            .contains(&format!("pull request #{number}")),
        "{data}"
    );
    assert!(
        data["jobs"]
            .as_array()
            .unwrap()
            .iter()
            .all(|job| job["kind"] == "check_run"),
        "{data}"
    );
    let actions = &data["jobs"][0];
    assert_eq!(actions["jobId"].as_str().map(str::to_owned), None);
    assert!(
        actions["jobId"].as_u64().is_some() && actions["runId"].as_u64().is_some(),
        "{actions}"
    );
    let unknown = json!({"owner": "octo-org", "repo": "octo-repo", "ref": "0000000"});
    let result = common::call(&client, "github_wait_for_checks", unknown).await;
    assert_eq!(result.is_error, Some(true));
    assert!(
        text(&result).contains("No commit found for SHA: 0000000"),
        "{}",
        text(&result)
    );
    let missing = json!({"owner": "octo-org", "repo": "octo-repo", "pullNumber": 1});
    let result = common::call(&client, "github_wait_for_checks", missing).await;
    assert_eq!(result.is_error, Some(true));
    assert!(
        text(&result).contains("pull request #1 of octo-org/octo-repo"),
        "{}",
        text(&result)
    );
}

/// The failed entries of a wait result's jobs.
fn failed_jobs(data: &Value) -> Vec<Value> {
    data["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|job| job["failed"] == true)
        .cloned()
        .collect()
}

fn recorded_runs() -> Vec<Value> {
    let body: Value = serde_json::from_slice(recorded_upstream::fixture("github/actions-runs").unwrap().body).unwrap();
    body["workflow_runs"].as_array().unwrap().clone()
}

#[tokio::test]
async fn a_finished_circleci_pipeline_answers_its_workflows_jobs_and_failed_log_tail() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let client = common::connect(config(&upstream)).await;
    let args = json!({"pipelineId": "5034460f-c7c4-4c43-9457-de07e2029e7b", "failedLogTail": 3});
    let result = common::call(&client, "circleci_wait_for_pipeline", args).await;
    assert_valid(
        &listed_tool(&client, "circleci_wait_for_pipeline").await,
        &structured(&result),
    );
    let data = &structured(&result)["data"];
    assert_eq!(data["stoppedBy"], "finished", "{data}");
    assert_eq!(data["conclusion"], "failed");
    assert_eq!(
        data["url"],
        "https://app.circleci.com/pipelines/github/CircleCI-Public/api-preview-docs/25"
    );
    assert_eq!(data["projectSlug"], "gh/CircleCI-Public/api-preview-docs");
    let failed = failed_jobs(data);
    let job = failed
        .iter()
        .find(|job| job["kind"] == "circleci_job")
        .expect("the failed job");
    assert_eq!(job["jobNumber"], 102);
    assert_eq!(job["logTail"].as_array().map(Vec::len), Some(3), "{job}");
    let missing = json!({"pipelineId": "00000000-0000-4000-8000-000000000404"});
    Mock::given(method("GET"))
        .and(path("/api/v2/pipeline/00000000-0000-4000-8000-000000000404/workflow"))
        .respond_with(recorded_upstream::fixture("circleci/error-404").unwrap().response())
        .with_priority(1)
        .mount(upstream.server())
        .await;
    let result = common::call(&client, "circleci_wait_for_pipeline", missing).await;
    assert_eq!(result.is_error, Some(true));
    assert!(
        text(&result).contains("CircleCI pipeline 00000000-0000-4000-8000-000000000404 was not found"),
        "{}",
        text(&result)
    );
}

#[tokio::test]
async fn the_wait_tools_type_their_data_fully_and_take_no_jq() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let client = common::connect(config(&upstream)).await;
    for name in [
        "github_wait_for_run",
        "github_wait_for_checks",
        "circleci_wait_for_pipeline",
    ] {
        let tool = listed_tool(&client, name).await;
        let input = serde_json::to_value(&tool.input_schema).unwrap();
        assert!(input["properties"].get("jq").is_none(), "{name}: {input}");
        assert!(input["properties"]["timeoutSeconds"].is_object(), "{name}");
        let output = serde_json::to_value(tool.output_schema.as_ref().unwrap()).unwrap();
        let data = &output["properties"]["data"];
        let text = data.to_string();
        for key in [
            "stoppedBy",
            "timedOut",
            "conclusion",
            "jobs",
            "failed",
            "logTail",
            "jobNumber",
            "jobId",
        ] {
            assert!(text.contains(key), "{name}: {key} in {data}");
        }
        assert_eq!(tool.annotations.as_ref().unwrap().read_only_hint, Some(true));
    }
}

#[tokio::test]
async fn a_wait_with_nothing_changing_still_sends_progress_every_heartbeat() {
    let upstream = RecordedUpstream::all().await.unwrap();
    mount_live_run(&upstream, usize::MAX, usize::MAX).await;
    let mut config = config(&upstream);
    config.wait = config.wait.with_heartbeat(Duration::from_millis(100));
    let (client, watcher) = connect(common::server(config).await).await;
    let result = call(&client, "github_wait_for_run", live_args(json!({"timeoutSeconds": 1}))).await;
    assert_eq!(structured(&result)["data"]["stoppedBy"], "timeout");
    let progress = watcher.progress.lock().unwrap().clone();
    // Two changes (waiting, then in_progress), then a repeat every 100 ms of the second.
    assert!(progress.len() >= 6, "{} notifications: {progress:?}", progress.len());
    assert!(
        progress.windows(2).all(|pair| pair[1].progress > pair[0].progress),
        "{progress:?}"
    );
    let repeats = progress
        .iter()
        .filter(|p| p.message.as_deref() == Some("in_progress: 1 of 2 done"))
        .count();
    assert!(repeats >= 5, "{progress:?}");
}
