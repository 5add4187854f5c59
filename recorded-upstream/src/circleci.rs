//! The recorded CircleCI API v2 scenario, mounted under `/api/v2` (so it can share a server with the GitHub
//! scenario; point `CIRCLECI_API_BASE` at `<uri>/api/v2`).
//!
//! Routes (all `GET`; `{vcs}/{org}/{repo}` is any project slug):
//! - `/api/v2/me` → `circleci/me` (no cache headers: the default TTL applies);
//! - `/api/v2/project/{vcs}/{org}/missing[/...]` → `circleci/error-404` (`Project not found`);
//! - `/api/v2/project/{vcs}/{org}/busy/pipeline` → [`large_pipelines`]: 100 pipelines (about 100 KB), for
//!   oversized results;
//! - `/api/v2/project/{vcs}/{org}/{repo}/pipeline?branch={b}` → [`branch_pipelines`]: one pipeline per GitHub
//!   run on branch `{b}` in the runs fixtures (same commit SHA in `vcs.revision`), none for `dependabot/` branches
//!   (this project does not build them), one page (`next_page_token: null`);
//! - `/api/v2/project/{vcs}/{org}/{repo}/pipeline` → `circleci/pipelines` (3 pipelines, a `next_page_token`);
//! - `/api/v2/pipeline/{id}/workflow` → `circleci/pipeline-workflows`;
//! - `/api/v2/workflow/{id}/job` → `circleci/workflow-jobs`.

use serde_json::{Value, json};
use wiremock::matchers::{method, path, path_regex, query_param_contains};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

use crate::fixture::fixture;
use crate::runs;

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
            3,
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
    Mock::given(method("GET"))
        .and(path_regex(format!("{project}/{SEGMENT}/pipeline$")))
        .and(query_param_contains("branch", ""))
        .respond_with(PipelinesOfBranch {
            runs: runs::all()?,
            template: serde_json::from_slice(fixture("circleci/pipelines")?.body)?,
        })
        .with_priority(2)
        .mount(server)
        .await;
    Ok(())
}

/// Answers `GET /api/v2/project/{slug}/pipeline?branch=…` with [`branch_pipelines`].
struct PipelinesOfBranch {
    runs: Vec<Value>,
    template: Value,
}

impl Respond for PipelinesOfBranch {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let branch = request
            .url
            .query_pairs()
            .find(|(name, _)| name == "branch")
            .map(|(_, value)| value.into_owned())
            .unwrap_or_default();
        let slug = request
            .url
            .path()
            .trim_start_matches("/api/v2/project/")
            .trim_end_matches("/pipeline")
            .to_string();
        ResponseTemplate::new(200).set_body_json(branch_pipelines(&self.template, &self.runs, &slug, &branch))
    }
}

/// The pipelines of project `slug` on `branch`, newest first, one per run of `runs` (the GitHub runs fixtures) on
/// that branch with a distinct `head_sha`, except on `dependabot/` branches (none). Each is an item of `template`
/// (the body of `circleci/pipelines`) rewritten for its run: `id` `c1c1c1c1-0000-4000-8000-<run id>`, `number`
/// 5000 + the run's position among all runs by creation time, `created_at`/`updated_at`/`trigger.received_at` the
/// run's `created_at`, `vcs.revision` its `head_sha`, `vcs.branch`, `vcs.commit` subject and body from its head
/// commit message, and `state` `errored` (with the template's config error) when `run id % 5 == 0`, else
/// `created`. `next_page_token` is `null`.
pub fn branch_pipelines(template: &Value, runs: &[Value], slug: &str, branch: &str) -> Value {
    let created = &template["items"][0];
    let errored = &template["items"][2];
    let repo_url = format!(
        "https://github.com/{}",
        slug.split('/').skip(1).collect::<Vec<_>>().join("/")
    );
    let mut by_age: Vec<&Value> = runs.iter().collect();
    by_age.sort_by_key(|run| run["created_at"].as_str().unwrap_or_default().to_string());
    let mut seen = std::collections::HashSet::new();
    let mut items: Vec<(String, Value)> = Vec::new();
    for (position, run) in by_age.iter().enumerate() {
        let sha = run["head_sha"].as_str().unwrap_or_default();
        if run["head_branch"] != branch || branch.starts_with("dependabot/") || !seen.insert(sha.to_string()) {
            continue;
        }
        let run_id = run["id"].as_u64().unwrap_or_default();
        let failed_config = run_id.is_multiple_of(5);
        let mut item = if failed_config {
            errored.clone()
        } else {
            created.clone()
        };
        let at = run["created_at"].as_str().unwrap_or_default().replace('Z', ".000Z");
        let message = run["head_commit"]["message"].as_str().unwrap_or_default();
        let (subject, body) = message.split_once('\n').unwrap_or((message, ""));
        item["id"] = json!(format!("c1c1c1c1-0000-4000-8000-{run_id:012}"));
        item["project_slug"] = json!(slug);
        item["number"] = json!(5000 + position);
        item["state"] = json!(if failed_config { "errored" } else { "created" });
        item["created_at"] = json!(at);
        item["updated_at"] = json!(at);
        item["trigger"]["received_at"] = json!(at);
        item["trigger"]["type"] = json!("webhook");
        item["vcs"] = json!({
            "origin_repository_url": repo_url,
            "target_repository_url": repo_url,
            "revision": sha,
            "provider_name": "GitHub",
            "commit": {"body": body.trim(), "subject": subject},
            "branch": branch,
        });
        items.push((at, item));
    }
    items.sort_by(|a, b| b.0.cmp(&a.0));
    json!({"items": items.into_iter().map(|(_, item)| item).collect::<Vec<_>>(), "next_page_token": null})
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
