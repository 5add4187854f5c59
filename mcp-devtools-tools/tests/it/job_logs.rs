//! `github_get_job_logs` and `circleci_get_job_logs` in-process: rmcp client (over an in-memory pipe) → the tools →
//! the recorded upstream, whose logs come from another origin (the downloads server) behind GitHub's `302` or
//! CircleCI's `output_url`s. That origin answers `403` to a credential and fails the test when it sees one
//! (`recorded_upstream::logs`); the tests also read what it received.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use base64::Engine as _;
use common::{assert_valid, call, connect, listed_tool, structured, text};
use mcp_devtools_tools::ToolsConfig;
use recorded_upstream::RecordedUpstream;
use serde_json::{Value, json};

const GITHUB: &str = "github_get_job_logs";
const CIRCLECI: &str = "circleci_get_job_logs";
/// The failed run of `github/actions-runs` and its failed job `test (Python 3.9)` (`github/run-jobs-failure`).
const RUN: u64 = 2_802_600_146;
const JOB: u64 = 28_026_001_462;
const SECRET: &str = "ghp_job_logs_SECRET";

/// GitHub and CircleCI (`/api/v2`) on `upstream`, both with the token [`SECRET`]; structured output on.
fn config(upstream: &RecordedUpstream) -> ToolsConfig {
    let circleci = format!("{}/api/v2", upstream.uri());
    common::unconfigured()
        .with_structured_output(true)
        .with_github(common::github(&upstream.uri(), Some(SECRET)))
        .with_circleci(common::circleci(&circleci, Some(SECRET)))
}

