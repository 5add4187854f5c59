//! Issue 43, point 6, "our own hunt": faults reported against peer projects (MCP servers for CI and issue
//! trackers, MCP SDKs, HTTP clients) whose *kind* our product could share, each driven through the whole chain —
//! rmcp client → `mcp-devtools` binary → adapter → a local fake upstream on 127.0.0.1 (wiremock, or a raw TCP fake
//! where wiremock cannot misbehave enough). Where an existing test already proves a kind, it is named instead of a
//! new one: in this binary by its module, in the tools' in-process tests (`mcp-devtools-tools/tests/it`) as
//! `mcp-devtools-tools: module::test`.
//!
//! | report | kind | test |
//! |---|---|---|
//! | [anomalyco/opencode#17758](https://github.com/anomalyco/opencode/pull/17758) | a lone UTF-16 surrogate escape (`"\ud83d"`, what `JSON.stringify` emits for half an emoji) in an upstream JSON body makes the strict parser reject the whole body | [`a_lone_surrogate_escape_in_upstream_json_becomes_a_replacement_character`] |
//! | [nineinchnick/trino-openapi#65](https://github.com/nineinchnick/trino-openapi/issues/65) | a JQL query percent-encoded twice (`jql=project%253D…`), so Jira answers "`%` is a reserved JQL character" | [`jql_is_encoded_exactly_once_from_query_params_and_from_a_pre_encoded_path`] |
//! | [modelcontextprotocol/java-sdk#683](https://github.com/modelcontextprotocol/java-sdk/issues/683) | `structuredContent` fails the tool's own `outputSchema` when an upstream field the schema types as a string is `null` | [`null_fields_of_runs_and_jobs_validate_against_the_output_schema`] |
//! | [modelcontextprotocol/python-sdk#3345](https://github.com/modelcontextprotocol/python-sdk/issues/3345) | an upstream body (or a projection) that is JSON `null` is taken for "no structured content" | [`a_body_that_is_json_null_is_data_null_inside_an_object`] |
//! | [naftiko/ikanos#685](https://github.com/naftiko/ikanos/issues/685) | a GitHub `204 No Content` success (no body) reported as an error | [`github_get_of_a_204_no_content_is_a_success`] |
//! | [sooperset/mcp-atlassian#677](https://github.com/sooperset/mcp-atlassian/issues/677) | `HTTP_PROXY` / `HTTPS_PROXY` / `NO_PROXY` ignored, so the server cannot reach Jira from behind a corporate proxy | [`upstream_requests_go_through_the_proxy_of_the_environment_and_no_proxy_bypasses_it`] |
//! | [openai/openai-agents-python#4016](https://github.com/openai/openai-agents-python/issues/4016) | credentials in a configured URL (user-info, a query token) come back in error texts and logs | [`credentials_inside_a_configured_base_url_never_come_back`] |
//! | [jenkinsci/mcp-server-plugin#92](https://github.com/jenkinsci/mcp-server-plugin/issues/92) | the tail of a very large build log cannot be read (the whole log is buffered and the call dies) | [`the_tail_of_a_log_larger_than_the_body_cap_is_read_as_a_stream`] |
//! | [MeltanoLabs/tap-gitlab#11](https://github.com/MeltanoLabs/tap-gitlab/issues/11) | paging stops after the first page when the total-count headers or `rel="last"` are missing, or an empty next-page header is taken for a page | [`next_page_needs_no_totals_and_an_empty_x_next_page_is_ignored`] |
//! | [pgEdge/pgedge-postgres-mcp#29](https://github.com/pgEdge/pgedge-postgres-mcp/issues/29) | a reverse proxy's HTML error page (`502 Bad Gateway` from nginx or Cloudflare) shown raw as the error | [`an_html_error_page_is_reduced_to_its_title`] |
//! | [desktop/desktop#13092](https://github.com/desktop/desktop/pull/13092) | a branch name put into the workflow-runs URL unencoded (`/`, `#`, `&`, `+`) | [`filter_values_with_url_delimiters_reach_github_as_written`] |
//! | [zereight/gitlab-mcp#294](https://github.com/zereight/gitlab-mcp/issues/294) | the streamable-HTTP `GET` answered `404` instead of an event stream or `405`, so Spring AI's client stops at start-up | [`the_streamable_http_get_is_an_event_stream_or_405_never_404`] |
//! | [openclaw/openclaw#96716](https://github.com/openclaw/openclaw/pull/96718) | optional tool arguments sent as JSON `null` taken for values (or refused) | [`optional_arguments_given_as_null_mean_not_given`] |
//! | [chaitin/MonkeyCode#1268](https://github.com/chaitin/MonkeyCode/pull/1268) | `tools/list` with `"params": null` refused with `-32602`, failing the client's connection | [`null_params_of_list_and_ping_mean_no_params`] |
//! | [jreleaser/jreleaser#1442](https://github.com/jreleaser/jreleaser/issues/1442) | GitHub's `422 Validation Failed` reported without its `errors` list, the only place that says which field failed and why | [`a_github_422_names_what_its_errors_list_says`] |
//! | [currents-dev/currents-mcp#163](https://github.com/currents-dev/currents-mcp/issues/163) | a create retried after a 5xx or a lost answer makes a second issue | [`a_write_answered_5xx_or_429_is_sent_once_and_a_read_is_retried`] |
//! | [letieu/jira.nvim#40](https://github.com/letieu/jira.nvim/issues/40) | a base URL with a trailing slash gives `//rest/…` and a 404 | [`base_urls_with_a_trailing_slash_never_double_it`] |
//! | [getsentry/sentry-mcp#589](https://github.com/getsentry/sentry-mcp/issues/589) | a stdio server prints something else than JSON-RPC on stdout ("Unexpected token … is not valid JSON") | [`stdout_carries_only_json_rpc_even_at_trace_level`] |
//! | [renovatebot/renovate#45241](https://github.com/renovatebot/renovate/pull/45241) | GitHub's cursor lists (Dependabot alerts: `Link: <…?after=…>; rel="next"`, no page number) read as one page, the rest silently dropped | [`a_cursor_list_continues_with_next_link`] |
//! | [modelcontextprotocol/python-sdk#2349](https://github.com/modelcontextprotocol/python-sdk/issues/2349) | streamable HTTP answers `406` to `Accept: text/event-stream` alone (what Claude.ai's proxy sends), to `*/*` and to no `Accept` (also modelcontextprotocol/csharp-sdk#429) | [`accept_is_read_as_media_ranges_not_as_two_literal_strings`] |
//! | [atlassian-api/atlassian-python-api#331](https://github.com/atlassian-api/atlassian-python-api/issues/331) | a write redirected (there from `http` to `https`) becomes a `GET` and "succeeds" without writing | `mcp-devtools-tools: upstream_bodies::writes_never_become_reads` (301/302/303 on a write: an error naming the `Location`, nothing re-sent; a scheme change is another origin, refused for reads too) |
//! | [hahwul/gori#1103](https://github.com/hahwul/gori/pull/1103) | `notifications/cancelled` noted but the work goes on (the upstream traffic of an abandoned call) | `protocol_stdio::a_cancelled_call_drops_its_upstream_request_and_the_next_call_works` |
//! | [chrisdoc/hevy-mcp#790](https://github.com/chrisdoc/hevy-mcp/issues/790) | the tool hangs after the upstream sent `200` and its headers, because only the request phase (not the body read) is bounded | `fault_matrix::fault_matrix` (rows "stall mid-body", "timeout before headers") |
//! | [epam/ai-dial-core#1586](https://github.com/epam/ai-dial-core/issues/1586) | a `Content-Encoding: gzip` body parsed without being decoded | `mcp-devtools-tools: upstream_bodies::compressed_bodies_are_decoded_and_capped_by_their_decoded_size` |
//! | [github-community-projects/issue-metrics#779](https://github.com/github-community-projects/issue-metrics/issues/779) | GitHub's secondary rate limit (a `403`) reported as a permission problem | `mcp-devtools-tools: github_tools::upstream_errors_are_clear_error_results` (repos `rate-limited`, `abuse`) |
//!
//! Five kinds failed as the product stood, and were fixed (each test fails with its fix reverted): the lone
//! surrogate (`adapters_http::decode`), the HTML error page (`adapters_http::status`), GitHub's `422` `errors` list
//! (`adapters-github` error texts), GitHub's cursor lists (`github_get`'s `nextLink` with `nextPage` null on a cursor link) and `Accept` media ranges
//! (`mcp_serve`'s streamable HTTP). The other new tests
//! passed at once; each asserts the exact outcome (values received upstream, request counts, `nextPage`, the
//! schema), so each would fail if its kind came back. `data` of the GitHub tools is the vendor's body, untyped in
//! the `outputSchema`, which is why a `null` field cannot break it (java-sdk#683); the test keeps it so.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::time::{Duration, Instant};

