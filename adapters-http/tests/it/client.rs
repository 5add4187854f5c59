//! The shared HTTP client against local servers (127.0.0.1 only): the body cap on a streamed body, redirects,
//! foreign hosts, and the cache's vendor clearing and bounds.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use adapters_http::{
    Auth, ClientOptions, HttpClient, HttpConfig, HttpError, HttpOptions, Secret, SettingNames, Vendor,
    cache::CacheConfig, cache::CacheRequest, cache::HttpCache, status::StatusClass,
};
use http::{HeaderName, Method};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use wiremock::matchers::{header, header_exists, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const SECRET: &str = "tok_SECRET_42";
const VENDOR: Vendor = Vendor {
    name: "Test",
    base_setting: "TEST_API_BASE",
    credential_setting: "TEST_TOKEN",
    max_body_setting: "TEST_MAX_BODY_BYTES",
};
const OTHER: Vendor = Vendor {
    name: "Other",
    base_setting: "OTHER_API_BASE",
    credential_setting: "OTHER_TOKEN",
    max_body_setting: "TEST_MAX_BODY_BYTES",
};

fn config(vendor: Vendor, base: &str) -> HttpConfig {
    HttpConfig::new(vendor, base)
        .with_auth(Auth::Header {
            name: HeaderName::from_static("x-token"),
            value: Secret::new(SECRET),
        })
        .with_client(options())
}

fn options() -> ClientOptions {
    ClientOptions::default().with_timeout(Duration::from_secs(10))
}

fn fixed_clock() -> adapters_http::cache::Clock {
    Arc::new(|| SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000))
}

const ALICE: CacheRequest<'static> = CacheRequest {
    partition: "alice",
    fresh: false,
    cacheable: true,
};

/// A one-shot HTTP/1.1 server that answers with `chunks` chunks of `chunk` bytes, chunked (no Content-Length).
async fn chunked_server(chunks: usize, chunk: usize) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let Ok((mut socket, _)) = listener.accept().await else {
            return;
        };
        let mut request = [0u8; 4096];
        let _ = socket.read(&mut request).await;
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
        if socket.write_all(head.as_bytes()).await.is_err() {
            return;
        }
        let data = vec![b' '; chunk];
        for _ in 0..chunks {
            let frame = format!("{chunk:x}\r\n");
            if socket.write_all(frame.as_bytes()).await.is_err()
                || socket.write_all(&data).await.is_err()
                || socket.write_all(b"\r\n").await.is_err()
            {
                return;
            }
        }
        let _ = socket.write_all(b"0\r\n\r\n").await;
    });
    format!("http://{addr}")
}

#[tokio::test]
async fn a_streamed_body_past_the_cap_stops_with_a_clear_error() {
    let base = chunked_server(64, 1024).await;
    let client =
        HttpClient::new(config(VENDOR, &base).with_client(options().with_max_body_bytes(10 * 1024))).expect("client");
    let url = client.url("/big", &[] as &[(&str, &str)]).expect("url");
    let err = client.send(Method::GET, url, None).await.expect_err("too large");
    assert_eq!(
        err,
        HttpError::BodyTooLarge {
            vendor: VENDOR,
            limit_bytes: 10 * 1024
        }
    );
    assert!(err.to_string().contains("(setting TEST_MAX_BODY_BYTES)"), "{err}");
}

#[tokio::test]
async fn a_streamed_body_under_the_cap_is_read_whole() {
    let base = chunked_server(4, 1024).await;
    let client =
        HttpClient::new(config(VENDOR, &base).with_client(options().with_max_body_bytes(4096))).expect("client");
    let url = client.url("/ok", &[] as &[(&str, &str)]).expect("url");
    let response = client.send(Method::GET, url, None).await.expect("body");
    assert_eq!(response.body.len(), 4096);
    assert!(response.is_json());
}

#[tokio::test]
async fn redirects_to_another_host_are_not_followed_and_get_no_credential() {
    let server = MockServer::start().await;
    let elsewhere = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200))
        .expect(0)
        .mount(&elsewhere)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/away"))
        .respond_with(ResponseTemplate::new(302).insert_header("location", format!("{}/x", elsewhere.uri())))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/moved"))
        .respond_with(ResponseTemplate::new(301).insert_header("location", "/api/here"))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/here"))
        .and(header("x-token", SECRET))
        .respond_with(ResponseTemplate::new(200).set_body_raw("{\"n\":18446744073709551615}", "application/json"))
        .expect(1)
        .mount(&server)
        .await;
    let client = HttpClient::new(config(VENDOR, &format!("{}/api", server.uri()))).expect("client");

    let url = client.url("away", &[] as &[(&str, &str)]).expect("url");
    let response = client.send(Method::GET, url, None).await.expect("the 302 itself");
    let err = client.check_status(response).expect_err("not followed");
    assert!(
        matches!(&err, HttpError::Status(s) if s.class == StatusClass::Redirect && s.status == 302),
        "{err:?}"
    );

    let url = client.url("/moved", &[] as &[(&str, &str)]).expect("url");
    let response = client.send(Method::GET, url, None).await.expect("followed");
    let response = client.check_status(response).expect("200");
    assert_eq!(response.url.path(), "/api/here");
    assert_eq!(response.json(VENDOR).expect("json")["n"].as_u64(), Some(u64::MAX));
    server.verify().await;
    elsewhere.verify().await;
}

