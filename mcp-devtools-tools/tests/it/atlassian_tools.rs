//! The six Atlassian tools in-process: rmcp client (over an in-memory pipe) → the tools → wiremock serving the
//! Jira, Confluence and Bitbucket fixtures (`recorded_upstream::atlassian`). Path rules, redirects and encoding
//! are covered on the adapter (`adapters-atlassian/tests/client.rs`); here: the results, the contract of reads
//! versus writes, errors, oversized pages, cache clearing by writes, missing settings.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{Client, assert_valid, call, connect, fixture_json, listed_tool, text};
use mcp_devtools_tools::ToolsConfig;
use recorded_upstream::RecordedUpstream;
use recorded_upstream::atlassian::{JIRA_PAGE2_TOKEN, LARGE_SEARCH_ISSUES, created_issue};
use rmcp::model::CallToolResult;
use serde_json::{Value, json};

const EMAIL: &str = "mia@example.com";
const TOKEN: &str = "ATATT-whole-chain-SECRET";

/// GitHub's settings of `common::github_config`, and Jira, Confluence (`/wiki`) and Bitbucket on `upstream` with
/// [`EMAIL`]'s [`TOKEN`]; structured output on.
fn config(upstream: &RecordedUpstream) -> ToolsConfig {
    let uri = upstream.uri();
    common::github_config(&uri)
        .with_structured_output(true)
        .with_atlassian(common::atlassian(&uri, EMAIL, TOKEN))
}

async fn start() -> (RecordedUpstream, Client) {
    let upstream = RecordedUpstream::atlassian().await.unwrap();
    let client = connect(config(&upstream)).await;
    (upstream, client)
}

fn structured(result: &CallToolResult) -> Value {
    assert_ne!(result.is_error, Some(true), "{}", text(result));
    assert!(!text(result).contains(TOKEN));
    result.structured_content.clone().expect("structuredContent")
}

fn assert_error(result: &CallToolResult, includes: &str) {
    assert_eq!(result.is_error, Some(true), "{}", text(result));
    assert!(result.structured_content.is_none());
    let text = text(result);
    assert!(text.contains(includes), "{text}");
    assert!(!text.contains(TOKEN), "{text}");
}

async fn requests(upstream: &RecordedUpstream, verb: &str, path: &str) -> usize {
    upstream
        .server()
        .received_requests()
        .await
        .unwrap()
        .iter()
        .filter(|r| r.method.as_str() == verb && r.url.path() == path)
        .count()
}

