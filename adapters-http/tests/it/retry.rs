//! The shared retry policy against wiremock on 127.0.0.1, with the simulated timer (waits are recorded and
//! charged to the call's budget, not slept) except for one short real-time check.

use std::time::{Duration, Instant, SystemTime};

use adapters_http::{
    ClientOptions, HttpClient, HttpConfig, HttpError, RetryPolicy, RetryTimer, Vendor, status::StatusClass,
};
use http::Method;
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

const VENDOR: Vendor = Vendor {
    name: "Test",
    base_setting: "TEST_API_BASE",
    credential_setting: "TEST_TOKEN",
    max_body_setting: "TEST_MAX_BODY_BYTES",
};

fn client(server: &MockServer, timeout: Duration, timer: &RetryTimer) -> HttpClient {
    HttpClient::new(
        HttpConfig::new(VENDOR, server.uri())
            .with_client(ClientOptions::default().with_timeout(timeout))
            .with_retry(RetryPolicy::default().with_timer(timer.clone())),
    )
    .expect("client")
}

/// Answers `first` `times` times, then 200 `{}`.
async fn flaky(server: &MockServer, first: ResponseTemplate, times: u64) {
    Mock::given(method("GET"))
        .respond_with(first)
        .up_to_n_times(times)
        .with_priority(1)
        .mount(server)
        .await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200).set_body_raw("{}", "application/json"))
        .with_priority(2)
        .mount(server)
        .await;
}

async fn get(client: &HttpClient) -> Result<adapters_http::RawResponse, HttpError> {
    let url = client.url("/x", &[] as &[(&str, &str)]).expect("url");
    client.send(Method::GET, url, None).await
}

async fn requests(server: &MockServer) -> usize {
    server.received_requests().await.map_or(0, |r| r.len())
}

const SECS: fn(u64) -> Duration = Duration::from_secs;

#[tokio::test]
async fn transient_statuses_are_retried_until_success() {
    for status in [429, 502, 503] {
        let server = MockServer::start().await;
        flaky(&server, ResponseTemplate::new(status), 2).await;
        let timer = RetryTimer::simulated();
        let response = get(&client(&server, SECS(30), &timer)).await.expect("answer");
        assert_eq!(response.status.as_u16(), 200, "{status}");
        assert_eq!(requests(&server).await, 3, "{status}");
        assert_eq!(
            timer.waits(),
            vec![SECS(1), SECS(1)],
            "{status}: no Retry-After waits the 1 s minimum"
        );
    }
}

#[tokio::test]
async fn other_statuses_and_writes_are_sent_once() {
    for status in [500, 504, 404, 403] {
        let server = MockServer::start().await;
        flaky(&server, ResponseTemplate::new(status), 5).await;
        let timer = RetryTimer::simulated();
        let response = get(&client(&server, SECS(30), &timer)).await.expect("answer");
        assert_eq!(response.status.as_u16(), status);
        assert_eq!(requests(&server).await, 1, "{status}");
        assert!(timer.waits().is_empty());
    }
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(503))
        .mount(&server)
        .await;
    let timer = RetryTimer::simulated();
    let c = client(&server, SECS(30), &timer);
    let url = c.url("/x", &[] as &[(&str, &str)]).expect("url");
    let response = c
        .send(Method::POST, url, Some(&serde_json::json!({"a": 1})))
        .await
        .expect("answer");
    assert_eq!(response.status.as_u16(), 503);
    assert_eq!(requests(&server).await, 1, "a write is never retried");
}

#[tokio::test]
async fn retry_after_zero_forever_stops_after_three_attempts() {
    let server = MockServer::start().await;
    flaky(
        &server,
        ResponseTemplate::new(429).insert_header("retry-after", "0"),
        100,
    )
    .await;
    let timer = RetryTimer::simulated();
    let c = client(&server, SECS(30), &timer);
    let response = get(&c).await.expect("answer");
    assert_eq!(response.status.as_u16(), 429);
    assert_eq!(requests(&server).await, 3);
    assert_eq!(timer.waits(), vec![SECS(1), SECS(1)]);
    let HttpError::Status(err) = c.check_status(response).expect_err("429") else {
        panic!("a status error")
    };
    assert_eq!(err.class, StatusClass::RateLimited);
}

