//! The recorded Atlassian scenario: Jira, Confluence and Bitbucket on one server, at paths that do not overlap the
//! GitHub and CircleCI scenarios. Point `JIRA_BASE_URL` and `BITBUCKET_BASE_URL` at `<uri>` and
//! `CONFLUENCE_BASE_URL` at `<uri>/wiki` (the Cloud layout). Credentials are not checked here; tests that need to
//! see them mount their own routes or read the received requests.
//!
//! Routes:
//! - Jira: `GET /rest/api/3/myself` → `jira/myself`; `GET /rest/api/3/search/jql` → `jira/search-jql-page1`
//!   (2 issues with ADF descriptions, a `nextPageToken`), with `nextPageToken=`[`JIRA_PAGE2_TOKEN`] →
//!   `jira/search-jql-page2` (the last page), with `maxResults=100` → [`large_search`] (100 issues, about 370 KB),
//!   with a `jql` naming the field `universe` → `jira/error-400-jql`; `GET /rest/api/3/issue/ED-1` → `jira/issue`,
//!   `GET /rest/api/3/issue/{key}` for an issue of the two search pages (`EX-5`, `EX-4`, `EX-1`: the keys the
//!   GitHub runs' commit messages name) → that issue, its `fields` narrowed by the `fields` query parameter
//!   ([`issue_with_fields`]), any other issue → `jira/error-404`; `POST /rest/api/3/issue` → `201` [`created_issue`]; `PUT` and `DELETE`
//!   `/rest/api/3/issue/ED-1` → `204`.
//! - Confluence: `GET /wiki/api/v2/pages` → `confluence/pages` (relative `_links.next`);
//!   `GET /wiki/api/v2/pages/7700526` → `confluence/page-storage`, any other page → `confluence/error-404`;
//!   `DELETE /wiki/api/v2/pages/{id}` → `204`.
//! - Bitbucket: `GET /2.0/repositories/{workspace}` → `bitbucket/repositories` (absolute `next`);
//!   `GET /2.0/repositories/{ws}/{repo}/pullrequests` → `bitbucket/pullrequests`;
//!   `GET /2.0/repositories/{ws}/{repo}/diff/{spec}` → `bitbucket/diff` (`text/plain`);
//!   `POST` / `DELETE /2.0/repositories/{ws}/{repo}/pullrequests/{id}/approve` → `200` [`approval`] / `204`;
//!   `GET /2.0/repositories/{ws}/{repo}/src/{commit}/logo.png` → [`LOGO_PNG`] (`image/png`);
//!   `GET /2.0/repositories/{ws}/{repo}/src/{commit}/latin1.txt` → [`LATIN1_TEXT`] (`text/plain; charset=ISO-8859-1`).

use serde_json::{Value, json};
use wiremock::matchers::{method, path, path_regex, query_param, query_param_contains};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

use crate::fixture::fixture;

const SEGMENT: &str = "[^/]+";

/// The `nextPageToken` of `jira/search-jql-page1` (base64 with `+ / =`-class characters): sent back, it gives
/// page 2.
pub const JIRA_PAGE2_TOKEN: &str =
    "Cg0jSW50Jk1UQXdNRFE9EAIYzJDi4vcxIiJwcm9qZWN0ID0gRVggT1JERVIgQlkgY3JlYXRlZCBERVNDKgJbXQ==";

/// Number of issues in [`large_search`].
pub const LARGE_SEARCH_ISSUES: usize = 100;

/// A 1×1 transparent PNG (67 bytes): a binary file body.
pub const LOGO_PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00, 0x00, 0x00, 0x0a, 0x49,
    0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x00, 0x01, 0x00, 0x00, 0x05, 0x00, 0x01, 0x0d, 0x0a, 0x2d, 0xb4, 0x00, 0x00,
    0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];

/// `café` and a newline in ISO-8859-1 (`63 61 66 E9 0A`): a text body in a charset other than UTF-8.
pub const LATIN1_TEXT: &[u8] = b"caf\xe9\n";

