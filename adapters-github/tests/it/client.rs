//! End-to-end tests of `GithubClient` against wiremock serving the recorded fixtures.

use crate::support;

use std::time::Duration;

use adapters_github::{
    GithubClient, GithubConfig, GithubError, JobFilter, ListWorkflowJobsParams, ListWorkflowRunsParams, WorkflowId,
};
use adapters_http::{ClientOptions, HttpError, HttpOptions, RetryTimer, Secret, SettingNames};
use support::{Fixture, response};
use wiremock::matchers::{header, method, path, query_param, query_param_is_missing};
use wiremock::{Mock, MockServer, ResponseTemplate};

const TOKEN: &str = "ghp_TESTSECRETtoken1234567890";

/// The server as the API base, the token, the host's setting names, a test user agent, a 10 s timeout.
fn options(server: &MockServer) -> HttpOptions {
    HttpOptions::new(server.uri())
        .with_credential(Some(Secret::new(TOKEN)))
        // The host's names for the settings errors point at (the bundled server's); the default is the field names.
        .with_setting_names(
            SettingNames::default()
                .with_base("GITHUB_API_BASE")
                .with_credential("GITHUB_TOKEN")
                .with_max_body("HTTP_MAX_BODY_BYTES"),
        )
        .with_client(limits())
}

fn limits() -> ClientOptions {
    ClientOptions::default()
        .with_user_agent("mcp-devtools-test/1.0")
        .with_timeout(Duration::from_secs(10))
}

/// A client of `http`, with the simulated retry timer.
fn client_of(http: HttpOptions) -> GithubClient {
    GithubClient::new(
        GithubConfig::default()
            .with_http(http)
            .with_retry_timer(RetryTimer::simulated()),
    )
    .expect("client")
}

fn client(server: &MockServer) -> GithubClient {
    client_of(options(server))
}

fn runs(owner: &str, repo: &str) -> ListWorkflowRunsParams {
    ListWorkflowRunsParams::new(owner, repo)
}

fn jobs(run_id: u64) -> ListWorkflowJobsParams {
    ListWorkflowJobsParams::new("octo-org", "octo-repo", run_id)
}

/// Asserts the token appears in neither Display nor Debug of the error.
fn assert_no_secret(err: &GithubError) {
    let text = format!("{err} {err:?}");
    assert!(!text.contains(TOKEN), "token leaked: {text}");
    assert!(!text.contains("TESTSECRET"), "token leaked: {text}");
}

async fn error_for(fixture: &str) -> GithubError {
    error_after(fixture, 1).await
}

/// The error for `fixture`, checking that it took `requests` requests (retries included).
async fn error_after(fixture: &str, requests: u64) -> GithubError {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/repos/octo-org/octo-repo/actions/runs"))
        .respond_with(response(fixture))
        .expect(requests)
        .mount(&server)
        .await;
    let err = client(&server)
        .list_workflow_runs(&runs("octo-org", "octo-repo"))
        .await
        .expect_err("error status");
    assert_no_secret(&err);
    err
}

#[tokio::test]
async fn lists_runs_with_next_page_from_link_and_exact_ids() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/repos/octo-org/octo-repo/actions/runs"))
        .respond_with(response("actions-runs"))
        .expect(1)
        .mount(&server)
        .await;
    let page = client(&server)
        .list_workflow_runs(&runs("octo-org", "octo-repo"))
        .await
        .expect("page");
    assert_eq!(page.next_page, Some(2));
    assert_eq!(page.data(), Some(&Fixture::load("actions-runs").json()));
    assert_eq!(page.data().expect("JSON")["total_count"].as_u64(), Some(593));
    let ids: Vec<u64> = page.data().expect("JSON")["workflow_runs"]
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|r| r["id"].as_u64())
        .collect();
    assert_eq!(ids.len(), 4);
    assert_eq!(ids[0], 3_519_037_359);
    // Key order is upstream order.
    let keys: Vec<&String> = page.data().expect("JSON").as_object().expect("object").keys().collect();
    assert_eq!(keys, ["total_count", "workflow_runs"]);
    let run_keys: Vec<&String> = page.data().expect("JSON")["workflow_runs"][0]
        .as_object()
        .expect("object")
        .keys()
        .take(3)
        .collect();
    assert_eq!(run_keys, ["id", "name", "node_id"]);
}

