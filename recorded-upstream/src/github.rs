//! The recorded GitHub Actions scenario.
//!
//! Routes (all `GET`, any owner/repo unless named):
//! - `Authorization: Bearer bad-token` on any path → `github/error-401`;
//! - owner `rate-limited` → `github/error-403-rate-limit`; owner `abuse` → `github/error-403-secondary-rate-limit`;
//!   repo `missing` → `github/error-404`;
//! - repo `empty-repo` runs → `github/actions-runs-empty`;
//! - `/repos/{o}/{r}/actions/runs?per_page=100` → `github/runs-large` (100 runs, 1.2 MB);
//! - `/repos/{o}/{r}/actions/runs` → `github/actions-runs` (4 runs, 48 KB, `Link` rel=next page 2);
//! - `/repos/{o}/{r}/actions/workflows/{id}/runs` → `github/workflow-runs`;
//! - `/repos/{o}/{r}/actions/runs/{id}/jobs` → `github/run-jobs-failure` when run `{id}` failed in one of the runs
//!   fixtures, else `github/run-jobs`.

use crate::fixture::fixture;
use wiremock::matchers::{header, method, path_regex, query_param};
use wiremock::{Mock, MockServer};

const SEGMENT: &str = "[^/]+";

/// Mounts the scenario on `server`.
///
/// # Errors
/// A fixture that does not load.
pub async fn mount(server: &MockServer) -> anyhow::Result<()> {
    let any = format!("^/repos/{SEGMENT}/{SEGMENT}/.*$");
    let mounts = [
        (
            1,
            Mock::given(method("GET"))
                .and(header("authorization", "Bearer bad-token"))
                .and(path_regex(&any)),
            "github/error-401",
        ),
        (
            1,
            Mock::given(method("GET")).and(path_regex(format!("^/repos/rate-limited/{SEGMENT}/.*$"))),
            "github/error-403-rate-limit",
        ),
        (
            1,
            Mock::given(method("GET")).and(path_regex(format!("^/repos/abuse/{SEGMENT}/.*$"))),
            "github/error-403-secondary-rate-limit",
        ),
        (
            1,
            Mock::given(method("GET")).and(path_regex(format!("^/repos/{SEGMENT}/missing/.*$"))),
            "github/error-404",
        ),
        (
            2,
            Mock::given(method("GET")).and(path_regex(format!("^/repos/{SEGMENT}/empty-repo/actions/runs$"))),
            "github/actions-runs-empty",
        ),
        (
            3,
            Mock::given(method("GET"))
                .and(path_regex(runs_path()))
                .and(query_param("per_page", "100")),
            "github/runs-large",
        ),
        (
            4,
            Mock::given(method("GET")).and(path_regex(runs_path())),
            "github/actions-runs",
        ),
        (
            4,
            Mock::given(method("GET")).and(path_regex(format!(
                "^/repos/{SEGMENT}/{SEGMENT}/actions/workflows/{SEGMENT}/runs$"
            ))),
            "github/workflow-runs",
        ),
    ];
    for (priority, mock, name) in mounts {
        mock.respond_with(fixture(name)?.response())
            .with_priority(priority)
            .mount(server)
            .await;
    }
    let failed = failed_run_ids()?;
    if !failed.is_empty() {
        let pattern = format!("^/repos/{SEGMENT}/{SEGMENT}/actions/runs/({})/jobs$", failed.join("|"));
        Mock::given(method("GET"))
            .and(path_regex(pattern))
            .respond_with(fixture("github/run-jobs-failure")?.response())
            .with_priority(3)
            .mount(server)
            .await;
    }
    Mock::given(method("GET"))
        .and(path_regex(format!(
            "^/repos/{SEGMENT}/{SEGMENT}/actions/runs/[0-9]+/jobs$"
        )))
        .respond_with(fixture("github/run-jobs")?.response())
        .with_priority(4)
        .mount(server)
        .await;
    Ok(())
}

fn runs_path() -> String {
    format!("^/repos/{SEGMENT}/{SEGMENT}/actions/runs$")
}

/// Ids of the runs whose `conclusion` is `failure` in the two runs fixtures.
fn failed_run_ids() -> anyhow::Result<Vec<String>> {
    let mut ids = Vec::new();
    for name in ["github/actions-runs", "github/runs-large"] {
        let body: serde_json::Value = serde_json::from_slice(fixture(name)?.body)?;
        let runs = body["workflow_runs"].as_array().cloned().unwrap_or_default();
        ids.extend(
            runs.iter()
                .filter(|run| run["conclusion"] == "failure")
                .filter_map(|run| run["id"].as_u64())
                .map(|id| id.to_string()),
        );
    }
    Ok(ids)
}
