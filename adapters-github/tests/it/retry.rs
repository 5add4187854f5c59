//! GitHub's rate-limit rules on top of the shared retry policy, against wiremock with the simulated retry timer.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use adapters_github::{GithubClient, GithubConfig, GithubError, ListWorkflowRunsParams};
use adapters_http::{ClientOptions, HttpOptions, RetryTimer, Secret};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

const TOKEN: &str = "ghp_RETRYSECRET";

async fn runs_after(
    first: ResponseTemplate,
    times: u64,
) -> (Result<adapters_github::Page, GithubError>, usize, Vec<Duration>) {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(first)
        .up_to_n_times(times)
        .with_priority(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .respond_with(
            ResponseTemplate::new(200).set_body_raw(r#"{"total_count":0,"workflow_runs":[]}"#, "application/json"),
        )
        .with_priority(2)
        .mount(&server)
        .await;
    let timer = RetryTimer::simulated();
    let client = GithubClient::new(
        GithubConfig::default()
            .with_http(
                HttpOptions::new(server.uri())
                    .with_credential(Some(Secret::new(TOKEN)))
                    .with_client(ClientOptions::default().with_timeout(Duration::from_secs(30))),
            )
            .with_retry_timer(timer.clone()),
    )
    .expect("client");
    let params = ListWorkflowRunsParams::new("o", "r");
    let result = client.list_workflow_runs(&params).await;
    let requests = server.received_requests().await.map_or(0, |r| r.len());
    (result, requests, timer.waits())
}

fn epoch_in(secs: u64) -> String {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).expect("clock").as_secs();
    (now + secs).to_string()
}

#[tokio::test]
async fn primary_limit_resetting_after_the_timeout_fails_fast_with_the_reset_time() {
    let reset = epoch_in(3000);
    let limited = ResponseTemplate::new(403)
        .insert_header("x-ratelimit-remaining", "0")
        .insert_header("x-ratelimit-reset", reset.as_str())
        .set_body_raw(
            r#"{"message":"API rate limit exceeded for user ID 1."}"#,
            "application/json",
        );
    let (result, requests, waits) = runs_after(limited, 100).await;
    let err = result.expect_err("rate limited");
    assert!(matches!(err, GithubError::RateLimited { .. }), "{err:?}");
    assert_eq!(requests, 1, "not retried past the cap");
    assert!(waits.is_empty());
    let text = err.to_string();
    assert!(text.contains("Resets at ") && text.contains(" s)."), "{text}");
    assert!(!text.contains(TOKEN));
}

#[tokio::test]
async fn primary_limit_resetting_soon_is_waited_for() {
    let reset = epoch_in(5);
    let limited = ResponseTemplate::new(403)
        .insert_header("x-ratelimit-remaining", "0")
        .insert_header("x-ratelimit-reset", reset.as_str())
        .set_body_raw(r#"{"message":"API rate limit exceeded"}"#, "application/json");
    let (result, requests, waits) = runs_after(limited, 1).await;
    result.expect("the read succeeds after the reset");
    assert_eq!(requests, 2);
    assert_eq!(waits.len(), 1);
    assert!(
        waits[0] >= Duration::from_secs(3) && waits[0] <= Duration::from_secs(5),
        "{waits:?}"
    );
}

#[tokio::test]
async fn secondary_limit_is_a_rate_limit_and_waits_a_minute_or_its_retry_after() {
    let body =
        r#"{"message":"You have exceeded a secondary rate limit. Please wait a few minutes before you try again."}"#;
    // No Retry-After: GitHub asks for at least a minute, more than the 30 s call: reported at once.
    let (result, requests, waits) =
        runs_after(ResponseTemplate::new(403).set_body_raw(body, "application/json"), 100).await;
    let err = result.expect_err("rate limited");
    assert!(matches!(err, GithubError::RateLimited { .. }), "not Forbidden: {err:?}");
    assert!(
        err.to_string()
            .starts_with("GitHub API rate limit exceeded: You have exceeded a secondary rate limit.")
    );
    assert_eq!((requests, waits.len()), (1, 0));
    // With Retry-After: 2 the wait fits, and the read goes through.
    let limited = ResponseTemplate::new(403)
        .insert_header("retry-after", "2")
        .set_body_raw(body, "application/json");
    let (result, requests, waits) = runs_after(limited, 1).await;
    result.expect("retried after 2 s");
    assert_eq!((requests, waits), (2, vec![Duration::from_secs(2)]));
}

#[tokio::test]
async fn unavailable_with_a_long_retry_after_says_how_long() {
    let unavailable = ResponseTemplate::new(503).insert_header("retry-after", "600");
    let (result, requests, _) = runs_after(unavailable, 100).await;
    let err = result.expect_err("503");
    assert_eq!(requests, 1);
    assert_eq!(
        err.to_string(),
        "GitHub API 503 Service Unavailable: Service Unavailable — GitHub asked to retry after 600 s"
    );
}
