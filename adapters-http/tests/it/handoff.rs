//! Handoffs against local servers (127.0.0.1 only): the API answers a GET with a redirect to another origin (as
//! GitHub does for job logs), the other origin is fetched without any credential, and every other redirect rule
//! stays. The log host fails the test when it sees a credential.

use std::time::Duration;

use adapters_http::{Auth, ClientOptions, HttpClient, HttpConfig, HttpError, Secret, Vendor};
use http::{HeaderMap, HeaderName, HeaderValue, Method};
use wiremock::matchers::{header, header_exists, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const SECRET: &str = "tok_SECRET_42";
const SIGNATURE: &str = "sig=SIGNED_9f8e";
const LOG: &str = "2026-01-01T00:00:00.0000000Z ##[group]Run tests\n2026-01-01T00:00:01.0000000Z FAILED\n";
const VENDOR: Vendor = Vendor {
    name: "Test",
    base_setting: "TEST_API_BASE",
    credential_setting: "TEST_TOKEN",
    max_body_setting: "TEST_MAX_BODY_BYTES",
};

fn client(base: &str, auth: Auth) -> HttpClient {
    let mut default_headers = HeaderMap::new();
    default_headers.insert("x-api-version", HeaderValue::from_static("2022-11-28"));
    HttpClient::new(
        HttpConfig::new(VENDOR, base)
            .with_auth(auth)
            .with_default_headers(default_headers)
            .with_client(
                ClientOptions::default()
                    .with_timeout(Duration::from_secs(10))
                    .with_max_body_bytes(4096),
            ),
    )
    .expect("client")
}

fn token() -> Auth {
    Auth::Header {
        name: HeaderName::from_static("x-token"),
        value: Secret::new(SECRET),
    }
}

fn bearer() -> Auth {
    Auth::Bearer(Secret::new(SECRET))
}

/// A log host that answers `/logs/7` and fails the test (on drop) when any request carries a credential or the
/// API's default headers.
async fn log_host(body: &str) -> MockServer {
    let host = MockServer::start().await;
    for name in ["authorization", "x-token", "cookie", "x-api-version"] {
        Mock::given(header_exists(name))
            .respond_with(ResponseTemplate::new(418))
            .with_priority(1)
            .expect(0)
            .named(format!("a credential-less host got `{name}`"))
            .mount(&host)
            .await;
    }
    Mock::given(method("GET"))
        .and(path("/logs/7"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_string(body)
                .insert_header("content-type", "text/plain"),
        )
        .mount(&host)
        .await;
    host
}

/// An API that needs the token and hands `/jobs/7/logs` off to `location`.
async fn api_handing_off(location: &str) -> MockServer {
    let api = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/jobs/7/logs"))
        .and(header("x-token", SECRET))
        .respond_with(ResponseTemplate::new(302).insert_header("location", location))
        .expect(1..)
        .mount(&api)
        .await;
    api
}

/// Every header value a host received, lower-cased names.
async fn seen_headers(server: &MockServer) -> Vec<(String, String)> {
    let requests = server.received_requests().await.unwrap_or_default();
    requests
        .iter()
        .flat_map(|r| {
            r.headers
                .iter()
                .map(|(n, v)| {
                    (
                        n.as_str().to_owned(),
                        String::from_utf8_lossy(v.as_bytes()).into_owned(),
                    )
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

async fn read_all(download: &mut adapters_http::Download) -> Vec<u8> {
    let mut body = Vec::new();
    while let Some(chunk) = download.chunk().await.expect("chunk") {
        body.extend_from_slice(&chunk);
    }
    body
}

#[tokio::test]
async fn a_redirect_to_another_host_is_fetched_without_any_credential() {
    let long = LOG.repeat(200); // 16 KB: past the 4 KiB cap, streamed anyway
    for auth in [token(), bearer()] {
        let logs = log_host(&long).await;
        let location = format!("{}/logs/7?{SIGNATURE}", logs.uri());
        let api = MockServer::start().await;
        Mock::given(method("GET"))
            .and(path("/jobs/7/logs"))
            .respond_with(ResponseTemplate::new(302).insert_header("location", location.as_str()))
            .expect(1)
            .mount(&api)
            .await;
        let http = client(&api.uri(), auth);
        let url = http.url("/jobs/7/logs", &[] as &[(&str, &str)]).unwrap();
        let mut download = http.get_handoff(url).await.expect("handoff");
        assert_eq!(download.status(), 200);
        assert!(download.is_handed_off());
        assert_eq!(download.url().query(), None, "the signature is not kept");
        assert_eq!(read_all(&mut download).await, long.as_bytes());

        let api_seen = seen_headers(&api).await;
        assert!(
            api_seen.iter().any(|(_, v)| v.contains(SECRET)),
            "the API got the credential"
        );
        let seen = seen_headers(&logs).await;
        assert!(seen.iter().any(|(n, _)| n == "user-agent"), "{seen:?}");
        for (name, value) in &seen {
            assert!(!value.contains(SECRET), "the log host got the credential in `{name}`");
        }
        let requests = logs.received_requests().await.unwrap_or_default();
        assert_eq!(requests.len(), 1);
        assert_eq!(
            requests[0].url.query(),
            Some(SIGNATURE),
            "the signed URL is fetched as given"
        );
        logs.verify().await;
    }
}

#[tokio::test]
async fn every_other_request_keeps_the_same_origin_rule() {
    let logs = log_host(LOG).await;
    let api = api_handing_off(&format!("{}/logs/7?{SIGNATURE}", logs.uri())).await;
    let http = client(&api.uri(), token());
    let url = http.url("/jobs/7/logs", &[] as &[(&str, &str)]).unwrap();
    let response = http.send(Method::GET, url, None).await.expect("send");
    assert_eq!(response.status, 302, "send never follows a redirect to another origin");
    assert!(logs.received_requests().await.unwrap_or_default().is_empty());
}

#[tokio::test]
async fn plain_http_to_a_remote_host_is_refused_before_sending() {
    for location in [
        format!("http://logs.example.invalid/logs/7?{SIGNATURE}"),
        format!("ftp://127.0.0.1/logs/7?{SIGNATURE}"),
        format!("https://user:{SECRET}@logs.example.invalid/logs/7"),
    ] {
        let api = api_handing_off(&location).await;
        let http = client(&api.uri(), token());
        let url = http.url("/jobs/7/logs", &[] as &[(&str, &str)]).unwrap();
        let err = http.get_handoff(url).await.expect_err(&location);
        let text = err.to_string();
        assert!(matches!(err, HttpError::RefusedHandoff { .. }), "{location}: {err:?}");
        assert!(!text.contains("SIGNED") && !text.contains(SECRET), "{text}");
    }
}

#[tokio::test]
async fn the_other_hosts_own_redirects_stay_on_its_origin() {
    let third = MockServer::start().await;
    let logs = MockServer::start().await;
    Mock::given(path("/logs/7"))
        .respond_with(ResponseTemplate::new(302).insert_header("location", format!("{}/elsewhere", third.uri())))
        .mount(&logs)
        .await;
    let api = api_handing_off(&format!("{}/logs/7", logs.uri())).await;
    let http = client(&api.uri(), token());
    let url = http.url("/jobs/7/logs", &[] as &[(&str, &str)]).unwrap();
    let download = http.get_handoff(url).await.expect("handoff");
    assert_eq!(download.status(), 302, "one hop to another host, no more");
    assert!(third.received_requests().await.unwrap_or_default().is_empty());
}

#[tokio::test]
async fn an_answer_that_is_not_handed_off_is_returned_as_is() {
    let api = MockServer::start().await;
    Mock::given(path("/jobs/7/logs"))
        .respond_with(ResponseTemplate::new(200).set_body_string(LOG))
        .mount(&api)
        .await;
    Mock::given(path("/jobs/8/logs"))
        .respond_with(ResponseTemplate::new(404).set_body_string(r#"{"message":"Not Found"}"#))
        .mount(&api)
        .await;
    let http = client(&api.uri(), token());
    let url = http.url("/jobs/7/logs", &[] as &[(&str, &str)]).unwrap();
    let mut download = http.get_handoff(url).await.expect("direct");
    assert!(!download.is_handed_off());
    assert_eq!(read_all(&mut download).await, LOG.as_bytes());
    let url = http.url("/jobs/8/logs", &[] as &[(&str, &str)]).unwrap();
    let missing = http
        .get_handoff(url)
        .await
        .expect("404")
        .into_response()
        .await
        .expect("read");
    let err = http.check_status(missing).expect_err("404");
    assert_eq!(err.status(), Some(404));
}

#[tokio::test]
async fn a_handed_out_url_is_fetched_without_credential_and_read_under_the_cap() {
    let logs = log_host(&LOG.repeat(200)).await;
    let http = client("http://127.0.0.1:9/api", token());
    let url = url::Url::parse(&format!("{}/logs/7?{SIGNATURE}", logs.uri())).unwrap();
    let download = http.get_elsewhere(url).await.expect("elsewhere");
    assert!(download.is_handed_off());
    let err = download.into_response().await.expect_err("over the cap");
    assert!(
        matches!(err, HttpError::BodyTooLarge { limit_bytes: 4096, .. }),
        "{err:?}"
    );
    let small = log_host(LOG).await;
    let url = url::Url::parse(&format!("{}/logs/7", small.uri())).unwrap();
    let response = http.get_elsewhere(url).await.unwrap().into_response().await.unwrap();
    assert_eq!(response.body, LOG.as_bytes());
    for bad in ["http://logs.example.invalid/x", "file:///etc/passwd"] {
        let err = http.get_elsewhere(url::Url::parse(bad).unwrap()).await.expect_err(bad);
        assert!(matches!(err, HttpError::RefusedHandoff { .. }), "{bad}");
    }
    logs.verify().await;
    small.verify().await;
}