#[tokio::test]
async fn waits_follow_retry_after_forms() {
    // An HTTP-date 20 s from now in the strftime `format`, made when its case runs. RFC 9110 §5.6.7: a recipient
    // reads the obsolete RFC 850 and asctime forms of an HTTP-date too.
    let in_20s = |format: &str| {
        jiff::Timestamp::try_from(SystemTime::now() + SECS(20))
            .expect("time")
            .strftime(format)
            .to_string()
    };
    for (name, value, lowest, highest) in [
        ("retry-after", "7".to_owned(), SECS(7), SECS(7)),
        (
            "retry-after-ms",
            "2500".to_owned(),
            Duration::from_millis(2500),
            Duration::from_millis(2500),
        ),
        ("retry-after-ms", "10".to_owned(), SECS(1), SECS(1)),
        (
            "retry-after",
            "%a, %d %b %Y %H:%M:%S GMT".to_owned(),
            SECS(15),
            SECS(20),
        ),
        (
            "retry-after",
            "%A, %d-%b-%y %H:%M:%S GMT".to_owned(),
            SECS(15),
            SECS(20),
        ),
        ("retry-after", "%a %b %e %H:%M:%S %Y".to_owned(), SECS(15), SECS(20)),
    ] {
        let server = MockServer::start().await;
        let value = if value.starts_with('%') { in_20s(&value) } else { value };
        flaky(
            &server,
            ResponseTemplate::new(503).insert_header(name, value.as_str()),
            1,
        )
        .await;
        let timer = RetryTimer::simulated();
        let response = get(&client(&server, SECS(30), &timer)).await.expect("answer");
        assert_eq!(response.status.as_u16(), 200, "{name}: {value}");
        let waits = timer.waits();
        assert_eq!(waits.len(), 1, "{name}: {value}");
        assert!(
            waits[0] >= lowest && waits[0] <= highest,
            "{name}: {value} waited {waits:?}"
        );
    }
}

#[tokio::test]
async fn a_wait_longer_than_the_timeout_fails_fast_and_says_how_long() {
    for (name, value, asked) in [("retry-after", "86400", "86400 s"), ("retry-after-ms", "45000", "45 s")] {
        let server = MockServer::start().await;
        flaky(&server, ResponseTemplate::new(429).insert_header(name, value), 100).await;
        let timer = RetryTimer::tokio();
        let c = client(&server, SECS(30), &timer);
        let started = Instant::now();
        let response = tokio::time::timeout(SECS(5), get(&c))
            .await
            .expect("fails fast: no wait is taken")
            .expect("answer");
        assert!(
            started.elapsed() < SECS(5),
            "no wait was taken: {:?}",
            started.elapsed()
        );
        assert_eq!(requests(&server).await, 1);
        let text = c.check_status(response).expect_err("429").to_string();
        assert!(text.contains(&format!("retry after {asked}")), "{text}");
    }
}

#[tokio::test]
async fn waits_are_charged_to_the_call_budget() {
    // 15 s fits in a 30 s call once (15 s + the 0.5 s an attempt needs ≤ 30 s), but not twice (15.5 s > 15 s left).
    let server = MockServer::start().await;
    flaky(
        &server,
        ResponseTemplate::new(503).insert_header("retry-after", "15"),
        100,
    )
    .await;
    let timer = RetryTimer::simulated();
    let response = get(&client(&server, SECS(30), &timer)).await.expect("answer");
    assert_eq!(response.status.as_u16(), 503);
    assert_eq!(requests(&server).await, 2);
    assert_eq!(timer.waits(), vec![SECS(15)]);
    // With a 1 s timeout not even the 1 s minimum wait fits: the first answer is final.
    let server = MockServer::start().await;
    flaky(&server, ResponseTemplate::new(503), 100).await;
    let timer = RetryTimer::simulated();
    let response = get(&client(&server, SECS(1), &timer)).await.expect("answer");
    assert_eq!(response.status.as_u16(), 503);
    assert_eq!(requests(&server).await, 1);
}

#[tokio::test]
async fn transport_failures_are_not_retried() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    drop(listener);
    let timer = RetryTimer::simulated();
    let c = HttpClient::new(
        HttpConfig::new(VENDOR, base)
            .with_client(ClientOptions::default().with_timeout(SECS(5)))
            .with_retry(RetryPolicy::default().with_timer(timer.clone())),
    )
    .expect("client");
    let url = c.url("/x", &[] as &[(&str, &str)]).expect("url");
    let err = c.send(Method::GET, url, None).await.expect_err("refused");
    assert!(matches!(err, HttpError::Transport { .. }), "{err}");
    assert!(timer.waits().is_empty());
}

#[tokio::test]
async fn the_real_timer_sleeps_the_wait() {
    let server = MockServer::start().await;
    flaky(&server, ResponseTemplate::new(503).insert_header("retry-after", "0"), 1).await;
    let started = Instant::now();
    let response = get(&client(&server, SECS(10), &RetryTimer::tokio()))
        .await
        .expect("answer");
    assert_eq!(response.status.as_u16(), 200);
    assert!(started.elapsed() >= SECS(1), "{:?}", started.elapsed());
    assert!(started.elapsed() < SECS(5), "{:?}", started.elapsed());
}
