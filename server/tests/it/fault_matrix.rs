//! The fault matrix (CONTRACT §7): bad upstreams through the whole chain — rmcp client → `mcp-devtools`
//! binary → a local fake upstream on 127.0.0.1 — with `MCP_UPSTREAM_TIMEOUT_SECONDS=4` and
//! `HTTP_MAX_BODY_BYTES=1024`. Statuses come from wiremock; connection-level faults from a small raw TCP fake
//! (wiremock cannot stall or reset); "refused" from a port nobody listens on. Every case goes through
//! `github_list_workflow_runs`.
//!
//! | fault | documented outcome (`isError: true` unless said) | upstream requests |
//! |---|---|---|
//! | connection refused | `could not reach the GitHub API: could not connect …` | 0 answered, not retried |
//! | timeout before headers | `… the request timed out after 4000 ms …`, within the timeout | 1, not retried |
//! | stall mid-body | `… timed out after 4000 ms …` (or `could not read the response body`), within the timeout | 1 |
//! | reset mid-body | `could not reach the GitHub API: could not read the response body: …` | 1 |
//! | 500 | `GitHub API 500 Internal Server Error: … try again later` | 1, not retried |
//! | 502 (an HTML page) | `GitHub API 502 Bad Gateway: bad gateway (an HTML page of 24 bytes)`, after retries 1 s apart | up to 3 |
//! | 503 | `GitHub API 503 Service Unavailable: …`, after retries 1 s apart | up to 3 |
//! | 429 with `Retry-After: 0` forever | `GitHub API rate limit exceeded: … Retry after 0 s.`; waits are raised to 1 s | 3 at most |
//! | 429 with `Retry-After: 86400` | `… Retry after 86400 s.` at once: the wait does not fit in the timeout | 1 |
//! | invalid JSON, `application/json` | `GitHub API 200 returned a body that is not valid JSON: …` | 1 |
//! | body over the cap | `… larger than 1024 bytes (setting HTTP_MAX_BODY_BYTES) …` | 1 |
//! | redirect to another host | `GitHub API 302 Found: … the redirect was not followed …`; the other host gets nothing | 1 |
//! | non-UTF-8 `text/plain` body | `GitHub API 200 returned a body that is not valid JSON: …` | 1 |
//! | 204 No Content | `GitHub API 204 returned a body that is not valid JSON: EOF …` | 1 |
//!
//! For every case: the call ends within the timeout plus process slack (each is bounded by
//! `tokio::time::timeout`), the server does not panic and answers the next call, and neither the result text nor
//! the server's log contains the token. Exact retry counts and waits are tested on the adapters with a simulated
//! timer (`adapters-http/tests/it/retry.rs`, `adapters-github/tests/it/retry.rs`); here they are bounded.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{call, server_env, text};
use recorded_upstream::wiremock::matchers::{method, path};
use recorded_upstream::wiremock::{Mock, MockServer, ResponseTemplate};
use rmcp::RoleClient;
use rmcp::service::RunningService;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Mutex;

const TOKEN: &str = "ghp_FAULTMATRIX_s3cr3t_TOKEN";
const TIMEOUT_SECS: u64 = 4;
/// Longest any one call may take: the timeout, plus slack for process scheduling on a loaded machine.
const CALL_BOUND: Duration = Duration::from_secs(TIMEOUT_SECS + 6);
const TOOL: &str = "github_list_workflow_runs";
const HEALTHY_BODY: &str = r#"{"total_count":0,"workflow_runs":[]}"#;

/// A server child process whose stderr (its log) is collected.
struct Server {
    client: RunningService<RoleClient, ()>,
    log: Arc<Mutex<Vec<u8>>>,
}

impl Server {
    async fn start(base: &str) -> Self {
        let env = server_env(
            base,
            &[
                ("GITHUB_TOKEN", TOKEN),
                ("MCP_STRUCTURED_OUTPUT", "true"),
                ("MCP_UPSTREAM_TIMEOUT_SECONDS", "4"),
                ("HTTP_MAX_BODY_BYTES", "1024"),
                ("RUST_LOG", "debug"),
            ],
        );
        let (client, log) = common::connect_logged(env).await;
        Server { client, log }
    }

