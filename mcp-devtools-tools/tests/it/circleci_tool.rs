//! `circleci_get` in-process (rmcp client over an in-memory pipe) → wiremock serving the CircleCI fixtures, with
//! request counts checked by wiremock expectations. The clock-driven cache rules (expiry, age) are tested on the
//! adapter with an injected clock (`adapters-circleci/tests/it/cache.rs`); principals are varied through the
//! embedding entry (`DevtoolsServer::call_tool_as`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{assert_valid, call, connect, fixture_json, structured, text};
use mcp_devtools_tools::{Principal, ToolsConfig};
use recorded_upstream::RecordedUpstream;
use recorded_upstream::wiremock::matchers::{header, method, path};
use recorded_upstream::wiremock::{Mock, ResponseTemplate};
use rmcp::model::{CallToolRequestParams, CallToolResult, Tool};
use serde_json::{Value, json};

const TOOL: &str = "circleci_get";
const TOKEN: &str = "cci-test-token";

/// GitHub's settings of `common::github_config`, and CircleCI at `<uri>/api/v2` with `token`; structured output on.
fn config_with(upstream: &RecordedUpstream, token: Option<&str>) -> ToolsConfig {
    let base = format!("{}/api/v2", upstream.uri());
    common::github_config(&upstream.uri())
        .with_structured_output(true)
        .with_circleci(common::circleci(&base, token))
}

fn config(upstream: &RecordedUpstream) -> ToolsConfig {
    config_with(upstream, Some(TOKEN))
}

async fn mount(upstream: &RecordedUpstream, route: &str, response: ResponseTemplate, times: u64) {
    Mock::given(method("GET"))
        .and(path(route))
        .and(header("circle-token", TOKEN))
        .respond_with(response)
        .expect(times)
        .mount(upstream.server())
        .await;
}

fn fixture(name: &str) -> ResponseTemplate {
    recorded_upstream::fixture(name).unwrap().response()
}

fn assert_error(result: &CallToolResult, includes: &str) {
    assert_eq!(result.is_error, Some(true));
    assert!(result.structured_content.is_none());
    let text = text(result);
    assert!(text.contains(includes), "{text}");
    assert!(!text.contains(TOKEN), "{text}");
}

async fn circleci_tool(client: &common::Client) -> Tool {
    let tools = client.list_all_tools().await.unwrap();
    let tool = tools
        .into_iter()
        .find(|t| t.name == TOOL)
        .expect("circleci_get is listed");
    assert_eq!(tool.annotations.as_ref().unwrap().read_only_hint, Some(true));
    tool
}

#[tokio::test]
async fn second_identical_call_is_a_hit_and_upstream_is_asked_once() {
    let upstream = RecordedUpstream::start().await;
    mount(&upstream, "/api/v2/me", fixture("circleci/me"), 1).await;
    let client = connect(config(&upstream)).await;
    let tool = circleci_tool(&client).await;

    let first = structured(&call(&client, TOOL, json!({"path": "/me"})).await);
    assert_valid(&tool, &first);
    assert_eq!(first["data"], fixture_json("circleci/me"));
    assert_eq!(first["cache"]["hit"], json!(false));
    assert_eq!(first["cache"]["ageMs"], json!(0));
    let fetched_at = first["cache"]["fetchedAt"].as_str().unwrap().to_owned();
    assert!(common::is_rfc3339_millis_utc(&fetched_at), "{fetched_at}");

    let second = structured(&call(&client, TOOL, json!({"path": "/api/v2/me"})).await);
    assert_valid(&tool, &second);
    assert_eq!(second["cache"]["hit"], json!(true));
    assert_eq!(second["cache"]["fetchedAt"], json!(fetched_at));
    assert!(second["cache"]["ageMs"].as_u64().is_some());
    assert_eq!(second["data"], first["data"]);
    client.cancel().await.unwrap();
    upstream.server().verify().await;
}

#[tokio::test]
async fn fresh_bypasses_the_cache_and_replaces_the_entry() {
    let upstream = RecordedUpstream::start().await;
    mount(&upstream, "/api/v2/me", fixture("circleci/me"), 2).await;
    let client = connect(config(&upstream)).await;
    call(&client, TOOL, json!({"path": "/me"})).await;
    let fresh = structured(&call(&client, TOOL, json!({"path": "/me", "fresh": true})).await);
    assert_eq!(fresh["cache"]["hit"], json!(false));
    assert_eq!(fresh["cache"]["ageMs"], json!(0));
    let after = structured(&call(&client, TOOL, json!({"path": "/me"})).await);
    assert_eq!(after["cache"]["hit"], json!(true));
    assert_eq!(after["cache"]["fetchedAt"], fresh["cache"]["fetchedAt"]);
    client.cancel().await.unwrap();
    upstream.server().verify().await;
}

#[tokio::test]
async fn no_store_and_state_paths_are_never_cached() {
    let upstream = RecordedUpstream::start().await;
    mount(
        &upstream,
        "/api/v2/me",
        fixture("circleci/me").insert_header("cache-control", "no-store"),
        2,
    )
    .await;
    let routes = [
        ("/api/v2/project/gh/o/r/pipeline", "circleci/pipelines"),
        ("/api/v2/pipeline/5034460f/workflow", "circleci/pipeline-workflows"),
        ("/api/v2/workflow/fda08377/job", "circleci/workflow-jobs"),
    ];
    for (route, name) in routes {
        mount(&upstream, route, fixture(name), 2).await;
    }
    let client = connect(config(&upstream)).await;
    for route in ["/api/v2/me", routes[0].0, routes[1].0, routes[2].0] {
        for _ in 0..2 {
            let result = structured(&call(&client, TOOL, json!({"path": route})).await);
            assert_eq!(result["cache"]["hit"], json!(false), "{route}");
        }
    }
    client.cancel().await.unwrap();
    upstream.server().verify().await;
}

