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
