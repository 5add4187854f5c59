//! Issue 43, point 4: errors that say what to do next, as `_meta.code` (and its details) a program can branch on,
//! in-process (rmcp client over an in-memory pipe → the tools → a local upstream answering as the vendors
//! document): GitHub's 422 `errors[]` kept, the permission or scope a 403 lacks named from
//! `X-Accepted-GitHub-Permissions` / `X-Accepted-OAuth-Scopes`, rate limits with the time to wait (GitHub, CircleCI,
//! Jira), Jira's field errors, and a missing job log (404/410) explained by the job's state and attempts, with the
//! call that would help. The codes are listed in docs/CONTRACT.md §7.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{Client, call, connect_to_all, text};
use recorded_upstream::RecordedUpstream;
use recorded_upstream::wiremock::matchers::{method, path};
use recorded_upstream::wiremock::{Mock, ResponseTemplate};
use rmcp::model::CallToolResult;
use serde_json::{Value, json};

/// The error result's `_meta`, checked to be an error without `structuredContent`.
fn meta(result: &CallToolResult) -> Value {
    assert_eq!(result.is_error, Some(true), "{}", text(result));
    assert!(result.structured_content.is_none());
    serde_json::to_value(result.meta.as_ref().expect("_meta")).unwrap()
}

async fn setup() -> (RecordedUpstream, Client) {
    let upstream = RecordedUpstream::all().await.unwrap();
    let client = connect_to_all(&upstream).await;
    (upstream, client)
}

async fn answer(upstream: &RecordedUpstream, at: &str, response: ResponseTemplate) {
    Mock::given(method("GET"))
        .and(path(at))
        .respond_with(response)
        .with_priority(1)
        .mount(upstream.server())
        .await;
}

fn json_error(status: u16, body: Value) -> ResponseTemplate {
    ResponseTemplate::new(status)
        .insert_header("content-type", "application/json; charset=utf-8")
        .set_body_json(body)
}

