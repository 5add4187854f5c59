//! Issue 44, point 2: Jira, Confluence and Bitbucket Data Center through the whole chain: rmcp client (in-memory
//! pipe) → the tools → the adapter → `recorded_upstream::atlassian_dc` (wiremock serving the answers of Atlassian's
//! Data Center REST documentation, each product under its own context path, answering only the access token).
//! Each product: its own paths (Jira REST v2, Confluence without `/wiki`, Bitbucket `/rest/api/1.0`), its paging
//! (`startAt`, `_links.next` under the context, `nextPageStart`) one page and `allPages`, its error body, the token
//! as Bearer and never in a result; and the settings that cannot work refused before anything is sent.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use adapters_atlassian::Deployment;
use adapters_http::Secret;
use common::{Client, assert_valid, call, connect, listed_tool, text};
use mcp_devtools_tools::ToolsConfig;
use recorded_upstream::RecordedUpstream;
use recorded_upstream::atlassian_dc::{BB_REPO, DC_TOKEN};
use rmcp::model::CallToolResult;
use serde_json::{Value, json};

/// The three products as Data Center on `upstream`, each with [`DC_TOKEN`] as its access token; structured output on.
fn config(upstream: &RecordedUpstream) -> ToolsConfig {
    let uri = upstream.uri();
    let atlassian = adapters_atlassian::AtlassianConfig::default()
        .with_jira_base_url(Some(format!("{uri}/jira")))
        .with_confluence_base_url(Some(format!("{uri}/confluence")))
        .with_bitbucket_base_url(format!("{uri}/bitbucket"))
        .with_jira_deployment(Deployment::DataCenter)
        .with_confluence_deployment(Deployment::DataCenter)
        .with_bitbucket_deployment(Deployment::DataCenter)
        .with_jira_personal_token(Some(Secret::new(DC_TOKEN)))
        .with_confluence_personal_token(Some(Secret::new(DC_TOKEN)))
        .with_bitbucket_access_token(Some(Secret::new(DC_TOKEN)))
        .with_setting_names(common::atlassian_names());
    common::unconfigured()
        .with_structured_output(true)
        .with_atlassian(atlassian)
}

async fn start() -> (RecordedUpstream, Client) {
    let upstream = RecordedUpstream::atlassian_data_center().await.unwrap();
    let client = connect(config(&upstream)).await;
    (upstream, client)
}

/// The structured content of a successful read, checked against `tool`'s `outputSchema`.
async fn read(client: &Client, tool: &str, args: Value) -> Value {
    let result = call(client, tool, args.clone()).await;
    assert_ne!(result.is_error, Some(true), "{tool} {args}: {}", text(&result));
    assert!(!text(&result).contains(DC_TOKEN));
    let value = result.structured_content.clone().expect("structuredContent");
    assert_valid(&listed_tool(client, tool).await, &value);
    value
}

fn assert_error(result: &CallToolResult, includes: &[&str]) {
    assert_eq!(result.is_error, Some(true), "{}", text(result));
    let text = text(result);
    for part in includes {
        assert!(text.contains(part), "{part:?} not in {text}");
    }
    assert!(!text.contains(DC_TOKEN), "{text}");
}

/// Every request the upstream received carried the token as Bearer, and no other credential.
async fn assert_all_bearer(upstream: &RecordedUpstream) {
    let requests = upstream.server().received_requests().await.unwrap();
    assert!(!requests.is_empty());
    for request in requests {
        let auth = request
            .headers
            .get("authorization")
            .map(|v| v.to_str().unwrap().to_owned());
        assert_eq!(
            auth.as_deref(),
            Some(format!("Bearer {DC_TOKEN}").as_str()),
            "{}",
            request.url
        );
    }
}

fn keys(list: &Value, field: &str) -> Vec<Value> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|item| item[field].clone())
        .collect()
}

