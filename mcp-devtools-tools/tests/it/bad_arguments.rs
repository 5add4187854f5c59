//! Bad arguments, in-process (rmcp client over an in-memory pipe): every tool rejects each kind of bad argument —
//! missing required, out of range, negative, huge, wrong type, unknown `outputFormat`, unknown argument, a 1 MB or
//! invalid `jq` — with an `isError` result whose text names the argument, and sends nothing upstream. Arguments that
//! are not an object, or `null`, are answered by the server's transport (`server/tests/it/bad_arguments.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{call, connect, text};
use mcp_devtools_tools::ToolsConfig;
use recorded_upstream::RecordedUpstream;
use serde_json::{Value, json};

const RUNS: &str = "github_list_workflow_runs";
const JOBS: &str = "github_list_workflow_jobs";
const CIRCLECI: &str = "circleci_get";
const ARTIFACT: &str = "artifact_read";
const GET: &str = "github_get";
const LOGS: &str = "github_get_job_logs";
const CIRCLECI_LOGS: &str = "circleci_get_job_logs";
const WAIT_RUN: &str = "github_wait_for_run";
const WAIT_CHECKS: &str = "github_wait_for_checks";
const WAIT_PIPELINE: &str = "circleci_wait_for_pipeline";
const CI_STATUS: &str = "ci_status";
const TEST_RESULTS: &str = "ci_test_results";
const ENTRIES: &str = "ci_artifact_entries";
const ENTRY: &str = "ci_artifact_entry";

/// `base` plus `more` (later keys win).
fn with(base: &Value, more: Value) -> Value {
    let mut args = base.clone();
    if let (Some(args), Some(more)) = (args.as_object_mut(), more.as_object()) {
        args.extend(more.clone());
    }
    args
}

/// The bad `allPages` and `maxItems` cases every paged read shares: (arguments added, argument named).
fn all_pages_cases() -> Vec<(Value, &'static str)> {
    vec![
        (json!({"allPages": 0}), "allPages"),
        (json!({"allPages": 101}), "allPages"),
        (json!({"allPages": "all"}), "allPages"),
        (json!({"allPages": 2, "maxItems": 0}), "maxItems"),
        (json!({"maxItems": 5}), "maxItems: only with allPages"),
    ]
}

/// The bad `jq` and `outputFormat` cases every projecting tool shares: (arguments added, argument named).
fn view_cases() -> Vec<(Value, &'static str)> {
    vec![
        (json!({"outputFormat": "xml"}), "outputFormat"),
        (json!({"outputFormat": 1}), "outputFormat"),
        (json!({"jq": ".".repeat(1 << 20)}), "jq"),
        (json!({"jq": ".workflow_runs[ | .id"}), "jq"),
        (json!({"jq": 7}), "jq"),
        (json!({"colour": "red"}), "colour"),
    ]
}

