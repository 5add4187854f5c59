//! The routes answering from [`super::commits`]: a commit's pull requests, check runs, combined status (no
//! statuses: state `pending`, as GitHub answers) and detail (JSON, diff or patch by `Accept`), a run (with an
//! `ETag`; `304` to a matching `If-None-Match`), a pull request by number, and a run's artifacts (none for a run
//! whose tests never ran, [`commits::tests_ran`]), for every commit and run of the runs fixtures. An unknown SHA gets
//! GitHub's `422 No commit found for SHA`, an unknown run its `404`.
//!
//! An artifact's download (`GET /repos/{o}/{r}/actions/artifacts/{id}/zip`) is, as on GitHub, a `302` to a
//! short-lived signed URL on another host: here `localhost` on this server's port (another origin than
//! `127.0.0.1`), path `/artifact-blobs/{id}/{name}.zip`, which answers `github/artifact-test-results.zip` (a zip
//! holding a JUnit report) with Azure Blob Storage's headers — and `403 AuthenticationFailed` when the request
//! carries an `Authorization` header, so a client that forwards the token fails.

use std::collections::HashMap;

use serde_json::{Value, json};
use wiremock::matchers::{method, path_regex};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

use super::commits;
use crate::fixture::{Fixture, fixture};
use crate::runs;

const SEGMENT: &str = "[^/]+";

/// What one route answers.
#[derive(Clone, Copy)]
enum Route {
    Run,
    Pull,
    CombinedStatus,
    Pulls,
    CheckRuns,
    Commit,
    Artifacts,
    ArtifactZip,
}

/// The derived answers, by SHA and by run id.
struct Story {
    runs_by_sha: HashMap<String, Vec<Value>>,
    runs_by_id: HashMap<u64, Value>,
    pulls: HashMap<String, Value>,
    jobs_template: Value,
    /// The recorded 200 headers of a single-page answer (`github/workflow-runs`), without `ETag` and `Content-Type`.
    headers: Vec<(String, String)>,
}

/// Mounts the four routes on `server`.
///
/// # Errors
/// A fixture that does not load or parse.
pub async fn mount(server: &MockServer) -> anyhow::Result<()> {
    let all = runs::all()?;
    let mut runs_by_sha: HashMap<String, Vec<Value>> = HashMap::new();
    let mut runs_by_id = HashMap::new();
    for run in &all {
        if let Some(sha) = run["head_sha"].as_str() {
            runs_by_sha.entry(sha.to_string()).or_default().push(run.clone());
        }
        if let Some(id) = run["id"].as_u64() {
            runs_by_id.insert(id, run.clone());
        }
    }
    let recorded: Fixture = fixture("github/workflow-runs")?;
    let headers = recorded
        .headers
        .iter()
        .filter(|(name, _)| !name.eq_ignore_ascii_case("etag") && !name.eq_ignore_ascii_case("content-type"))
        .cloned()
        .collect();
    let story = Story {
        runs_by_sha,
        runs_by_id,
        pulls: commits::pull_requests(&all),
        jobs_template: serde_json::from_slice(fixture("github/run-jobs")?.body)?,
        headers,
    };
    let repo = format!("^/repos/{SEGMENT}/{SEGMENT}");
    let routes = [
        (Route::Run, format!("{repo}/actions/runs/[0-9]+$")),
        (Route::Pull, format!("{repo}/pulls/[0-9]+$")),
        (Route::CombinedStatus, format!("{repo}/commits/{SEGMENT}/status$")),
        (Route::Pulls, format!("{repo}/commits/{SEGMENT}/pulls$")),
        (Route::CheckRuns, format!("{repo}/commits/{SEGMENT}/check-runs$")),
        (Route::Commit, format!("{repo}/commits/{SEGMENT}$")),
        (Route::Artifacts, format!("{repo}/actions/runs/[0-9]+/artifacts$")),
        (Route::ArtifactZip, format!("{repo}/actions/artifacts/[0-9]+/zip$")),
    ];
    let story = std::sync::Arc::new(story);
    for (route, pattern) in routes {
        Mock::given(method("GET"))
            .and(path_regex(pattern))
            .respond_with(Routed {
                story: story.clone(),
                route,
            })
            .with_priority(4)
            .mount(server)
            .await;
    }
    Mock::given(method("GET"))
        .and(path_regex("^/artifact-blobs/[0-9]+/[^/]+[.]zip$"))
        .respond_with(Blob(fixture("github/artifact-test-results.zip")?))
        .with_priority(1)
        .mount(server)
        .await;
    Ok(())
}