#[tokio::test]
async fn large_page() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/repos/octo-org/octo-repo/actions/runs"))
        .and(query_param("per_page", "100"))
        .respond_with(response("runs-large"))
        .mount(&server)
        .await;
    let params = runs("octo-org", "octo-repo").with_per_page(Some(100));
    let page = client(&server).list_workflow_runs(&params).await.expect("page");
    assert_eq!(page.next_page, Some(2));
    assert_eq!(
        page.data().expect("JSON")["workflow_runs"].as_array().map(Vec::len),
        Some(100)
    );
}

#[tokio::test]
async fn workflow_runs_by_numeric_id() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/repos/octo-org/octo-repo/actions/workflows/12794729/runs"))
        .respond_with(response("workflow-runs"))
        .expect(1)
        .mount(&server)
        .await;
    let params = runs("octo-org", "octo-repo").with_workflow_id(Some(WorkflowId::Id(12_794_729)));
    let page = client(&server).list_workflow_runs(&params).await.expect("page");
    assert_eq!(page.next_page, None);
    assert_eq!(page.data(), Some(&Fixture::load("workflow-runs").json()));
}

#[tokio::test]
async fn workflow_runs_by_file_name_is_one_encoded_segment() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/repos/octo-org/octo-repo/actions/workflows/ci.yml/runs"))
        .respond_with(response("workflow-runs"))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path(
            "/repos/octo%20org/octo-repo/actions/workflows/dir%2Fbuild%20it.yml/runs",
        ))
        .respond_with(response("workflow-runs"))
        .expect(1)
        .mount(&server)
        .await;
    let c = client(&server);
    let params = runs("octo-org", "octo-repo").with_workflow_id(Some(WorkflowId::FileName("ci.yml".to_owned())));
    c.list_workflow_runs(&params).await.expect("page");
    let params =
        runs("octo org", "octo-repo").with_workflow_id(Some(WorkflowId::FileName("dir/build it.yml".to_owned())));
    c.list_workflow_runs(&params).await.expect("page");
}

#[tokio::test]
async fn jobs_with_filter() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/repos/octo-org/octo-repo/actions/runs/5313935045/jobs"))
        .and(query_param("filter", "all"))
        .and(query_param("per_page", "5"))
        .and(query_param("page", "1"))
        .respond_with(response("run-jobs"))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/repos/octo-org/octo-repo/actions/runs/5313935045/jobs"))
        .and(query_param("filter", "latest"))
        .and(query_param_is_missing("per_page"))
        .and(query_param_is_missing("page"))
        .respond_with(response("run-jobs"))
        .expect(1)
        .mount(&server)
        .await;
    let c = client(&server);
    let params = jobs(5_313_935_045)
        .with_filter(Some(JobFilter::All))
        .with_per_page(Some(5))
        .with_page(Some(1));
    let page = c.list_workflow_jobs(&params).await.expect("page");
    assert_eq!(page.next_page, None);
    assert_eq!(page.data(), Some(&Fixture::load("run-jobs").json()));
    assert_eq!(page.data().expect("JSON")["jobs"].as_array().map(Vec::len), Some(5));
    let params = jobs(5_313_935_045).with_filter(Some(JobFilter::Latest));
    c.list_workflow_jobs(&params).await.expect("page");
}

#[tokio::test]
async fn empty_page_has_no_next_page() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(response("actions-runs-empty"))
        .mount(&server)
        .await;
    let page = client(&server)
        .list_workflow_runs(&runs("octo-org", "octo-repo"))
        .await
        .expect("page");
    assert_eq!(page.next_page, None);
    assert_eq!(
        page.data(),
        Some(&serde_json::json!({"total_count": 0, "workflow_runs": []}))
    );
}

#[tokio::test]
async fn error_401() {
    let err = error_for("error-401").await;
    assert_eq!(
        err,
        GithubError::Unauthorized {
            message: "Bad credentials (https://docs.github.com/rest)".to_owned(),
            setting: "GITHUB_TOKEN",
        }
    );
    assert_eq!(err.status(), Some(401));
    assert_eq!(
        err.to_string(),
        "GitHub API 401 Unauthorized: Bad credentials (https://docs.github.com/rest) — check that GITHUB_TOKEN is a valid, unexpired token"
    );
}

#[tokio::test]
async fn error_403_primary_rate_limit_reports_reset() {
    // The reset time has passed, so the read is retried (after the 1 s minimum wait) up to 3 attempts.
    let err = error_after("error-403-rate-limit", 3).await;
    let GithubError::RateLimited {
        message,
        reset_at,
        retry_after_secs,
    } = &err
    else {
        panic!("expected RateLimited, got {err:?}");
    };
    assert!(message.starts_with("API rate limit exceeded for xxx.xxx.xxx.xxx. (But here's the good news: Authenticated requests get a higher rate limit."));
    assert!(message.ends_with(" (https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting)"));
    assert_eq!(*reset_at, Some(1_377_013_266));
    assert_eq!(*retry_after_secs, None);
    let text = err.to_string();
    assert!(
        text.starts_with("GitHub API rate limit exceeded: API rate limit exceeded for xxx.xxx.xxx.xxx."),
        "{text}"
    );
    assert!(
        text.ends_with(". Resets at 2013-08-20T15:41:06Z (already passed)."),
        "{text}"
    );
}