use common::{assert_valid, call, connect, connect_logged, fixture_json, server_env, text};
use recorded_upstream::RecordedUpstream;
use recorded_upstream::wiremock::matchers::{any, method, path};
use recorded_upstream::wiremock::{Mock, MockServer, ResponseTemplate};
use rmcp::RoleClient;
use rmcp::model::{CallToolResult, Tool};
use rmcp::service::RunningService;
use serde_json::{Value, json};

type Client = RunningService<RoleClient, ()>;

const ATLASSIAN_TOKEN: &str = "ATATT-peer-reports-SECRET";
/// The failed job of run 2802600146 (`github/run-jobs-failure`) and its stored log.
const JOB: u64 = 28_026_001_462;

fn env(upstream: &RecordedUpstream, extra: &[(&str, &str)]) -> Vec<(String, String)> {
    let uri = upstream.uri();
    let wiki = format!("{uri}/wiki");
    let mut pairs = vec![
        ("MCP_STRUCTURED_OUTPUT", "true"),
        ("JIRA_BASE_URL", uri.as_str()),
        ("CONFLUENCE_BASE_URL", wiki.as_str()),
        ("BITBUCKET_BASE_URL", uri.as_str()),
        ("ATLASSIAN_USER_EMAIL", "mia@example.com"),
        ("ATLASSIAN_API_TOKEN", ATLASSIAN_TOKEN),
    ];
    pairs.extend_from_slice(extra);
    server_env(&uri, &pairs)
}

async fn serve(server: &MockServer, at: &str, response: ResponseTemplate) {
    Mock::given(method("GET"))
        .and(path(at))
        .respond_with(response)
        .with_priority(1)
        .mount(server)
        .await;
}

fn json_body(body: impl Into<Vec<u8>>) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_raw(body.into(), "application/json; charset=utf-8")
}

fn structured(result: &CallToolResult) -> Value {
    assert_ne!(result.is_error, Some(true), "{}", text(result));
    result.structured_content.clone().expect("structuredContent")
}

async fn tool(client: &Client, name: &str) -> Tool {
    client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("{name} is listed"))
}

/// The raw query of every request the upstream received at `at`.
async fn queries(server: &MockServer, at: &str) -> Vec<Vec<(String, String)>> {
    server
        .received_requests()
        .await
        .unwrap()
        .into_iter()
        .filter(|r| r.url.path() == at)
        .map(|r| {
            r.url
                .query_pairs()
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect()
        })
        .collect()
}

/// anomalyco/opencode#17758: `JSON.stringify` writes half an emoji as a lone surrogate escape (`"\ud83d"`); strict
/// parsers (serde_json among them) reject the whole body for it. jq reads such an escape as U+FFFD, and so must we,
/// in the free read and in the typed list alike, while a valid pair and an escaped backslash stay what they are.
#[tokio::test]
async fn a_lone_surrogate_escape_in_upstream_json_becomes_a_replacement_character() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let commit = r#"{"sha":"abc","commit":{"message":"fix: cut at \ud83d","tail":"\udc00 low","pair":"\ud83d\ude00","backslash":"\\ud800","high_then_text":"\ud800x"}}"#;
    serve(
        upstream.server(),
        "/repos/octo-org/octo-repo/commits/abc",
        json_body(commit),
    )
    .await;
    let mut runs = fixture_json("github/actions-runs");
    runs["workflow_runs"][0]["display_title"] = json!("PLACEHOLDER");
    let runs = runs.to_string().replace("\"PLACEHOLDER\"", r#""Deploy \ud83d""#);
    serve(
        upstream.server(),
        "/repos/octo-org/surrogates/actions/runs",
        json_body(runs),
    )
    .await;
    let client = connect(env(&upstream, &[])).await;

    let result = call(
        &client,
        "github_get",
        json!({"path": "/repos/octo-org/octo-repo/commits/abc"}),
    )
    .await;
    let data = structured(&result)["data"].clone();
    assert_eq!(data["commit"]["message"], json!("fix: cut at \u{FFFD}"));
    assert_eq!(data["commit"]["tail"], json!("\u{FFFD} low"));
    assert_eq!(data["commit"]["pair"], json!("😀"));
    assert_eq!(
        data["commit"]["backslash"],
        json!("\\ud800"),
        "an escaped backslash is not an escape"
    );
    assert_eq!(data["commit"]["high_then_text"], json!("\u{FFFD}x"));

    let runs_tool = tool(&client, "github_list_workflow_runs").await;
    let result = call(
        &client,
        "github_list_workflow_runs",
        json!({"owner": "octo-org", "repo": "surrogates"}),
    )
    .await;
    let sc = structured(&result);
    assert_eq!(
        sc["data"]["workflow_runs"][0]["display_title"],
        json!("Deploy \u{FFFD}")
    );
    assert_valid(&runs_tool, &sc);
    client.cancel().await.unwrap();
}