/// The other host's answer to an artifact's signed URL.
struct Blob(Fixture);

impl Respond for Blob {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        if request.headers.contains_key("authorization") {
            let body = "\u{feff}<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>AuthenticationFailed</Code><Message>Server \
                        failed to authenticate the request. Make sure the value of Authorization header is formed \
                        correctly including the signature.</Message></Error>";
            return ResponseTemplate::new(403)
                .append_header("Content-Type", "application/xml")
                .append_header("Server", "Windows-Azure-Blob/1.0 Microsoft-HTTPAPI/2.0")
                .set_body_string(body);
        }
        self.0.response()
    }
}

struct Routed {
    story: std::sync::Arc<Story>,
    route: Route,
}

impl Respond for Routed {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        self.story.answer(self.route, request)
    }
}

impl Story {
    fn answer(&self, route: Route, request: &Request) -> ResponseTemplate {
        let segments: Vec<&str> = request.url.path_segments().map(Iterator::collect).unwrap_or_default();
        if let Route::Artifacts = route {
            let run_id = segments.get(5).and_then(|id| id.parse::<u64>().ok());
            return match run_id.and_then(|id| self.runs_by_id.get(&id)) {
                Some(run) => self.json(&self.artifacts(run)),
                None => self.error(404, "Not Found", "actions/artifacts#list-workflow-run-artifacts"),
            };
        }
        if let Route::Run = route {
            let run_id = segments.get(5).and_then(|id| id.parse::<u64>().ok());
            return match run_id.and_then(|id| self.runs_by_id.get(&id)) {
                Some(run) => self.conditional(request, run),
                None => self.error(404, "Not Found", "actions/workflow-runs#get-a-workflow-run"),
            };
        }
        if let Route::Pull = route {
            let number = segments.get(4).and_then(|n| n.parse::<u64>().ok());
            let pull = self
                .pulls
                .values()
                .find(|pull| number.is_some() && pull["number"].as_u64() == number);
            return match pull {
                Some(pull) => self.conditional(request, pull),
                None => self.error(404, "Not Found", "pulls/pulls#get-a-pull-request"),
            };
        }
        if let Route::ArtifactZip = route {
            return self.artifact_zip(request, segments.get(5).copied().unwrap_or_default());
        }
        let key = segments.get(4).copied().unwrap_or_default();
        let Some(runs) = self.runs_by_sha.get(key) else {
            return self.error(
                422,
                &format!("No commit found for SHA: {key}"),
                "commits/commits#get-a-commit",
            );
        };
        let pull = self.pulls.get(key).cloned().unwrap_or(Value::Null);
        match route {
            Route::CombinedStatus => {
                // No commit status on these commits (their checks are check runs): GitHub then answers state
                // `pending` with no statuses.
                let api_repo = runs
                    .first()
                    .and_then(|run| run["repository"]["url"].as_str())
                    .unwrap_or_default();
                let body = json!({
                    "state": "pending",
                    "statuses": [],
                    "sha": key,
                    "total_count": 0,
                    "repository": runs.first().map(|run| run["repository"].clone()).unwrap_or(Value::Null),
                    "commit_url": format!("{api_repo}/commits/{key}"),
                    "url": format!("{api_repo}/commits/{key}/status"),
                });
                self.conditional(request, &body)
            }
            Route::Pulls => self.json(&Value::Array(pull.is_object().then_some(pull).into_iter().collect())),
            Route::CheckRuns => {
                let jobs: Vec<(&Value, Value)> = runs
                    .iter()
                    .map(|run| (run, super::run_jobs(&self.jobs_template, run)))
                    .collect();
                self.json(&commits::check_runs(&jobs, &pull))
            }
            _ => {
                let Some(run) = runs.first() else {
                    return self.error(404, "Not Found", "commits/commits#get-a-commit");
                };
                let commit = commits::commit(run);
                let accept = request
                    .headers
                    .get("accept")
                    .and_then(|value| value.to_str().ok())
                    .unwrap_or_default();
                if accept.contains("diff") {
                    self.text(commits::diff(&commit), "diff")
                } else if accept.contains("patch") {
                    let date = rfc2822(run["head_commit"]["timestamp"].as_str());
                    self.text(commits::patch(&commit, &date), "patch")
                } else {
                    self.json(&commit)
                }
            }
        }
    }

