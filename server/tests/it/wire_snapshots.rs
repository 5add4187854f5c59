//! The switch on the wire (CONTRACT §1): with it off, `tools/list` and every result are exactly the switch-on
//! output without `outputSchema` / `structuredContent`, byte for byte; insta snapshots pin both.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::raw::RawSession;
use common::server_env;
use recorded_upstream::RecordedUpstream;
use serde_json::{Value, json};

/// Parses a response line and checks that re-serializing it gives the same bytes, so comparisons of re-serialized
/// values are byte comparisons of the wire.
fn parse_exact(line: &str) -> Value {
    let value: Value = serde_json::from_str(line).unwrap();
    assert_eq!(
        serde_json::to_string(&value).unwrap(),
        line,
        "the server's line round-trips byte for byte"
    );
    value
}

/// Replaces every `fetchedAt` timestamp (the time of the upstream read, different in each session) with
/// `<fetchedAt>`, so lines of two sessions compare and snapshots are stable. Leaves every other byte alone.
fn redact_fetched_at(line: &str) -> String {
    let is_stamp = common::is_rfc3339_millis_utc;
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find("fetchedAt") {
        let (head, tail) = rest.split_at(at + "fetchedAt".len());
        out.push_str(head);
        let start = tail.find(|c: char| c.is_ascii_digit()).filter(|&i| i <= 8);
        match start.filter(|&i| tail.get(i..i + 24).is_some_and(is_stamp)) {
            Some(i) => {
                out.push_str(&tail[..i]);
                out.push_str("<fetchedAt>");
                rest = &tail[i + 24..];
            }
            None => rest = tail,
        }
    }
    out.push_str(rest);
    out
}

fn without(mut value: Value, strip: impl Fn(&mut Value)) -> String {
    strip(&mut value);
    serde_json::to_string(&value).unwrap()
}

fn calls() -> Vec<(&'static str, &'static str, Value)> {
    let repo = |more: Value| {
        let mut args = json!({"owner": "octo-org", "repo": "octo-repo"});
        args.as_object_mut().unwrap().extend(more.as_object().unwrap().clone());
        args
    };
    vec![
        ("runs_plain", "github_list_workflow_runs", repo(json!({}))),
        (
            "runs_json",
            "github_list_workflow_runs",
            repo(json!({"outputFormat": "json", "jq": "[.workflow_runs[] | {id, conclusion}]"})),
        ),
        (
            "runs_jq_number",
            "github_list_workflow_runs",
            repo(json!({"jq": ".total_count"})),
        ),
        (
            "runs_jmespath",
            "github_list_workflow_runs",
            repo(json!({"jq": "workflow_runs[*].id"})),
        ),
        (
            "runs_empty",
            "github_list_workflow_runs",
            json!({"owner": "octo-org", "repo": "empty-repo"}),
        ),
        (
            "jobs_toon",
            "github_list_workflow_jobs",
            repo(
                json!({"runId": 2802600146u64, "jq": "[.jobs[] | {name, conclusion, steps: [.steps[] | {name, conclusion}]}]"}),
            ),
        ),
        (
            "error_404",
            "github_list_workflow_runs",
            json!({"owner": "octo-org", "repo": "missing"}),
        ),
        (
            "error_rate_limit",
            "github_list_workflow_runs",
            json!({"owner": "rate-limited", "repo": "octo-repo"}),
        ),
        ("error_bad_jq", "github_list_workflow_runs", repo(json!({"jq": ".["}))),
        (
            "error_bad_argument",
            "github_list_workflow_runs",
            repo(json!({"perPage": 0})),
        ),
        ("circleci_me", "circleci_get", json!({"path": "/me"})),
        (
            "circleci_json_jq",
            "circleci_get",
            json!({"path": "/project/gh/octo-org/octo-repo/pipeline", "outputFormat": "json",
                   "jq": "{numbers: [.items[].number], next: .next_page_token}"}),
        ),
        (
            "circleci_error_404",
            "circleci_get",
            json!({"path": "/api/v2/project/gh/octo-org/missing/pipeline"}),
        ),
        (
            "jira_search_json_jq",
            "jira_get",
            json!({"path": "/rest/api/3/search/jql", "outputFormat": "json",
                   "queryParams": {"jql": "project = EX", "fields": "summary,status"},
                   "jq": "{keys: [.issues[].key], nextPageToken, isLast}"}),
        ),
        (
            "jira_issue_toon",
            "jira_get",
            json!({"path": "/rest/api/3/issue/ED-1", "jq": "{key, summary: .fields.summary, description: .fields.description}"}),
        ),
        (
            "jira_error_404",
            "jira_get",
            json!({"path": "/rest/api/3/issue/EX-404"}),
        ),
        (
            "conf_pages_toon",
            "conf_get",
            json!({"path": "/wiki/api/v2/pages", "queryParams": {"limit": "3"},
                   "jq": "{titles: [.results[].title], next: ._links.next}"}),
        ),
        ("conf_error_404", "conf_get", json!({"path": "/wiki/api/v2/pages/1"})),
        (
            "bb_pullrequests_json",
            "bb_get",
            json!({"path": "/repositories/octo-org/octo-repo/pullrequests", "outputFormat": "json",
                   "jq": "[.values[] | {id, title, state, draft}]"}),
        ),
        (
            "bb_diff_toon",
            "bb_get",
            json!({"path": "/repositories/octo-org/octo-repo/diff/feature..main"}),
        ),
    ]
}