/// Mounts the scenario on `server`.
///
/// # Errors
/// A fixture that does not load or parse.
pub async fn mount(server: &MockServer) -> anyhow::Result<()> {
    let search = "/rest/api/3/search/jql";
    let repo = format!("^/2.0/repositories/{SEGMENT}/{SEGMENT}");
    let fixtures = [
        (
            1,
            Mock::given(method("GET")).and(path("/rest/api/3/myself")),
            "jira/myself",
        ),
        (
            1,
            Mock::given(method("GET"))
                .and(path(search))
                .and(query_param("nextPageToken", JIRA_PAGE2_TOKEN)),
            "jira/search-jql-page2",
        ),
        (
            1,
            Mock::given(method("GET"))
                .and(path(search))
                .and(query_param_contains("jql", "universe")),
            "jira/error-400-jql",
        ),
        (3, Mock::given(method("GET")).and(path(search)), "jira/search-jql-page1"),
        (
            1,
            Mock::given(method("GET")).and(path("/rest/api/3/issue/ED-1")),
            "jira/issue",
        ),
        (
            3,
            Mock::given(method("GET")).and(path_regex(format!("^/rest/api/3/issue/{SEGMENT}$"))),
            "jira/error-404",
        ),
        (
            2,
            Mock::given(method("GET")).and(path("/wiki/api/v2/pages")),
            "confluence/pages",
        ),
        (
            1,
            Mock::given(method("GET")).and(path("/wiki/api/v2/pages/7700526")),
            "confluence/page-storage",
        ),
        (
            3,
            Mock::given(method("GET")).and(path_regex(format!("^/wiki/api/v2/pages/{SEGMENT}$"))),
            "confluence/error-404",
        ),
        (
            2,
            Mock::given(method("GET")).and(path_regex(format!("^/2.0/repositories/{SEGMENT}$"))),
            "bitbucket/repositories",
        ),
        (
            2,
            Mock::given(method("GET")).and(path_regex(format!("{repo}/pullrequests$"))),
            "bitbucket/pullrequests",
        ),
        (
            2,
            Mock::given(method("GET")).and(path_regex(format!("{repo}/diff/.+$"))),
            "bitbucket/diff",
        ),
    ];
    for (priority, mock, name) in fixtures {
        mock.respond_with(fixture(name)?.response())
            .with_priority(priority)
            .mount(server)
            .await;
    }
    let json_response = |status: u16, body: Value| ResponseTemplate::new(status).set_body_json(body);
    let others = [
        (
            Mock::given(method("GET"))
                .and(path(search))
                .and(query_param("maxResults", "100")),
            ResponseTemplate::new(200).set_body_raw(large_search()?, "application/json"),
        ),
        (
            Mock::given(method("POST")).and(path("/rest/api/3/issue")),
            json_response(201, created_issue()),
        ),
        (
            Mock::given(method("PUT")).and(path("/rest/api/3/issue/ED-1")),
            ResponseTemplate::new(204),
        ),
        (
            Mock::given(method("DELETE")).and(path("/rest/api/3/issue/ED-1")),
            ResponseTemplate::new(204),
        ),
        (
            Mock::given(method("DELETE")).and(path_regex(format!("^/wiki/api/v2/pages/{SEGMENT}$"))),
            ResponseTemplate::new(204),
        ),
        (
            Mock::given(method("POST")).and(path_regex(format!("{repo}/pullrequests/[0-9]+/approve$"))),
            json_response(200, approval()),
        ),
        (
            Mock::given(method("DELETE")).and(path_regex(format!("{repo}/pullrequests/[0-9]+/approve$"))),
            ResponseTemplate::new(204),
        ),
        (
            Mock::given(method("GET")).and(path_regex(format!("{repo}/src/{SEGMENT}/logo.png$"))),
            ResponseTemplate::new(200).set_body_raw(LOGO_PNG, "image/png"),
        ),
        (
            Mock::given(method("GET")).and(path_regex(format!("{repo}/src/{SEGMENT}/latin1.txt$"))),
            ResponseTemplate::new(200).set_body_raw(LATIN1_TEXT, "text/plain; charset=ISO-8859-1"),
        ),
    ];
    for (mock, response) in others {
        mock.respond_with(response).with_priority(1).mount(server).await;
    }
    let mut issues = Vec::new();
    for page in ["jira/search-jql-page1", "jira/search-jql-page2"] {
        let body: Value = serde_json::from_slice(fixture(page)?.body)?;
        issues.extend(body["issues"].as_array().cloned().unwrap_or_default());
    }
    let keys: Vec<&str> = issues.iter().filter_map(|issue| issue["key"].as_str()).collect();
    Mock::given(method("GET"))
        .and(path_regex(format!("^/rest/api/3/issue/({})$", keys.join("|"))))
        .respond_with(SearchedIssue { issues })
        .with_priority(2)
        .mount(server)
        .await;
    Ok(())
}

