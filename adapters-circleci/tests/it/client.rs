//! The CircleCI adapter's requests and errors, against wiremock: token header, paths, query encoding, missing
//! token, body cap.

use crate::support;

use std::time::Duration;

use adapters_circleci::{CircleciClient, CircleciConfig, CircleciError, GetRequest};
use adapters_http::{ClientOptions, HttpError, HttpOptions, Secret, SettingNames};
use recorded_upstream::fixture;
use support::{TOKEN, client_with, get};
use wiremock::matchers::{header, method, path, query_param};
use wiremock::{Mock, MockServer};

#[tokio::test]
async fn sends_the_token_as_circle_token_and_keeps_exact_numbers() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/api/v2/project/gh/CircleCI-Public/api-preview-docs/pipeline"))
        .and(header("circle-token", TOKEN))
        .and(header("accept", "application/json"))
        .respond_with(fixture("circleci/pipelines").expect("fixture").response())
        .expect(1)
        .mount(&server)
        .await;
    let client = client_with(&server, Some(TOKEN), None);
    let got = get(
        &client,
        "project/gh/CircleCI-Public/api-preview-docs/pipeline",
        "alice",
        false,
    )
    .await;
    let expected: serde_json::Value =
        serde_json::from_slice(fixture("circleci/pipelines").expect("fixture").body).expect("fixture JSON");
    assert_eq!(got.body.as_data(), Some(&expected));
    assert!(
        got.body.as_data().unwrap()["next_page_token"].is_string(),
        "the continuation stays inside data"
    );
    assert!(!got.cache.hit);
    server.verify().await;
}

#[tokio::test]
async fn page_token_is_encoded_exactly_once() {
    let server = MockServer::start().await;
    let token = "AARLwwV0+lQ1i/YyRy9k==";
    Mock::given(method("GET"))
        .and(path("/api/v2/project/gh/o/r/pipeline"))
        .and(query_param("page-token", token))
        .and(query_param("branch", "feature/a b"))
        .respond_with(fixture("circleci/pipelines").expect("fixture").response())
        .expect(1)
        .mount(&server)
        .await;
    let client = client_with(&server, Some(TOKEN), None);
    let query = vec![
        ("branch".to_owned(), "feature/a b".to_owned()),
        ("page-token".to_owned(), token.to_owned()),
    ];
    client
        .get(&GetRequest::new("/api/v2/project/gh/o/r/pipeline", "alice").with_query(&query))
        .await
        .expect("page 2");
    let received = server.received_requests().await.expect("recording");
    assert_eq!(
        received[0].url.query(),
        Some("branch=feature%2Fa+b&page-token=AARLwwV0%2BlQ1i%2FYyRy9k%3D%3D")
    );
    server.verify().await;
}

#[tokio::test]
async fn missing_token_sends_nothing_and_names_the_setting() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(fixture("circleci/me").expect("fixture").response())
        .expect(0)
        .mount(&server)
        .await;
    let client = client_with(&server, None, None);
    let err = client
        .get(&GetRequest::new("/me", "alice"))
        .await
        .expect_err("no token");
    // The library names its own field; a host gives its setting names in `setting_names` (next test).
    assert!(
        matches!(
            err,
            CircleciError::Http(HttpError::MissingCredential { setting: "token", .. })
        ),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "token is not set: set it to a CircleCI personal API token (User Settings → Personal API Tokens)"
    );
    assert_eq!((err.info().code.as_str(), err.status()), ("invalid_setting", None));
    let err = client.job_details("gh/o/r", 1).await.expect_err("no token");
    assert!(err.to_string().starts_with("token is not set"), "{err}");
    server.verify().await;
}

#[tokio::test]
async fn another_host_is_refused_without_sending() {
    let server = MockServer::start().await;
    let elsewhere = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(fixture("circleci/me").expect("fixture").response())
        .expect(0)
        .mount(&elsewhere)
        .await;
    let client = client_with(&server, Some(TOKEN), None);
    let path = format!("{}/api/v2/me", elsewhere.uri());
    let err = client
        .get(&GetRequest::new(&path, "alice"))
        .await
        .expect_err("foreign host");
    assert!(
        matches!(err, CircleciError::Http(HttpError::ForeignHost { .. })),
        "{err:?}"
    );
    elsewhere.verify().await;
}