    /// `302 Found` to the artifact's signed URL on `localhost` (see the module docs), or GitHub's `404` for an
    /// artifact no run of the fixtures uploaded.
    fn artifact_zip(&self, request: &Request, id: &str) -> ResponseTemplate {
        let artifact = id.parse::<u64>().ok().and_then(|id| {
            let run = self.runs_by_id.get(&(id / 10))?;
            let listed = self.artifacts(run);
            let artifact = listed["artifacts"]
                .as_array()?
                .iter()
                .find(|artifact| artifact["id"] == id)?;
            Some((run, artifact["name"].as_str()?.to_owned()))
        });
        let Some((run, name)) = artifact else {
            return self.error(404, "Not Found", "actions/artifacts#download-an-artifact");
        };
        // wiremock's `Request::url` has no port (it is rebuilt as `http://localhost/...`); the Host header has it.
        let port = request
            .headers
            .get("host")
            .and_then(|host| host.to_str().ok())
            .and_then(|host| host.rsplit_once(':'))
            .and_then(|(_, port)| port.parse::<u16>().ok())
            .unwrap_or(80);
        let expires = plus_90_days(run["updated_at"].as_str());
        let location = format!(
            "http://localhost:{port}/artifact-blobs/{id}/{name}.zip?sv=2021-08-06&spr=https&se={expires}&sr=b&sp=r\
             &sig=Zm9yIHRoZSByZWNvcmRlZCB1cHN0cmVhbSBvbmx5"
        );
        self.headers
            .iter()
            .fold(ResponseTemplate::new(302), |response, (name, value)| {
                response.append_header(name.as_str(), value.as_str())
            })
            .append_header("Location", location.as_str())
    }

    /// The artifacts `run` uploaded ([`commits::artifacts`] of its derived jobs).
    fn artifacts(&self, run: &Value) -> Value {
        let jobs = super::run_jobs(&self.jobs_template, run);
        commits::artifacts(run, &jobs, &plus_90_days(run["updated_at"].as_str()))
    }

    fn base(&self, status: u16, content_type: &str) -> ResponseTemplate {
        self.headers
            .iter()
            .fold(ResponseTemplate::new(status), |response, (name, value)| {
                response.append_header(name.as_str(), value.as_str())
            })
            .append_header("Content-Type", content_type)
    }

    fn json(&self, body: &Value) -> ResponseTemplate {
        self.base(200, "application/json; charset=utf-8")
            .set_body_bytes(serde_json::to_vec(body).unwrap_or_default())
    }

    /// [`Story::json`] with an `ETag` (a hash of the body), or `304 Not Modified` when the request's
    /// `If-None-Match` names it, as GitHub answers conditional requests.
    fn conditional(&self, request: &Request, body: &Value) -> ResponseTemplate {
        use std::hash::{Hash, Hasher};
        let bytes = serde_json::to_vec(body).unwrap_or_default();
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        bytes.hash(&mut hasher);
        let etag = format!("W/\"{:016x}\"", hasher.finish());
        let matches = request
            .headers
            .get("if-none-match")
            .and_then(|value| value.to_str().ok())
            .is_some_and(|sent| sent == etag);
        if matches {
            return self
                .base(304, "application/json; charset=utf-8")
                .append_header("ETag", etag.as_str());
        }
        self.json(body).append_header("ETag", etag.as_str())
    }

    fn text(&self, body: String, param: &str) -> ResponseTemplate {
        self.base(200, &format!("application/vnd.github.{param}; charset=utf-8"))
            .set_body_bytes(body.into_bytes())
    }