#[tokio::test]
async fn a_404_is_an_error_result_not_cached_and_a_later_200_is_a_miss() {
    let upstream = RecordedUpstream::start().await;
    Mock::given(method("GET"))
        .and(path("/api/v2/project/gh/o/r"))
        .respond_with(fixture("circleci/error-404"))
        .up_to_n_times(1)
        .expect(1)
        .with_priority(1)
        .mount(upstream.server())
        .await;
    mount(&upstream, "/api/v2/project/gh/o/r", fixture("circleci/me"), 1).await;
    let client = connect(config(&upstream)).await;
    let err = call(&client, TOOL, json!({"path": "/project/gh/o/r"})).await;
    assert_error(&err, "CircleCI API 404 Not Found: Project not found");
    let ok = structured(&call(&client, TOOL, json!({"path": "/project/gh/o/r"})).await);
    assert_eq!(ok["cache"]["hit"], json!(false));
    client.cancel().await.unwrap();
    upstream.server().verify().await;
}

#[tokio::test]
async fn jq_projects_data_and_query_params_reach_upstream_encoded_once() {
    let upstream = RecordedUpstream::start().await;
    let token = "AARL+wV0/lQ1i==";
    Mock::given(method("GET"))
        .and(path("/api/v2/project/gh/o/r/pipeline"))
        .and(recorded_upstream::wiremock::matchers::query_param("page-token", token))
        .respond_with(fixture("circleci/pipelines"))
        .expect(1)
        .mount(upstream.server())
        .await;
    let client = connect(config(&upstream)).await;
    let tool = circleci_tool(&client).await;
    let result = call(
        &client,
        TOOL,
        json!({"path": "/project/gh/o/r/pipeline", "queryParams": {"page-token": token},
               "jq": "[.items[] | .number]", "outputFormat": "json"}),
    )
    .await;
    let value = structured(&result);
    assert_valid(&tool, &value);
    assert_eq!(value["data"], json!([25, 24, 23]));
    assert_eq!(serde_json::from_str::<Value>(&text(&result)).unwrap(), value);
    client.cancel().await.unwrap();
    upstream.server().verify().await;
}

#[tokio::test]
async fn oversized_results_keep_cache_meta_and_go_to_an_artifact() {
    let upstream = RecordedUpstream::circleci().await.unwrap();
    let client = connect(common::with_max_bytes(config(&upstream), 16384)).await;
    let tool = circleci_tool(&client).await;
    let value = structured(&call(&client, TOOL, json!({"path": "/project/gh/octo-org/busy/pipeline"})).await);
    assert_valid(&tool, &value);
    assert_eq!(value["data"], Value::Null);
    assert_eq!(value["incomplete"]["reason"], "size");
    assert!(value["incomplete"]["artifactId"].is_string());
    assert_eq!(value["cache"]["hit"], json!(false));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn missing_token_bad_path_and_body_cap_are_clear_errors_with_nothing_or_little_sent() {
    let upstream = RecordedUpstream::start().await;
    mount(
        &upstream,
        "/api/v2/project/gh/o/r/pipeline",
        fixture("circleci/pipelines"),
        1,
    )
    .await;
    let no_token = connect(config_with(&upstream, None)).await;
    assert_error(
        &call(&no_token, TOOL, json!({"path": "/me"})).await,
        "CIRCLECI_TOKEN is not set",
    );
    no_token.cancel().await.unwrap();

    let capped = connect(common::with_max_body(config(&upstream), 1024)).await;
    assert_error(
        &call(&capped, TOOL, json!({"path": "/project/gh/o/r/pipeline"})).await,
        "larger than 1024 bytes (setting HTTP_MAX_BODY_BYTES)",
    );
    assert_error(
        &call(&capped, TOOL, json!({"path": "https://example.com/api/v2/me"})).await,
        "refused to call `example.com`",
    );
    assert_error(
        &call(&capped, TOOL, json!({"path": "/../../etc"})).await,
        "must not contain `.` or `..` segments",
    );
    assert_error(
        &call(&capped, TOOL, json!({"queryParams": {}})).await,
        "missing field `path`",
    );
    capped.cancel().await.unwrap();
    upstream.server().verify().await;
}

#[tokio::test]
async fn two_principals_never_share_an_entry() {
    let upstream = RecordedUpstream::start().await;
    mount(&upstream, "/api/v2/me", fixture("circleci/me"), 2).await;
    let base = format!("{}/api/v2", upstream.uri());
    let config = common::unconfigured()
        .with_structured_output(true)
        .with_circleci(common::circleci(&base, Some(TOKEN)));
    let server = common::server(config).await;
    let hit = async |principal: &Principal| {
        let request =
            CallToolRequestParams::new(TOOL).with_arguments(json!({"path": "/me"}).as_object().cloned().unwrap());
        structured(&server.call_tool_as(principal, request).await.expect("known tool"))["cache"]["hit"].clone()
    };
    let alice = Principal::named("alice");
    let bob = Principal::named("bob");
    assert_eq!(hit(&alice).await, json!(false));
    assert_eq!(hit(&bob).await, json!(false));
    assert_eq!(hit(&alice).await, json!(true));
    assert_eq!(hit(&bob).await, json!(true));
    upstream.server().verify().await;
}