/// Answers `GET /rest/api/3/issue/{key}` with the issue `{key}` of the search pages, through
/// [`issue_with_fields`].
struct SearchedIssue {
    issues: Vec<Value>,
}

impl Respond for SearchedIssue {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let key = request.url.path().rsplit('/').next().unwrap_or_default();
        let fields = request
            .url
            .query_pairs()
            .find(|(name, _)| name == "fields")
            .map(|(_, value)| value.into_owned());
        match self.issues.iter().find(|issue| issue["key"] == key) {
            Some(issue) => ResponseTemplate::new(200).set_body_json(issue_with_fields(issue, fields.as_deref())),
            None => ResponseTemplate::new(404),
        }
    }
}

/// `issue` with its `fields` narrowed as Jira's `fields` query parameter does: a comma-separated list of field
/// names; `*all` and `*navigable` (or no parameter) keep every field; `-name` drops one. A named field the issue
/// does not have is left out.
pub fn issue_with_fields(issue: &Value, fields: Option<&str>) -> Value {
    let mut issue = issue.clone();
    let Some(fields) = fields else { return issue };
    let names: Vec<&str> = fields
        .split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .collect();
    let keep_all = names.is_empty() || names.iter().any(|name| matches!(*name, "*all" | "*navigable"));
    if let Some(map) = issue["fields"].as_object_mut() {
        map.retain(|name, _| {
            let dropped = names
                .iter()
                .any(|wanted| wanted.strip_prefix('-') == Some(name.as_str()));
            !dropped && (keep_all || names.contains(&name.as_str()))
        });
    }
    issue
}

/// A `search/jql` page of [`LARGE_SEARCH_ISSUES`] issues: the 2 issues of `jira/search-jql-page1` repeated with
/// distinct ids and keys (`EX-1000`, `EX-999`, …), and page 1's `nextPageToken`. Compact JSON.
///
/// # Errors
/// The fixture does not parse.
pub fn large_search() -> anyhow::Result<String> {
    let mut body: Value = serde_json::from_slice(fixture("jira/search-jql-page1")?.body)?;
    let issues = body["issues"].as_array().cloned().unwrap_or_default();
    let large: Vec<Value> = issues
        .iter()
        .cycle()
        .take(LARGE_SEARCH_ISSUES)
        .enumerate()
        .map(|(i, issue)| {
            let mut issue = issue.clone();
            issue["id"] = json!(format!("{}", 20_000 + i));
            issue["key"] = json!(format!("EX-{}", 1000 - i));
            issue
        })
        .collect();
    body["issues"] = Value::Array(large);
    Ok(serde_json::to_string(&body)?)
}

/// The `201` body of `POST /rest/api/3/issue` (the `CreatedIssue` shape of the Jira v3 spec). Synthetic.
pub fn created_issue() -> Value {
    json!({"id": "10010", "key": "EX-10", "self": "https://your-domain.atlassian.net/rest/api/3/issue/10010"})
}

/// The `200` body of `POST …/pullrequests/{id}/approve` (a Bitbucket `participant`). Synthetic.
pub fn approval() -> Value {
    json!({"type": "participant", "role": "REVIEWER", "approved": true, "state": "approved",
           "participated_on": "2026-04-01T10:00:00.000000+00:00"})
}