/// nineinchnick/trino-openapi#65 (and pycontribs/jira#336): a JQL query encoded twice reaches Jira as
/// `project%3D…` and fails. Given as `queryParams` or already encoded inside `path` (a `next` link as is), Jira must
/// decode it once to the query the caller wrote.
#[tokio::test]
async fn jql_is_encoded_exactly_once_from_query_params_and_from_a_pre_encoded_path() {
    let upstream = RecordedUpstream::start().await;
    let search = "/rest/api/3/search/jql";
    serve(upstream.server(), search, json_body(r#"{"issues":[],"isLast":true}"#)).await;
    let client = connect(env(&upstream, &[])).await;
    let jql = r#"project = "ED" AND summary ~ "50% off" AND assignee = "mia@example.com" ORDER BY created DESC"#;
    let token = "Ch0+a/b=c&d";
    let result = call(
        &client,
        "jira_get",
        json!({"path": search, "queryParams": {"jql": jql, "nextPageToken": token, "fields": "summary,status"}}),
    )
    .await;
    structured(&result);
    let result = call(
        &client,
        "jira_get",
        json!({"path": format!("{search}?jql=project%20%3D%20%22ED%22%20AND%20summary%20~%20%2250%25%20off%22&maxResults=5")}),
    )
    .await;
    structured(&result);
    let got = queries(upstream.server(), search).await;
    assert_eq!(got.len(), 2, "{got:?}");
    let pairs = |list: &[(&str, &str)]| -> Vec<(String, String)> {
        list.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    };
    let mut first = got[0].clone();
    first.sort();
    assert_eq!(
        first,
        pairs(&[("fields", "summary,status"), ("jql", jql), ("nextPageToken", token)])
    );
    assert_eq!(
        got[1],
        pairs(&[
            ("jql", r#"project = "ED" AND summary ~ "50% off""#),
            ("maxResults", "5")
        ])
    );
    client.cancel().await.unwrap();
}

/// modelcontextprotocol/java-sdk#683: a schema that types a field as a string, and an upstream that sends `null`
/// there, make the client refuse the result. Runs and jobs are full of fields GitHub leaves `null` (an unfinished
/// run's `conclusion`, a deleted actor, a job not yet on a runner); each must validate against the advertised
/// `outputSchema` under draft-07 and 2020-12.
#[tokio::test]
async fn null_fields_of_runs_and_jobs_validate_against_the_output_schema() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let mut runs = fixture_json("github/actions-runs");
    let template = runs["workflow_runs"][0].clone();
    let mut nulled = template.clone();
    for (key, value) in nulled.as_object_mut().unwrap() {
        if !matches!(key.as_str(), "id" | "run_number" | "url" | "html_url") && !value.is_array() {
            *value = Value::Null;
        }
    }
    runs["workflow_runs"] = json!([nulled]);
    runs["total_count"] = json!(1);
    serve(
        upstream.server(),
        "/repos/octo-org/nulls/actions/runs",
        json_body(runs.to_string()),
    )
    .await;
    let mut jobs = fixture_json("github/run-jobs-failure");
    let mut job = jobs["jobs"][0].clone();
    for (key, value) in job.as_object_mut().unwrap() {
        if !matches!(key.as_str(), "id" | "run_id" | "url" | "html_url" | "name") {
            *value = Value::Null;
        }
    }
    jobs["jobs"] = json!([job]);
    jobs["total_count"] = json!(1);
    serve(
        upstream.server(),
        "/repos/octo-org/nulls/actions/runs/7/jobs",
        json_body(jobs.to_string()),
    )
    .await;
    let client = connect(env(&upstream, &[])).await;
    let runs_tool = tool(&client, "github_list_workflow_runs").await;
    let result = call(
        &client,
        "github_list_workflow_runs",
        json!({"owner": "octo-org", "repo": "nulls"}),
    )
    .await;
    let sc = structured(&result);
    let run = &sc["data"]["workflow_runs"][0];
    assert!(
        run["id"].is_u64() && run["conclusion"].is_null() && run["actor"].is_null(),
        "{sc}"
    );
    assert_valid(&runs_tool, &sc);
    let jobs_tool = tool(&client, "github_list_workflow_jobs").await;
    let result = call(
        &client,
        "github_list_workflow_jobs",
        json!({"owner": "octo-org", "repo": "nulls", "runId": 7}),
    )
    .await;
    let sc = structured(&result);
    let job = &sc["data"]["jobs"][0];
    assert!(
        job["id"].is_u64() && job["conclusion"].is_null() && job["steps"].is_null(),
        "{sc}"
    );
    assert_valid(&jobs_tool, &sc);
    client.cancel().await.unwrap();
}

/// modelcontextprotocol/python-sdk#3345: a JSON `null` result is confused with "no structured content". Our
/// `structuredContent` is always an object; an upstream body that is `null`, and a projection to `null`, are
/// `data: null` inside it, valid against the schema, and not `incomplete`.
#[tokio::test]
async fn a_body_that_is_json_null_is_data_null_inside_an_object() {
    let upstream = RecordedUpstream::start().await;
    serve(upstream.server(), "/repos/octo-org/octo-repo/null", json_body("null")).await;
    serve(upstream.server(), "/rest/api/3/null", json_body("null")).await;
    let client = connect(env(&upstream, &[])).await;
    for (name, args) in [
        ("github_get", json!({"path": "/repos/octo-org/octo-repo/null"})),
        ("jira_get", json!({"path": "/rest/api/3/null"})),
        (
            "jira_get",
            json!({"path": "/rest/api/3/null", "jq": ".missing", "outputFormat": "json"}),
        ),
    ] {
        let listed = tool(&client, name).await;
        let result = call(&client, name, args.clone()).await;
        let sc = structured(&result);
        assert!(sc.is_object(), "{name} {args}: {sc}");
        assert_eq!(sc["data"], Value::Null, "{name} {args}: {sc}");
        assert!(sc.get("data").is_some() && sc.get("incomplete").is_none(), "{sc}");
        assert_valid(&listed, &sc);
    }
    client.cancel().await.unwrap();
}

/// naftiko/ikanos#685: GitHub answers some reads with `204 No Content` by design ("is this user followed?": 204
/// yes, 404 no); a 2xx without a body is a success, not an error or a JSON parse failure.
#[tokio::test]
async fn github_get_of_a_204_no_content_is_a_success() {
    let upstream = RecordedUpstream::start().await;
    serve(upstream.server(), "/user/following/octocat", ResponseTemplate::new(204)).await;
    serve(
        upstream.server(),
        "/repos/octo-org/octo-repo/collaborators/mia",
        ResponseTemplate::new(204).insert_header("content-type", "application/json; charset=utf-8"),
    )
    .await;
    let client = connect(env(&upstream, &[])).await;
    let listed = tool(&client, "github_get").await;
    for at in ["/user/following/octocat", "/repos/octo-org/octo-repo/collaborators/mia"] {
        let result = call(&client, "github_get", json!({"path": at})).await;
        let sc = structured(&result);
        assert_eq!(sc, json!({"data": {}, "nextPage": null, "nextLink": null}), "{at}");
        assert_valid(&listed, &sc);
    }
    client.cancel().await.unwrap();
}

/// sooperset/mcp-atlassian#677: behind a corporate proxy the server must use `HTTP_PROXY` / `HTTPS_PROXY` (the
/// proxy on 127.0.0.1 here receives the absolute-form request for a host that does not resolve), and `NO_PROXY`
/// must send a listed host direct.
#[tokio::test]
async fn upstream_requests_go_through_the_proxy_of_the_environment_and_no_proxy_bypasses_it() {
    let proxy = MockServer::start().await;
    Mock::given(any())
        .respond_with(json_body(r#"{"accountId":"via-proxy"}"#))
        .mount(&proxy)
        .await;
    let upstream = RecordedUpstream::start().await;
    serve(
        upstream.server(),
        "/rest/api/3/myself",
        json_body(r#"{"accountId":"direct"}"#),
    )
    .await;

    let far = "http://jira.example.invalid";
    let client = connect(env(
        &upstream,
        &[
            ("JIRA_BASE_URL", far),
            // A plain-http base off loopback stops start-up unless allowed (issue 44).
            ("MCP_ALLOW_INSECURE_HTTP", "true"),
            ("HTTP_PROXY", proxy.uri().as_str()),
            ("HTTPS_PROXY", proxy.uri().as_str()),
        ],
    ))
    .await;
    let result = call(&client, "jira_get", json!({"path": "/rest/api/3/myself"})).await;
    assert_eq!(structured(&result)["data"], json!({"accountId": "via-proxy"}));
    let seen = proxy.received_requests().await.unwrap();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0].url.path(), "/rest/api/3/myself");
    assert_eq!(
        seen[0].headers.get("host").unwrap().to_str().unwrap(),
        "jira.example.invalid"
    );
    client.cancel().await.unwrap();

    // The same proxy, but the upstream's host listed in NO_PROXY: straight to it.
    let direct = upstream.uri();
    let client = connect(env(
        &upstream,
        &[
            ("JIRA_BASE_URL", direct.as_str()),
            ("HTTP_PROXY", proxy.uri().as_str()),
            ("NO_PROXY", "localhost,127.0.0.1"),
        ],
    ))
    .await;
    let result = call(&client, "jira_get", json!({"path": "/rest/api/3/myself"})).await;
    assert_eq!(structured(&result)["data"], json!({"accountId": "direct"}));
    assert_eq!(
        proxy.received_requests().await.unwrap().len(),
        1,
        "NO_PROXY bypassed the proxy"
    );
    client.cancel().await.unwrap();
}

/// openai/openai-agents-python#4016: a URL with credentials in it (user-info, a query token) is echoed in error
/// messages and logs. A base URL carrying credentials is refused naming its setting, and neither the password nor
/// the token appears in the result or the server's log, debug level included.
#[tokio::test]
async fn credentials_inside_a_configured_base_url_never_come_back() {
    const PASSWORD: &str = "pw-in-url-0123456789abcdef";
    const QUERY_TOKEN: &str = "qs-token-0123456789abcdef";
    let upstream = RecordedUpstream::start().await;
    let with_user = format!("http://mia:{PASSWORD}@127.0.0.1:1/jira");
    let with_query = format!("{}/?access_token={QUERY_TOKEN}", upstream.uri());
    let (client, log) = connect_logged(env(
        &upstream,
        &[
            ("JIRA_BASE_URL", with_user.as_str()),
            ("GITHUB_API_BASE", with_query.as_str()),
            ("RUST_LOG", "debug"),
        ],
    ))
    .await;
    for (name, args, setting) in [
        ("jira_get", json!({"path": "/rest/api/3/myself"}), "JIRA_BASE_URL"),
        ("github_get", json!({"path": "/user"}), "GITHUB_API_BASE"),
        (
            "github_list_workflow_runs",
            json!({"owner": "octo-org", "repo": "octo-repo"}),
            "GITHUB_API_BASE",
        ),
    ] {
        let result = call(&client, name, args).await;
        let wire = serde_json::to_string(&result).unwrap();
        assert_eq!(result.is_error, Some(true), "{name}: {wire}");
        assert!(text(&result).contains(setting), "{name}: {wire}");
        for secret in [PASSWORD, QUERY_TOKEN] {
            assert!(!wire.contains(secret), "{name}: {secret} came back: {wire}");
        }
    }
    assert!(
        upstream.server().received_requests().await.unwrap().is_empty(),
        "nothing was sent"
    );
    client.cancel().await.unwrap();
    let logged = String::from_utf8_lossy(&log.lock().await).into_owned();
    for secret in [PASSWORD, QUERY_TOKEN] {
        assert!(!logged.contains(secret), "{secret} in the log:\n{logged}");
    }
}

/// jenkinsci/mcp-server-plugin#92: the tail of a log of millions of lines cannot be read. A job log four times the
/// body cap (`HTTP_MAX_BODY_BYTES`) is read as a stream: its last lines come back, the line count is the log's, and
/// the call takes seconds, not the timeout.
#[tokio::test]
async fn the_tail_of_a_log_larger_than_the_body_cap_is_read_as_a_stream() {
    let stored = String::from_utf8(
        recorded_upstream::fixture("github/job-log-28026001462")
            .unwrap()
            .body
            .to_vec(),
    )
    .unwrap();
    let (head, tail) = stored.split_at(stored.find("2023-01-10T08:25:24.7500275Z ##[error]").unwrap());
    let filler_lines = 60_000;
    let mut log = String::with_capacity(head.len() + tail.len() + filler_lines * 104);
    log.push_str(head);
    for i in 0..filler_lines {
        log.push_str(&format!(
            "2023-01-10T08:25:24.7400000Z test {i:06} passed, and a chatty runner pads its line to 100 b\n"
        ));
    }
    log.push_str(tail);
    let cap = 1024 * 1024;
    assert!(log.len() > 4 * cap, "{}", log.len());
    let upstream = RecordedUpstream::github().await.unwrap();
    Mock::given(method("GET"))
        .and(path(format!("/actions-results/{JOB}/logs.txt")))
        .respond_with(ResponseTemplate::new(200).set_body_raw(log.clone().into_bytes(), "text/plain; charset=utf-8"))
        .with_priority(1)
        .mount(upstream.downloads())
        .await;
    let cap_setting = cap.to_string();
    let client = connect(env(&upstream, &[("HTTP_MAX_BODY_BYTES", cap_setting.as_str())])).await;
    let started = Instant::now();
    let result = call(
        &client,
        "github_get_job_logs",
        json!({"owner": "octo-org", "repo": "octo-repo", "jobId": JOB, "tailLines": 5}),
    )
    .await;
    let elapsed = started.elapsed();
    let sc = structured(&result);
    let job = &sc["data"]["jobs"][0];
    assert_eq!(job["totalLines"], json!(log.lines().count()), "{sc}");
    let kept: Vec<String> = job["steps"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["lines"].as_array().cloned().unwrap_or_default())
        .map(|l| l["text"].as_str().unwrap().to_owned())
        .collect();
    assert!(
        kept.iter().any(|l| l.contains("##[error]")),
        "the failed step's last lines: {kept:?}"
    );
    assert!(elapsed < Duration::from_secs(25), "{elapsed:?}");
    client.cancel().await.unwrap();
}

/// MeltanoLabs/tap-gitlab#11 (and zaquestion/lab#745): paging that relies on `X-Total-Pages` or `rel="last"` stops
/// after the first page when the server leaves them out (GitLab past 10,000 results, GitHub on some lists). Our
/// `nextPage` needs only `rel="next"`; an empty `x-next-page` (what GitLab sends on the last page) is no page and
/// does not hide the `Link` header, and the last page says `null`.
#[tokio::test]
async fn next_page_needs_no_totals_and_an_empty_x_next_page_is_ignored() {
    let upstream = RecordedUpstream::start().await;
    let page = |link: Option<String>, next: Option<&str>| {
        let mut response = json_body(r#"{"total_count":0,"workflow_runs":[]}"#);
        if let Some(link) = link {
            response = response.insert_header("link", link.as_str());
        }
        if let Some(next) = next {
            response = response.insert_header("x-next-page", next);
        }
        response
    };
    let base = format!("{}/repositories/1/actions/runs", upstream.uri());
    serve(
        upstream.server(),
        "/repos/octo-org/only-next/actions/runs",
        page(Some(format!("<{base}?per_page=2&page=3>; rel=\"next\"")), None),
    )
    .await;
    serve(
        upstream.server(),
        "/repos/octo-org/empty-next/actions/runs",
        page(
            Some(format!("<{base}?page=1>; rel=\"prev\", <{base}?page=4>; rel=\"next\"")),
            Some(""),
        ),
    )
    .await;
    serve(
        upstream.server(),
        "/repos/octo-org/last/actions/runs",
        page(
            Some(format!("<{base}?page=1>; rel=\"first\", <{base}?page=3>; rel=\"prev\"")),
            Some(""),
        ),
    )
    .await;
    let client = connect(env(&upstream, &[])).await;
    for (repo, next) in [("only-next", json!(3)), ("empty-next", json!(4)), ("last", Value::Null)] {
        let result = call(
            &client,
            "github_list_workflow_runs",
            json!({"owner": "octo-org", "repo": repo, "perPage": 2}),
        )
        .await;
        assert_eq!(structured(&result)["nextPage"], next, "{repo}");
        let result = call(
            &client,
            "github_get",
            json!({"path": format!("/repos/octo-org/{repo}/actions/runs")}),
        )
        .await;
        assert_eq!(structured(&result)["nextPage"], next, "github_get {repo}");
    }
    client.cancel().await.unwrap();
}

/// desktop/desktop#13092 (and MercymeIlya/last-workflow-status#13): a branch name put into the workflow-runs URL
/// unencoded (`#` cuts the URL, `&` and `+` change the query, `/` was replaced). Branch, actor and event reach
/// GitHub as the caller wrote them.
#[tokio::test]
async fn filter_values_with_url_delimiters_reach_github_as_written() {
    let upstream = RecordedUpstream::start().await;
    let at = "/repos/octo-org/octo-repo/actions/runs";
    serve(
        upstream.server(),
        at,
        json_body(r#"{"total_count":0,"workflow_runs":[]}"#),
    )
    .await;
    let client = connect(env(&upstream, &[])).await;
    let branch = "feature/ü #12 a+b&c=d%20e?f";
    let actor = "dependabot[bot]";
    let result = call(
        &client,
        "github_list_workflow_runs",
        json!({"owner": "octo-org", "repo": "octo-repo", "branch": branch, "actor": actor, "event": "pull_request"}),
    )
    .await;
    structured(&result);
    let got = queries(upstream.server(), at).await;
    assert_eq!(got.len(), 1, "{got:?}");
    let value = |name: &str| {
        got[0]
            .iter()
            .filter(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(value("branch"), [branch]);
    assert_eq!(value("actor"), [actor]);
    assert_eq!(value("event"), ["pull_request"]);
    assert!(value("c").is_empty() && value("f").is_empty(), "{got:?}");

    // A workflow file name is a path segment: `#`, `?`, `%` and spaces stay inside it.
    let file = "build & deploy #2 ?50%.yml";
    let result = call(
        &client,
        "github_list_workflow_runs",
        json!({"owner": "octo-org", "repo": "octo-repo", "workflowId": file}),
    )
    .await;
    assert_eq!(
        result.is_error,
        Some(true),
        "nothing is mounted there: {}",
        text(&result)
    );
    let last = upstream.server().received_requests().await.unwrap().pop().unwrap();
    let segments: Vec<String> = last.url.path_segments().unwrap().map(percent_decode).collect();
    assert_eq!(
        segments,
        ["repos", "octo-org", "octo-repo", "actions", "workflows", file, "runs"],
        "{}",
        last.url
    );
    assert_eq!(last.url.query(), None, "{}", last.url);
    client.cancel().await.unwrap();
}

/// `%XX` sequences of a path segment decoded (UTF-8).
fn percent_decode(segment: &str) -> String {
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%')
            .then(|| segment.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                out.push(byte);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap()
}

/// zereight/gitlab-mcp#294: the server answered the streamable-HTTP `GET` (the client's server-to-client stream)
/// with `404`, which the MCP specification does not allow (an event stream, or `405 Method Not Allowed`), and
/// Spring AI's client stopped at start-up. Ours opens the stream for a session, and answers `405` when serving
/// without sessions.
#[tokio::test]
async fn the_streamable_http_get_is_an_event_stream_or_405_never_404() {
    use common::http::{HttpServer, tokens_file};
    const TOKEN: &str = "peer-reports-http-token-1";
    async fn start(extra: &[(&str, &str)]) -> HttpServer {
        let dir = tempfile::tempdir().unwrap();
        let tokens = tokens_file(&dir, &[(TOKEN, "alice")]);
        HttpServer::start(
            server_env("http://127.0.0.1:9", extra),
            &["--tokens-file", tokens.to_str().unwrap()],
            dir,
        )
        .await
    }
    let http = reqwest::Client::new();
    let post = |url: &str, session: Option<&str>, body: Value| {
        let mut request = http
            .post(url)
            .bearer_auth(TOKEN)
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-06-18")
            .json(&body);
        if let Some(session) = session {
            request = request.header("mcp-session-id", session);
        }
        request.send()
    };
    let get = |url: &str, session: Option<&str>| {
        let mut request = http
            .get(url)
            .bearer_auth(TOKEN)
            .header("accept", "text/event-stream")
            .header("mcp-protocol-version", "2025-06-18");
        if let Some(session) = session {
            request = request.header("mcp-session-id", session);
        }
        request.send()
    };
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "spring-like", "version": "1"}}});
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});

    let server = start(&[]).await;
    let answer = post(&server.url, None, initialize.clone()).await.unwrap();
    assert_eq!(answer.status(), 200);
    let session = answer.headers()["mcp-session-id"].to_str().unwrap().to_owned();
    drop(answer);
    let answer = post(&server.url, Some(&session), initialized.clone()).await.unwrap();
    assert_eq!(answer.status(), 202);
    let stream = tokio::time::timeout(Duration::from_secs(10), get(&server.url, Some(&session)))
        .await
        .expect("the GET answers with its headers at once")
        .unwrap();
    assert_eq!(stream.status(), 200, "{}", server.logs());
    let media = stream.headers()["content-type"].to_str().unwrap().to_owned();
    assert!(media.starts_with("text/event-stream"), "{media}");
    drop(stream);

    let stateless = start(&[("MCP_HTTP_STATELESS", "true")]).await;
    let answer = post(&stateless.url, None, initialize).await.unwrap();
    assert_eq!(answer.status(), 200);
    drop(answer);
    let answer = get(&stateless.url, None).await.unwrap();
    assert_eq!(answer.status(), 405, "{}", stateless.logs());
}

/// pgEdge/pgedge-postgres-mcp#29: the user sees the reverse proxy's HTML page (`<html><head><title>502 Bad
/// Gateway</title>…`) as the error. A gateway's or server's HTML error page (Cloudflare's, several KB of markup and
/// style; Tomcat's under Jira Data Center) comes back as its title, with the status and what to do, in a few
/// hundred bytes.
#[tokio::test]
async fn an_html_error_page_is_reduced_to_its_title() {
    let upstream = RecordedUpstream::start().await;
    let style = format!(
        "<style>{}</style>",
        "body{margin:0;padding:0;font:13px/1.5 sans-serif}".repeat(100)
    );
    let cloudflare = format!(
        "<!DOCTYPE html>\n<html lang=\"en-US\"><head><meta charset=\"UTF-8\" />\n<title>api.example.com | 502: Bad gateway</title>\n{style}\n<script>window._cf_chl_opt={{cType:'managed'}};</script></head>\n<body><div id=\"cf-error-details\"><h1>Bad gateway</h1><span>Error code 502</span></div></body></html>"
    );
    serve(
        upstream.server(),
        "/repos/octo-org/behind-cloudflare/actions/runs",
        ResponseTemplate::new(502).set_body_raw(cloudflare.clone().into_bytes(), "text/html; charset=UTF-8"),
    )
    .await;
    let tomcat = format!(
        "<!doctype html><html lang=\"en\"><head><title>HTTP Status 404 \u{2013} Not Found</title>{style}</head><body><h1>HTTP Status 404 \u{2013} Not Found</h1><hr class=\"line\" /><p><b>Type</b> Status Report</p></body></html>"
    );
    serve(
        upstream.server(),
        "/rest/api/2/issue/ED-404",
        ResponseTemplate::new(404).set_body_raw(tomcat.clone().into_bytes(), "text/html;charset=utf-8"),
    )
    .await;
    let client = connect(env(&upstream, &[])).await;
    for (name, args, title, bytes, hint) in [
        (
            "github_list_workflow_runs",
            json!({"owner": "octo-org", "repo": "behind-cloudflare"}),
            "api.example.com | 502: Bad gateway",
            cloudflare.len(),
            "try again later",
        ),
        (
            "jira_get",
            json!({"path": "/rest/api/2/issue/ED-404"}),
            "HTTP Status 404 \u{2013} Not Found",
            tomcat.len(),
            "check the path",
        ),
    ] {
        let result = call(&client, name, args).await;
        assert_eq!(result.is_error, Some(true), "{name}");
        let shown = text(&result);
        assert!(
            shown.contains(&format!("{title} (an HTML page of {bytes} bytes)")) && shown.contains(hint),
            "{name}: {shown}"
        );
        for markup in ["<", "{", "margin:"] {
            assert!(!shown.contains(markup), "{name}: {markup:?} in {shown}");
        }
        assert!(shown.len() < 400, "{name}: {} bytes: {shown}", shown.len());
    }
    client.cancel().await.unwrap();
}

/// openclaw/openclaw#96716 (fixed client-side by #96718): clients send an optional argument they do not use as JSON
/// `null` (`{"insight_id": null}`), and the server took `null` for a value, or refused it. Every optional argument of
/// ours given as `null` means "not given": same upstream request, same result as leaving it out.
#[tokio::test]
async fn optional_arguments_given_as_null_mean_not_given() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let pairs: Vec<(String, String)> = upstream.env().into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
    let mut pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    pairs.push(("MCP_STRUCTURED_OUTPUT", "true"));
    let client = connect(server_env(&upstream.uri(), &pairs)).await;
    let view = json!({"jq": null, "outputFormat": null});
    let cases = [
        (
            "github_list_workflow_runs",
            json!({"owner": "octo-org", "repo": "octo-repo"}),
            json!({"workflowId": null, "branch": null, "status": null, "event": null, "actor": null, "perPage": null, "page": null}),
        ),
        (
            "github_list_workflow_jobs",
            json!({"owner": "octo-org", "repo": "octo-repo", "runId": 2_802_600_146_u64}),
            json!({"filter": null, "perPage": null, "page": null}),
        ),
        (
            "github_get",
            json!({"path": "/repos/octo-org/octo-repo/actions/runs/2802600146/artifacts"}),
            json!({"queryParams": null, "mediaType": null, "perPage": null, "page": null}),
        ),
        (
            "github_get_job_logs",
            json!({"owner": "octo-org", "repo": "octo-repo", "jobId": JOB}),
            json!({"runId": null, "jobName": null, "failedOnly": null, "tailLines": null, "grep": null, "context": null, "step": null, "raw": null}),
        ),
        (
            "circleci_get",
            json!({"path": "/me"}),
            json!({"queryParams": null, "fresh": null}),
        ),
        (
            "jira_get",
            json!({"path": "/rest/api/3/issue/ED-1"}),
            json!({"queryParams": null}),
        ),
    ];
    for (name, required, optional) in cases {
        let bare = call(&client, name, required.clone()).await;
        let mut with_nulls = required.as_object().unwrap().clone();
        with_nulls.extend(optional.as_object().unwrap().clone());
        with_nulls.extend(view.as_object().unwrap().clone());
        let nulled = call(&client, name, Value::Object(with_nulls)).await;
        assert_ne!(nulled.is_error, Some(true), "{name}: {}", text(&nulled));
        let mut expected = structured(&bare);
        let mut got = structured(&nulled);
        for value in [&mut expected, &mut got] {
            if let Some(cache) = value.get_mut("cache") {
                *cache = Value::Null;
            }
        }
        assert_eq!(got, expected, "{name}");
        if name != "circleci_get" {
            assert_eq!(
                text(&nulled),
                text(&bare),
                "{name}: the same text (circleci_get's says the second is a hit)"
            );
        }
    }
    client.cancel().await.unwrap();
}

/// chaitin/MonkeyCode#1268: a client sends `tools/list` (or `ping`) with `"params": null`, the server answers
/// `-32602 params must be an object`, and the client's connection fails. `null` params of a method whose params are
/// all optional mean none.
#[tokio::test]
async fn null_params_of_list_and_ping_mean_no_params() {
    use common::raw::RawSession;
    let upstream = RecordedUpstream::start().await;
    let mut session = RawSession::start(env(&upstream, &[])).await;
    let listed: Value = serde_json::from_str(&session.list_tools().await).unwrap();
    for (method, key) in [("tools/list", "tools"), ("ping", "")] {
        let line = session.request(method, Value::Null).await;
        let answer: Value = serde_json::from_str(&line).unwrap();
        assert!(answer.get("error").is_none(), "{method}: {line}");
        if key.is_empty() {
            assert_eq!(answer["result"], json!({}), "{method}: {line}");
        } else {
            assert_eq!(answer["result"][key], listed["result"][key], "{method}");
        }
    }
    session.stop().await;
}

/// currents-dev/currents-mcp#163 (and adamcavendish/aioduct#79): a create retried after a 5xx or a lost answer makes
/// a second issue. Our writes are sent once, whatever the status, `Retry-After` included, while a read of the same
/// answer is retried — so the count tells the two apart.
#[tokio::test]
async fn a_write_answered_5xx_or_429_is_sent_once_and_a_read_is_retried() {
    let upstream = RecordedUpstream::start().await;
    for (verb, at, status) in [
        ("POST", "/rest/api/3/issue", 503),
        ("PATCH", "/rest/api/3/issue/ED-1", 502),
        ("POST", "/rest/api/3/issue/ED-1/comment", 429),
        ("GET", "/rest/api/3/issue/ED-2", 503),
    ] {
        Mock::given(method(verb))
            .and(path(at))
            .respond_with(
                ResponseTemplate::new(status)
                    .set_body_raw(r#"{"errorMessages":["busy"]}"#, "application/json")
                    .insert_header("retry-after", "0"),
            )
            .mount(upstream.server())
            .await;
    }
    let client = connect(env(&upstream, &[])).await;
    let body = json!({"fields": {"project": {"key": "ED"}, "summary": "once", "issuetype": {"name": "Bug"}}});
    for (tool_name, at, args) in [
        (
            "POST",
            "/rest/api/3/issue",
            json!({"method": "POST", "path": "/rest/api/3/issue", "body": body}),
        ),
        (
            "PATCH",
            "/rest/api/3/issue/ED-1",
            json!({"method": "PATCH", "path": "/rest/api/3/issue/ED-1", "body": {"x": 1}}),
        ),
        (
            "POST",
            "/rest/api/3/issue/ED-1/comment",
            json!({"method": "POST", "path": "/rest/api/3/issue/ED-1/comment", "body": {"body": "hi"}}),
        ),
    ] {
        let result = call(&client, "jira_write", args).await;
        assert_eq!(result.is_error, Some(true), "{tool_name} {at}: {}", text(&result));
        let sent = upstream
            .server()
            .received_requests()
            .await
            .unwrap()
            .into_iter()
            .filter(|r| r.url.path() == at)
            .count();
        assert_eq!(sent, 1, "{tool_name} {at} was sent {sent} times");
    }
    let result = call(&client, "jira_get", json!({"path": "/rest/api/3/issue/ED-2"})).await;
    assert_eq!(result.is_error, Some(true));
    let reads = queries(upstream.server(), "/rest/api/3/issue/ED-2").await.len();
    assert!(reads > 1, "the read was retried ({reads})");
    client.cancel().await.unwrap();
}

/// letieu/jira.nvim#40 (and super-productivity#622): a base URL written with a trailing slash gives
/// `https://host//rest/…` and a 404. Every base setting, with a context path and a trailing slash (GitHub Enterprise
/// `…/api/v3/`, Jira and Confluence Data Center under `/jira/` and `/confluence/`, CircleCI `…/api/v2/`), reaches its
/// upstream without a doubled slash.
#[tokio::test]
async fn base_urls_with_a_trailing_slash_never_double_it() {
    let upstream = RecordedUpstream::start().await;
    let ok = json_body(r#"{"ok":true}"#);
    for at in [
        "/api/v3/repos/octo-org/octo-repo/actions/runs",
        "/api/v3/repos/octo-org/octo-repo/commits/abc",
        "/jira/rest/api/2/myself",
        "/confluence/rest/api/content",
        "/bb/2.0/repositories/ws",
        "/api/v2/me",
    ] {
        serve(upstream.server(), at, ok.clone()).await;
    }
    let uri = upstream.uri();
    let (github, jira, confluence, bitbucket, circleci) = (
        format!("{uri}/api/v3/"),
        format!("{uri}/jira/"),
        format!("{uri}/confluence/"),
        format!("{uri}/bb/"),
        format!("{uri}/api/v2/"),
    );
    let client = connect(env(
        &upstream,
        &[
            ("GITHUB_API_BASE", github.as_str()),
            ("JIRA_BASE_URL", jira.as_str()),
            ("CONFLUENCE_BASE_URL", confluence.as_str()),
            ("BITBUCKET_BASE_URL", bitbucket.as_str()),
            ("CIRCLECI_API_BASE", circleci.as_str()),
            ("CIRCLECI_TOKEN", "circle-token-peer-reports"),
        ],
    ))
    .await;
    for (name, args) in [
        (
            "github_list_workflow_runs",
            json!({"owner": "octo-org", "repo": "octo-repo"}),
        ),
        ("github_get", json!({"path": "/repos/octo-org/octo-repo/commits/abc"})),
        ("jira_get", json!({"path": "/rest/api/2/myself"})),
        ("conf_get", json!({"path": "/rest/api/content"})),
        ("bb_get", json!({"path": "/repositories/ws"})),
        ("circleci_get", json!({"path": "/me"})),
    ] {
        let result = call(&client, name, args.clone()).await;
        assert_eq!(structured(&result)["data"], json!({"ok": true}), "{name} {args}");
    }
    for request in upstream.server().received_requests().await.unwrap() {
        assert!(!request.url.path().contains("//"), "{}", request.url);
    }
    client.cancel().await.unwrap();
}

/// getsentry/sentry-mcp#589 (and the many "Unexpected token … is not valid JSON" reports): a stdio server that
/// prints anything but JSON-RPC on stdout (a log line, a banner, a debug dump) breaks its client. At `trace` level,
/// through successes, upstream errors, a bad `jq` and an unknown tool, every line on stdout is a JSON-RPC message.
#[tokio::test]
async fn stdout_carries_only_json_rpc_even_at_trace_level() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let upstream = RecordedUpstream::github().await.unwrap();
    let mut child = tokio::process::Command::new(common::BIN)
        .env_clear()
        .envs(env(&upstream, &[("RUST_LOG", "trace")]))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let messages = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "github_list_workflow_runs", "arguments": {"owner": "octo-org", "repo": "octo-repo"}}}),
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "github_list_workflow_runs", "arguments": {"owner": "rate-limited", "repo": "octo-repo"}}}),
        json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "github_get", "arguments": {"path": "/repos/octo-org/octo-repo/actions/runs", "jq": ".[] | lenght"}}}),
        json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "no_such_tool", "arguments": {}}}),
        json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "github_get_job_logs", "arguments": {"owner": "octo-org", "repo": "octo-repo", "jobId": JOB}}}),
    ];
    for message in &messages {
        stdin.write_all(format!("{message}\n").as_bytes()).await.unwrap();
    }
    stdin.flush().await.unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut answered = std::collections::BTreeSet::new();
    let read_all = async {
        while answered.len() < 7 {
            let line = lines
                .next_line()
                .await
                .unwrap()
                .expect("the server closed stdout early");
            let value: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line:?}"));
            assert_eq!(value["jsonrpc"], "2.0", "{line}");
            if let Some(id) = value["id"].as_u64() {
                answered.insert(id);
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(60), read_all)
        .await
        .expect("every request answered");
    drop(stdin);
    while let Ok(Some(line)) = lines.next_line().await {
        let value: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line:?}"));
        assert_eq!(value["jsonrpc"], "2.0", "{line}");
    }
}