    fn error(&self, status: u16, message: &str, doc: &str) -> ResponseTemplate {
        let body = json!({
            "message": message,
            "documentation_url": format!("https://docs.github.com/rest/{doc}"),
            "status": status.to_string(),
        });
        self.base(status, "application/json; charset=utf-8")
            .set_body_bytes(serde_json::to_vec(&body).unwrap_or_default())
    }
}

/// RFC 3339 `at` plus GitHub's default artifact retention (90 days), RFC 3339 again; `at` itself when it does not
/// parse.
fn plus_90_days(at: Option<&str>) -> String {
    let at = at.unwrap_or_default();
    at.parse::<jiff::Timestamp>()
        .ok()
        .and_then(|t| t.checked_add(jiff::SignedDuration::from_hours(24 * 90)).ok())
        .map_or_else(|| at.to_string(), |t| t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string())
}

/// RFC 3339 `at` as an RFC 2822 date in UTC (`Fri, 5 Aug 2022 08:44:49 +0000`), as in a patch's `Date:`.
fn rfc2822(at: Option<&str>) -> String {
    let at = at.unwrap_or_default();
    at.parse::<jiff::Timestamp>().map_or_else(
        |_| at.to_string(),
        |t| t.strftime("%a, %-d %b %Y %H:%M:%S +0000").to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stored answers for run 2802600146 (`docs`, failed) are exactly what the routes derive for it; with
    /// `RECORDED_UPSTREAM_WRITE_FIXTURES` set, they are (re)written first.
    #[test]
    fn the_stored_commit_fixtures_are_the_derived_answers_of_their_run() -> anyhow::Result<()> {
        let all = runs::all()?;
        let run = all
            .iter()
            .find(|run| run["id"] == 2_802_600_146u64)
            .ok_or_else(|| anyhow::anyhow!("run 2802600146 is in github/actions-runs"))?;
        let sha = run["head_sha"].as_str().unwrap_or_default();
        let pull = commits::pull_requests(&all).remove(sha).unwrap_or(Value::Null);
        let template: Value = serde_json::from_slice(fixture("github/run-jobs")?.body)?;
        let jobs = [(run, super::super::run_jobs(&template, run))];
        let commit = commits::commit(run);
        let derived = [
            ("commit-pulls.json", serde_json::to_vec(&json!([pull]))?),
            (
                "commit-check-runs.json",
                serde_json::to_vec(&commits::check_runs(&jobs, &pull))?,
            ),
            ("commit.json", serde_json::to_vec(&commit)?),
            ("commit.diff", commits::diff(&commit).into_bytes()),
            (
                "run-artifacts.json",
                serde_json::to_vec(&commits::artifacts(
                    run,
                    &jobs[0].1,
                    &plus_90_days(run["updated_at"].as_str()),
                ))?,
            ),
        ];
        for (file, bytes) in derived {
            if std::env::var_os("RECORDED_UPSTREAM_WRITE_FIXTURES").is_some() {
                std::fs::write(
                    format!("{}/../fixtures/github/{file}", env!("CARGO_MANIFEST_DIR")),
                    &bytes,
                )?;
            }
            let name = format!("github/{}", file.trim_end_matches(".json"));
            assert_eq!(
                String::from_utf8_lossy(&bytes),
                String::from_utf8_lossy(fixture(&name)?.body),
                "{file}"
            );
        }
        assert_eq!(pull["number"], 2402, "docs is the second branch by name");
        // A failed run whose `Install tox` failed (run id % 4 == 0) never ran its tests: it uploaded nothing.
        let stopped = all
            .iter()
            .find(|run| run["id"] == 3_985_162_764u64)
            .ok_or_else(|| anyhow::anyhow!("run 3985162764 is in github/runs-large"))?;
        let stopped_jobs = super::super::run_jobs(&template, stopped);
        assert!(!commits::tests_ran(&stopped_jobs));
        assert_eq!(commits::artifacts(stopped, &stopped_jobs, "")["total_count"], 0);
        assert!(commits::tests_ran(&jobs[0].1));
        assert_eq!(pull["head"]["ref"], "docs");
        Ok(())
    }
}