#[tokio::test]
async fn error_403_secondary_rate_limit_is_rate_limited_not_forbidden() {
    let err = error_for("error-403-secondary-rate-limit").await;
    assert_eq!(
        err,
        GithubError::RateLimited {
            message: "You have triggered an abuse detection mechanism. Please wait a few minutes before you try again. (https://developer.github.com/v3/#abuse-rate-limits)".to_owned(),
            reset_at: None,
            retry_after_secs: Some(60),
        }
    );
    assert_eq!(
        err.to_string(),
        "GitHub API rate limit exceeded: You have triggered an abuse detection mechanism. Please wait a few minutes before you try again. (https://developer.github.com/v3/#abuse-rate-limits). Retry after 60 s."
    );
}

#[tokio::test]
async fn error_403_plain_is_forbidden() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(403).set_body_raw(
            r#"{"message":"Resource not accessible by integration","documentation_url":"https://docs.github.com/rest/actions/workflow-runs"}"#,
            "application/json",
        ))
        .mount(&server)
        .await;
    let err = client(&server)
        .list_workflow_runs(&runs("o", "r"))
        .await
        .expect_err("403");
    assert_eq!(err.status(), Some(403));
    assert_eq!(
        err.to_string(),
        "GitHub API 403 Forbidden: Resource not accessible by integration (https://docs.github.com/rest/actions/workflow-runs) — check that the token has `actions:read` (or `repo`) scope and access to the repository"
    );
}

#[tokio::test]
async fn error_404() {
    let err = error_for("error-404").await;
    let GithubError::NotFound { message, access } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(
        message,
        "Not Found (https://docs.github.com/rest/reference/actions#get-an-artifact)"
    );
    // The fixture's `X-Accepted-OAuth-Scopes` is empty: nothing is named, the text is the general one.
    assert!(access.accepted_scopes.is_empty());
    assert_eq!(access.token_scopes.as_ref().map(Vec::len), Some(7));
    assert_eq!(err.status(), Some(404));
    assert_eq!(
        err.to_string(),
        "GitHub API 404 Not Found: Not Found (https://docs.github.com/rest/reference/actions#get-an-artifact) — check the owner, repo and ids of the request (a run, job, artifact or workflow id), and that the token can see the repository"
    );
}

#[tokio::test]
async fn error_404_with_status_field() {
    let err = error_for("error-404-with-status").await;
    let GithubError::NotFound { message, access } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(
        message,
        "Branch not found (https://docs.github.com/rest/branches/branches#sync-a-fork-branch-with-the-upstream-repository)"
    );
    // The endpoint accepts `repo` and the token has it: no scope is missing, so none is named.
    assert_eq!(access.accepted_scopes, ["repo"]);
    assert!(!access.lacks_any());
    assert!(!err.to_string().contains("accepts"), "{err}");
}

#[tokio::test]
async fn error_429_is_rate_limited() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(
            ResponseTemplate::new(429)
                .append_header("Retry-After", "17")
                .set_body_raw(r#"{"message":"Too many requests"}"#, "application/json"),
        )
        .mount(&server)
        .await;
    let err = client(&server).list_workflow_jobs(&jobs(1)).await.expect_err("429");
    assert_eq!(
        err,
        GithubError::RateLimited {
            message: "Too many requests".to_owned(),
            reset_at: None,
            retry_after_secs: Some(17),
        }
    );
    assert_no_secret(&err);
}

#[tokio::test]
async fn server_error_with_html_body() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(502).set_body_raw("<html>Bad gateway</html>", "text/html"))
        .mount(&server)
        .await;
    let err = client(&server)
        .list_workflow_runs(&runs("o", "r"))
        .await
        .expect_err("502");
    assert_eq!(
        err,
        GithubError::Upstream {
            status: 502,
            message: "Bad gateway (an HTML page of 24 bytes)".to_owned(),
            retry_after_secs: None,
            errors: None,
        }
    );
    assert_eq!(err.status(), Some(502));
}

