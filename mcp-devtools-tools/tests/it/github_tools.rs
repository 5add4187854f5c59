//! The GitHub list tools with the rmcp client (in-process, over an in-memory pipe): `tools/list`, both GitHub tools
//! on every fixture, projection, errors, and the structured value validated against each tool's `outputSchema`
//! (draft-07 and 2020-12).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{assert_valid, call, connect, fixture_json, github_config, repo_args, text};
use recorded_upstream::RecordedUpstream;
use rmcp::model::Tool;
use serde_json::{Value, json};

async fn tools(client: &common::Client) -> Vec<Tool> {
    client.list_all_tools().await.unwrap()
}

fn tool<'a>(tools: &'a [Tool], name: &str) -> &'a Tool {
    tools.iter().find(|t| t.name == name).unwrap()
}

#[tokio::test]
async fn tools_list_advertises_schemas_only_with_the_switch_on() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let on = connect(github_config(&upstream.uri()).with_structured_output(true)).await;
    let listed = tools(&on).await;
    let names: Vec<&str> = listed.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names[..10],
        [
            "github_list_workflow_runs",
            "github_list_workflow_jobs",
            "github_get",
            "github_get_job_logs",
            "github_wait_for_run",
            "github_wait_for_checks",
            "circleci_get",
            "circleci_get_job_logs",
            "circleci_wait_for_pipeline",
            "artifact_read"
        ]
    );
    assert_eq!(names[10], "ci_status");
    assert_eq!(
        names[11..14],
        ["ci_test_results", "ci_artifact_entries", "ci_artifact_entry"]
    );
    assert_eq!(names.len(), 14 + 6, "then the six Atlassian tools (atlassian_tools.rs)");
    for t in &listed[..10] {
        let schema = t.output_schema.as_ref().unwrap();
        assert_eq!(schema["type"], "object", "{}", t.name);
        assert_eq!(t.annotations.as_ref().unwrap().read_only_hint, Some(true), "{}", t.name);
    }
    on.cancel().await.unwrap();

    let off = connect(github_config(&upstream.uri())).await;
    assert!(tools(&off).await.iter().all(|t| t.output_schema.is_none()));
    off.cancel().await.unwrap();
}

