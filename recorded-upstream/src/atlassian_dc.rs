//! The recorded Atlassian Data Center scenario: Jira, Confluence and Bitbucket Data Center on one server, each
//! under its own context path, with the answers of Atlassian's Data Center REST documentation (`fixtures/*/dc/`,
//! see `fixtures/SOURCES.md`). Point `JIRA_BASE_URL` at `<uri>/jira`, `CONFLUENCE_BASE_URL` at `<uri>/confluence`
//! and `BITBUCKET_BASE_URL` at `<uri>/bitbucket`, each product's deployment `data-center`. Every route answers
//! only a request carrying `Authorization: Bearer` [`DC_TOKEN`] (a personal or HTTP access token); any other
//! request gets `401` with the product's own error body, as a Data Center server does.
//!
//! Routes (`{repo}` is `/bitbucket/rest/api/1.0/projects/PRJ/repos/my-repo`):
//! - Jira REST v2: `GET /jira/rest/api/2/issue/EX-1` → `jira/dc/issue`, any other issue → `jira/dc/error-404`;
//!   `GET /jira/rest/api/2/search` → `jira/dc/search-page1` (`startAt` 0, 2 of `total` 3), with `startAt=2` →
//!   `jira/dc/search-page2` (the last); with a `jql` naming `priority = Blocker` → `jira/dc/error-400`.
//! - Confluence: `GET /confluence/rest/api/content/1234` → `confluence/dc/page`; `GET /confluence/rest/api/content`
//!   → `confluence/dc/content-list` (`_links.next` relative to the context), with `start=2` →
//!   `confluence/dc/content-list-page2` (the last).
//! - Bitbucket: `GET {repo}/pull-requests` → `bitbucket/dc/pull-requests-page1` (`isLastPage: false`,
//!   `nextPageStart`), with `start=`[`BB_PAGE2_START`] → `bitbucket/dc/pull-requests-page2`;
//!   `GET {repo}/pull-requests/1` → `bitbucket/dc/pull-request`;
//!   `GET /bitbucket/rest/build-status/1.0/commits/{sha}` → `bitbucket/dc/build-status`;
//!   `POST {repo}/pull-requests/1/comments` → `201` [`dc_comment`]; any other path under `/bitbucket/rest/` →
//!   `bitbucket/dc/error-404`.

use serde_json::{Value, json};
use wiremock::matchers::{header, method, path, path_regex, query_param, query_param_contains};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::fixture::fixture;

/// The access token the scenario accepts (as `Authorization: Bearer`).
pub const DC_TOKEN: &str = "NjQ2OTk0OTk2NzU1OqcLgrSDlx1Q-dc-SECRET";

/// The `nextPageStart` of `bitbucket/dc/pull-requests-page1`: sent back as `start`, it gives page 2.
pub const BB_PAGE2_START: &str = "1";

/// The repository path of the Bitbucket routes.
pub const BB_REPO: &str = "/bitbucket/rest/api/1.0/projects/PRJ/repos/my-repo";

/// The answer to `POST {repo}/pull-requests/1/comments` with `{"text": ...}`: the comment as Bitbucket Data
/// Center returns it (the shape of its REST documentation's comment example), the text echoed.
pub fn dc_comment(text: &str) -> Value {
    json!({
        "properties": {"repositoryId": 84},
        "id": 42,
        "version": 0,
        "text": text,
        "author": {"name": "jcitizen", "emailAddress": "jane@example.com", "id": 101, "displayName": "Jane Citizen",
                   "active": true, "slug": "jcitizen", "type": "NORMAL"},
        "createdDate": 1_359_075_920,
        "updatedDate": 1_359_085_920,
        "comments": [],
        "tasks": []
    })
}

fn json_response(name: &str, status: u16) -> anyhow::Result<ResponseTemplate> {
    let fixture = fixture(name)?;
    Ok(ResponseTemplate::new(status).set_body_raw(fixture.body.to_vec(), "application/json;charset=UTF-8"))
}