#[tokio::test]
async fn missing_token_sends_no_request() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(response("actions-runs"))
        .expect(0)
        .mount(&server)
        .await;
    let c = client_of(options(&server).with_credential(None));
    let err = c
        .list_workflow_runs(&runs("octo-org", "octo-repo"))
        .await
        .expect_err("missing token");
    assert!(
        matches!(
            err,
            GithubError::Http(HttpError::MissingCredential {
                setting: "GITHUB_TOKEN",
                ..
            })
        ),
        "{err:?}"
    );
    assert_eq!(err.status(), None);
    assert_eq!(err.info().code.as_str(), "invalid_setting");
    assert_eq!(
        err.to_string(),
        "GITHUB_TOKEN is not set: set it to a GitHub token with `actions:read` (or `repo`) scope"
    );
    let err = c.list_workflow_jobs(&jobs(1)).await.expect_err("missing");
    assert_eq!(
        err.to_string(),
        "GITHUB_TOKEN is not set: set it to a GitHub token with `actions:read` (or `repo`) scope"
    );
    server.verify().await;
}

#[tokio::test]
async fn invalid_arguments_send_no_request() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(response("actions-runs"))
        .expect(0)
        .mount(&server)
        .await;
    let c = client(&server);
    for params in [
        runs("", "r"),
        runs("o", "r").with_per_page(Some(101)),
        runs("o", "r").with_page(Some(0)),
    ] {
        let err = c.list_workflow_runs(&params).await.expect_err("invalid");
        assert!(matches!(err, GithubError::InvalidArgument { .. }), "{err:?}");
    }
    let err = c
        .list_workflow_jobs(&jobs(1).with_per_page(Some(0)))
        .await
        .expect_err("invalid");
    assert_eq!(err.to_string(), "invalid perPage: must be between 1 and 100, got 0");
    server.verify().await;
}

#[tokio::test]
async fn sends_token_version_accept_and_user_agent() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(header("authorization", format!("Bearer {TOKEN}").as_str()))
        .and(header("x-github-api-version", "2022-11-28"))
        .and(header("accept", "application/vnd.github+json"))
        .and(header("user-agent", "mcp-devtools-test/1.0"))
        .respond_with(response("actions-runs-empty"))
        .expect(2)
        .mount(&server)
        .await;
    let c = client(&server);
    c.list_workflow_runs(&runs("octo-org", "octo-repo"))
        .await
        .expect("headers matched");
    c.list_workflow_jobs(&jobs(1)).await.expect("headers matched");
    server.verify().await;
}

#[tokio::test]
async fn default_user_agent_is_sent() {
    let server = MockServer::start().await;
    let ua = format!("mcp-devtools/{}", env!("CARGO_PKG_VERSION"));
    Mock::given(method("GET"))
        .and(header("user-agent", ua.as_str()))
        .respond_with(response("actions-runs-empty"))
        .expect(1)
        .mount(&server)
        .await;
    let c = GithubClient::new(
        GithubConfig::default().with_http(HttpOptions::new(server.uri()).with_credential(Some(Secret::new(TOKEN)))),
    )
    .expect("client");
    c.list_workflow_runs(&runs("o", "r")).await.expect("ua matched");
}

#[tokio::test]
async fn query_params_only_when_given() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/repos/o/r/actions/runs"))
        .and(query_param("branch", "feature/x y"))
        .and(query_param("status", "failure"))
        .and(query_param("event", "push"))
        .and(query_param("actor", "octocat"))
        .and(query_param("per_page", "2"))
        .and(query_param("page", "3"))
        .respond_with(response("actions-runs-empty"))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/repos/o/r/actions/runs"))
        .and(query_param("branch", "main"))
        .and(query_param_is_missing("status"))
        .and(query_param_is_missing("event"))
        .and(query_param_is_missing("actor"))
        .and(query_param_is_missing("per_page"))
        .and(query_param_is_missing("page"))
        .respond_with(response("actions-runs-empty"))
        .expect(1)
        .mount(&server)
        .await;
    let c = client(&server);
    let full = runs("o", "r")
        .with_branch(Some("feature/x y".to_owned()))
        .with_status(Some("failure".to_owned()))
        .with_event(Some("push".to_owned()))
        .with_actor(Some("octocat".to_owned()))
        .with_per_page(Some(2))
        .with_page(Some(3));
    c.list_workflow_runs(&full).await.expect("full query");
    let partial = runs("o", "r").with_branch(Some("main".to_owned()));
    c.list_workflow_runs(&partial).await.expect("partial query");
    let received = server.received_requests().await.expect("recording");
    assert_eq!(received.len(), 2);
    assert_eq!(received[1].url.query(), Some("branch=main"));
    assert_eq!(
        received[0].url.query(),
        Some("per_page=2&page=3&branch=feature%2Fx+y&status=failure&event=push&actor=octocat")
    );
    server.verify().await;
}