    /// Calls the tool for repository `repo` (the fake routes on it), bounded by [`CALL_BOUND`]; returns the text,
    /// whether it was an error, and how long it took.
    async fn runs(&self, repo: &str) -> (String, bool, Duration) {
        let started = Instant::now();
        let result = tokio::time::timeout(
            CALL_BOUND,
            call(&self.client, TOOL, json!({"owner": "fault", "repo": repo})),
        )
        .await
        .unwrap_or_else(|_| panic!("{repo}: the call hung past {CALL_BOUND:?}"));
        let text = text(&result);
        assert!(
            !text.contains(TOKEN) && !text.contains("s3cr3t"),
            "{repo}: the token leaked: {text}"
        );
        if result.is_error == Some(true) {
            assert!(
                result.structured_content.is_none(),
                "{repo}: an error has no structuredContent"
            );
        }
        (text, result.is_error == Some(true), started.elapsed())
    }

    /// Checks one fault: an error result containing `expect`, then a healthy call on the same server.
    async fn fault(&self, repo: &str, expect: &str) -> Duration {
        let (text, is_error, elapsed) = self.runs(repo).await;
        assert!(is_error, "{repo}: expected an error, got {text}");
        assert!(text.contains(expect), "{repo}: expected {expect:?} in {text}");
        let (healthy, is_error, _) = self.runs("healthy").await;
        assert!(!is_error, "after {repo}, the server must still answer: {healthy}");
        elapsed
    }

    /// Stops the server and checks its log for the token.
    async fn stop(self) {
        let _ = self.client.cancel().await;
        tokio::time::sleep(Duration::from_millis(100)).await;
        let log = String::from_utf8_lossy(&self.log.lock().await).into_owned();
        assert!(
            !log.contains(TOKEN) && !log.contains("s3cr3t"),
            "the token leaked into the log"
        );
        assert!(!log.contains("panicked"), "the server panicked: {log}");
    }
}

fn runs_path(repo: &str) -> String {
    format!("/repos/fault/{repo}/actions/runs")
}

async fn mount(server: &MockServer, repo: &str, response: ResponseTemplate) {
    Mock::given(method("GET"))
        .and(path(runs_path(repo)))
        .respond_with(response)
        .mount(server)
        .await;
}

async fn requests_to(server: &MockServer, repo: &str) -> usize {
    let wanted = runs_path(repo);
    server
        .received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .filter(|r| r.url.path() == wanted)
        .count()
}