#[tokio::test]
async fn jira_data_center_reads_rest_v2_pages_by_start_at_and_keeps_its_error_body() {
    let (upstream, client) = start().await;
    let issue = read(&client, "jira_get", json!({"path": "/rest/api/2/issue/EX-1"})).await;
    assert_eq!(issue["data"]["key"], "EX-1");
    assert_eq!(
        issue["data"]["self"],
        "http://www.example.com/jira/rest/api/2/issue/10002"
    );

    // One page: the next one by startAt, as a link that works as `path`.
    let search = json!({"path": "/rest/api/2/search", "queryParams": {"jql": "project = HSP", "maxResults": "2"}});
    let first = read(&client, "jira_get", search.clone()).await;
    assert_eq!(keys(&first["data"]["issues"], "key"), [json!("HSP-1"), json!("HSP-2")]);
    let next = first["nextLink"].as_str().expect("nextLink").to_owned();
    assert!(
        next.starts_with(&format!("{}/jira/rest/api/2/search?", upstream.uri())) && next.contains("startAt=2"),
        "{next}"
    );
    let second = read(&client, "jira_get", json!({"path": next})).await;
    assert_eq!(keys(&second["data"]["issues"], "key"), [json!("HSP-3")]);
    assert_eq!(second["nextLink"], Value::Null);

    // Every page in one call: the issues merged, the total kept.
    let mut all = search.clone();
    all["allPages"] = json!(10);
    let merged = read(&client, "jira_get", all).await;
    assert_eq!(
        keys(&merged["data"]["issues"], "key"),
        [json!("HSP-1"), json!("HSP-2"), json!("HSP-3")]
    );
    assert_eq!(merged["data"]["total"], 3);
    assert_eq!(
        merged["pages"],
        json!({"read": 2, "stoppedBy": "last_page", "error": null})
    );

    let bad = json!({"path": "/rest/api/2/search", "queryParams": {"jql": "priority = Blocker AND x"}});
    assert_error(
        &call(&client, "jira_get", bad).await,
        &[
            "400",
            r#"{"errorMessages":["Field 'priority' is required"],"errors":{}}"#,
        ],
    );
    assert_all_bearer(&upstream).await;
}

#[tokio::test]
async fn confluence_data_center_has_no_wiki_prefix_and_pages_under_its_context_path() {
    let (upstream, client) = start().await;
    // A Cloud-style path loses its /wiki; the base's context path (/confluence) is kept.
    for path in ["/rest/api/content/1234", "/wiki/rest/api/content/1234"] {
        let page = read(&client, "conf_get", json!({"path": path})).await;
        assert_eq!(page["data"]["id"], "1234", "{path}");
        assert_eq!(page["data"]["title"], "Example Content title");
    }
    let list = json!({"path": "/rest/api/content", "queryParams": {"limit": "2"}});
    let first = read(&client, "conf_get", list.clone()).await;
    // `_links.next` is relative to the server's context; the link continues under the configured base.
    assert_eq!(
        first["nextLink"].as_str(),
        Some(format!("{}/confluence/rest/api/content?limit=2&start=2", upstream.uri()).as_str())
    );
    // Two pages (the documentation's pagination example goes on past them): both merged, the way on kept.
    let mut all = list;
    all["allPages"] = json!(2);
    let merged = read(&client, "conf_get", all).await;
    assert_eq!(merged["data"]["results"].as_array().unwrap().len(), 4, "{merged}");
    assert_eq!(
        merged["pages"],
        json!({"read": 2, "stoppedBy": "max_pages", "error": null})
    );
    assert_eq!(
        merged["nextLink"].as_str(),
        Some(format!("{}/confluence/rest/api/content?limit=2&start=4", upstream.uri()).as_str())
    );
    let paths: Vec<String> = upstream
        .server()
        .received_requests()
        .await
        .unwrap()
        .iter()
        .map(|r| r.url.path().to_owned())
        .collect();
    assert!(
        paths.iter().all(|p| p.starts_with("/confluence/rest/api/content")),
        "{paths:?}"
    );
    assert_all_bearer(&upstream).await;
}