fn lines(step: &Value) -> Vec<String> {
    step["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap().to_owned())
        .collect()
}

async fn upstream() -> RecordedUpstream {
    let upstream = RecordedUpstream::github().await.unwrap();
    upstream.mount_circleci().await.unwrap();
    upstream
}

/// No request the downloads host received carried the token (or any credential header).
async fn assert_no_credential_left(upstream: &RecordedUpstream) {
    let requests = upstream.downloads().received_requests().await.unwrap();
    assert!(!requests.is_empty(), "the logs came from the other origin");
    for request in &requests {
        for (name, value) in request.headers.iter() {
            assert!(
                !value.to_str().unwrap_or_default().contains(SECRET),
                "the downloads host got the token in {name}"
            );
            assert!(
                !recorded_upstream::logs::CREDENTIAL_HEADERS.contains(&name.as_str()),
                "the downloads host got {name}"
            );
        }
    }
    upstream.downloads().verify().await;
}

#[tokio::test]
async fn a_runs_failed_job_shows_the_failed_steps_last_lines() {
    let upstream = upstream().await;
    let client = connect(config(&upstream)).await;
    let schema = listed_tool(&client, GITHUB).await;
    let result = call(
        &client,
        GITHUB,
        json!({"owner": "octo-org", "repo": "octo-repo", "runId": RUN, "tailLines": 4}),
    )
    .await;
    let sc = structured(&result);
    assert_valid(&schema, &sc);
    let jobs = sc["data"]["jobs"].as_array().unwrap();
    assert_eq!(jobs.len(), 1, "failedOnly (default): the one failed job");
    let job = &jobs[0];
    assert_eq!(job["job"]["id"], JOB);
    assert_eq!(job["job"]["name"], "test (Python 3.9)");
    assert_eq!(job["job"]["conclusion"], "failure");
    assert_eq!(job["totalLines"], 144);
    let steps = job["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 9);
    let failed = &steps[4];
    assert_eq!(
        (failed["number"].as_u64(), failed["name"].as_str()),
        (Some(5), Some("Run tests"))
    );
    assert_eq!(
        lines(failed),
        [
            "py: exit 1 (3.80 seconds) /home/runner/work/octo-repo/octo-repo> pytest -v --cov=octo tests pid=1873",
            "  py: FAIL code 1 (12.34=setup[8.54]+cmd[3.80] seconds)",
            "  evaluation failed :( (12.43 seconds)",
            "##[error]Process completed with exit code 1."
        ]
    );
    assert_eq!(failed["lines"][3]["kind"], "error");
    assert!(
        steps
            .iter()
            .enumerate()
            .all(|(i, s)| i == 4 || s["lines"].as_array().unwrap().is_empty())
    );
    assert!(!text(&result).contains(SECRET));
    assert_no_credential_left(&upstream).await;
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn grep_with_context_by_job_name_and_by_job_id() {
    let upstream = upstream().await;
    let client = connect(config(&upstream)).await;
    let schema = listed_tool(&client, GITHUB).await;
    let by_name = json!({"owner": "octo-org", "repo": "octo-repo", "runId": RUN, "jobName": "test (Python 3.9)",
                         "grep": "^AssertionError|^FAILED", "context": 1});
    let sc = structured(&call(&client, GITHUB, by_name).await);
    assert_valid(&schema, &sc);
    let got = lines(&sc["data"]["jobs"][0]["steps"][4]);
    assert_eq!(got[0], "    return timedelta(seconds=int(value[:2]))");
    assert!(got[1].starts_with("AssertionError: assert datetime.timedelta(seconds=12)"));
    assert!(
        got.iter()
            .any(|l| l.starts_with("FAILED tests/test_retry.py::test_retry_after_seconds")),
        "{got:#?}"
    );
    assert!(got.iter().all(|l| !l.contains('\u{1b}')), "plain text by default");

    // A job by id, one step by name, every line (tailLines 0), ANSI codes kept, and a jq projection.
    let by_id = json!({"owner": "octo-org", "repo": "octo-repo", "jobId": JOB, "step": "run tests", "tailLines": 0,
                       "raw": true, "jq": "[.jobs[0].steps[] | .lines[] | select(.text | test(\"FAILED\"))] | last | .text"});
    let sc = structured(&call(&client, GITHUB, by_id).await);
    assert_valid(&schema, &sc);
    assert!(
        sc["data"].as_str().unwrap().starts_with("\u{1b}[31mFAILED\u{1b}[0m"),
        "{sc}"
    );

    // failedOnly: false lists every job of the run, each with its steps' tails.
    let every = json!({"owner": "octo-org", "repo": "octo-repo", "runId": RUN, "failedOnly": false, "tailLines": 1,
                       "jq": "[.jobs[] | .job.conclusion]"});
    let sc = structured(&call(&client, GITHUB, every).await);
    assert_eq!(sc["data"].as_array().unwrap().len(), 5);
    assert_no_credential_left(&upstream).await;
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn bad_arguments_and_unknown_jobs_say_what_to_do() {
    let upstream = upstream().await;
    let client = connect(config(&upstream)).await;
    for (args, includes) in [
        (json!({"owner": "octo-org", "repo": "octo-repo"}), "give jobId"),
        (
            json!({"owner": "octo-org", "repo": "octo-repo", "jobId": JOB, "grep": "("}),
            "grep: not a regular expression",
        ),
        (
            json!({"owner": "octo-org", "repo": "octo-repo", "jobId": JOB, "step": "Deploy"}),
            "\"Run tests\"",
        ),
        (
            json!({"owner": "octo-org", "repo": "octo-repo", "runId": RUN, "jobName": "lint"}),
            "test (Python 3.9)",
        ),
        (json!({"owner": "octo-org", "repo": "octo-repo", "jobId": 7}), "404"),
        (
            json!({"owner": "octo-org", "repo": "octo-repo", "jobId": JOB, "tailLines": 100_001}),
            "tailLines",
        ),
    ] {
        let result = call(&client, GITHUB, args.clone()).await;
        assert_eq!(result.is_error, Some(true), "{args}");
        assert!(result.structured_content.is_none());
        assert!(text(&result).contains(includes), "{args}: {}", text(&result));
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn over_the_bound_the_whole_log_is_a_text_artifact_byte_for_byte() {
    let upstream = upstream().await;
    let client = connect(common::with_max_bytes(config(&upstream), 16384)).await;
    let schema = listed_tool(&client, GITHUB).await;
    let args = json!({"owner": "octo-org", "repo": "octo-repo", "jobId": JOB, "failedOnly": false, "tailLines": 0, "raw": true});
    let result = call(&client, GITHUB, args).await;
    let sc = structured(&result);
    assert_valid(&schema, &sc);
    assert_eq!(sc["data"], Value::Null);
    let incomplete = &sc["incomplete"];
    assert_eq!(incomplete["reason"], "size");
    assert_eq!(incomplete["mimeType"], "text/plain; charset=utf-8");
    assert_eq!(incomplete["limitBytes"], 16384);
    let mut expected = b"\xef\xbb\xbf".to_vec();
    expected.extend_from_slice(recorded_upstream::fixture("github/job-log-28026001462").unwrap().body);
    assert_eq!(incomplete["bytes"], expected.len());
    assert_eq!(
        sc["logs"],
        json!([{"jobId": JOB, "offset": 0, "bytes": expected.len()}])
    );
    assert!(
        text(&result).contains(incomplete["artifactId"].as_str().unwrap()),
        "the text names the artifact"
    );
    let mut read = Vec::new();
    loop {
        let chunk = call(
            &client,
            "artifact_read",
            json!({"artifactId": incomplete["artifactId"], "offset": read.len(), "maxBytes": 4000}),
        )
        .await;
        let chunk = structured(&chunk);
        assert_eq!(chunk["mimeType"], "text/plain; charset=utf-8");
        read.extend(
            base64::engine::general_purpose::STANDARD
                .decode(chunk["data"].as_str().unwrap())
                .unwrap(),
        );
        if chunk["eof"] == true {
            break;
        }
    }
    assert_eq!(read, expected, "artifact_read returns the log byte for byte");
    assert_no_credential_left(&upstream).await;
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn circleci_step_output_is_read_without_the_token() {
    let upstream = upstream().await;
    let client = connect(config(&upstream)).await;
    let schema = listed_tool(&client, CIRCLECI).await;
    let args = json!({"projectSlug": "gh/CircleCI-Public/api-preview-docs", "jobNumber": 102, "tailLines": 2});
    let sc = structured(&call(&client, CIRCLECI, args).await);
    assert_valid(&schema, &sc);
    let job = &sc["data"]["jobs"][0];
    assert_eq!(job["job"]["id"], 102);
    assert_eq!(job["job"]["name"], "test");
    assert_eq!(job["job"]["conclusion"], "failed");
    let steps = job["steps"].as_array().unwrap();
    assert_eq!(steps[5]["name"], "Run tests");
    assert_eq!(steps[5]["conclusion"], "failed");
    assert_eq!(lines(&steps[5]), ["", "Exited with code exit status 1"]);
    let grep = json!({"projectSlug": "gh/CircleCI-Public/api-preview-docs", "jobNumber": 102,
                      "grep": "Expected|Received|FAIL ", "jq": "[.jobs[0].steps[5].lines[].text]"});
    let sc = structured(&call(&client, CIRCLECI, grep).await);
    assert_eq!(
        sc["data"],
        json!([
            " FAIL  test/pipeline.test.js",
            "    Expected: \"AARL+wV0/lQ1i==\"",
            "    Received: \"AARL wV0/lQ1i==\""
        ])
    );
    assert_no_credential_left(&upstream).await;
    client.cancel().await.unwrap();
}