#[tokio::test]
async fn every_github_fixture_gives_a_valid_structured_result() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let client = connect(github_config(&upstream.uri()).with_structured_output(true)).await;
    let listed = tools(&client).await;
    let runs = tool(&listed, "github_list_workflow_runs");
    let jobs = tool(&listed, "github_list_workflow_jobs");
    let cases = [
        (runs, repo_args("octo-repo", json!({})), "github/actions-runs", json!(2)),
        (
            runs,
            repo_args("octo-repo", json!({"workflowId": 12794729})),
            "github/workflow-runs",
            Value::Null,
        ),
        (
            runs,
            repo_args("octo-repo", json!({"workflowId": "ci.yml", "branch": "main"})),
            "github/workflow-runs",
            Value::Null,
        ),
        (
            runs,
            repo_args("empty-repo", json!({"status": "failure"})),
            "github/actions-runs-empty",
            Value::Null,
        ),
        (
            jobs,
            repo_args("octo-repo", json!({"runId": 3881497935u64, "filter": "all"})),
            "github/run-jobs",
            Value::Null,
        ),
        (
            jobs,
            repo_args("octo-repo", json!({"runId": 2802600146u64})),
            "github/run-jobs-failure",
            Value::Null,
        ),
    ];
    for (tool, args, fixture, next_page) in cases {
        let result = call(&client, &tool.name, args.clone()).await;
        assert_ne!(result.is_error, Some(true), "{args}: {}", text(&result));
        let structured = result.structured_content.clone().expect("structuredContent");
        assert_eq!(
            structured,
            json!({"data": fixture_json(fixture), "nextPage": next_page}),
            "{fixture}"
        );
        assert_valid(tool, &structured);
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn json_text_parses_to_structured_content_and_numbers_stay_exact() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let client = connect(github_config(&upstream.uri()).with_structured_output(true)).await;
    // 11.8 KB: under the 40,000-byte text limit, so the text is complete.
    let args = repo_args("octo-repo", json!({"workflowId": "ci.yml", "outputFormat": "json"}));
    let result = call(&client, "github_list_workflow_runs", args).await;
    let parsed: Value = serde_json::from_str(&text(&result)).unwrap();
    assert_eq!(Some(parsed), result.structured_content);
    assert!(
        text(&result).starts_with("{\n  \"data\": {\n    \"total_count\": 1,"),
        "pretty, 2-space"
    );

    // 48 KB: the text is cut for the model, the structured value is whole.
    let result = call(
        &client,
        "github_list_workflow_runs",
        repo_args("octo-repo", json!({"outputFormat": "json"})),
    )
    .await;
    assert!(text(&result).len() <= 40_000);
    assert_eq!(
        result.structured_content.unwrap()["data"],
        fixture_json("github/actions-runs")
    );

    let result = call(
        &client,
        "github_list_workflow_jobs",
        repo_args("octo-repo", json!({"runId": 1, "jq": ".jobs[0].id"})),
    )
    .await;
    assert_eq!(result.structured_content.unwrap()["data"].as_u64(), Some(10545727758));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn projection_results_and_errors() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let client = connect(github_config(&upstream.uri()).with_structured_output(true)).await;
    let listed = tools(&client).await;
    let runs = tool(&listed, "github_list_workflow_runs");
    let ok_cases = [
        (".total_count", json!(593)),
        (".nothing_here", Value::Null),
        (
            "[.workflow_runs[] | .conclusion]",
            json!(["success", "success", "success", "failure"]),
        ),
        (
            "workflow_runs[*].id",
            json!([3519037359u64, 2803043628u64, 2802601342u64, 2802600146u64]),
        ),
        ("   ", fixture_json("github/actions-runs")),
    ];
    for (jq, want) in ok_cases {
        let result = call(&client, &runs.name, repo_args("octo-repo", json!({"jq": jq}))).await;
        let structured = result
            .structured_content
            .clone()
            .unwrap_or_else(|| panic!("{jq}: {}", text(&result)));
        assert_eq!(structured, json!({"data": want, "nextPage": 2}), "{jq}");
        assert_valid(runs, &structured);
    }
    let error_cases = [
        (".[", "jq"),
        (".workflow_runs[].id", "[ ]"),
        ("empty", "no output"),
        (".total_count | error(\"boom\")", "boom"),
    ];
    for (jq, needle) in error_cases {
        let result = call(&client, &runs.name, repo_args("octo-repo", json!({"jq": jq}))).await;
        assert_eq!(result.is_error, Some(true), "{jq}");
        assert!(
            result.structured_content.is_none(),
            "{jq}: no structuredContent on errors"
        );
        assert!(text(&result).contains(needle), "{jq}: {}", text(&result));
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn upstream_errors_are_clear_error_results() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let client = connect(github_config(&upstream.uri()).with_structured_output(true)).await;
    let cases = [
        ("octo-org", "missing", "404"),
        ("rate-limited", "octo-repo", "rate limit"),
        ("abuse", "octo-repo", "rate limit"),
    ];
    for (owner, repo, needle) in cases {
        let result = call(
            &client,
            "github_list_workflow_runs",
            json!({"owner": owner, "repo": repo}),
        )
        .await;
        assert_eq!(result.is_error, Some(true), "{owner}/{repo}");
        assert!(result.structured_content.is_none());
        let text = text(&result);
        assert!(text.contains(needle), "{owner}/{repo}: {text}");
        assert!(!text.contains("test-token"), "no credential in {text}");
    }
    client.cancel().await.unwrap();

    let bad = github_config(&upstream.uri()).with_github(common::github(&upstream.uri(), Some("bad-token")));
    let bad = connect(bad).await;
    let result = call(&bad, "github_list_workflow_runs", repo_args("octo-repo", json!({}))).await;
    assert_eq!(result.is_error, Some(true));
    assert!(text(&result).contains("Bad credentials"), "{}", text(&result));
    assert!(!text(&result).contains("bad-token"));
    bad.cancel().await.unwrap();
}

#[tokio::test]
async fn bad_arguments_name_the_argument_and_send_nothing() {
    let upstream = RecordedUpstream::start().await;
    let client = connect(github_config(&upstream.uri()).with_structured_output(true)).await;
    let cases = [
        ("github_list_workflow_runs", json!({"repo": "r"}), "owner"),
        (
            "github_list_workflow_runs",
            json!({"owner": "o", "repo": "r", "perPage": 0}),
            "perPage",
        ),
        (
            "github_list_workflow_runs",
            json!({"owner": "o", "repo": "r", "perPage": 101}),
            "perPage",
        ),
        (
            "github_list_workflow_runs",
            json!({"owner": "o", "repo": "r", "page": 0}),
            "page",
        ),
        (
            "github_list_workflow_runs",
            json!({"owner": "o", "repo": "r", "outputFormat": "xml"}),
            "outputFormat",
        ),
        (
            "github_list_workflow_runs",
            json!({"owner": "o", "repo": "r", "colour": "red"}),
            "colour",
        ),
        (
            "github_list_workflow_jobs",
            json!({"owner": "o", "repo": "r", "runId": -1}),
            "runId",
        ),
        (
            "github_list_workflow_jobs",
            json!({"owner": "o", "repo": "r", "runId": 1, "filter": "some"}),
            "filter",
        ),
        ("artifact_read", json!({}), "artifactId"),
    ];
    for (tool, args, needle) in cases {
        let result = call(&client, tool, args.clone()).await;
        assert_eq!(result.is_error, Some(true), "{tool} {args}");
        assert!(text(&result).contains(needle), "{tool} {args}: {}", text(&result));
    }
    assert!(
        upstream.server().received_requests().await.unwrap().is_empty(),
        "nothing was sent upstream"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn missing_token_fails_at_call_time_without_a_request() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let client = connect(github_config(&upstream.uri()).with_github(common::github(&upstream.uri(), None))).await;
    let result = call(&client, "github_list_workflow_runs", repo_args("octo-repo", json!({}))).await;
    assert_eq!(result.is_error, Some(true));
    assert!(text(&result).contains("GITHUB_TOKEN"), "{}", text(&result));
    assert!(upstream.server().received_requests().await.unwrap().is_empty());
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_malformed_base_url_fails_only_that_vendors_tools_without_echoing_it() {
    let upstream = RecordedUpstream::start().await;
    let bad_base = "not a url?token=ghp_in_the_base";
    let client =
        connect(github_config(&upstream.uri()).with_github(common::github(bad_base, Some(common::GITHUB_TOKEN)))).await;
    let result = call(&client, "github_list_workflow_runs", repo_args("octo-repo", json!({}))).await;
    assert_eq!(result.is_error, Some(true));
    let message = text(&result);
    assert!(message.contains("GITHUB_API_BASE"), "{message}");
    assert!(
        !message.contains("ghp_in_the_base"),
        "the raw setting is not echoed: {message}"
    );
    // The rest of the server works.
    let other = call(
        &client,
        "artifact_read",
        json!({"artifactId": "ffffffffffffffffffffffffffffffff"}),
    )
    .await;
    assert_eq!(text(&other), "Artifact not found or expired");
    client.cancel().await.unwrap();
}
