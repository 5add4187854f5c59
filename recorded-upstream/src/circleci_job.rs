//! A CircleCI job's test metadata and artifacts (API v2), for any job number of any project: the failed jest job
//! `test` (102) of `circleci/workflow-jobs`, whose step output `circleci/job-102-output-run-tests` shows the same
//! run (24 tests, `pipeline encodes the page token once` failed).
//!
//! Routes:
//! - `GET /api/v2/project/{vcs}/{org}/{repo}/{number}/tests` → `circleci/job-102-tests-page1` (12 items and a
//!   `next_page_token`), and with `page-token` set to that token → `circleci/job-102-tests-page2` (the other 12,
//!   `next_page_token: null`); any other token → CircleCI's `400`;
//! - `GET /api/v2/project/{vcs}/{org}/{repo}/{number}/artifacts` → `circleci/job-102-artifacts` with each `url`
//!   moved from `https://output.circle-artifacts.com` to the downloads server (another origin);
//! - downloads `GET /output/job/{id}/artifacts/{node}/{path}` → `circleci/artifact-results.xml` (jest-junit's XML
//!   of the run) for `test-results/jest/results.xml`, `circleci/artifact-test-results.zip` (that XML and a coverage
//!   summary) for `test-results.zip`, a small HTML page for any other path.

use serde_json::Value;
use wiremock::matchers::{method, path_regex};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

use crate::fixture::fixture;

const SEGMENT: &str = "[^/]+";

/// The origin of the artifact URLs in `circleci/job-102-artifacts`.
pub const ARTIFACTS_ORIGIN: &str = "https://output.circle-artifacts.com";

/// Mounts the tests and artifacts routes on `api`, the artifacts' bodies on `downloads`.
///
/// # Errors
/// A fixture that does not load or parse.
pub async fn mount(api: &MockServer, downloads: &MockServer) -> anyhow::Result<()> {
    let job = format!("^/api/v2/project/{SEGMENT}/{SEGMENT}/{SEGMENT}/[0-9]+");
    let page1: Value = serde_json::from_slice(fixture("circleci/job-102-tests-page1")?.body)?;
    Mock::given(method("GET"))
        .and(path_regex(format!("{job}/tests$")))
        .respond_with(Tests {
            token: page1["next_page_token"].as_str().unwrap_or_default().to_owned(),
            page1: fixture("circleci/job-102-tests-page1")?.body,
            page2: fixture("circleci/job-102-tests-page2")?.body,
        })
        .with_priority(2)
        .mount(api)
        .await;
    let listed =
        std::str::from_utf8(fixture("circleci/job-102-artifacts")?.body)?.replace(ARTIFACTS_ORIGIN, &downloads.uri());
    Mock::given(method("GET"))
        .and(path_regex(format!("{job}/artifacts$")))
        .respond_with(ResponseTemplate::new(200).set_body_raw(listed.into_bytes(), "application/json"))
        .with_priority(2)
        .mount(api)
        .await;
    Mock::given(method("GET"))
        .and(path_regex("^/output/job/[^/]+/artifacts/[0-9]+/.+$"))
        .respond_with(Artifact {
            results: fixture("circleci/artifact-results.xml")?.body,
            zip: fixture("circleci/artifact-test-results.zip")?.body,
        })
        .with_priority(2)
        .mount(downloads)
        .await;
    Ok(())
}

/// The two pages of the tests endpoint.
struct Tests {
    token: String,
    page1: &'static [u8],
    page2: &'static [u8],
}

impl Respond for Tests {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let token = request
            .url
            .query_pairs()
            .find(|(name, _)| name == "page-token")
            .map(|(_, value)| value.into_owned());
        let json = |body: &[u8]| ResponseTemplate::new(200).set_body_raw(body.to_vec(), "application/json");
        match token {
            None => json(self.page1),
            Some(token) if token == self.token => json(self.page2),
            Some(_) => ResponseTemplate::new(400)
                .set_body_raw(br#"{"message":"Invalid page-token."}"#.to_vec(), "application/json"),
        }
    }
}

/// An artifact's body, by its path.
struct Artifact {
    results: &'static [u8],
    zip: &'static [u8],
}

impl Respond for Artifact {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let path = request.url.path();
        if path.ends_with("/test-results/jest/results.xml") {
            ResponseTemplate::new(200).set_body_raw(self.results.to_vec(), "application/xml")
        } else if path.ends_with("/test-results.zip") {
            ResponseTemplate::new(200).set_body_raw(self.zip.to_vec(), "application/zip")
        } else {
            ResponseTemplate::new(200).set_body_raw(
                b"<!doctype html><title>Code coverage report for All files</title>".to_vec(),
                "text/html",
            )
        }
    }
}