#[tokio::test]
async fn vendor_errors_carry_codes_details_and_waits() {
    let (upstream, client) = setup().await;
    // GitHub's 422 with errors[] (the troubleshooting page's example shape).
    answer(
        &upstream,
        "/repos/o/r/issues",
        json_error(
            422,
            json!({"message": "Validation Failed", "errors": [
                {"resource": "Issue", "field": "title", "code": "missing_field"},
                "labels must be an array"
            ], "documentation_url": "https://docs.github.com/rest/issues/issues#create-an-issue"}),
        ),
    )
    .await;
    let result = call(&client, "github_get", json!({"path": "/repos/o/r/issues"})).await;
    let m = meta(&result);
    assert_eq!(m["code"], "validation_failed");
    assert_eq!(m["status"], 422);
    assert_eq!(m["errors"][0]["field"], "title");
    assert_eq!(m["errors"][1], "labels must be an array");
    assert!(
        text(&result).contains("Issue.title: missing_field; labels must be an array"),
        "{}",
        text(&result)
    );

    // A fine-grained token without the permission: GitHub names what the endpoint accepts.
    answer(
        &upstream,
        "/repos/o/r/actions/runs",
        json_error(
            403,
            json!({"message": "Resource not accessible by personal access token", "status": "403"}),
        )
        .insert_header(
            "x-accepted-github-permissions",
            "actions=read; contents=read,metadata=read",
        ),
    )
    .await;
    let result = call(&client, "github_list_workflow_runs", json!({"owner": "o", "repo": "r"})).await;
    let m = meta(&result);
    assert_eq!(m["code"], "missing_permission");
    assert_eq!(
        m["acceptedPermissions"],
        json!([{"actions": "read"}, {"contents": "read", "metadata": "read"}])
    );
    assert!(
        text(&result).contains("actions=read or contents=read and metadata=read"),
        "{}",
        text(&result)
    );

    // A classic token without the scope.
    answer(
        &upstream,
        "/repos/o/r/hooks",
        json_error(403, json!({"message": "Must have admin rights to Repository."}))
            .insert_header("x-accepted-oauth-scopes", "admin:repo_hook, read:repo_hook, repo")
            .insert_header("x-oauth-scopes", "read:org"),
    )
    .await;
    let m = meta(&call(&client, "github_get", json!({"path": "/repos/o/r/hooks"})).await);
    assert_eq!(m["code"], "missing_permission");
    assert_eq!(
        m["acceptedScopes"],
        json!(["admin:repo_hook", "read:repo_hook", "repo"])
    );
    assert_eq!(m["tokenScopes"], json!(["read:org"]));

    // A 403 that names nothing stays `forbidden`; a 404 is `not_found`.
    answer(
        &upstream,
        "/repos/o/r/actions/permissions",
        json_error(403, json!({"message": "Actions is disabled for this repository."})),
    )
    .await;
    let m = meta(&call(&client, "github_get", json!({"path": "/repos/o/r/actions/permissions"})).await);
    assert_eq!(m["code"], "forbidden");
    assert!(m.get("acceptedPermissions").is_none());
    let m = meta(&call(&client, "github_get", json!({"path": "/repos/o/r/nothing-here"})).await);
    assert_eq!(m["code"], "not_found");

    // GitHub's primary rate limit (the fixture's headers), reset an hour from now.
    let reset = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        + 3600;
    answer(
        &upstream,
        "/rate-limited",
        json_error(
            403,
            json!({"message": "API rate limit exceeded for 127.0.0.1.", "documentation_url": "https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting"}),
        )
        .insert_header("x-ratelimit-remaining", "0")
        .insert_header("x-ratelimit-reset", reset.to_string().as_str()),
    )
    .await;
    let m = meta(&call(&client, "github_get", json!({"path": "/rate-limited"})).await);
    assert_eq!(m["code"], "rate_limited");
    let wait = m["retryAfterSeconds"].as_u64().unwrap();
    assert!((3500..=3600).contains(&wait), "{m}");
    assert!(m["resetAt"].as_str().unwrap().ends_with('Z'));

    // CircleCI's 429 with Retry-After (longer than the call's timeout: no retry, the wait is reported).
    answer(
        &upstream,
        "/api/v2/rate-limited",
        json_error(429, json!({"message": "Rate limit exceeded"})).insert_header("retry-after", "120"),
    )
    .await;
    let m = meta(&call(&client, "circleci_get", json!({"path": "/rate-limited"})).await);
    assert_eq!(
        (m["code"].as_str(), m["status"].as_u64()),
        (Some("rate_limited"), Some(429))
    );
    assert_eq!(m["retryAfterSeconds"], 120);

    // Arguments refused before anything is sent: `invalid_argument`, from the tools' own checks and the adapter's.
    for (tool, args) in [
        (
            "github_list_workflow_runs",
            json!({"owner": "o", "repo": "r", "perPage": 0}),
        ),
        ("github_get", json!({"path": "/repos/o/r/x", "jq": ".["})),
        ("github_get_job_logs", json!({"owner": "o", "repo": "r"})),
        ("github_get", json!({"path": "/repos/o/r/../../user"})),
    ] {
        let result = call(&client, tool, args).await;
        assert_eq!(meta(&result)["code"], "invalid_argument", "{tool}: {}", text(&result));
    }

    // Jira's 400 with errorMessages (the recorded fixture) is a validation failure with Jira's lists.
    let result = call(
        &client,
        "jira_get",
        json!({"path": "/rest/api/3/search/jql", "queryParams": {"jql": "universe = 1"}}),
    )
    .await;
    let m = meta(&result);
    assert_eq!(m["code"], "validation_failed", "{}", text(&result));
    assert_eq!(
        m["errors"]["errorMessages"][0],
        "Field 'universe' does not exist or you do not have permission to view it."
    );
    client.cancel().await.unwrap();
}

