//! The recorded GitHub Actions scenario.
//!
//! Routes (all `GET`, any owner/repo unless named):
//! - `Authorization: Bearer bad-token` on any path → `github/error-401`;
//! - owner `rate-limited` → `github/error-403-rate-limit`; owner `abuse` → `github/error-403-secondary-rate-limit`;
//!   repo `missing` → `github/error-404`;
//! - repo `empty-repo` runs → `github/actions-runs-empty`;
//! - `/repos/{o}/{r}/actions/runs?per_page=100` → `github/runs-large` (100 runs, 1.2 MB, `Link` rel=next page 2);
//! - `/repos/{o}/{r}/actions/runs?per_page=100&page=2` → the body of `github/actions-runs` (the 4 older recorded
//!   runs) as the **last** page: its recorded headers with a `Link` holding only `prev` and `first` (see
//!   [`last_page_link`]);
//! - `/repos/{o}/{r}/actions/runs` → `github/actions-runs` (4 runs, 48 KB, `Link` rel=next page 2);
//! - `/repos/{o}/{r}/actions/workflows/{id}/runs` → `github/workflow-runs`;
//! - `/repos/{o}/{r}/actions/runs/{id}/jobs` → for a run of the runs fixtures, that run's own jobs, [`run_jobs`]
//!   derived from `github/run-jobs` (its ids, URLs, SHA, branch and workflow name; one failed job when the run
//!   failed); for any other run id, `github/run-jobs` as recorded (the jobs of run 3881497935);
//! - `/repos/{o}/{r}/commits/{sha}/pulls`, `/commits/{sha}/check-runs`, `/commits/{sha}` (JSON, or a diff or patch
//!   by `Accept`) and `/actions/runs/{id}/artifacts` for the commits and runs of the runs fixtures, derived from
//!   them ([`commits`]); `github/commit-*.json`, `github/commit.diff` and `github/run-artifacts.json` are the stored
//!   answers for run 2802600146.

use std::collections::HashMap;

use serde_json::{Value, json};
use wiremock::matchers::{header, method, path_regex, query_param};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

use crate::fixture::{Fixture, fixture};
use crate::runs;

pub mod commits;
mod story;

const SEGMENT: &str = "[^/]+";

/// Mounts the scenario on `server`.
///
/// # Errors
/// A fixture that does not load or parse.
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
    Mock::given(method("GET"))
        .and(path_regex(runs_path()))
        .and(query_param("per_page", MEDIUM_PER_PAGE.to_string()))
        .respond_with(first_runs(MEDIUM_PER_PAGE)?)
        .with_priority(3)
        .mount(server)
        .await;
    Mock::given(method("GET"))
        .and(path_regex(runs_path()))
        .and(query_param("per_page", "100"))
        .and(query_param("page", "2"))
        .respond_with(last_page()?)
        .with_priority(2)
        .mount(server)
        .await;
    Mock::given(method("GET"))
        .and(path_regex(format!(
            "^/repos/{SEGMENT}/{SEGMENT}/actions/runs/[0-9]+/jobs$"
        )))
        .respond_with(JobsOfRun::new()?)
        .with_priority(4)
        .mount(server)
        .await;
    story::mount(server).await
}

fn runs_path() -> String {
    format!("^/repos/{SEGMENT}/{SEGMENT}/actions/runs$")
}

/// The `Link` header of page 2 of the 100-run listing: only `prev` and `first` (page 1), so page 2 is the last.
pub const fn last_page_link() -> &'static str {
    "<https://api.github.com/repositories/146139403/actions/runs?per_page=100&page=1>; rel=\"prev\", \
     <https://api.github.com/repositories/146139403/actions/runs?per_page=100&page=1>; rel=\"first\""
}

/// `per_page` of the one runs page near 256 KiB: its first 21 runs of `github/runs-large`, 258 KB as JSON (about 12 KB a
/// run), served for `per_page=21`.
pub const MEDIUM_PER_PAGE: usize = 21;

/// The first `n` runs of `github/runs-large`, as one page (`total_count` as recorded, no `Link`: a bench's page of a
/// chosen size, e.g. [`MEDIUM_PER_PAGE`] for the 256 KiB result of issue 46).
fn first_runs(n: usize) -> anyhow::Result<ResponseTemplate> {
    let recorded = fixture("github/runs-large")?;
    let mut body: serde_json::Value = serde_json::from_slice(recorded.body)?;
    if let Some(runs) = body.get_mut("workflow_runs").and_then(serde_json::Value::as_array_mut) {
        runs.truncate(n);
    }
    let response = recorded
        .headers
        .iter()
        .filter(|(name, _)| !name.eq_ignore_ascii_case("link") && !name.eq_ignore_ascii_case("content-length"))
        .fold(ResponseTemplate::new(recorded.status), |response, (name, value)| {
            response.append_header(name.as_str(), value.as_str())
        });
    Ok(response.set_body_bytes(serde_json::to_vec(&body)?))
}