/// jreleaser/jreleaser#1442 (and github/github-mcp-server#1317, whose text shows the list unformatted): GitHub's
/// `422 Validation Failed` says which field failed and why only in its `errors` list — the search API's whole
/// explanation is there — and a client that keeps `message` alone tells the caller nothing.
#[tokio::test]
async fn a_github_422_names_what_its_errors_list_says() {
    let upstream = RecordedUpstream::start().await;
    let search = r#"{"message":"Validation Failed","errors":[{"message":"The listed users and repositories cannot be searched either because the resources do not exist or you do not have permission to view them.","resource":"Search","field":"q","code":"invalid"}],"documentation_url":"https://docs.github.com/v3/search/","status":"422"}"#;
    serve(
        upstream.server(),
        "/search/issues",
        ResponseTemplate::new(422).set_body_raw(search, "application/json; charset=utf-8"),
    )
    .await;
    let runs = r#"{"message":"Validation Failed","errors":[{"resource":"WorkflowRun","field":"created","code":"invalid","value":"yesterday"}],"documentation_url":"https://docs.github.com/rest/actions/workflow-runs","status":"422"}"#;
    serve(
        upstream.server(),
        "/repos/octo-org/octo-repo/actions/runs",
        ResponseTemplate::new(422).set_body_raw(runs, "application/json; charset=utf-8"),
    )
    .await;
    let client = connect(env(&upstream, &[])).await;
    let result = call(
        &client,
        "github_get",
        json!({"path": "/search/issues", "queryParams": {"q": "repo:octo-org/nope is:issue"}}),
    )
    .await;
    assert_eq!(result.is_error, Some(true));
    assert!(
        text(&result).contains(
            "GitHub API 422 Unprocessable Entity: Validation Failed: The listed users and repositories cannot be searched"
        ),
        "{}",
        text(&result)
    );
    let result = call(
        &client,
        "github_get",
        json!({"path": "/repos/octo-org/octo-repo/actions/runs", "queryParams": {"created": "yesterday"}}),
    )
    .await;
    assert!(
        text(&result).contains(r#"Validation Failed: WorkflowRun.created: invalid ("yesterday") (https://docs.github.com/rest/actions/workflow-runs)"#),
        "{}",
        text(&result)
    );
    client.cancel().await.unwrap();
}

/// renovatebot/renovate#45241: GitHub moved Dependabot alerts (and secret-scanning alerts, the audit log) to cursor
/// pagination — `Link: <…?per_page=2&after=Y3Vy…>; rel="next"`, no page number — and a client that reads only `page`
/// from `rel="next"` stops after the first page, reporting the last. `nextLink` carries the next link (resolved
/// against the request); `nextPage` is `null` there, also when the cursor link still says `page=1` (the audit log's), so a
/// program following `nextPage` never loops on page 1; and the path works as the next call's `path`.
#[tokio::test]
async fn a_cursor_list_continues_with_next_link() {
    let upstream = RecordedUpstream::start().await;
    let uri = upstream.uri();
    let alerts = "/repos/octo-org/octo-repo/dependabot/alerts";
    let cursor = "Y3Vyc29yOnYyOpHOAAAB+A==";
    let encoded = "Y3Vyc29yOnYyOpHOAAAB%2BA%3D%3D";
    Mock::given(method("GET"))
        .and(path(alerts))
        .and(recorded_upstream::wiremock::matchers::query_param("after", cursor))
        .respond_with(json_body(r#"[{"number":3},{"number":4}]"#))
        .with_priority(1)
        .mount(upstream.server())
        .await;
    Mock::given(method("GET"))
        .and(path(alerts))
        .respond_with(json_body(r#"[{"number":1},{"number":2}]"#).insert_header(
            "link",
            format!("<{uri}{alerts}?per_page=2&after={encoded}>; rel=\"next\"").as_str(),
        ))
        .with_priority(2)
        .mount(upstream.server())
        .await;
    let audit = "/orgs/octo-org/audit-log";
    serve(
        upstream.server(),
        audit,
        json_body("[]").insert_header(
            "link",
            format!("<{uri}{audit}?page=1&per_page=100&after=MS42NjQz&before=>; rel=\"next\", <{uri}{audit}?page=1&per_page=100&after=&before=>; rel=\"first\"").as_str(),
        ),
    )
    .await;
    let paged = "/repos/octo-org/octo-repo/pulls";
    serve(
        upstream.server(),
        paged,
        json_body("[]").insert_header(
            "link",
            format!("<{uri}/repositories/42/pulls?page=2>; rel=\"next\"").as_str(),
        ),
    )
    .await;
    let client = connect(env(&upstream, &[])).await;
    let listed = tool(&client, "github_get").await;

    let first = structured(&call(&client, "github_get", json!({"path": alerts, "perPage": 2})).await);
    assert_valid(&listed, &first);
    assert_eq!(first["nextPage"], Value::Null, "{first}");
    let next = first["nextLink"].as_str().expect("nextLink").to_owned();
    assert_eq!(next, format!("{uri}{alerts}?per_page=2&after={encoded}"));
    let second = structured(&call(&client, "github_get", json!({"path": next})).await);
    assert_valid(&listed, &second);
    assert_eq!(
        second,
        json!({"data": [{"number": 3}, {"number": 4}], "nextPage": null, "nextLink": null}),
        "the last page"
    );
    let sent = queries(upstream.server(), alerts).await;
    assert_eq!(
        sent.last()
            .unwrap()
            .iter()
            .filter(|(k, _)| k == "after")
            .map(|(_, v)| v.as_str())
            .collect::<Vec<_>>(),
        [cursor]
    );

    let sc = structured(&call(&client, "github_get", json!({"path": audit})).await);
    assert_eq!(
        sc["nextPage"],
        Value::Null,
        "a cursor link's page=1 is not the next page: {sc}"
    );
    assert_eq!(
        sc["nextLink"],
        json!(format!("{uri}{audit}?page=1&per_page=100&after=MS42NjQz&before="))
    );
    let sc = structured(&call(&client, "github_get", json!({"path": paged})).await);
    assert_eq!(
        (sc["nextPage"].clone(), sc["nextLink"].clone()),
        (json!(2), json!(format!("{uri}/repositories/42/pulls?page=2")))
    );
    assert_valid(&listed, &sc);
    client.cancel().await.unwrap();
}

/// modelcontextprotocol/python-sdk#2349 (and modelcontextprotocol/csharp-sdk#429, modelcontextprotocol/typescript-sdk#1996):
/// the streamable-HTTP server demands an `Accept` naming both `application/json` and `text/event-stream` literally,
/// so Claude.ai's proxy (`Accept: text/event-stream` alone), `*/*`, `text/*` and a missing header get `406`
/// although they accept what the server sends. `Accept` is read as RFC 9110 media ranges: accepted when the
/// answer's type is (an event stream with sessions, JSON without), refused when it is not or has `q=0`.
#[tokio::test]
async fn accept_is_read_as_media_ranges_not_as_two_literal_strings() {
    use common::http::{HttpServer, tokens_file};
    const TOKEN: &str = "peer-reports-accept-token-1";
    async fn start(extra: &[(&str, &str)]) -> HttpServer {
        let dir = tempfile::tempdir().unwrap();
        let tokens = tokens_file(&dir, &[(TOKEN, "alice")]);
        HttpServer::start(
            server_env("http://127.0.0.1:9", extra),
            &["--tokens-file", tokens.to_str().unwrap()],
            dir,
        )
        .await
    }
    let http = reqwest::Client::new();
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "proxy-like", "version": "1"}}});
    let post = |url: String, accept: Option<&'static str>| {
        let mut request = http.post(url).bearer_auth(TOKEN).json(&initialize);
        if let Some(accept) = accept {
            request = request.header("accept", accept);
        }
        async move {
            let answer = request.send().await.unwrap();
            let status = answer.status().as_u16();
            let media = answer
                .headers()
                .get("content-type")
                .map(|v| v.to_str().unwrap().to_owned())
                .unwrap_or_default();
            let body = answer.text().await.unwrap();
            (status, media, body)
        }
    };
    let server = start(&[]).await;
    for accept in [
        Some("text/event-stream"),
        Some("*/*"),
        Some("text/*, application/*"),
        None,
        Some("application/json, text/event-stream"),
    ] {
        let (status, media, body) = post(server.url.clone(), accept).await;
        assert_eq!(status, 200, "{accept:?}: {body}");
        assert!(media.starts_with("text/event-stream"), "{accept:?}: {media}");
        assert!(body.contains("\"serverInfo\""), "{accept:?}: {body}");
    }
    for accept in ["application/json", "text/event-stream;q=0, */*", "image/png"] {
        let (status, _, body) = post(server.url.clone(), Some(accept)).await;
        assert_eq!(status, 406, "{accept}: the answer is an event stream: {body}");
    }

    let stateless = start(&[("MCP_HTTP_STATELESS", "true")]).await;
    for accept in [Some("application/json"), Some("*/*"), None] {
        let (status, media, body) = post(stateless.url.clone(), accept).await;
        assert_eq!(status, 200, "stateless {accept:?}: {body}");
        assert!(media.starts_with("application/json"), "stateless {accept:?}: {media}");
    }
    let (status, _, body) = post(stateless.url.clone(), Some("text/event-stream")).await;
    assert_eq!(status, 406, "stateless answers JSON: {body}");
}