#[tokio::test]
async fn ids_above_2_pow_53_stay_exact() {
    let server = MockServer::start().await;
    let body = r#"{"total_count":1,"workflow_runs":[{"id":9007199254740993,"big":18446744073709551615,"neg":-9223372036854775808,"f":1.5}]}"#;
    Mock::given(method("GET"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_raw(body, "application/json")
                .append_header("x-next-page", "4"),
        )
        .mount(&server)
        .await;
    let page = client(&server).list_workflow_runs(&runs("o", "r")).await.expect("page");
    let run = &page.data().expect("JSON")["workflow_runs"][0];
    assert_eq!(run["id"].as_u64(), Some(9_007_199_254_740_993));
    assert_eq!(run["big"].as_u64(), Some(u64::MAX));
    assert_eq!(run["neg"].as_i64(), Some(i64::MIN));
    assert_eq!(serde_json::to_string(page.data().expect("JSON")).expect("json"), body);
    assert_eq!(page.next_page, Some(4));
}

#[tokio::test]
async fn invalid_json_on_2xx_is_invalid_body() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200).set_body_raw("{\"total_count\": 1, oops", "application/json"))
        .mount(&server)
        .await;
    let err = client(&server)
        .list_workflow_runs(&runs("o", "r"))
        .await
        .expect_err("invalid body");
    assert!(
        matches!(&err, GithubError::Http(HttpError::InvalidJson { status: 200, detail, .. })
            if detail.contains("line 1")),
        "{err:?}"
    );
    assert_eq!(err.status(), Some(200));
    assert!(
        err.to_string()
            .starts_with("GitHub API 200 returned a body that is not valid JSON: ")
    );
    assert_no_secret(&err);
}

#[tokio::test]
async fn transport_error_has_no_secret() {
    // Bind then drop a listener so the port refuses connections.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    drop(listener);
    let c = GithubClient::new(
        GithubConfig::default().with_http(
            HttpOptions::new(base)
                .with_credential(Some(Secret::new(TOKEN)))
                .with_client(ClientOptions::default().with_timeout(Duration::from_secs(5))),
        ),
    )
    .expect("client");
    let err = c
        .list_workflow_runs(&runs("o", "r"))
        .await
        .expect_err("connection refused");
    assert!(matches!(err, GithubError::Http(HttpError::Transport { .. })), "{err:?}");
    assert!(err.to_string().starts_with("could not reach the GitHub API: "), "{err}");
    assert_no_secret(&err);
}

#[tokio::test]
async fn timeout_is_a_transport_error() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(response("actions-runs-empty").set_delay(Duration::from_secs(3)))
        .mount(&server)
        .await;
    let c = client_of(options(&server).with_client(limits().with_timeout(Duration::from_millis(200))));
    let err = c.list_workflow_runs(&runs("o", "r")).await.expect_err("timeout");
    assert_eq!(
        err.to_string(),
        "could not reach the GitHub API: the request timed out after 200 ms — check GITHUB_API_BASE and the network, then try again"
    );
    assert_no_secret(&err);
}

#[tokio::test]
async fn enterprise_base_path_is_kept() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/api/v3/repos/octo-org/octo-repo/actions/runs/7/jobs"))
        .respond_with(response("run-jobs"))
        .expect(1)
        .mount(&server)
        .await;
    let c = client_of(options(&server).with_api_base(format!("{}/api/v3/", server.uri())));
    c.list_workflow_jobs(&jobs(7)).await.expect("page");
}

#[tokio::test]
async fn no_error_mentions_the_token() {
    for (fixture, requests) in [
        ("error-401", 1),
        ("error-403-rate-limit", 3),
        ("error-403-secondary-rate-limit", 1),
        ("error-404", 1),
        ("error-404-with-status", 1),
    ] {
        let err = error_after(fixture, requests).await;
        assert_no_secret(&err);
    }
}

#[tokio::test]
async fn body_over_the_cap_is_body_too_large() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(response("actions-runs"))
        .expect(1)
        .mount(&server)
        .await;
    let c = client_of(options(&server).with_client(limits().with_max_body_bytes(4096)));
    let err = c.list_workflow_runs(&runs("o", "r")).await.expect_err("too large");
    assert_eq!(
        err,
        GithubError::BodyTooLarge {
            limit_bytes: 4096,
            setting: "HTTP_MAX_BODY_BYTES"
        }
    );
    assert!(err.to_string().contains("HTTP_MAX_BODY_BYTES"), "{err}");
    server.verify().await;
}