/// Page 2 of the 100-run listing: `github/actions-runs` with [`last_page_link`] in place of its recorded `Link`.
fn last_page() -> anyhow::Result<ResponseTemplate> {
    let recorded = fixture("github/actions-runs")?;
    let headers = recorded
        .headers
        .iter()
        .map(|(name, value)| {
            let value = if name.eq_ignore_ascii_case("link") {
                last_page_link().to_string()
            } else {
                value.clone()
            };
            (name.clone(), value)
        })
        .collect();
    Ok(Fixture { headers, ..recorded }.response())
}

/// Answers `GET …/actions/runs/{id}/jobs` with the jobs of run `{id}` ([`run_jobs`]) when it is a run of the runs
/// fixtures, else with `github/run-jobs` as recorded.
struct JobsOfRun {
    /// Serialized jobs body per run id.
    bodies: HashMap<u64, Vec<u8>>,
    recorded: Fixture,
}

impl JobsOfRun {
    fn new() -> anyhow::Result<Self> {
        let recorded = fixture("github/run-jobs")?;
        let template: Value = serde_json::from_slice(recorded.body)?;
        let mut bodies = HashMap::new();
        for run in runs::all()? {
            if let Some(id) = run["id"].as_u64() {
                bodies.insert(id, serde_json::to_vec(&run_jobs(&template, &run))?);
            }
        }
        Ok(Self { bodies, recorded })
    }
}

impl Respond for JobsOfRun {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let run_id = request
            .url
            .path_segments()
            .and_then(|mut segments| segments.nth(5))
            .and_then(|id| id.parse::<u64>().ok());
        match run_id.and_then(|id| self.bodies.get(&id)) {
            Some(body) => self.recorded.response().set_body_bytes(body.clone()),
            None => self.recorded.response(),
        }
    }
}

/// The jobs of `run`, derived from `template` (the body of `github/run-jobs`): each job gets the id
/// `run id × 10 + index`, the run's `run_id`, `run_url`, `head_sha`, `head_branch` and workflow name, and URLs
/// built from them. When the run's `conclusion` is `failure`, job `run id % 3` failed: its step `Run tests` (or
/// `Install tox` when `run id % 4 == 0`) failed and the later steps other than `Post …` / `Complete job` were
/// skipped. `github/run-jobs-failure.json` is this function's output for run 2802600146, stored.
pub fn run_jobs(template: &Value, run: &Value) -> Value {
    let mut body = template.clone();
    let run_id = run["id"].as_u64().unwrap_or_default();
    let run_url = run["url"].as_str().unwrap_or_default();
    let api_repo = run_url.split("/actions/runs/").next().unwrap_or_default();
    let html_run = run["html_url"].as_str().unwrap_or_default();
    let failed = run["conclusion"] == "failure";
    let failing_job = run_id % 3;
    let failing_step = if run_id.is_multiple_of(4) {
        "Install tox"
    } else {
        "Run tests"
    };
    let jobs = body["jobs"]
        .as_array_mut()
        .map(|jobs| jobs.iter_mut())
        .into_iter()
        .flatten();
    for (index, job) in (0u64..).zip(jobs) {
        let id = run_id * 10 + index;
        job["id"] = json!(id);
        job["run_id"] = json!(run_id);
        job["workflow_name"] = run["name"].clone();
        job["head_branch"] = run["head_branch"].clone();
        job["run_url"] = json!(run_url);
        job["head_sha"] = run["head_sha"].clone();
        job["url"] = json!(format!("{api_repo}/actions/jobs/{id}"));
        job["html_url"] = json!(format!("{html_run}/job/{id}"));
        job["check_run_url"] = json!(format!("{api_repo}/check-runs/{id}"));
        if failed && index == failing_job {
            job["conclusion"] = json!("failure");
            fail_steps(job, failing_step);
        }
    }
    body
}

/// Marks step `name` of `job` failed and the steps after it skipped, except the `Post …` and `Complete job` ones.
fn fail_steps(job: &mut Value, name: &str) {
    let mut after = false;
    for step in job["steps"].as_array_mut().into_iter().flatten() {
        let step_name = step["name"].as_str().unwrap_or_default().to_string();
        if after && !step_name.starts_with("Post ") && step_name != "Complete job" {
            step["conclusion"] = json!("skipped");
        }
        if step_name == name {
            step["conclusion"] = json!("failure");
            after = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stored_failure_fixture_is_the_derived_jobs_of_its_run() -> anyhow::Result<()> {
        let template: Value = serde_json::from_slice(fixture("github/run-jobs")?.body)?;
        let run = runs::all()?
            .into_iter()
            .find(|run| run["id"] == 2_802_600_146u64)
            .ok_or_else(|| anyhow::anyhow!("run 2802600146 is in github/actions-runs"))?;
        let derived = serde_json::to_vec(&run_jobs(&template, &run))?;
        if std::env::var_os("RECORDED_UPSTREAM_WRITE_FIXTURES").is_some() {
            std::fs::write(
                concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/github/run-jobs-failure.json"),
                &derived,
            )?;
        }
        assert_eq!(
            String::from_utf8_lossy(&derived),
            String::from_utf8_lossy(fixture("github/run-jobs-failure")?.body)
        );
        Ok(())
    }
}
