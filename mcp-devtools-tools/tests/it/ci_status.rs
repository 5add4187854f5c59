//! `ci_status` through an rmcp client over an in-memory pipe against the recorded upstream, where the GitHub runs'
//! commits have check runs (their jobs) and CircleCI pipelines (branch `docs`): one merged state, every check with
//! the ids the log and wait tools take, re-runs counted by their newest attempt, CircleCI optional.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{assert_valid, listed_tool, structured, text};
use recorded_upstream::RecordedUpstream;
use recorded_upstream::wiremock::matchers::{method, path_regex};
use recorded_upstream::wiremock::{Mock, ResponseTemplate};
use serde_json::{Value, json};

/// The commit of the recorded run 2802600146, which failed (branch `docs`).
const FAILED_SHA: &str = "1e59b61ec3662be30b817d3125fca946231f0b0f";

fn args(more: Value) -> Value {
    let mut args = json!({"owner": "octo-org", "repo": "octo-repo"});
    args.as_object_mut().unwrap().extend(more.as_object().unwrap().clone());
    args
}

#[tokio::test]
async fn a_failed_commit_is_failure_with_every_github_and_circleci_check() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let client = common::connect_to_all(&upstream).await;
    let result = common::call(&client, "ci_status", args(json!({"sha": FAILED_SHA}))).await;
    assert_valid(&listed_tool(&client, "ci_status").await, &structured(&result));
    let data = &structured(&result)["data"];
    assert_eq!(data["sha"], FAILED_SHA);
    assert_eq!(data["state"], "failure", "{data}");
    let checks = data["checks"].as_array().unwrap();
    let failed_run = checks
        .iter()
        .find(|c| c["kind"] == "check_run" && c["state"] == "failure")
        .expect("the failed Actions job's check run");
    assert_eq!(failed_run["runId"], 2_802_600_146_u64, "{failed_run}");
    assert!(failed_run["jobId"].as_u64().is_some());
    assert_eq!(failed_run["attempts"], 1);
    // No commit status: GitHub's empty combined status (state pending) adds nothing.
    assert!(checks.iter().all(|c| c["kind"] != "status"), "{data}");
    // CircleCI: the pipeline of this commit on branch docs, its failed workflow and job 102.
    // Its branch (docs) from its pull request.
    assert_eq!(data["branch"], "docs");
    let circleci = &data["circleci"];
    assert_eq!(circleci["projectSlug"], "gh/octo-org/octo-repo");
    assert_eq!(circleci["error"], Value::Null);
    let pipeline = circleci["pipelines"][0]["id"].as_str().unwrap().to_owned();
    assert!(pipeline.ends_with("2802600146"), "{circleci}");
    let job = checks
        .iter()
        .find(|c| c["kind"] == "circleci_job" && c["jobNumber"] == 102)
        .expect("CircleCI job 102");
    assert_eq!(job["state"], "failure");
    assert_eq!(job["pipelineId"], pipeline.as_str());
    let counts = &data["counts"];
    let total: u64 = ["success", "failure", "pending", "neutral"]
        .iter()
        .map(|k| counts[k].as_u64().unwrap())
        .sum();
    assert_eq!(total, checks.len() as u64, "{counts}");
}

#[tokio::test]
async fn a_pull_request_is_read_by_its_head_and_branch() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let client = common::connect_to_all(&upstream).await;
    let runs: Value = serde_json::from_slice(recorded_upstream::fixture("github/actions-runs").unwrap().body).unwrap();
    let pulls = recorded_upstream::github::commits::pull_requests(runs["workflow_runs"].as_array().unwrap());
    let pull = pulls.values().find(|p| p["head"]["ref"] == "docs").unwrap();
    let number = pull["number"].as_u64().unwrap();
    let result = common::call(&client, "ci_status", args(json!({"pullNumber": number}))).await;
    let data = &structured(&result)["data"];
    assert_eq!(data["sha"].as_str().unwrap().len(), 40, "{data}");
    assert_eq!(data["branch"], "docs");
    assert_eq!(data["circleci"]["pipelines"].as_array().unwrap().len(), 1, "{data}");
}

#[tokio::test]
async fn a_re_run_check_counts_by_its_newest_attempt_and_says_so() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let run = |id: u64, conclusion: &str| {
        json!({"id": id, "name": "test", "status": "completed", "conclusion": conclusion,
               "html_url": format!("https://github.com/octo-org/octo-repo/runs/{id}"),
               "details_url": format!("https://github.com/octo-org/octo-repo/actions/runs/77/job/{id}"),
               "app": {"slug": "github-actions"}, "started_at": "2026-12-05T10:00:00Z",
               "completed_at": "2026-12-05T10:01:00Z"})
    };
    Mock::given(method("GET"))
        .and(path_regex("^/repos/octo-org/octo-repo/commits/abcdef1/check-runs$"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"total_count": 2, "check_runs": [run(902, "success"), run(901, "failure")]})),
        )
        .with_priority(1)
        .mount(upstream.server())
        .await;
    Mock::given(method("GET"))
        .and(path_regex("^/repos/octo-org/octo-repo/commits/abcdef1/status$"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"state": "pending", "statuses": []})))
        .with_priority(1)
        .mount(upstream.server())
        .await;
    // GitHub only: no CircleCI part.
    let client = common::connect(common::github_config(&upstream.uri()).with_structured_output(true)).await;
    let result = common::call(&client, "ci_status", args(json!({"sha": "abcdef1"}))).await;
    let data = &structured(&result)["data"];
    assert_eq!(data["state"], "success", "{data}");
    let checks = data["checks"].as_array().unwrap();
    assert_eq!(checks.len(), 1, "{data}");
    assert_eq!(checks[0]["attempts"], 2);
    assert_eq!(checks[0]["jobId"], 902);
    assert_eq!(checks[0]["runId"], 77);
    assert_eq!(data["circleci"], Value::Null);
}

#[tokio::test]
async fn circleci_failing_leaves_the_github_answer_standing() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let client = common::connect_to_all(&upstream).await;
    let result = common::call(
        &client,
        "ci_status",
        args(json!({"sha": FAILED_SHA, "projectSlug": "gh/octo-org/missing"})),
    )
    .await;
    let data = &structured(&result)["data"];
    assert_eq!(data["state"], "failure");
    assert!(data["circleci"]["error"].as_str().unwrap().contains("404"), "{data}");
    assert!(
        data["checks"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["kind"] == "check_run")
    );
}

#[tokio::test]
async fn an_unknown_commit_or_pull_request_is_an_error_naming_it() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let client = common::connect_to_all(&upstream).await;
    let result = common::call(&client, "ci_status", args(json!({"sha": "0000000"}))).await;
    assert_eq!(result.is_error, Some(true));
    assert!(text(&result).contains("commit 0000000"), "{}", text(&result));
    let result = common::call(&client, "ci_status", args(json!({"pullNumber": 1}))).await;
    assert_eq!(result.is_error, Some(true));
    assert!(text(&result).contains("pull request #1"), "{}", text(&result));
}