/// Mounts the scenario on `server`.
///
/// # Errors
/// A fixture that does not load or parse.
pub async fn mount(server: &MockServer) -> anyhow::Result<()> {
    let bearer = format!("Bearer {DC_TOKEN}");
    let authorized = |mock: wiremock::MockBuilder| mock.and(header("authorization", bearer.as_str()));
    let routes: Vec<(wiremock::MockBuilder, &str, u16, u8)> = vec![
        (
            Mock::given(method("GET")).and(path("/jira/rest/api/2/issue/EX-1")),
            "jira/dc/issue",
            200,
            1,
        ),
        (
            Mock::given(method("GET")).and(path_regex("^/jira/rest/api/2/issue/[^/]+$")),
            "jira/dc/error-404",
            404,
            5,
        ),
        (
            Mock::given(method("GET"))
                .and(path("/jira/rest/api/2/search"))
                .and(query_param_contains("jql", "priority = Blocker")),
            "jira/dc/error-400",
            400,
            1,
        ),
        (
            Mock::given(method("GET"))
                .and(path("/jira/rest/api/2/search"))
                .and(query_param("startAt", "2")),
            "jira/dc/search-page2",
            200,
            2,
        ),
        (
            Mock::given(method("GET")).and(path("/jira/rest/api/2/search")),
            "jira/dc/search-page1",
            200,
            5,
        ),
        (
            Mock::given(method("GET")).and(path("/confluence/rest/api/content/1234")),
            "confluence/dc/page",
            200,
            1,
        ),
        (
            Mock::given(method("GET"))
                .and(path("/confluence/rest/api/content"))
                .and(query_param("start", "2")),
            "confluence/dc/content-list-page2",
            200,
            2,
        ),
        (
            Mock::given(method("GET")).and(path("/confluence/rest/api/content")),
            "confluence/dc/content-list",
            200,
            5,
        ),
        (
            Mock::given(method("GET"))
                .and(path(format!("{BB_REPO}/pull-requests")))
                .and(query_param("start", BB_PAGE2_START)),
            "bitbucket/dc/pull-requests-page2",
            200,
            2,
        ),
        (
            Mock::given(method("GET")).and(path(format!("{BB_REPO}/pull-requests"))),
            "bitbucket/dc/pull-requests-page1",
            200,
            5,
        ),
        (
            Mock::given(method("GET")).and(path(format!("{BB_REPO}/pull-requests/1"))),
            "bitbucket/dc/pull-request",
            200,
            1,
        ),
        (
            Mock::given(method("GET")).and(path_regex("^/bitbucket/rest/build-status/1.0/commits/[0-9a-f]{7,40}$")),
            "bitbucket/dc/build-status",
            200,
            1,
        ),
        (
            Mock::given(method("GET")).and(path_regex("^/bitbucket/rest/")),
            "bitbucket/dc/error-404",
            404,
            9,
        ),
    ];
    for (mock, name, status, priority) in routes {
        authorized(mock)
            .respond_with(json_response(name, status)?)
            .with_priority(priority)
            .mount(server)
            .await;
    }
    Mock::given(method("POST"))
        .and(path(format!("{BB_REPO}/pull-requests/1/comments")))
        .and(header("authorization", bearer.as_str()))
        .respond_with(|request: &wiremock::Request| {
            let text = serde_json::from_slice::<Value>(&request.body)
                .ok()
                .and_then(|body| body.get("text").and_then(Value::as_str).map(str::to_owned))
                .unwrap_or_default();
            ResponseTemplate::new(201).set_body_json(dc_comment(&text))
        })
        .with_priority(1)
        .mount(server)
        .await;
    // Anything without the token: the product's 401 (Jira and Confluence `errorMessages`-style, Bitbucket
    // `errors`), as Data Center answers an unauthenticated REST call it does not allow anonymously.
    for (prefix, body) in [
        (
            "^/jira/",
            json!({"errorMessages": ["You are not authenticated. Authentication required to perform this operation."], "errors": {}}),
        ),
        (
            "^/confluence/",
            json!({"statusCode": 401, "data": {"authorized": false, "valid": true, "errors": [], "successful": false}, "message": "This request requires authentication"}),
        ),
        (
            "^/bitbucket/",
            json!({"errors": [{"context": null, "message": "Authentication failed. Please check your credentials and try again.", "exceptionName": "com.atlassian.bitbucket.auth.IncorrectPasswordAuthenticationException"}]}),
        ),
    ] {
        Mock::given(path_regex(prefix))
            .respond_with(ResponseTemplate::new(401).set_body_json(body))
            .with_priority(20)
            .mount(server)
            .await;
    }
    Ok(())
}
