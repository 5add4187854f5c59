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

/// A host that needs the credential: `/artifacts/7` answers `401` without `x-token: SECRET`, and `LOG` with it.
async fn private_host() -> MockServer {
    let host = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/artifacts/7"))
        .and(header("x-token", SECRET))
        .respond_with(ResponseTemplate::new(200).set_body_string(LOG))
        .with_priority(1)
        .mount(&host)
        .await;
    Mock::given(method("GET"))
        .and(path("/artifacts/7"))
        .respond_with(ResponseTemplate::new(401).set_body_string(r#"{"message":"You must log in first."}"#))
        .with_priority(2)
        .mount(&host)
        .await;
    host
}

/// `server`'s address with `localhost` for its host: the same server, under a host name nobody vouched for.
fn as_localhost(server: &MockServer, rest: &str) -> url::Url {
    url::Url::parse(&format!("http://localhost:{}{rest}", server.address().port())).unwrap()
}

fn loopback() -> adapters_http::VouchedHosts {
    adapters_http::VouchedHosts::new()
        .with_host("127.0.0.1", "TEST_HOSTS")
        .unwrap()
}

/// The `x-token` values a server received, one per request (`None`: the request had none).
async fn tokens_seen(server: &MockServer) -> Vec<Option<String>> {
    let requests = server.received_requests().await.unwrap_or_default();
    requests
        .iter()
        .map(|r| {
            r.headers
                .get("x-token")
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        })
        .collect()
}

#[tokio::test]
async fn a_vouched_host_gets_the_credential_header_alone_and_no_other_host_gets_it() {
    let host = private_host().await;
    let http = client("http://127.0.0.1:9/api", token());
    let url = url::Url::parse(&format!("{}/artifacts/7", host.uri())).unwrap();
    let mut download = http.get_vouched(url.clone(), &loopback()).await.expect("vouched");
    assert_eq!(download.status(), 200);
    assert!(download.credential_sent() && download.is_handed_off());
    assert_eq!(read_all(&mut download).await, LOG.as_bytes());
    let seen = seen_headers(&host).await;
    assert!(seen.iter().any(|(n, v)| n == "x-token" && v == SECRET), "{seen:?}");
    assert!(
        !seen.iter().any(|(n, _)| n == "x-api-version"),
        "no default header: {seen:?}"
    );

    // The same server under a name nobody vouched for, or a client vouching for nothing: no credential.
    let unvouched = [
        (as_localhost(&host, "/artifacts/7"), loopback()),
        (url, adapters_http::VouchedHosts::new()),
    ];
    for (url, hosts) in unvouched {
        let download = http.get_vouched(url.clone(), &hosts).await.expect("fetched");
        assert_eq!(download.status(), 401, "{url}");
        assert!(!download.credential_sent());
    }
    assert_eq!(tokens_seen(&host).await, [Some(SECRET.to_owned()), None, None]);

    // A client without a credential sends none anywhere.
    let anonymous = client("http://127.0.0.1:9/api", Auth::None);
    let url = url::Url::parse(&format!("{}/artifacts/7", host.uri())).unwrap();
    let download = anonymous.get_vouched(url, &loopback()).await.expect("anonymous");
    assert_eq!(download.status(), 401);
    assert!(!download.credential_sent());
}

#[tokio::test]
async fn a_redirect_from_a_vouched_host_keeps_the_credential_only_on_vouched_hosts() {
    // A (vouched) → B (another origin, vouched) → the log host under `localhost` (not vouched), whose Location
    // carries the token, as a careless host might: it arrives redacted, and no header carries it.
    let logs = log_host(LOG).await;
    let b = MockServer::start().await;
    Mock::given(path("/b"))
        .and(header("x-token", SECRET))
        .respond_with(ResponseTemplate::new(302).insert_header(
            "location",
            as_localhost(&logs, &format!("/logs/7?token={SECRET}&{SIGNATURE}")).as_str(),
        ))
        .expect(1)
        .mount(&b)
        .await;
    let a = MockServer::start().await;
    Mock::given(path("/a"))
        .and(header("x-token", SECRET))
        .respond_with(ResponseTemplate::new(307).insert_header("location", format!("{}/b", b.uri())))
        .expect(1)
        .mount(&a)
        .await;
    let http = client("http://127.0.0.1:9/api", bearer());
    let http_token = client("http://127.0.0.1:9/api", token());
    let url = url::Url::parse(&format!("{}/a", a.uri())).unwrap();
    let mut download = http_token.get_vouched(url, &loopback()).await.expect("followed");
    assert_eq!(download.status(), 200);
    assert!(!download.credential_sent(), "the last host got no credential");
    assert_eq!(download.url().query(), None);
    assert_eq!(read_all(&mut download).await, LOG.as_bytes());
    let requests = logs.received_requests().await.unwrap_or_default();
    assert_eq!(requests.len(), 1);
    let query = requests[0].url.query().unwrap_or_default();
    assert!(
        !query.contains(SECRET) && query.contains("redacted") && query.contains(SIGNATURE),
        "{query}"
    );
    for (name, value) in seen_headers(&logs).await {
        assert!(
            !value.contains(SECRET),
            "the unvouched host got the credential in `{name}`"
        );
    }
    a.verify().await;
    b.verify().await;
    logs.verify().await;

    // A bearer credential is dropped the same way (reqwest would drop `Authorization` itself; the rule is ours).
    let signed = MockServer::start().await;
    Mock::given(path("/signed"))
        .respond_with(ResponseTemplate::new(302).insert_header("location", as_localhost(&logs, "/logs/7").as_str()))
        .mount(&signed)
        .await;
    let url = url::Url::parse(&format!("{}/signed", signed.uri())).unwrap();
    let download = http.get_vouched(url, &loopback()).await.expect("followed");
    assert_eq!(download.status(), 200);
    logs.verify().await;
}

#[tokio::test]
async fn vouched_hosts_keep_the_handoff_rules() {
    let http = client("http://127.0.0.1:9/api", token());
    let remote = adapters_http::VouchedHosts::new().with_domain("example.invalid");
    for bad in [
        "http://artifacts.example.invalid/x",
        "https://user:pw@artifacts.example.invalid/x",
        "ftp://artifacts.example.invalid/x",
    ] {
        let err = http
            .get_vouched(url::Url::parse(bad).unwrap(), &remote)
            .await
            .expect_err(bad);
        assert!(matches!(err, HttpError::RefusedHandoff { .. }), "{bad}: {err:?}");
    }
    // A vouched host's redirect to plain http elsewhere is refused before anything is sent there.
    let host = MockServer::start().await;
    Mock::given(path("/x"))
        .respond_with(ResponseTemplate::new(302).insert_header("location", "http://logs.example.invalid/x?sig=SIGNED"))
        .mount(&host)
        .await;
    let url = url::Url::parse(&format!("{}/x", host.uri())).unwrap();
    let err = http.get_vouched(url, &loopback()).await.expect_err("refused");
    assert!(matches!(err, HttpError::RefusedHandoff { .. }), "{err:?}");
    assert!(!err.to_string().contains("SIGNED"), "{err}");
    // A redirect loop between vouched hosts stops after a few hops with the last answer.
    let a = MockServer::start().await;
    let b = MockServer::start().await;
    for (from, to) in [(&a, &b), (&b, &a)] {
        Mock::given(path("/loop"))
            .respond_with(ResponseTemplate::new(302).insert_header("location", format!("{}/loop", to.uri())))
            .mount(from)
            .await;
    }
    let url = url::Url::parse(&format!("{}/loop", a.uri())).unwrap();
    let download = http.get_vouched(url, &loopback()).await.expect("stopped");
    assert_eq!(download.status(), 302);
    let hops =
        a.received_requests().await.unwrap_or_default().len() + b.received_requests().await.unwrap_or_default().len();
    assert_eq!(hops, 6, "the first request and five hops");
}

#[tokio::test(flavor = "current_thread")]
async fn a_vouched_host_s_refusal_never_shows_or_logs_the_credential() {
    let (logs, _guard) = crate::Captured::install(tracing::Level::TRACE);

    // A host that refuses the token it was sent, quoting it in its body and in a header.
    let host = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(|request: &wiremock::Request| {
            let sent = request
                .headers
                .get("x-token")
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
                .unwrap_or_default();
            ResponseTemplate::new(403)
                .insert_header("x-echo", format!("got {sent}"))
                .set_body_string(format!(r#"{{"message":"token {sent} cannot read this"}}"#))
        })
        .mount(&host)
        .await;
    let http = client("http://127.0.0.1:9/api", token());
    let url = url::Url::parse(&format!("{}/artifacts/7", host.uri())).unwrap();
    let download = http.get_vouched(url, &loopback()).await.expect("answered");
    assert_eq!(download.status(), 403);
    assert!(download.credential_sent());
    assert_eq!(download.headers()["x-echo"], "got [redacted TEST_TOKEN]");
    let response = download.into_response().await.expect("read");
    let text = http.check_status(response).expect_err("403").to_string();
    assert!(
        text.contains("token [redacted TEST_TOKEN] cannot read this") && !text.contains(SECRET),
        "{text}"
    );
    let logged = logs.text();
    assert!(logged.contains("request to another host"), "{logged}");
    assert!(!logged.contains(SECRET), "{logged}");
}

/// GitHub Enterprise Server hands a job log off to a path of its own host (`/_services/…`): that download is the
/// API's own (the credential and the default headers go with it, as when the client's same-origin rule followed
/// it), and it is streamed past the body cap like a download from another host, its signed query shown nowhere; a
/// redirect from there to another origin is still fetched without any credential.
#[tokio::test]
async fn a_redirect_to_the_api_s_own_origin_is_fetched_as_the_api_s_own_and_streamed() {
    let api = MockServer::start().await;
    let elsewhere = log_host(LOG).await;
    let signed = format!("{}/_services/logs/7?{SIGNATURE}", api.uri());
    Mock::given(method("GET"))
        .and(path("/api/v3/jobs/7/logs"))
        .and(header("x-token", SECRET))
        .respond_with(ResponseTemplate::new(302).insert_header("location", signed.as_str()))
        .mount(&api)
        .await;
    Mock::given(method("GET"))
        .and(path("/_services/logs/7"))
        .and(header("x-token", SECRET))
        .and(header("x-api-version", "2022-11-28"))
        .respond_with(ResponseTemplate::new(200).set_body_string(LOG.repeat(200)))
        .expect(1)
        .mount(&api)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/v3/jobs/8/logs"))
        .respond_with(ResponseTemplate::new(302).insert_header("location", "/_services/logs/8"))
        .mount(&api)
        .await;
    let onward = format!("{}/logs/7", elsewhere.uri());
    Mock::given(method("GET"))
        .and(path("/_services/logs/8"))
        .and(header("x-token", SECRET))
        .respond_with(ResponseTemplate::new(302).insert_header("location", onward.as_str()))
        .mount(&api)
        .await;
    let http = client(&format!("{}/api/v3", api.uri()), token());

    let url = http.url("/jobs/7/logs", &[] as &[(&str, &str)]).unwrap();
    let mut download = http.get_handoff(url).await.expect("own origin");
    assert!(!download.is_handed_off());
    assert!(download.credential_sent());
    assert_eq!(download.url().path(), "/_services/logs/7");
    assert!(download.url().query().is_none(), "{}", download.url());
    let body = read_all(&mut download).await;
    assert_eq!(body.len(), LOG.len() * 200, "streamed past the 4096-byte cap");

    let url = http.url("/jobs/8/logs", &[] as &[(&str, &str)]).unwrap();
    let mut download = http.get_handoff(url).await.expect("own origin, then elsewhere");
    assert!(download.is_handed_off());
    assert!(!download.credential_sent());
    assert_eq!(read_all(&mut download).await, LOG.as_bytes());
    api.verify().await;
    elsewhere.verify().await;
}

/// A redirect within the API base's path (a renamed repository's 301 to `/repositories/{id}/…`) is the API itself,
/// not a download: its request is retried like the first (a `503` then the answer), with the credential.
#[tokio::test]
async fn a_redirect_within_the_api_base_is_an_api_request_and_retried() {
    let api = MockServer::start().await;
    let moved = format!("{}/api/v3/repositories/42/actions/runs", api.uri());
    Mock::given(method("GET"))
        .and(path("/api/v3/repos/o/old/actions/runs"))
        .respond_with(ResponseTemplate::new(301).insert_header("location", moved.as_str()))
        .mount(&api)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/v3/repositories/42/actions/runs"))
        .respond_with(ResponseTemplate::new(503).insert_header("retry-after", "0"))
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&api)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/v3/repositories/42/actions/runs"))
        .and(header("x-token", SECRET))
        .respond_with(ResponseTemplate::new(200).set_body_string(r#"{"total_count":0,"workflow_runs":[]}"#))
        .mount(&api)
        .await;
    let http = client(&format!("{}/api/v3", api.uri()), token());
    let url = http.url("/repos/o/old/actions/runs", &[] as &[(&str, &str)]).unwrap();
    let download = http.get_handoff(url).await.expect("moved");
    assert!(!download.is_handed_off());
    let response = download.into_response().await.expect("read");
    assert_eq!(response.status.as_u16(), 200);
    assert_eq!(&response.body[..], br#"{"total_count":0,"workflow_runs":[]}"#);
}
