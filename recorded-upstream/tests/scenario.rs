//! The GitHub scenario answers each documented route with the documented fixture.
#![allow(clippy::unwrap_used)]

use recorded_upstream::RecordedUpstream;

async fn get(base: &str, path: &str, token: &str) -> (u16, Vec<u8>) {
    let response = reqwest::Client::new()
        .get(format!("{base}{path}"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), response.bytes().await.unwrap().to_vec())
}

#[tokio::test]
async fn github_scenario_routes() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let base = upstream.uri();
    let body = |name| recorded_upstream::fixture(name).unwrap().body.to_vec();
    let cases = [
        (
            "/repos/octo-org/octo-repo/actions/runs",
            "good",
            200,
            "github/actions-runs",
        ),
        (
            "/repos/octo-org/octo-repo/actions/runs?per_page=100",
            "good",
            200,
            "github/runs-large",
        ),
        (
            "/repos/octo-org/empty-repo/actions/runs",
            "good",
            200,
            "github/actions-runs-empty",
        ),
        (
            "/repos/octo-org/octo-repo/actions/workflows/ci.yml/runs",
            "good",
            200,
            "github/workflow-runs",
        ),
        (
            "/repos/octo-org/octo-repo/actions/runs/1/jobs",
            "good",
            200,
            "github/run-jobs",
        ),
        (
            "/repos/octo-org/octo-repo/actions/runs/2802600146/jobs",
            "good",
            200,
            "github/run-jobs-failure",
        ),
        ("/repos/octo-org/missing/actions/runs", "good", 404, "github/error-404"),
        (
            "/repos/rate-limited/octo-repo/actions/runs",
            "good",
            403,
            "github/error-403-rate-limit",
        ),
        (
            "/repos/abuse/octo-repo/actions/runs",
            "good",
            403,
            "github/error-403-secondary-rate-limit",
        ),
        (
            "/repos/octo-org/octo-repo/actions/runs",
            "bad-token",
            401,
            "github/error-401",
        ),
    ];
    for (path, token, status, name) in cases {
        let (got_status, got_body) = get(&base, path, token).await;
        assert_eq!(got_status, status, "{path}");
        assert_eq!(got_body, body(name), "{path} serves {name}");
    }
}

#[tokio::test]
async fn circleci_scenario_routes() {
    let upstream = RecordedUpstream::github().await.unwrap();
    upstream.mount_circleci().await.unwrap();
    let base = upstream.uri();
    let body = |name| recorded_upstream::fixture(name).unwrap().body.to_vec();
    for (path, status, name) in [
        ("/api/v2/me", 200, "circleci/me"),
        (
            "/api/v2/project/gh/octo-org/octo-repo/pipeline",
            200,
            "circleci/pipelines",
        ),
        ("/api/v2/pipeline/5034460f/workflow", 200, "circleci/pipeline-workflows"),
        ("/api/v2/workflow/fda08377/job", 200, "circleci/workflow-jobs"),
        (
            "/api/v2/project/gh/octo-org/missing/pipeline",
            404,
            "circleci/error-404",
        ),
        ("/api/v2/project/gh/octo-org/missing", 404, "circleci/error-404"),
    ] {
        assert_eq!(get(&base, path, "t").await, (status, body(name)), "{path}");
    }
    let (status, large) = get(&base, "/api/v2/project/gh/octo-org/busy/pipeline", "t").await;
    assert_eq!(status, 200);
    let large: serde_json::Value = serde_json::from_slice(&large).unwrap();
    assert_eq!(
        large["items"].as_array().unwrap().len(),
        recorded_upstream::circleci::LARGE_PIPELINES
    );
    // The GitHub scenario still answers beside it.
    assert_eq!(get(&base, "/repos/octo-org/octo-repo/actions/runs", "t").await.0, 200);
}

async fn get_json(base: &str, path: &str) -> (u16, serde_json::Value) {
    let (status, body) = get(base, path, "t").await;
    (status, serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null))
}

