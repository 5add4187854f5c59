//! The recorded CircleCI API v2 scenario, mounted under `/api/v2` (so it can share a server with the GitHub
//! scenario; point `CIRCLECI_API_BASE` at `<uri>/api/v2`).
//!
//! Routes (all `GET`; `{vcs}/{org}/{repo}` is any project slug):
//! - `/api/v2/me` → `circleci/me` (no cache headers: the default TTL applies);
//! - `/api/v2/project/{vcs}/{org}/missing[/...]` → `circleci/error-404` (`Project not found`);
//! - `/api/v2/project/{vcs}/{org}/busy/pipeline` → [`large_pipelines`]: 100 pipelines (about 100 KB), for
//!   oversized results;
//! - `/api/v2/project/{vcs}/{org}/{repo}/pipeline` → `circleci/pipelines` (3 pipelines, a `next_page_token`);
//! - `/api/v2/pipeline/{id}/workflow` → `circleci/pipeline-workflows`;
//! - `/api/v2/workflow/{id}/job` → `circleci/workflow-jobs`.

use crate::fixture::fixture;
use wiremock::matchers::{method, path, path_regex};
use wiremock::{Mock, MockServer, ResponseTemplate};

const SEGMENT: &str = "[^/]+";

/// Number of pipelines in [`large_pipelines`].
pub const LARGE_PIPELINES: usize = 100;

/// Mounts the scenario on `server`.
///
/// # Errors
/// A fixture that does not load or parse.
pub async fn mount(server: &MockServer) -> anyhow::Result<()> {
    let project = format!("^/api/v2/project/{SEGMENT}/{SEGMENT}");
    let mounts = [
        (1, Mock::given(method("GET")).and(path("/api/v2/me")), "circleci/me"),
        (
            1,
            Mock::given(method("GET")).and(path_regex(format!("{project}/missing(/.*)?$"))),
            "circleci/error-404",
        ),
        (
            2,
            Mock::given(method("GET")).and(path_regex(format!("{project}/{SEGMENT}/pipeline$"))),
            "circleci/pipelines",
        ),
        (
            2,
            Mock::given(method("GET")).and(path_regex(format!("^/api/v2/pipeline/{SEGMENT}/workflow$"))),
            "circleci/pipeline-workflows",
        ),
        (
            2,
            Mock::given(method("GET")).and(path_regex(format!("^/api/v2/workflow/{SEGMENT}/job$"))),
            "circleci/workflow-jobs",
        ),
    ];
    for (priority, mock, name) in mounts {
        mock.respond_with(fixture(name)?.response())
            .with_priority(priority)
            .mount(server)
            .await;
    }
    Mock::given(method("GET"))
        .and(path_regex(format!("{project}/busy/pipeline$")))
        .respond_with(ResponseTemplate::new(200).set_body_raw(large_pipelines()?, "application/json"))
        .with_priority(1)
        .mount(server)
        .await;
    Ok(())
}

/// A synthetic page of [`LARGE_PIPELINES`] pipelines: the 3 recorded ones of `circleci/pipelines` repeated with
/// distinct ids and numbers, and the recorded `next_page_token`. Compact JSON.
///
/// # Errors
/// The fixture does not parse.
pub fn large_pipelines() -> anyhow::Result<String> {
    let mut body: serde_json::Value = serde_json::from_slice(fixture("circleci/pipelines")?.body)?;
    let items = body["items"].as_array().cloned().unwrap_or_default();
    let large: Vec<serde_json::Value> = items
        .iter()
        .cycle()
        .take(LARGE_PIPELINES)
        .enumerate()
        .map(|(i, item)| {
            let mut item = item.clone();
            item["number"] = serde_json::json!(1000 - i);
            item["id"] = serde_json::json!(format!("00000000-0000-4000-8000-{i:012}"));
            item
        })
        .collect();
    body["items"] = serde_json::Value::Array(large);
    Ok(serde_json::to_string(&body)?)
}