#[tokio::test]
async fn a_url_on_another_origin_is_refused_before_sending() {
    let server = MockServer::start().await;
    let elsewhere = MockServer::start().await;
    Mock::given(method("GET"))
        .and(header_exists("x-token"))
        .respond_with(ResponseTemplate::new(200))
        .expect(0)
        .mount(&elsewhere)
        .await;
    let client = HttpClient::new(config(VENDOR, &server.uri())).expect("client");
    let url = url::Url::parse(&format!("{}/steal", elsewhere.uri())).expect("url");
    let err = client.send(Method::GET, url, None).await.expect_err("refused");
    assert!(matches!(err, HttpError::ForeignHost { .. }), "{err:?}");
    elsewhere.verify().await;
}

#[test]
fn options_become_the_config_and_a_missing_credential_is_named() {
    let names = SettingNames::default()
        .with_base("TEST_API_BASE")
        .with_credential("TEST_TOKEN")
        .with_max_body("TEST_MAX_BODY_BYTES");
    let options = HttpOptions::new("http://127.0.0.1:9/api")
        .with_setting_names(names)
        .with_client(options().with_max_body_bytes(4096));
    let send = |secret| Auth::Header {
        name: HeaderName::from_static("x-token"),
        value: secret,
    };
    let config = HttpConfig::from_options("Test", options.clone(), send);
    assert_eq!(config.vendor, VENDOR);
    assert_eq!(
        (config.api_base.as_str(), config.auth.is_none()),
        ("http://127.0.0.1:9/api", true)
    );
    assert_eq!(config.client.max_body_bytes, 4096);
    let client = HttpClient::new(config).expect("client");
    let err = client.require_credential("a test token").expect_err("no credential");
    assert_eq!(err.to_string(), "TEST_TOKEN is not set: set it to a test token");
    assert_eq!(err.info().code.as_str(), "invalid_setting");
    assert_eq!(err.status(), None);

    let options = options.with_credential(Some(Secret::new(SECRET)));
    let client = HttpClient::new(HttpConfig::from_options("Test", options, send)).expect("client");
    assert!(client.require_credential("a test token").is_ok());
    assert!(!format!("{client:?}").contains(SECRET));
}

#[tokio::test]
async fn a_non_get_clears_only_its_vendors_entries() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/a"))
        .respond_with(ResponseTemplate::new(200).set_body_raw("{}", "application/json"))
        .expect(2)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/b"))
        .respond_with(ResponseTemplate::new(200).set_body_raw("{}", "application/json"))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/a"))
        .respond_with(ResponseTemplate::new(201))
        .expect(1)
        .mount(&server)
        .await;
    let cache = HttpCache::with_clock(CacheConfig::default(), fixed_clock());
    let test = HttpClient::new(config(VENDOR, &server.uri()))
        .expect("client")
        .with_cache(cache.clone());
    let other = HttpClient::new(config(OTHER, &server.uri()))
        .expect("client")
        .with_cache(cache.clone());
    let a = test.url("/a", &[] as &[(&str, &str)]).expect("url");
    let b = other.url("/b", &[] as &[(&str, &str)]).expect("url");

    assert!(!test.get_cached(a.clone(), ALICE).await.expect("a").cache.hit);
    assert!(!other.get_cached(b.clone(), ALICE).await.expect("b").cache.hit);
    assert!(test.get_cached(a.clone(), ALICE).await.expect("a").cache.hit);

    test.send(Method::POST, a.clone(), Some(&serde_json::json!({"x": 1})))
        .await
        .expect("post");
    assert!(
        !test.get_cached(a, ALICE).await.expect("a").cache.hit,
        "the POST cleared Test's entries"
    );
    assert!(
        other.get_cached(b, ALICE).await.expect("b").cache.hit,
        "Other's entries stay"
    );
    server.verify().await;
}

#[tokio::test]
async fn an_entry_over_half_the_byte_bound_is_not_stored_and_entries_are_bounded() {
    let server = MockServer::start().await;
    let big = format!("\"{}\"", "x".repeat(40 * 1024));
    Mock::given(method("GET"))
        .and(path("/big"))
        .respond_with(ResponseTemplate::new(200).set_body_raw(big, "application/json"))
        .expect(2)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200).set_body_raw("{}", "application/json"))
        .mount(&server)
        .await;
    let cache = HttpCache::with_clock(
        CacheConfig::default().with_max_entries(3).with_max_bytes(64 * 1024),
        fixed_clock(),
    );
    let client = HttpClient::new(config(VENDOR, &server.uri()))
        .expect("client")
        .with_cache(cache.clone());
    let big = client.url("/big", &[] as &[(&str, &str)]).expect("url");
    assert!(!client.get_cached(big.clone(), ALICE).await.expect("big").cache.hit);
    assert!(
        !client.get_cached(big, ALICE).await.expect("big").cache.hit,
        "40 KiB > 32 KiB: not stored"
    );
    assert_eq!(cache.entry_count(), 0);
    for i in 0..10 {
        let url = client.url(&format!("/small/{i}"), &[] as &[(&str, &str)]).expect("url");
        client.get_cached(url, ALICE).await.expect("small");
    }
    assert!(cache.entry_count() <= 3, "{} entries", cache.entry_count());
    server.verify().await;
}
