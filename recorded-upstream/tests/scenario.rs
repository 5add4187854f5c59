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