#[tokio::test]
async fn bitbucket_data_center_pull_requests_build_status_writes_and_errors() {
    let (upstream, client) = start().await;
    // A path not under /rest/ gets /rest/api/1.0; pages continue with start={nextPageStart}.
    let prs = json!({"path": "/projects/PRJ/repos/my-repo/pull-requests"});
    let first = read(&client, "bb_get", prs.clone()).await;
    assert_eq!(keys(&first["data"]["values"], "id"), [json!(1)]);
    assert_eq!(
        first["nextLink"].as_str(),
        Some(format!("{}{BB_REPO}/pull-requests?start=1", upstream.uri()).as_str())
    );
    let mut all = prs;
    all["allPages"] = json!(10);
    let merged = read(&client, "bb_get", all).await;
    assert_eq!(keys(&merged["data"]["values"], "id"), [json!(1), json!(2)]);
    assert_eq!(merged["data"]["isLastPage"], true);
    assert_eq!(
        merged["pages"],
        json!({"read": 2, "stoppedBy": "last_page", "error": null})
    );

    let pr = read(
        &client,
        "bb_get",
        json!({"path": format!("/rest/api/1.0/projects/PRJ/repos/my-repo/pull-requests/1")}),
    )
    .await;
    assert_eq!(pr["data"]["title"], "Talking Nerdy");
    // The build status API is not under /rest/api/1.0: a /rest/ path is used as given. A jq picks the failed builds.
    let failed = read(
        &client,
        "bb_get",
        json!({
            "path": "/rest/build-status/1.0/commits/9f2bd4e5a1b3c7d8e9f0a1b2c3d4e5f6a7b8c9d0",
            "jq": "[.values[] | select(.state == \"FAILED\") | .key]"
        }),
    )
    .await;
    assert_eq!(failed["data"], json!(["TEST-REP3"]));

    // A write: POST a comment; the upstream echoes the text, token included, which never reaches the result.
    let comment = format!("build failed, see logs (token {DC_TOKEN})");
    let written = call(
        &client,
        "bb_write",
        json!({
            "method": "POST",
            "path": "/projects/PRJ/repos/my-repo/pull-requests/1/comments",
            "body": {"text": comment}
        }),
    )
    .await;
    assert_ne!(written.is_error, Some(true), "{}", text(&written));
    let written = text(&written);
    assert!(
        written.contains("[redacted BITBUCKET_ACCESS_TOKEN]") && !written.contains(DC_TOKEN),
        "{written}"
    );

    // Bitbucket Data Center's error body, verbatim.
    let missing = call(&client, "bb_get", json!({"path": "/projects/PRJ/repos/nope"})).await;
    assert_error(
        &missing,
        &[
            "404",
            r#"{"errors":[{"context":null,"message":"A detailed error message.","exceptionName":null}]}"#,
        ],
    );
    assert_all_bearer(&upstream).await;
}

#[tokio::test]
async fn without_the_token_each_product_answers_401_in_its_own_form() {
    const WRONG: &str = "wrong-token-0123456789";
    let upstream = RecordedUpstream::atlassian_data_center().await.unwrap();
    let mut config = config(&upstream);
    config.atlassian = config
        .atlassian
        .with_jira_personal_token(Some(Secret::new(WRONG)))
        .with_confluence_personal_token(Some(Secret::new(WRONG)))
        .with_bitbucket_access_token(Some(Secret::new(WRONG)));
    let client = connect(config).await;
    for (tool, path, said, setting) in [
        (
            "jira_get",
            "/rest/api/2/issue/EX-1",
            "You are not authenticated",
            "JIRA_PERSONAL_TOKEN",
        ),
        (
            "conf_get",
            "/rest/api/content/1234",
            "This request requires authentication",
            "CONFLUENCE_PERSONAL_TOKEN",
        ),
        (
            "bb_get",
            "/projects/PRJ/repos/my-repo/pull-requests",
            "Authentication failed",
            "BITBUCKET_ACCESS_TOKEN",
        ),
    ] {
        let refused = call(&client, tool, json!({"path": path})).await;
        assert_error(&refused, &["401", said, setting]);
        assert!(!text(&refused).contains(WRONG), "{tool}");
    }
}

#[tokio::test]
async fn settings_that_cannot_work_are_refused_naming_them_and_nothing_is_sent() {
    let upstream = RecordedUpstream::atlassian_data_center().await.unwrap();
    let uri = upstream.uri();
    // A personal access token for Jira Cloud; Data Center Confluence without its base URL.
    let atlassian = adapters_atlassian::AtlassianConfig::default()
        .with_jira_base_url(Some(format!("{uri}/jira")))
        .with_jira_personal_token(Some(Secret::new(DC_TOKEN)))
        .with_confluence_deployment(Deployment::DataCenter)
        .with_site_name(Some("your-domain".into()))
        .with_confluence_personal_token(Some(Secret::new(DC_TOKEN)))
        .with_setting_names(common::atlassian_names());
    let client = connect(
        common::unconfigured()
            .with_structured_output(true)
            .with_atlassian(atlassian),
    )
    .await;
    let jira = call(&client, "jira_get", json!({"path": "/rest/api/2/issue/EX-1"})).await;
    assert_error(
        &jira,
        &[
            "JIRA_PERSONAL_TOKEN",
            "set JIRA_DEPLOYMENT to data-center",
            "ATLASSIAN_USER_EMAIL and ATLASSIAN_API_TOKEN",
        ],
    );
    let confluence = call(&client, "conf_get", json!({"path": "/rest/api/content/1234"})).await;
    assert_error(
        &confluence,
        &[
            "CONFLUENCE_BASE_URL not set",
            "CONFLUENCE_DEPLOYMENT is data-center, which has no site",
        ],
    );
    assert!(upstream.server().received_requests().await.unwrap().is_empty());
}
