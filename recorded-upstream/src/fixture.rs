//! Recorded response fixtures, embedded in the binary.
//!
//! Each fixture is a body (`fixtures/<vendor>/<name>.json` or `.txt`) plus an optional `.headers` file whose
//! first line is the status line (`HTTP/1.1 <code> <reason>`) and whose other lines are `Name: value` headers, in
//! recorded order. See `fixtures/README.md` for where each file comes from.

use anyhow::{Context, bail};
use wiremock::ResponseTemplate;

/// One recorded upstream response: status, headers in recorded order, and the body bytes.
#[derive(Debug, Clone)]
pub struct Fixture {
    /// The fixture's name, e.g. `github/actions-runs`.
    pub name: &'static str,
    /// HTTP status code from the `.headers` status line (200 when the fixture has no headers file).
    pub status: u16,
    /// Headers in recorded order (name, value).
    pub headers: Vec<(String, String)>,
    /// The body bytes, exactly as stored.
    pub body: &'static [u8],
}

macro_rules! embedded {
    ($($name:literal => $body:literal, $headers:expr;)*) => {
        /// Every embedded fixture: (name, body, optional headers text).
        const EMBEDDED: &[(&str, &[u8], Option<&str>)] = &[
            $(($name, include_bytes!(concat!("../../fixtures/", $body)), $headers),)*
        ];
    };
}

macro_rules! headers {
    ($path:literal) => {
        Some(include_str!(concat!("../../fixtures/", $path)))
    };
}

embedded! {
    "github/actions-runs" => "github/actions-runs.json", headers!("github/actions-runs.headers");
    "github/actions-runs-empty" => "github/actions-runs-empty.json", headers!("github/actions-runs-empty.headers");
    "github/runs-large" => "github/runs-large.json", headers!("github/runs-large.headers");
    "github/workflow-runs" => "github/workflow-runs.json", headers!("github/workflow-runs.headers");
    "github/run-jobs" => "github/run-jobs.json", headers!("github/run-jobs.headers");
    "github/run-jobs-failure" => "github/run-jobs-failure.json", headers!("github/run-jobs-failure.headers");
    "github/commit-pulls" => "github/commit-pulls.json", None;
    "github/commit-check-runs" => "github/commit-check-runs.json", None;
    "github/commit" => "github/commit.json", None;
    "github/commit.diff" => "github/commit.diff", headers!("github/commit-diff.headers");
    "github/run-artifacts" => "github/run-artifacts.json", None;
    "github/artifact-test-results.zip" => "github/artifact-test-results.zip", headers!("github/artifact-test-results.headers");
    "github/error-401" => "github/error-401.json", headers!("github/error-401.headers");
    "github/error-403-rate-limit" => "github/error-403-rate-limit.json", headers!("github/error-403-rate-limit.headers");
    "github/error-403-secondary-rate-limit" => "github/error-403-secondary-rate-limit.json", headers!("github/error-403-secondary-rate-limit.headers");
    "github/error-404" => "github/error-404.json", headers!("github/error-404.headers");
    "github/error-404-with-status" => "github/error-404-with-status.json", headers!("github/error-404-with-status.headers");
    "github/job-log-28026001462" => "github/job-log-28026001462.txt", headers!("github/job-log.headers");
    "circleci/me" => "circleci/me.json", None;
    "circleci/pipelines" => "circleci/pipelines.json", None;
    "circleci/pipeline-workflows" => "circleci/pipeline-workflows.json", None;
    "circleci/workflow-jobs" => "circleci/workflow-jobs.json", None;
    "circleci/error-404" => "circleci/error-404.json", headers!("circleci/error-404.headers");
    "circleci/job-102" => "circleci/job-102.json", None;
    "circleci/job-102-output-run-tests" => "circleci/job-102-output-run-tests.json", None;
    "circleci/job-102-tests-page1" => "circleci/job-102-tests-page1.json", None;
    "circleci/job-102-tests-page2" => "circleci/job-102-tests-page2.json", None;
    "circleci/job-102-artifacts" => "circleci/job-102-artifacts.json", None;
    "circleci/artifact-results.xml" => "circleci/artifact-results.xml", None;
    "circleci/artifact-test-results.zip" => "circleci/artifact-test-results.zip", None;
    "jira/search-jql" => "jira/search-jql.json", None;
    "jira/search-jql-page1" => "jira/search-jql-page1.json", None;
    "jira/search-jql-page2" => "jira/search-jql-page2.json", None;
    "jira/issue" => "jira/issue.json", None;
    "jira/myself" => "jira/myself.json", None;
    "jira/error-404" => "jira/error-404.json", headers!("jira/error-404.headers");
    "jira/error-400-jql" => "jira/error-400-jql.json", headers!("jira/error-400-jql.headers");
    "confluence/pages" => "confluence/pages.json", headers!("confluence/pages.headers");
    "confluence/page-storage" => "confluence/page-storage.json", None;
    "confluence/error-404" => "confluence/error-404.json", headers!("confluence/error-404.headers");
    "bitbucket/repositories" => "bitbucket/repositories.json", None;
    "bitbucket/pullrequests" => "bitbucket/pullrequests.json", None;
    "bitbucket/diff" => "bitbucket/diff.txt", headers!("bitbucket/diff.headers");
    "jira/dc/issue" => "jira/dc/issue.json", None;
    "jira/dc/search" => "jira/dc/search.json", None;
    "jira/dc/search-page1" => "jira/dc/search-page1.json", None;
    "jira/dc/search-page2" => "jira/dc/search-page2.json", None;
    "jira/dc/myself" => "jira/dc/myself.json", None;
    "jira/dc/error-400" => "jira/dc/error-400.json", None;
    "jira/dc/error-404" => "jira/dc/error-404.json", None;
    "confluence/dc/page" => "confluence/dc/page.json", None;
    "confluence/dc/content-list" => "confluence/dc/content-list.json", None;
    "confluence/dc/content-list-page2" => "confluence/dc/content-list-page2.json", None;
    "bitbucket/dc/pull-requests" => "bitbucket/dc/pull-requests.json", None;
    "bitbucket/dc/pull-requests-page1" => "bitbucket/dc/pull-requests-page1.json", None;
    "bitbucket/dc/pull-requests-page2" => "bitbucket/dc/pull-requests-page2.json", None;
    "bitbucket/dc/pull-request" => "bitbucket/dc/pull-request.json", None;
    "bitbucket/dc/build-status" => "bitbucket/dc/build-status.json", None;
    "bitbucket/dc/error-400" => "bitbucket/dc/error-400.json", None;
    "bitbucket/dc/error-404" => "bitbucket/dc/error-404.json", None;
}