/// The three vendors tell one story: each failed run of the two-page listing has its own jobs (one failed), a
/// CircleCI pipeline for the same commit (except on dependabot branches), and the Jira keys of its commit message
/// are served (but `EX-404`).
#[tokio::test]
async fn every_vendor_agrees_on_the_failed_runs() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let base = upstream.uri();
    let runs_path = "/repos/octo-org/octo-repo/actions/runs?per_page=100";
    let page2 = reqwest::get(format!("{base}{runs_path}&page=2")).await.unwrap();
    let link = page2.headers()["link"].to_str().unwrap().to_string();
    assert!(
        link.contains("rel=\"prev\"") && !link.contains("rel=\"next\""),
        "page 2 is the last: {link}"
    );
    let page2: serde_json::Value = page2.json().await.unwrap();
    let (_, page1) = get_json(&base, runs_path).await;
    let failed: Vec<serde_json::Value> = [page1, page2]
        .iter()
        .flat_map(|page| page["workflow_runs"].as_array().unwrap().clone())
        .filter(|run| run["conclusion"] == "failure")
        .collect();
    assert_eq!(failed.len(), 22);
    let key_pattern = |message: &str| -> Vec<String> {
        message
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .filter(|word| word.starts_with("EX-") && word[3..].chars().all(|c| c.is_ascii_digit()))
            .map(str::to_string)
            .collect()
    };
    let mut job_ids = std::collections::HashSet::new();
    let mut keys = std::collections::BTreeSet::new();
    let mut with_pipeline = 0;
    for run in &failed {
        let id = run["id"].as_u64().unwrap();
        let sha = run["head_sha"].as_str().unwrap();
        let (status, jobs) = get_json(&base, &format!("/repos/octo-org/octo-repo/actions/runs/{id}/jobs")).await;
        assert_eq!(status, 200);
        let jobs = jobs["jobs"].as_array().unwrap();
        assert!(
            jobs.iter().all(|job| job["run_id"] == id && job["head_sha"] == sha),
            "run {id}"
        );
        assert!(
            jobs.iter()
                .all(|job| job["html_url"].as_str().unwrap().contains(&id.to_string()))
        );
        assert!(
            jobs.iter().all(|job| job_ids.insert(job["id"].as_u64().unwrap())),
            "job ids are distinct"
        );
        let failing: Vec<_> = jobs.iter().filter(|job| job["conclusion"] == "failure").collect();
        assert_eq!(failing.len(), 1, "run {id}");
        let failed_steps = failing[0]["steps"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["conclusion"] == "failure");
        assert_eq!(failed_steps.count(), 1, "run {id}");

        let branch = run["head_branch"].as_str().unwrap();
        let query = reqwest::Url::parse_with_params(
            &format!("{base}/api/v2/project/gh/octo-org/octo-repo/pipeline"),
            [("branch", branch)],
        )
        .unwrap();
        let pipelines: serde_json::Value = reqwest::get(query).await.unwrap().json().await.unwrap();
        let items = pipelines["items"].as_array().unwrap();
        assert!(items.iter().all(|item| item["vcs"]["branch"] == branch));
        let matching = items.iter().filter(|item| item["vcs"]["revision"] == sha).count();
        if branch.starts_with("dependabot/") {
            assert!(items.is_empty(), "{branch}");
        } else {
            assert_eq!(matching, 1, "run {id} on {branch}");
            with_pipeline += 1;
        }
        keys.extend(key_pattern(run["head_commit"]["message"].as_str().unwrap()));
    }
    assert!(with_pipeline >= 15, "{with_pipeline}");
    assert_eq!(
        keys.iter().map(String::as_str).collect::<Vec<_>>(),
        ["EX-1", "EX-4", "EX-404", "EX-5"]
    );
    for key in &keys {
        let (status, issue) = get_json(&base, &format!("/rest/api/3/issue/{key}?fields=status%2Cassignee")).await;
        if key == "EX-404" {
            assert_eq!(status, 404);
            continue;
        }
        assert_eq!(status, 200, "{key}");
        assert_eq!(issue["key"], key.as_str());
        let fields: Vec<&String> = issue["fields"].as_object().unwrap().keys().collect();
        assert_eq!(
            fields,
            ["assignee", "status"],
            "{key}: only the asked fields, in the issue's order"
        );
        let (_, whole) = get_json(&base, &format!("/rest/api/3/issue/{key}")).await;
        assert!(whole["fields"].as_object().unwrap().len() > 2);
    }
}