#[tokio::test]
async fn a_body_over_the_cap_is_a_clear_error() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(fixture("circleci/pipelines").expect("fixture").response())
        .expect(1)
        .mount(&server)
        .await;
    let client = CircleciClient::new(
        CircleciConfig::default().with_http(
            HttpOptions::new(format!("{}/api/v2", server.uri()))
                .with_credential(Some(Secret::new(TOKEN)))
                .with_setting_names(
                    SettingNames::default()
                        .with_base("CIRCLECI_API_BASE")
                        .with_credential("CIRCLECI_TOKEN")
                        .with_max_body("HTTP_MAX_BODY_BYTES"),
                )
                .with_client(
                    ClientOptions::default()
                        .with_timeout(Duration::from_secs(10))
                        .with_max_body_bytes(1024),
                ),
        ),
        None,
    )
    .expect("client");
    let err = client
        .get(&GetRequest::new("/project/gh/o/r/pipeline", "alice"))
        .await
        .expect_err("too large");
    assert_eq!(
        err.to_string(),
        "the CircleCI API response is larger than 1024 bytes (setting HTTP_MAX_BODY_BYTES): ask for less (fewer items per page, a narrower path) or raise HTTP_MAX_BODY_BYTES"
    );
    server.verify().await;
}

#[test]
fn debug_never_shows_the_token() {
    let http = HttpOptions::new(adapters_circleci::DEFAULT_API_BASE).with_credential(Some(Secret::new(TOKEN)));
    let client = CircleciClient::new(CircleciConfig::default().with_http(http), None).expect("client");
    let debug = format!("{client:?}");
    assert!(!debug.contains(TOKEN), "{debug}");
    assert_eq!(client.api_base(), "https://circleci.com/api/v2");
}

#[test]
fn artifact_hosts_that_are_not_host_names_fail_the_client_naming_the_setting() {
    for bad in [
        "https://artifacts.example.com",
        "artifacts.example.com:8443",
        "*.example.com",
    ] {
        let config = CircleciConfig::default()
            .with_artifact_hosts(vec!["ok.example.com".to_owned(), bad.to_owned()])
            .with_artifact_hosts_setting("CIRCLECI_ARTIFACT_HOSTS");
        let err = CircleciClient::new(config, None).expect_err(bad).to_string();
        assert!(
            err.starts_with("invalid CIRCLECI_ARTIFACT_HOSTS: ") && err.contains(bad),
            "{err}"
        );
    }
    let config =
        CircleciConfig::default().with_artifact_hosts(vec![" artifacts.example.com ".to_owned(), "::1".to_owned()]);
    assert!(CircleciClient::new(config, None).is_ok());
}

#[tokio::test]
async fn an_artifact_on_the_api_origin_gets_the_token_and_its_refusal_says_so() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/output/job/1/artifacts/0/a.zip"))
        .and(header("circle-token", TOKEN))
        .respond_with(wiremock::ResponseTemplate::new(200).set_body_raw(b"PK".to_vec(), "application/zip"))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/output/job/1/artifacts/0/gone.zip"))
        .respond_with(wiremock::ResponseTemplate::new(404).set_body_raw(
            format!(r#"{{"message":"no artifact for {TOKEN}"}}"#).into_bytes(),
            "application/json",
        ))
        .mount(&server)
        .await;
    let client = client_with(&server, Some(TOKEN), None);
    let download = client
        .artifact(&format!("{}/output/job/1/artifacts/0/a.zip", server.uri()))
        .await
        .expect("artifact");
    assert!(download.credential_sent());
    let err = client
        .artifact(&format!("{}/output/job/1/artifacts/0/gone.zip", server.uri()))
        .await
        .expect_err("404");
    assert!(matches!(err, CircleciError::ArtifactRefused { .. }), "{err:?}");
    assert_eq!(err.status(), Some(404));
    let text = err.to_string();
    assert!(
        text.starts_with(&format!(
            "the artifact host {} answered 404 Not Found: no artifact for [redacted token]",
            server.uri()
        )) && text.contains("token was sent and could not read this artifact")
            && text.contains("or the artifact is no longer stored"),
        "{text}"
    );
    assert!(!text.contains(TOKEN));
}