#[tokio::test]
async fn six_tools_reads_with_a_schema_writes_text_only() {
    let (_upstream, client) = start().await;
    let tools = client.list_all_tools().await.unwrap();
    let mut seen = 0;
    for product in ["jira", "conf", "bb"] {
        for kind in ["get", "write"] {
            let name = format!("{product}_{kind}");
            let tool = tools.iter().find(|t| t.name == name.as_str()).expect(&name);
            let annotations = tool.annotations.as_ref().unwrap();
            let props = tool.input_schema["properties"].as_object().unwrap();
            assert!(props.contains_key("path") && props.contains_key("jq") && props.contains_key("outputFormat"));
            if kind == "get" {
                assert_eq!(annotations.read_only_hint, Some(true), "{name}");
                assert_eq!(tool.output_schema.as_ref().unwrap()["type"], "object", "{name}");
                assert!(!props.contains_key("body"), "{name}");
            } else {
                assert!(tool.output_schema.is_none(), "{name}: writes never advertise a schema");
                // The spec's defaults (not read-only, destructive, not idempotent, open world): only the title.
                assert!(annotations.title.is_some(), "{name}");
                assert_eq!(annotations.read_only_hint, None, "{name}");
                assert_eq!(annotations.destructive_hint, None, "{name}");
                assert_eq!(annotations.idempotent_hint, None, "{name}");
                assert_eq!(annotations.open_world_hint, None, "{name}");
                assert!(props.contains_key("body"), "{name}");
                assert_eq!(
                    props["method"]["enum"],
                    json!(["POST", "PUT", "PATCH", "DELETE"]),
                    "{name}"
                );
                assert_eq!(tool.input_schema["required"], json!(["method", "path"]), "{name}");
            }
            seen += 1;
        }
    }
    assert_eq!(seen, 6);
    for retired in ["jira_post", "conf_put", "bb_delete"] {
        assert!(tools.iter().all(|t| t.name != retired), "{retired} is not listed");
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_retired_write_tool_is_refused_naming_its_successor() {
    let (upstream, client) = start().await;
    let refused = client
        .call_tool(
            rmcp::model::CallToolRequestParams::new("jira_delete")
                .with_arguments(json!({"path": "/rest/api/3/issue/ED-1"}).as_object().unwrap().clone()),
        )
        .await
        .unwrap_err()
        .to_string();
    assert!(refused.contains("since 0.2 it is jira_write with"), "{refused}");
    assert!(refused.contains("DELETE"), "{refused}");
    assert!(upstream.server().received_requests().await.unwrap().is_empty());
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn jira_search_pages_continue_with_next_page_token() {
    let (upstream, client) = start().await;
    let jira = listed_tool(&client, "jira_get").await;
    let args = json!({"path": "/rest/api/3/search/jql", "outputFormat": "json",
                      "queryParams": {"jql": "project = EX ORDER BY created DESC", "maxResults": "2"}});
    let page1 = call(&client, "jira_get", args).await;
    let value = structured(&page1);
    assert_valid(&jira, &value);
    assert_eq!(value["data"], fixture_json("jira/search-jql-page1"));
    // The same continuation as one URL (issue 43): the request's, with nextPageToken set.
    let next_link = value["nextLink"].as_str().expect("nextLink");
    assert!(
        next_link.starts_with(&format!("{}/rest/api/3/search/jql?jql=project+%3D+EX", upstream.uri()))
            && next_link.ends_with("&nextPageToken=Cg0jSW50Jk1UQXdNRFE9EAIYzJDi4vcxIiJwcm9qZWN0ID0gRVggT1JERVIgQlkgY3JlYXRlZCBERVNDKgJbXQ%3D%3D"),
        "{next_link}"
    );
    assert_eq!(
        serde_json::from_str::<Value>(&text(&page1)).unwrap(),
        value["data"],
        "the text is the bare body"
    );
    let token = value["data"]["nextPageToken"].as_str().unwrap();
    assert_eq!(token, JIRA_PAGE2_TOKEN);
    let page2 = call(
        &client,
        "jira_get",
        json!({"path": "rest/api/3/search/jql", "queryParams": {"nextPageToken": token}, "jq": "{isLast, keys: [.issues[].key]}"}),
    )
    .await;
    let value = structured(&page2);
    assert_valid(&jira, &value);
    assert_eq!(
        value,
        json!({"data": {"isLast": true, "keys": ["EX-1"]}, "nextLink": null})
    );
    let received = upstream.server().received_requests().await.unwrap();
    let auth = &received[0].headers["authorization"];
    assert!(auth.to_str().unwrap().starts_with("Basic "));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn jira_issue_with_adf_and_its_errors() {
    let (_upstream, client) = start().await;
    let issue = structured(&call(&client, "jira_get", json!({"path": "/rest/api/3/issue/ED-1"})).await);
    assert_eq!(issue["data"], fixture_json("jira/issue"));
    assert_eq!(
        issue["data"]["fields"]["description"]["type"], "doc",
        "ADF kept as data"
    );
    let missing = call(&client, "jira_get", json!({"path": "/rest/api/3/issue/EX-404"})).await;
    assert_error(
        &missing,
        r#"Jira API 404 Not Found: {"errorMessages":["Issue does not exist or you do not have permission to see it."],"errors":{}}"#,
    );
    let bad = call(
        &client,
        "jira_get",
        json!({"path": "/rest/api/3/search/jql", "queryParams": {"jql": "universe = 42"}}),
    )
    .await;
    assert_error(
        &bad,
        r#"Jira API 400 Bad Request: {"errorMessages":["Field 'universe' does not exist"#,
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn confluence_pages_next_link_and_storage_body() {
    let (upstream, client) = start().await;
    let conf = listed_tool(&client, "conf_get").await;
    let pages = structured(
        &call(
            &client,
            "conf_get",
            json!({"path": "/wiki/api/v2/pages", "queryParams": {"limit": "3"}}),
        )
        .await,
    );
    assert_valid(&conf, &pages);
    assert_eq!(pages["data"], fixture_json("confluence/pages"));
    let next = pages["data"]["_links"]["next"].as_str().unwrap();
    structured(&call(&client, "conf_get", json!({"path": next})).await);
    let last = upstream.server().received_requests().await.unwrap().pop().unwrap();
    assert_eq!(
        format!("{}?{}", last.url.path(), last.url.query().unwrap()),
        next,
        "one /wiki, cursor intact"
    );
    let page = call(
        &client,
        "conf_get",
        json!({"path": "/wiki/api/v2/pages/7700526", "queryParams": {"body-format": "storage"}, "jq": ".body.storage.value"}),
    )
    .await;
    let value = structured(&page);
    assert_valid(&conf, &value);
    assert!(
        value["data"].as_str().unwrap().starts_with("<ac:structured-macro"),
        "{value}"
    );
    let missing = call(&client, "conf_get", json!({"path": "/wiki/api/v2/pages/1"})).await;
    assert_error(
        &missing,
        r#"{"errors":[{"status":404,"code":"NOT_FOUND","title":"Not Found","detail":null}]}"#,
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn bitbucket_repositories_pull_requests_and_the_text_diff() {
    let (upstream, client) = start().await;
    let bb = listed_tool(&client, "bb_get").await;
    let repos = structured(&call(&client, "bb_get", json!({"path": "/repositories/octo-org"})).await);
    assert_valid(&bb, &repos);
    assert_eq!(repos["data"], fixture_json("bitbucket/repositories"));
    let prs = structured(
        &call(
            &client,
            "bb_get",
            json!({"path": "/2.0/repositories/octo-org/octo-repo/pullrequests", "jq": "[.values[].id]"}),
        )
        .await,
    );
    assert_eq!(prs["data"].as_array().unwrap().len(), 5);
    let diff_text = std::str::from_utf8(recorded_upstream::fixture("bitbucket/diff").unwrap().body).unwrap();
    let diff = call(
        &client,
        "bb_get",
        json!({"path": "/repositories/octo-org/octo-repo/diff/feature..main", "outputFormat": "json"}),
    )
    .await;
    let value = structured(&diff);
    assert_valid(&bb, &value);
    assert_eq!(value["data"], Value::String(diff_text.to_owned()));
    assert_eq!(serde_json::from_str::<Value>(&text(&diff)).unwrap(), value["data"]);
    let length = structured(
        &call(
            &client,
            "bb_get",
            json!({"path": "/repositories/octo-org/octo-repo/diff/feature..main", "jq": "length"}),
        )
        .await,
    );
    assert_eq!(length["data"], json!(diff_text.chars().count()));
    // The body's absolute `next` is on api.bitbucket.org, not the configured base: refused, nothing sent.
    let before = upstream.server().received_requests().await.unwrap().len();
    let foreign = call(&client, "bb_get", json!({"path": repos["data"]["next"]})).await;
    assert_error(&foreign, "refused to call `api.bitbucket.org`");
    assert_eq!(upstream.server().received_requests().await.unwrap().len(), before);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_large_jira_page_over_the_bound_goes_to_an_artifact() {
    let (_upstream, client) = start().await;
    let jira = listed_tool(&client, "jira_get").await;
    let result = call(
        &client,
        "jira_get",
        json!({"path": "/rest/api/3/search/jql", "queryParams": {"jql": "project = EX", "maxResults": "100"}}),
    )
    .await;
    let value = structured(&result);
    assert_valid(&jira, &value);
    assert_eq!(value["data"], Value::Null);
    assert_eq!(value["incomplete"]["reason"], "size");
    assert_eq!(value["incomplete"]["limitBytes"], json!(262_144));
    let id = value["incomplete"]["artifactId"].as_str().unwrap().to_owned();
    let (bytes, _) = common::read_artifact(&client, &id).await;
    assert_eq!(value["incomplete"]["bytes"].as_u64(), Some(bytes.len() as u64));
    let full: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(full["data"]["issues"].as_array().unwrap().len(), LARGE_SEARCH_ISSUES);
    assert_eq!(
        full.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["data", "nextLink"],
        "the artifact is the envelope {{data, nextLink}}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn writes_are_text_only_and_204_gives_an_empty_object() {
    let (upstream, client) = start().await;
    let created = call(
        &client,
        "jira_write",
        json!({"method": "POST", "path": "/rest/api/3/issue", "outputFormat": "json",
               "body": {"fields": {"project": {"key": "EX"}, "summary": "New", "issuetype": {"name": "Task"}}}}),
    )
    .await;
    assert_ne!(created.is_error, Some(true), "{}", text(&created));
    assert!(
        created.structured_content.is_none(),
        "writes never carry structuredContent"
    );
    assert_eq!(serde_json::from_str::<Value>(&text(&created)).unwrap(), created_issue());
    let sent = upstream.server().received_requests().await.unwrap().pop().unwrap();
    assert_eq!(sent.body_json::<Value>().unwrap()["fields"]["summary"], "New");
    for (tool, method, path) in [
        ("jira_write", "PUT", "/rest/api/3/issue/ED-1"),
        ("jira_write", "DELETE", "/rest/api/3/issue/ED-1"),
        ("conf_write", "DELETE", "/wiki/api/v2/pages/7700526"),
        (
            "bb_write",
            "DELETE",
            "/repositories/octo-org/octo-repo/pullrequests/11/approve",
        ),
    ] {
        let mut args = json!({"method": method, "path": path, "outputFormat": "json"});
        if method == "PUT" {
            args["body"] = json!({"fields": {"summary": "Renamed"}});
        }
        let result = call(&client, tool, args).await;
        assert_ne!(result.is_error, Some(true), "{tool}: {}", text(&result));
        assert!(result.structured_content.is_none(), "{tool}");
        assert_eq!(text(&result), "{}", "{tool}: a 204 gives {{}}");
    }
    let approved = call(
        &client,
        "bb_write",
        json!({"method": "POST", "path": "/repositories/octo-org/octo-repo/pullrequests/11/approve", "jq": ".state"}),
    )
    .await;
    assert_eq!(text(&approved), "approved");
    assert!(approved.structured_content.is_none());
    // A jq that fails at run time after the write happened must not look like a failed write.
    let projected = call(
        &client,
        "jira_write",
        json!({"method": "POST", "path": "/rest/api/3/issue", "jq": ".key | error(\"boom\")",
               "body": {"fields": {"summary": "Once"}}}),
    )
    .await;
    assert_ne!(projected.is_error, Some(true), "{}", text(&projected));
    assert!(
        text(&projected).starts_with("The write succeeded (HTTP 201); only the jq projection"),
        "{}",
        text(&projected)
    );
    assert!(text(&projected).contains("boom") && text(&projected).contains("Do not repeat the write"));
    assert_eq!(
        requests(
            &upstream,
            "DELETE",
            "/2.0/repositories/octo-org/octo-repo/pullrequests/11/approve"
        )
        .await,
        1
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_write_clears_that_vendors_cached_reads() {
    let (upstream, client) = start().await;
    for _ in 0..2 {
        structured(&call(&client, "jira_get", json!({"path": "/rest/api/3/myself"})).await);
        structured(&call(&client, "bb_get", json!({"path": "/repositories/octo-org"})).await);
    }
    assert_eq!(
        requests(&upstream, "GET", "/rest/api/3/myself").await,
        1,
        "the second read is cached"
    );
    let deleted = call(
        &client,
        "jira_write",
        json!({"method": "DELETE", "path": "/rest/api/3/issue/ED-1"}),
    )
    .await;
    assert_ne!(deleted.is_error, Some(true), "{}", text(&deleted));
    structured(&call(&client, "jira_get", json!({"path": "/rest/api/3/myself"})).await);
    structured(&call(&client, "bb_get", json!({"path": "/repositories/octo-org"})).await);
    assert_eq!(
        requests(&upstream, "GET", "/rest/api/3/myself").await,
        2,
        "the Jira write cleared Jira's entry"
    );
    assert_eq!(
        requests(&upstream, "GET", "/2.0/repositories/octo-org").await,
        1,
        "Bitbucket's entry stays"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_missing_setting_fails_only_that_tool_naming_it_and_sends_nothing() {
    let upstream = RecordedUpstream::atlassian().await.unwrap();
    let uri = upstream.uri();
    let atlassian = common::atlassian(&uri, EMAIL, TOKEN)
        .with_jira_base_url(None)
        .with_confluence_base_url(None);
    let client = connect(
        common::github_config(&uri)
            .with_structured_output(true)
            .with_atlassian(atlassian),
    )
    .await;
    let jira = call(&client, "jira_get", json!({"path": "/rest/api/3/myself"})).await;
    assert_error(&jira, "Jira is not configured: ATLASSIAN_SITE_NAME not set");
    assert_error(&jira, "JIRA_BASE_URL");
    let conf = call(
        &client,
        "conf_write",
        json!({"method": "POST", "path": "/wiki/api/v2/pages", "body": {}}),
    )
    .await;
    assert_error(&conf, "CONFLUENCE_BASE_URL");
    assert!(
        upstream.server().received_requests().await.unwrap().is_empty(),
        "nothing was sent"
    );
    let bb = call(&client, "bb_get", json!({"path": "/repositories/octo-org"})).await;
    structured(&bb);
    client.cancel().await.unwrap();

    let atlassian = adapters_atlassian::AtlassianConfig::default()
        .with_bitbucket_base_url(uri.as_str())
        .with_bitbucket_username(Some("octocat".to_owned()))
        .with_setting_names(common::atlassian_names());
    let client = connect(common::github_config(&uri).with_atlassian(atlassian)).await;
    let bb = call(&client, "bb_get", json!({"path": "/repositories/octo-org"})).await;
    assert_error(&bb, "ATLASSIAN_BITBUCKET_APP_PASSWORD not set");
    assert_eq!(upstream.server().received_requests().await.unwrap().len(), 1);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn bad_arguments_are_clear_errors() {
    let (upstream, client) = start().await;
    let cases = [
        ("jira_get", json!({}), "path"),
        ("jira_get", json!({"path": "/x", "body": {}}), "body"),
        ("bb_get", json!({"path": "/x", "jq": ".["}), "jq"),
        (
            "conf_write",
            json!({"method": "DELETE", "path": "/x", "body": {}}),
            "a DELETE sends no body",
        ),
        ("jira_write", json!({"path": "/x"}), "method"),
        ("jira_write", json!({"method": "GET", "path": "/x"}), "method"),
        ("jira_get", json!({"path": "  "}), "must not be empty"),
    ];
    for (tool, args, includes) in cases {
        assert_error(&call(&client, tool, args).await, includes);
    }
    assert!(upstream.server().received_requests().await.unwrap().is_empty());
    client.cancel().await.unwrap();
}