/// Every (tool, arguments, argument the text must name).
fn cases() -> Vec<(&'static str, Value, &'static str)> {
    let runs = json!({"owner": "o", "repo": "r"});
    let jobs = json!({"owner": "o", "repo": "r", "runId": 1});
    let circleci = json!({"path": "/me"});
    let artifact = json!({"artifactId": "0123456789abcdef0123456789abcdef"});
    let get = json!({"path": "/repos/o/r/commits/abc/pulls"});
    let logs = json!({"owner": "o", "repo": "r", "jobId": 1});
    let circleci_logs = json!({"projectSlug": "gh/o/r", "jobNumber": 1});
    let artifact_of = json!({"owner": "o", "repo": "r", "artifactId": 1});
    let mut cases: Vec<(&'static str, Value, &'static str)> = vec![
        (RUNS, json!({"repo": "r"}), "owner"),
        (RUNS, json!({"owner": "o"}), "repo"),
        (RUNS, with(&runs, json!({"owner": 5})), "owner"),
        (RUNS, with(&runs, json!({"perPage": 0})), "perPage"),
        (RUNS, with(&runs, json!({"perPage": 101})), "perPage"),
        (RUNS, with(&runs, json!({"perPage": -1})), "perPage"),
        // A string of digits is accepted (CONTRACT §8); any other string is not.
        (RUNS, with(&runs, json!({"perPage": "ten"})), "perPage"),
        (RUNS, with(&runs, json!({"perPage": "-10"})), "perPage"),
        (RUNS, with(&runs, json!({"perPage": 2.5})), "perPage"),
        (RUNS, with(&runs, json!({"page": 0})), "page"),
        (RUNS, with(&runs, json!({"page": -3})), "page"),
        (RUNS, with(&runs, json!({"page": 4_294_967_296u64})), "page"),
        (RUNS, with(&runs, json!({"page": 1e300})), "page"),
        (RUNS, with(&runs, json!({"workflowId": -1})), "workflowId"),
        (RUNS, with(&runs, json!({"workflowId": true})), "workflowId"),
        (RUNS, with(&runs, json!({"branch": ["main"]})), "branch"),
        (
            RUNS,
            with(&runs, json!({"owner": "o".repeat(3 << 20)})),
            "owner is too long",
        ),
        (RUNS, with(&runs, json!({"repo": "r".repeat(101)})), "repo is too long"),
        (
            RUNS,
            with(&runs, json!({"branch": "b".repeat(256)})),
            "branch is too long",
        ),
        (
            JOBS,
            with(&jobs, json!({"owner": "ö".repeat(101)})),
            "owner is too long",
        ),
        (CIRCLECI, json!({"path": "/".repeat(4097)}), "path is too long"),
        (JOBS, json!({"owner": "o", "repo": "r"}), "runId"),
        (JOBS, json!({"repo": "r", "runId": 1}), "owner"),
        (JOBS, with(&jobs, json!({"runId": -1})), "runId"),
        (JOBS, with(&jobs, json!({"runId": "30433642x"})), "runId"),
        (JOBS, with(&jobs, json!({"runId": ""})), "runId"),
        (JOBS, with(&jobs, json!({"runId": 1e30})), "runId"),
        (JOBS, with(&jobs, json!({"filter": "some"})), "filter"),
        (JOBS, with(&jobs, json!({"perPage": 0})), "perPage"),
        (JOBS, with(&jobs, json!({"perPage": 100_000})), "perPage"),
        (JOBS, with(&jobs, json!({"page": 0})), "page"),
        (CIRCLECI, json!({}), "path"),
        (CIRCLECI, json!({"path": 3}), "path"),
        (
            CIRCLECI,
            with(&circleci, json!({"queryParams": ["branch", "main"]})),
            "queryParams",
        ),
        (
            CIRCLECI,
            with(&circleci, json!({"queryParams": {"limit": 5}})),
            "queryParams",
        ),
        (CIRCLECI, with(&circleci, json!({"fresh": "yes"})), "fresh"),
        (ARTIFACT, json!({}), "artifactId"),
        (ARTIFACT, json!({"artifactId": 12}), "artifactId"),
        (ARTIFACT, with(&artifact, json!({"offset": -1})), "offset"),
        (ARTIFACT, with(&artifact, json!({"offset": "0x10"})), "offset"),
        (ARTIFACT, with(&artifact, json!({"offset": 1e30})), "offset"),
        (ARTIFACT, with(&artifact, json!({"maxBytes": -5})), "maxBytes"),
        (
            ARTIFACT,
            with(&artifact, json!({"maxBytes": 18_446_744_073_709_551_616f64})),
            "maxBytes",
        ),
        (
            ARTIFACT,
            with(&artifact, json!({"outputFormat": "json"})),
            "outputFormat",
        ),
        (GET, json!({}), "path"),
        (GET, json!({"path": 3}), "path"),
        (GET, json!({"path": "/".repeat(4097)}), "path is too long"),
        (GET, with(&get, json!({"queryParams": {"state": 1}})), "queryParams"),
        (GET, with(&get, json!({"mediaType": "xml"})), "mediaType"),
        (GET, with(&get, json!({"perPage": 0})), "perPage"),
        (GET, with(&get, json!({"page": 0})), "page"),
        // An absolute URL on another host, and `page` given twice, are refused by the adapter before anything is
        // sent (github_get.rs), with the adapter's "github_get failed: invalid path" text.
        (LOGS, json!({"repo": "r", "jobId": 1}), "owner"),
        (LOGS, json!({"owner": "o", "repo": "r"}), "jobId"),
        (LOGS, with(&logs, json!({"jobId": -1})), "jobId"),
        (LOGS, with(&logs, json!({"tailLines": -1})), "tailLines"),
        (LOGS, with(&logs, json!({"context": "x"})), "context"),
        (LOGS, with(&logs, json!({"grep": "(unclosed"})), "grep"),
        (LOGS, with(&logs, json!({"step": true})), "step"),
        (LOGS, with(&logs, json!({"failedOnly": "yes"})), "failedOnly"),
        (LOGS, with(&logs, json!({"raw": 1})), "raw"),
        (CIRCLECI_LOGS, json!({"jobNumber": 1}), "projectSlug"),
        (CIRCLECI_LOGS, json!({"projectSlug": "gh/o/r"}), "jobNumber"),
        (
            CIRCLECI_LOGS,
            with(&circleci_logs, json!({"jobNumber": "x"})),
            "jobNumber",
        ),
        (CIRCLECI_LOGS, with(&circleci_logs, json!({"grep": "[z-a]"})), "grep"),
        (WAIT_RUN, json!({"owner": "o", "repo": "r"}), "runId"),
        (WAIT_RUN, with(&jobs, json!({"timeoutSeconds": 3601})), "timeoutSeconds"),
        (WAIT_RUN, with(&jobs, json!({"timeoutSeconds": -1})), "timeoutSeconds"),
        (WAIT_RUN, with(&jobs, json!({"failedLogTail": 501})), "failedLogTail"),
        // The wait tools' data is typed: no jq.
        (WAIT_RUN, with(&jobs, json!({"jq": "."})), "jq"),
        (WAIT_CHECKS, json!({"owner": "o", "repo": "r"}), "pullNumber"),
        (
            WAIT_CHECKS,
            with(&runs, json!({"ref": "main", "pullNumber": 1})),
            "exactly one",
        ),
        (WAIT_CHECKS, with(&runs, json!({"pullNumber": "x"})), "pullNumber"),
        (
            WAIT_CHECKS,
            with(&runs, json!({"ref": "r".repeat(256)})),
            "ref is too long",
        ),
        (WAIT_PIPELINE, json!({"projectSlug": "gh/o/r"}), "pipelineId"),
        (
            CI_STATUS,
            json!({"owner": "o", "repo": "r"}),
            "exactly one of ref, sha and pullNumber",
        ),
        (
            CI_STATUS,
            with(&runs, json!({"sha": "a", "pullNumber": 2})),
            "exactly one",
        ),
        (
            CI_STATUS,
            with(&runs, json!({"sha": "a".repeat(65)})),
            "sha is too long",
        ),
        (CI_STATUS, with(&runs, json!({"sha": "a", "jq": "."})), "jq"),
        (WAIT_PIPELINE, json!({"pipelineId": "../me"}), "pipelineId"),
        (
            WAIT_PIPELINE,
            json!({"pipelineId": "p", "timeoutSeconds": "soon"}),
            "timeoutSeconds",
        ),
        (TEST_RESULTS, json!({"owner": "o", "repo": "r"}), "artifactId"),
        (
            TEST_RESULTS,
            with(&artifact_of, json!({"artifactId": -1})),
            "artifactId",
        ),
        (TEST_RESULTS, with(&artifact_of, json!({"maxFailed": 0})), "maxFailed"),
        (
            TEST_RESULTS,
            with(&artifact_of, json!({"maxFailed": 1001})),
            "maxFailed",
        ),
        (
            TEST_RESULTS,
            with(&artifact_of, json!({"pathPattern": "a[b"})),
            "pathPattern",
        ),
        (TEST_RESULTS, with(&artifact_of, json!({"jq": "."})), "jq"),
        (
            ENTRIES,
            json!({"projectSlug": "gh/o/r", "jobNumber": 1}),
            "artifactPath",
        ),
        (ENTRIES, with(&artifact_of, json!({"jobNumber": "one"})), "jobNumber"),
        (ENTRIES, with(&artifact_of, json!({"owner": 5})), "owner"),
        (ENTRY, artifact_of.clone(), "entry"),
        (
            ENTRY,
            with(&artifact_of, json!({"entry": "a", "format": "xml"})),
            "format",
        ),
        (
            ENTRY,
            with(&artifact_of, json!({"entry": "a", "outputFormat": "json"})),
            "outputFormat",
        ),
    ];
    for (tool, base) in [
        (RUNS, &runs),
        (JOBS, &jobs),
        (CIRCLECI, &circleci),
        (GET, &get),
        (LOGS, &logs),
        (CIRCLECI_LOGS, &circleci_logs),
    ] {
        for (more, needle) in view_cases() {
            cases.push((tool, with(base, more), needle));
        }
    }
    for (tool, base) in [(RUNS, &runs), (JOBS, &jobs), (CIRCLECI, &circleci), (GET, &get)] {
        for (more, needle) in all_pages_cases() {
            cases.push((tool, with(base, more), needle));
        }
    }
    cases
}

