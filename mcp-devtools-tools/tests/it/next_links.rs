//! Issue 43, point 3: every page continues. Each vendor's documented form of "next" (GitHub's `Link` with a
//! cursor that no page number can hold, CircleCI's `next_page_token`, Jira's `nextPageToken` and `startAt`,
//! Confluence's relative `_links.next`) reaches the program as the envelope's `nextLink`, computed from the
//! unprojected answer (a `jq` that drops the vendor's token does not lose it), and passing it back as `path` gives
//! the next page, in-process (rmcp client over an in-memory pipe → the tools → the recorded upstream).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{Client, assert_valid, call, connect_to_all, listed_tool as schema_of, structured};
use recorded_upstream::RecordedUpstream;
use recorded_upstream::wiremock::matchers::{method, path, query_param, query_param_is_missing};
use recorded_upstream::wiremock::{Mock, ResponseTemplate};
use serde_json::{Value, json};

async fn setup() -> (RecordedUpstream, Client) {
    let upstream = RecordedUpstream::all().await.unwrap();
    let client = connect_to_all(&upstream).await;
    (upstream, client)
}

/// The query of the last request the upstream received on `at`.
async fn last_query(upstream: &RecordedUpstream, at: &str) -> String {
    let requests = upstream.server().received_requests().await.unwrap();
    let request = requests.iter().rev().find(|r| r.url.path() == at).expect("a request");
    request.url.query().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn a_github_cursor_link_continues_where_no_page_number_can() {
    let (upstream, client) = setup().await;
    let at = "/repos/o/r/secret-scanning/alerts";
    // GitHub's cursor paging (`before`/`after`, the form of the secret-scanning and audit-log endpoints).
    let next = format!("{}{at}?per_page=2&after=Y3Vyc29yOnYyOpK0", upstream.uri());
    Mock::given(method("GET"))
        .and(path(at))
        .and(query_param_is_missing("after"))
        .respond_with(
            ResponseTemplate::new(200)
                .insert_header("content-type", "application/json; charset=utf-8")
                .insert_header("link", format!("<{next}>; rel=\"next\"").as_str())
                .set_body_json(json!([{"number": 2}, {"number": 1}])),
        )
        .with_priority(1)
        .mount(upstream.server())
        .await;
    Mock::given(method("GET"))
        .and(path(at))
        .and(query_param("after", "Y3Vyc29yOnYyOpK0"))
        .respond_with(
            ResponseTemplate::new(200)
                .insert_header("content-type", "application/json; charset=utf-8")
                .set_body_json(json!([{"number": 0}])),
        )
        .with_priority(1)
        .mount(upstream.server())
        .await;
    let schema = schema_of(&client, "github_get").await;
    let first = structured(
        &call(
            &client,
            "github_get",
            json!({"path": at, "perPage": 2, "jq": "map(.number)"}),
        )
        .await,
    );
    assert_valid(&schema, &first);
    assert_eq!(first["data"], json!([2, 1]));
    assert_eq!(first["nextPage"], Value::Null, "a cursor is no page number");
    assert_eq!(first["nextLink"], json!(next));
    let second = structured(
        &call(
            &client,
            "github_get",
            json!({"path": first["nextLink"], "jq": "map(.number)"}),
        )
        .await,
    );
    assert_eq!(second["data"], json!([0]));
    assert_eq!(second["nextLink"], Value::Null);
    // A page-number link gives both.
    let runs = structured(
        &call(
            &client,
            "github_get",
            json!({"path": "/repos/octo-org/octo-repo/actions/runs", "perPage": 1}),
        )
        .await,
    );
    assert!(runs["nextPage"].as_u64().is_some(), "{runs}");
    assert!(runs["nextLink"].as_str().unwrap().contains("page="), "{runs}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn tokens_and_start_indexes_survive_a_jq_that_drops_them() {
    let (upstream, client) = setup().await;

    // CircleCI: next_page_token → page-token.
    let schema = schema_of(&client, "circleci_get").await;
    let at = "/project/gh/octo-org/octo-repo/pipeline";
    let first = structured(&call(&client, "circleci_get", json!({"path": at, "jq": ".items | length"})).await);
    assert_valid(&schema, &first);
    assert_eq!(first["data"], 3);
    let link = first["nextLink"].as_str().expect("nextLink").to_owned();
    assert!(
        link.starts_with(&format!("{}/api/v2{at}?page-token=", upstream.uri())),
        "{link}"
    );
    let again = call(&client, "circleci_get", json!({"path": link})).await;
    structured(&again);
    assert!(last_query(&upstream, &format!("/api/v2{at}")).await.starts_with(
        "page-token=AARLwwV0lQ1iYyRy9k9YUPaygRcZ9LtQmFXjyP2TKR0hZ4PMuhTtW5kNsAOxPw7B3fGhLyt1bcm4Hf1pcHyWnqyx"
    ));

    // Jira: nextPageToken (page 1 → page 2, the last), the jql kept.
    let schema = schema_of(&client, "jira_get").await;
    let search = "/rest/api/3/search/jql";
    let first = structured(
        &call(
            &client,
            "jira_get",
            json!({"path": search, "queryParams": {"jql": "project = EX ORDER BY created DESC"}, "jq": "[.issues[].key]"}),
        )
        .await,
    );
    assert_valid(&schema, &first);
    let link = first["nextLink"].as_str().expect("nextLink").to_owned();
    assert!(
        link.contains("jql=project+%3D+EX") && link.contains("nextPageToken="),
        "{link}"
    );
    let second = structured(&call(&client, "jira_get", json!({"path": link, "jq": "[.issues[].key]"})).await);
    assert_ne!(second["data"], first["data"], "page 2 is another page");
    assert_eq!(second["nextLink"], Value::Null, "page 2 is the last (isLast)");

    // Jira: startAt + maxResults against total (the comments of an issue).
    let comments = "/rest/api/3/issue/EX-9/comment";
    Mock::given(method("GET"))
        .and(path(comments))
        .respond_with(
            ResponseTemplate::new(200)
                .insert_header("content-type", "application/json")
                .set_body_json(
                    json!({"startAt": 0, "maxResults": 2, "total": 3, "comments": [{"id": "1"}, {"id": "2"}]}),
                ),
        )
        .with_priority(1)
        .mount(upstream.server())
        .await;
    let page = structured(
        &call(
            &client,
            "jira_get",
            json!({"path": comments, "queryParams": {"maxResults": "2"}, "jq": "[.comments[].id]"}),
        )
        .await,
    );
    assert_eq!(
        page["nextLink"],
        json!(format!("{}{comments}?maxResults=2&startAt=2", upstream.uri()))
    );

    // Confluence v2: a site-relative `_links.next` becomes a URL on the configured host.
    let pages = structured(
        &call(
            &client,
            "conf_get",
            json!({"path": "/api/v2/pages", "jq": "[.results[].id]"}),
        )
        .await,
    );
    let link = pages["nextLink"].as_str().expect("nextLink").to_owned();
    assert!(
        link.starts_with(&format!("{}/wiki/api/v2/pages?cursor=", upstream.uri())),
        "{link}"
    );
    structured(&call(&client, "conf_get", json!({"path": link})).await);
    assert!(last_query(&upstream, "/wiki/api/v2/pages").await.starts_with("cursor="));

    // An answer without paging says so: null, present.
    let issue = structured(
        &call(
            &client,
            "jira_get",
            json!({"path": "/rest/api/3/issue/ED-1", "jq": ".key"}),
        )
        .await,
    );
    assert_eq!(issue.get("nextLink"), Some(&Value::Null));
    client.cancel().await.unwrap();
}