/// Statuses and bodies, from wiremock.
async fn status_faults() {
    let upstream = MockServer::start().await;
    let elsewhere = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200).set_body_raw(HEALTHY_BODY, "application/json"))
        .expect(0)
        .mount(&elsewhere)
        .await;
    let json =
        |status: u16, body: &str| ResponseTemplate::new(status).set_body_raw(body.to_owned(), "application/json");
    mount(&upstream, "healthy", json(200, HEALTHY_BODY)).await;
    mount(&upstream, "s500", json(500, r#"{"message":"Server Error"}"#)).await;
    mount(
        &upstream,
        "s502",
        ResponseTemplate::new(502).set_body_raw("<html>bad gateway</html>", "text/html"),
    )
    .await;
    mount(&upstream, "s503", ResponseTemplate::new(503)).await;
    mount(
        &upstream,
        "r0",
        json(429, r#"{"message":"Too many requests"}"#).insert_header("retry-after", "0"),
    )
    .await;
    mount(
        &upstream,
        "rhuge",
        json(429, r#"{"message":"Too many requests"}"#).insert_header("retry-after", "86400"),
    )
    .await;
    mount(
        &upstream,
        "badjson",
        json(200, r#"{"total_count": 1, "workflow_runs": [ {"id": 1,"#),
    )
    .await;
    mount(
        &upstream,
        "big",
        json(200, &format!(r#"{{"pad":"{}"}}"#, "x".repeat(4096))),
    )
    .await;
    let location = format!("{}{}", elsewhere.uri(), runs_path("healthy"));
    mount(
        &upstream,
        "redirect",
        ResponseTemplate::new(302).insert_header("location", location.as_str()),
    )
    .await;
    mount(
        &upstream,
        "latin1",
        ResponseTemplate::new(200).set_body_raw(vec![0xff, 0xfe, b'a', 0xe9, 0x80], "text/plain"),
    )
    .await;
    mount(&upstream, "empty", ResponseTemplate::new(204)).await;

    let server = Server::start(&upstream.uri()).await;
    server
        .fault("s500", "GitHub API 500 Internal Server Error: Server Error")
        .await;
    assert_eq!(requests_to(&upstream, "s500").await, 1, "500 is not retried");
    for (repo, expect) in [
        (
            "s502",
            "GitHub API 502 Bad Gateway: bad gateway (an HTML page of 24 bytes)",
        ),
        ("s503", "GitHub API 503 Service Unavailable"),
        (
            "r0",
            "GitHub API rate limit exceeded: Too many requests. Retry after 0 s.",
        ),
    ] {
        let elapsed = server.fault(repo, expect).await;
        let sent = requests_to(&upstream, repo).await;
        assert!(
            (2..=3).contains(&sent),
            "{repo}: retried within 3 attempts, sent {sent}"
        );
        assert!(
            elapsed >= Duration::from_secs(1),
            "{repo}: each wait is at least 1 s ({elapsed:?})"
        );
    }
    let elapsed = server.fault("rhuge", "Retry after 86400 s.").await;
    assert_eq!(
        requests_to(&upstream, "rhuge").await,
        1,
        "a wait past the timeout is not taken"
    );
    assert!(elapsed < Duration::from_secs(TIMEOUT_SECS), "fails fast: {elapsed:?}");
    server
        .fault("badjson", "GitHub API 200 returned a body that is not valid JSON")
        .await;
    server
        .fault("big", "larger than 1024 bytes (setting HTTP_MAX_BODY_BYTES)")
        .await;
    server.fault("redirect", "GitHub API 302 Found").await;
    server.fault("redirect", "the redirect was not followed").await;
    // Not faults since CONTRACT §8 (bodies as the vendor sent them, the same rule for every vendor): bytes that are
    // not text in their charset are kept as a binary artifact, an empty body is `{}`.
    let (text, is_error, _) = server.runs("latin1").await;
    assert!(!is_error && text.contains("reason: binary"), "latin1: {text}");
    let (text, is_error, _) = server.runs("empty").await;
    assert!(!is_error && text.starts_with("data:\nnextPage: null"), "empty: {text}");
    server.stop().await;
    elsewhere.verify().await;
}

/// How the raw fake answers a path.
async fn raw_answer(mut socket: TcpStream) {
    let mut request = Vec::new();
    let mut chunk = [0u8; 4096];
    while !request.windows(4).any(|w| w == b"\r\n\r\n") {
        match socket.read(&mut chunk).await {
            Ok(0) | Err(_) => return,
            Ok(n) => request.extend_from_slice(&chunk[..n]),
        }
    }
    let line = String::from_utf8_lossy(&request)
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned();
    let partial =
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"total_count\": 1, ";
    if line.contains("/stall-headers/") {
        tokio::time::sleep(Duration::from_secs(60)).await;
    } else if line.contains("/stall-body/") {
        let _ = socket.write_all(partial.as_bytes()).await;
        tokio::time::sleep(Duration::from_secs(60)).await;
    } else if line.contains("/reset-body/") {
        let _ = socket.write_all(partial.as_bytes()).await;
        let _ = socket.flush().await;
        tokio::time::sleep(Duration::from_millis(100)).await;
        let _ = socket.set_zero_linger();
        drop(socket);
    } else {
        let head = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{HEALTHY_BODY}",
            HEALTHY_BODY.len()
        );
        let _ = socket.write_all(head.as_bytes()).await;
    }
}

/// Connection-level faults, from the raw TCP fake.
async fn connection_faults() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    let accepted = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = Arc::clone(&accepted);
    let fake = tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            tokio::spawn(raw_answer(socket));
        }
    });
    let server = Server::start(&base).await;
    let timeout = Duration::from_secs(TIMEOUT_SECS);
    for (repo, expect) in [
        ("stall-headers", "the request timed out after 4000 ms"),
        ("stall-body", "could not reach the GitHub API"),
        (
            "reset-body",
            "could not reach the GitHub API: could not read the response body",
        ),
    ] {
        let elapsed = server.fault(repo, expect).await;
        if repo.starts_with("stall") {
            assert!(elapsed >= timeout - Duration::from_millis(100), "{repo}: {elapsed:?}");
        }
    }
    server.stop().await;
    fake.abort();
}

/// Nobody listens: connection refused.
async fn refused() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    drop(listener);
    let server = Server::start(&base).await;
    for _ in 0..2 {
        let (text, is_error, elapsed) = server.runs("anything").await;
        assert!(is_error, "{text}");
        assert!(
            text.contains("could not reach the GitHub API: could not connect"),
            "{text}"
        );
        assert!(text.contains("check GITHUB_API_BASE"), "{text}");
        assert!(
            elapsed < Duration::from_secs(TIMEOUT_SECS),
            "refused fails fast: {elapsed:?}"
        );
    }
    let tools = server.client.list_all_tools().await.expect("tools/list still answers");
    assert!(tools.iter().any(|t| t.name == TOOL));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fault_matrix() {
    let started = Instant::now();
    tokio::join!(status_faults(), connection_faults(), refused());
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "the matrix took {:?}",
        started.elapsed()
    );
}