/// The Atlassian tools (`jira_`, `conf_`, `bb_` + `get`/`post`/`put`/`patch`/`delete`) all take `path`,
/// `queryParams`, `jq`, `outputFormat` (and `body`, any JSON, for writes): the same cases for each tool listed.
fn atlassian_cases(listed: &[String]) -> Vec<(String, Value, &'static str)> {
    let mut cases = Vec::new();
    for tool in listed
        .iter()
        .filter(|t| ["jira_", "conf_", "bb_"].iter().any(|p| t.starts_with(p)))
    {
        // A write needs its method; every other argument is checked as the reads' are.
        let method = if tool.ends_with("_write") {
            json!({"method": "PUT"})
        } else {
            json!({})
        };
        let base = with(&method, json!({"path": "/rest/api/3/myself"}));
        let mut add = |args: Value, needle: &'static str| cases.push((tool.clone(), args, needle));
        add(method.clone(), "path");
        add(with(&method, json!({"path": ["rest"]})), "path");
        add(with(&method, json!({"path": "/x".repeat(2049)})), "path is too long");
        if tool.ends_with("_write") {
            add(json!({"path": "/x"}), "method");
            add(json!({"method": "get", "path": "/x"}), "method");
            add(
                json!({"method": "DELETE", "path": "/x", "body": {}}),
                "a DELETE sends no body",
            );
        }
        add(with(&base, json!({"queryParams": {"maxResults": 50}})), "queryParams");
        add(with(&base, json!({"queryParams": "a=b"})), "queryParams");
        for (more, needle) in view_cases() {
            add(with(&base, more), needle);
        }
        if tool.ends_with("_get") {
            for (more, needle) in all_pages_cases() {
                add(with(&base, more), needle);
            }
        }
    }
    cases
}