/// The names of every embedded fixture, e.g. `github/actions-runs`.
pub fn names() -> impl Iterator<Item = &'static str> {
    EMBEDDED.iter().map(|(name, _, _)| *name)
}

/// Loads the embedded fixture `name` (e.g. `github/run-jobs`).
///
/// # Errors
/// An unknown name, or a `.headers` file whose status line or header lines do not parse.
pub fn fixture(name: &str) -> anyhow::Result<Fixture> {
    let Some((name, body, headers)) = EMBEDDED.iter().find(|(n, _, _)| *n == name) else {
        bail!(
            "no embedded fixture named {name:?}; known: {:?}",
            names().collect::<Vec<_>>()
        );
    };
    let (status, headers) = match headers {
        Some(text) => parse_headers(text).with_context(|| format!("fixture {name}.headers"))?,
        None => (
            200,
            vec![("Content-Type".into(), "application/json; charset=utf-8".into())],
        ),
    };
    Ok(Fixture {
        name,
        status,
        headers,
        body,
    })
}

/// Parses a `.headers` file: the status line, then `Name: value` lines (an empty value is allowed).
fn parse_headers(text: &str) -> anyhow::Result<(u16, Vec<(String, String)>)> {
    let mut lines = text.lines();
    let status_line = lines.next().context("empty headers file")?;
    let status = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse::<u16>().ok())
        .with_context(|| format!("bad status line {status_line:?}"))?;
    let mut headers = Vec::new();
    for line in lines.filter(|line| !line.trim().is_empty()) {
        let (name, value) = line
            .split_once(':')
            .with_context(|| format!("bad header line {line:?}"))?;
        headers.push((name.trim().to_string(), value.trim().to_string()));
    }
    Ok((status, headers))
}

impl Fixture {
    /// The value of the first header named `name` (case-insensitive), if any.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// A wiremock response with this fixture's status, headers (recorded order) and body.
    pub fn response(&self) -> ResponseTemplate {
        self.headers
            .iter()
            .fold(ResponseTemplate::new(self.status), |response, (name, value)| {
                response.append_header(name.as_str(), value.as_str())
            })
            .set_body_bytes(self.body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fixture_loads() -> anyhow::Result<()> {
        for name in names() {
            let fixture = fixture(name)?;
            assert!(!fixture.body.is_empty(), "{name} has a body");
            assert!(fixture.header("content-type").is_some(), "{name} has a content type");
        }
        Ok(())
    }

    #[test]
    fn status_lines_parse() -> anyhow::Result<()> {
        assert_eq!(fixture("github/error-404")?.status, 404);
        assert_eq!(
            fixture("github/error-403-rate-limit")?.header("x-ratelimit-remaining"),
            Some("0")
        );
        assert!(fixture("github/nope").is_err());
        Ok(())
    }
}