/// A job of `github/run-jobs-failure` with `changes`, its `run_url` on the test's upstream.
fn job(upstream: &RecordedUpstream, id: u64, changes: Value) -> Value {
    let fixture = recorded_upstream::fixture("github/run-jobs-failure").unwrap();
    let body: Value = serde_json::from_slice(fixture.body).unwrap();
    let mut job = body["jobs"][0].clone();
    job["id"] = json!(id);
    job["run_url"] = json!(format!("{}/repos/o/r/actions/runs/77", upstream.uri()));
    job["run_id"] = json!(77);
    for (key, value) in changes.as_object().unwrap() {
        job[key] = value.clone();
    }
    job
}

async fn job_without_log(upstream: &RecordedUpstream, id: u64, changes: Value, log_status: u16) {
    answer(
        upstream,
        &format!("/repos/o/r/actions/jobs/{id}"),
        json_error(200, job(upstream, id, changes)),
    )
    .await;
    answer(
        upstream,
        &format!("/repos/o/r/actions/jobs/{id}/logs"),
        json_error(log_status, json!({"message": "Not Found", "documentation_url": "https://docs.github.com/rest/actions/workflow-jobs#download-job-logs-for-a-workflow-job"})),
    )
    .await;
}

#[tokio::test]
async fn a_missing_job_log_is_explained_by_the_jobs_state_and_attempts() {
    let (upstream, client) = setup().await;
    answer(
        &upstream,
        "/repos/o/r/actions/runs/77",
        json_error(200, json!({"id": 77, "run_attempt": 2, "status": "completed"})),
    )
    .await;
    let logs = |id: u64| json!({"owner": "o", "repo": "r", "jobId": id});

    // Still running: wait, then the same call again.
    job_without_log(
        &upstream,
        1,
        json!({"status": "in_progress", "conclusion": null, "completed_at": null, "run_attempt": 2}),
        404,
    )
    .await;
    let result = call(&client, "github_get_job_logs", logs(1)).await;
    let m = meta(&result);
    assert_eq!(m["code"], "log_not_ready", "{}", text(&result));
    assert_eq!(m["job"]["status"], "in_progress");
    assert_eq!(
        m["nextCall"],
        json!({"tool": "github_get_job_logs", "arguments": logs(1)})
    );
    assert!(text(&result).contains("Wait until it completes"), "{}", text(&result));

    // Finished long ago, 410: gone for good, no call helps.
    job_without_log(
        &upstream,
        2,
        json!({"completed_at": "2023-01-10T08:25:28Z", "run_attempt": 2}),
        410,
    )
    .await;
    let result = call(&client, "github_get_job_logs", logs(2)).await;
    let m = meta(&result);
    assert_eq!(m["code"], "log_expired", "{}", text(&result));
    assert_eq!(m["status"], 410);
    assert!(m.get("nextCall").is_none());
    assert!(text(&result).contains("retention"), "{}", text(&result));

    // Skipped: it never ran, so it has no log.
    job_without_log(
        &upstream,
        3,
        json!({"conclusion": "skipped", "started_at": null, "run_attempt": 2}),
        404,
    )
    .await;
    let m = meta(&call(&client, "github_get_job_logs", logs(3)).await);
    assert_eq!(m["code"], "log_absent");

    // An older attempt's job: the run was re-run; the newest attempt's job of that name is the call to make.
    job_without_log(&upstream, 4, json!({"run_attempt": 1}), 404).await;
    let result = call(&client, "github_get_job_logs", logs(4)).await;
    let m = meta(&result);
    assert_eq!(m["latestAttempt"], 2, "{}", text(&result));
    assert_eq!(m["job"]["runAttempt"], 1);
    assert_eq!(
        m["nextCall"],
        json!({"tool": "github_get_job_logs", "arguments": {"owner": "o", "repo": "r", "runId": 77, "jobName": "test (Python 3.7)"}})
    );
    client.cancel().await.unwrap();
}