/// Every upstream points at the local fake, with credentials, so a request sent by mistake is seen (never lost to
/// a missing-credential error or sent to the internet).
fn config(upstream: &str) -> ToolsConfig {
    let circleci_base = format!("{upstream}/api/v2");
    common::github_config(upstream)
        .with_structured_output(true)
        .with_circleci(common::circleci(&circleci_base, Some("test-circleci-token")))
        .with_atlassian(common::atlassian(
            upstream,
            "tester@example.com",
            "test-atlassian-token",
        ))
}

#[tokio::test]
async fn every_tool_names_the_bad_argument_and_sends_nothing() {
    let upstream = RecordedUpstream::start().await;
    let client = connect(config(&upstream.uri())).await;
    let listed: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.to_string())
        .collect();
    let cases: Vec<(String, Value, &str)> = cases()
        .into_iter()
        .map(|(tool, args, needle)| (tool.to_owned(), args, needle))
        .chain(atlassian_cases(&listed))
        .collect();
    for name in &listed {
        assert!(
            cases.iter().any(|(tool, _, _)| tool == name),
            "tool {name} has no bad-argument case"
        );
    }
    for (tool, args, needle) in cases {
        let shown = args.to_string().chars().take(120).collect::<String>();
        let result = call(&client, &tool, args).await;
        assert_eq!(result.is_error, Some(true), "{tool} {shown}");
        assert!(result.structured_content.is_none(), "{tool} {shown}");
        let text = text(&result);
        assert!(
            text.starts_with(&format!("Invalid arguments for {tool}: ")),
            "{tool} {shown}: {text}"
        );
        assert!(
            text.contains(needle),
            "{tool} {shown}: the text does not name {needle}: {text}"
        );
        assert!(
            text.len() < 2_000,
            "{tool} {shown}: the text is {} bytes long",
            text.len()
        );
    }
    assert!(
        upstream.server().received_requests().await.unwrap().is_empty(),
        "nothing was sent upstream"
    );
    client.cancel().await.unwrap();
}