#[tokio::test]
async fn switch_off_equals_switch_on_without_structured_fields() {
    let upstream = RecordedUpstream::github().await.unwrap();
    upstream.mount_circleci().await.unwrap();
    upstream.mount_atlassian().await.unwrap();
    let uri = upstream.uri();
    let circleci_base = format!("{uri}/api/v2");
    let wiki = format!("{uri}/wiki");
    let mut extra = vec![
        ("CIRCLECI_API_BASE", circleci_base.as_str()),
        ("CIRCLECI_TOKEN", "test-token"),
        ("JIRA_BASE_URL", uri.as_str()),
        ("CONFLUENCE_BASE_URL", wiki.as_str()),
        ("BITBUCKET_BASE_URL", uri.as_str()),
        ("ATLASSIAN_USER_EMAIL", "mia@example.com"),
        ("ATLASSIAN_API_TOKEN", "test-token"),
    ];
    let mut off = RawSession::start(server_env(&uri, &extra)).await;
    extra.push(("MCP_STRUCTURED_OUTPUT", "true"));
    let mut on = RawSession::start(server_env(&uri, &extra)).await;

    // Artifacts are MCP resources only with the switch on: off, `initialize` advertises no resources capability.
    let init_off: Value = serde_json::from_str(&off.initialize).unwrap();
    let init_on: Value = serde_json::from_str(&on.initialize).unwrap();
    assert!(
        init_off["result"]["capabilities"].get("resources").is_none(),
        "{init_off}"
    );
    assert!(
        init_on["result"]["capabilities"].get("resources").is_some(),
        "{init_on}"
    );

    let list_off = off.list_tools().await;
    let list_on = on.list_tools().await;
    let on_value = parse_exact(&list_on);
    parse_exact(&list_off);
    // A model pays for tools/list in context on every session: the whole result, compact, stays within a bound with
    // every tool and every outputSchema listed (25 KB for 19 tools; it was 50.7 KB; still 25 KB with
    // github_get and the two job-log tools: each thing described once; 25.4 KB once the five free-path reads gained
    // their typed `nextLink`, issue 43; 34.4 KB with the three wait tools, whose outputSchema types their data
    // fully, about 3 KB each; 37.6 KB with ci_status; 44.7 KB with ci_test_results and the two artifact reads, typed
    // fully too: issue 42 asks for 30 KB; 35.7 KB once each argument was described once; 39.8 KB with allPages and
    // maxItems on the seven paged reads and their typed `pages`, issue 45).
    let list_bytes = serde_json::to_string(&on_value["result"]).unwrap().len();
    assert!(
        list_bytes <= 40_000,
        "tools/list is {list_bytes} bytes compact; the bound is 40000"
    );
    assert_eq!(
        on_value["result"]["tools"].as_array().map(Vec::len),
        Some(20),
        "every tool is listed"
    );
    insta::assert_snapshot!("tools_list_on", serde_json::to_string_pretty(&on_value).unwrap());
    insta::assert_snapshot!(
        "tools_list_off",
        serde_json::to_string_pretty(&parse_exact(&list_off)).unwrap()
    );
    let stripped = without(on_value, |v| {
        for tool in v["result"]["tools"].as_array_mut().unwrap() {
            let name = tool["name"].as_str().unwrap().to_owned();
            let is_write = name.ends_with("_write");
            let had_schema = tool.as_object_mut().unwrap().remove("outputSchema").is_some();
            assert_eq!(
                had_schema, !is_write,
                "{name}: every tool but the writes advertises outputSchema"
            );
        }
    });
    assert_eq!(stripped, list_off, "tools/list differs only by outputSchema");

    for (name, tool, args) in calls() {
        let line_off = off.call(tool, args.clone()).await;
        let line_on = on.call(tool, args.clone()).await;
        parse_exact(&line_off);
        parse_exact(&line_on);
        // The upstream's address (a new port each run) appears in `nextLink`: one name for it keeps snapshots stable.
        let (line_off, line_on) = (
            redact_fetched_at(&line_off).replace(&uri, "http://<upstream>"),
            redact_fetched_at(&line_on).replace(&uri, "http://<upstream>"),
        );
        let value_off: Value = serde_json::from_str(&line_off).unwrap();
        let value_on: Value = serde_json::from_str(&line_on).unwrap();
        assert!(
            value_off["result"].get("structuredContent").is_none(),
            "{name}: off has no structuredContent"
        );
        let is_error = value_on["result"]["isError"] == json!(true);
        assert_eq!(
            value_on["result"].get("structuredContent").is_some(),
            !is_error,
            "{name}"
        );
        let is_link = |block: &Value| block["type"] == "resource_link";
        assert!(
            !value_off["result"]["content"].as_array().unwrap().iter().any(is_link),
            "{name}: off has no resource_link block"
        );
        let stripped = without(value_on.clone(), |v| {
            v["result"].as_object_mut().unwrap().remove("structuredContent");
            // With the switch on, a result that names an artifact also links it (CONTRACT §5).
            v["result"]["content"]
                .as_array_mut()
                .unwrap()
                .retain(|block| !is_link(block));
        });
        assert_eq!(
            stripped, line_off,
            "{name}: switch-off line == switch-on line without structuredContent"
        );
        if name != "runs_plain" {
            insta::assert_snapshot!(
                format!("call_{name}_on"),
                serde_json::to_string_pretty(&value_on).unwrap()
            );
            insta::assert_snapshot!(
                format!("call_{name}_off"),
                serde_json::to_string_pretty(&value_off).unwrap()
            );
        }
    }
    // A later list, answered by the transport from the first one's text since issue 46, is the same bytes but the
    // id (that the transport, not rmcp, answers it is `stdio_framing`'s unit test).
    let id = |line: &str| serde_json::from_str::<Value>(line).unwrap()["id"].to_string();
    for (session, first) in [(&mut off, &list_off), (&mut on, &list_on)] {
        let again = session.list_tools().await;
        assert_ne!(id(&again), id(first));
        assert_eq!(
            &again.replacen(&format!("\"id\":{}", id(&again)), &format!("\"id\":{}", id(first)), 1),
            first,
            "a later tools/list is the first one's text with its own id"
        );
    }
    off.stop().await;
    on.stop().await;
}
