//! Issue 44, points 4 and 5: private CAs, mutual TLS and the https-only rule, through the whole chain — rmcp client →
//! `mcp-devtools` binary → adapter → a TLS upstream on 127.0.0.1 whose CA the test makes (`common::tls`: rcgen
//! certificates, OpenSSL serving `fixtures/circleci/me.json`, counting connections and requests).
//!
//! - A CA bundle setting (per upstream, or `MCP_CA_BUNDLE` for all, or OpenSSL's own `SSL_CERT_FILE`) makes the
//!   private CA trusted; without it, or with another CA, the call is one `isError` naming the host and the setting to
//!   set, after one connection and no HTTP request (never retried).
//! - An upstream that requires a client certificate refuses a call without one (the error names the client
//!   certificate and key settings) or with one another CA issued, and answers with the right one.
//! - A PEM file that cannot be read or used, and a plain `http://` base off loopback, stop start-up naming the
//!   setting (exit code 2).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use rmcp::model::CallToolResult;
use serde_json::{Value, json};

use crate::common::tls::{Issued, TestCa, TlsUpstream, fixture_bytes, write};
use crate::common::{self, call, connect, server_env, text};

const ATLASSIAN_TOKEN: &str = "atl-tls-token-0001";

/// The three vendor reads the tests make: GitHub `/user`, CircleCI `/api/v2/me`, Jira `/rest/api/3/myself`; each
/// tool and its arguments.
const GITHUB: (&str, &str) = ("github_get", "/user");
const CIRCLECI: (&str, &str) = ("circleci_get", "/me");
const JIRA: (&str, &str) = ("jira_get", "/rest/api/3/myself");

/// A server whose GitHub, CircleCI and Jira bases are `github`, `circleci` and `jira`, with `extra` settings.
fn env(github: &str, circleci: &str, jira: &str, extra: &[(&str, &str)]) -> Vec<(String, String)> {
    let circleci = format!("{circleci}/api/v2");
    let mut pairs = vec![
        ("MCP_STRUCTURED_OUTPUT", "true"),
        ("CIRCLECI_API_BASE", circleci.as_str()),
        ("CIRCLECI_TOKEN", "circle-tls-token-0002"),
        ("JIRA_BASE_URL", jira),
        ("ATLASSIAN_USER_EMAIL", "mia@example.com"),
        ("ATLASSIAN_API_TOKEN", ATLASSIAN_TOKEN),
    ];
    pairs.extend_from_slice(extra);
    server_env(github, &pairs)
}

async fn read(
    client: &rmcp::service::RunningService<rmcp::RoleClient, ()>,
    (tool, path): (&str, &str),
) -> CallToolResult {
    call(client, tool, json!({"path": path})).await
}

/// The result is the fixture.
fn assert_fixture(result: &CallToolResult) {
    assert_ne!(result.is_error, Some(true), "{}", text(result));
    let want: Value = serde_json::from_slice(&fixture_bytes()).unwrap();
    assert_eq!(result.structured_content.as_ref().unwrap()["data"], want);
}

/// The result is an error whose text holds every one of `needles`, with `_meta.code` `invalid_setting`.
fn assert_error(result: &CallToolResult, needles: &[&str]) -> String {
    let shown = text(result);
    assert_eq!(result.is_error, Some(true), "{shown}");
    for needle in needles {
        assert!(shown.contains(needle), "missing {needle:?} in: {shown}");
    }
    let meta = serde_json::to_value(&result.meta).unwrap();
    assert_eq!(meta["code"], "invalid_setting", "{meta}");
    shown
}

/// A failed call costs one connection and reaches no HTTP request: not retried.
async fn assert_one_attempt(upstream: &TlsUpstream, connections: usize, requests: usize) {
    // The upstream counts the connection when it accepts it; the client may give up first.
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(upstream.connections(), connections + 1, "one connection: not retried");
    assert_eq!(upstream.requests(), requests, "no HTTP request got through");
}

#[tokio::test]
async fn a_ca_bundle_trusts_a_private_ca_and_without_it_the_call_is_one_clear_error() {
    let ca = TestCa::new("mcp-devtools test CA");
    let other = TestCa::new("another CA");
    let upstream = TlsUpstream::start(&ca, None).await;
    let dir = tempfile::tempdir().unwrap();
    let ca_pem = write(dir.path(), "ca.pem", &ca.pem());
    let other_pem = write(dir.path(), "other.pem", &other.pem());
    let (localhost, ip) = (upstream.uri("localhost"), upstream.uri("127.0.0.1"));

    // GitHub trusts the CA (its own setting); CircleCI has no CA setting; Jira trusts another CA.
    let client = connect(env(
        &localhost,
        &localhost,
        &ip,
        &[("GITHUB_CA_BUNDLE", &ca_pem), ("ATLASSIAN_CA_BUNDLE", &other_pem)],
    ))
    .await;
    assert_fixture(&read(&client, GITHUB).await);
    assert_eq!(upstream.requests(), 1);
    let port = upstream.port();
    for (tool, setting, host) in [
        (CIRCLECI, "CIRCLECI_CA_BUNDLE", format!("localhost:{port}")),
        (JIRA, "ATLASSIAN_CA_BUNDLE", format!("127.0.0.1:{port}")),
    ] {
        let connections = upstream.connections();
        let result = read(&client, tool).await;
        let shown = assert_error(&result, &[&format!("`{host}`"), "is not trusted", setting]);
        assert!(shown.contains("unable to get local issuer certificate"), "{shown}");
        assert_one_attempt(&upstream, connections, 1).await;
    }
    client.cancel().await.unwrap();

    // MCP_CA_BUNDLE is every upstream's default; OpenSSL's SSL_CERT_FILE keeps working.
    for setting in ["MCP_CA_BUNDLE", "SSL_CERT_FILE"] {
        let client = connect(env(&localhost, &localhost, &ip, &[(setting, &ca_pem)])).await;
        for read_one in [GITHUB, CIRCLECI, JIRA] {
            assert_fixture(&read(&client, read_one).await);
        }
        client.cancel().await.unwrap();
    }
    assert_eq!(upstream.requests(), 7);
}

#[tokio::test]
async fn a_mutual_tls_upstream_refuses_without_its_client_certificate_and_answers_with_it() {
    let ca = TestCa::new("server CA");
    let client_ca = TestCa::new("client CA");
    let stranger = TestCa::new("a CA the upstream does not know");
    let upstream = TlsUpstream::start(&ca, Some(&client_ca)).await;
    let dir = tempfile::tempdir().unwrap();
    let ca_pem = write(dir.path(), "ca.pem", &ca.pem());
    let Issued { cert, key } = client_ca.client("mcp-devtools");
    let (cert, key) = (
        write(dir.path(), "client.pem", &cert),
        write(dir.path(), "client.key", &key),
    );
    let Issued {
        cert: other_cert,
        key: other_key,
    } = stranger.client("mcp-devtools");
    let other_cert = write(dir.path(), "other.pem", &other_cert);
    let other_key = write(dir.path(), "other.key", &other_key);
    let localhost = upstream.uri("localhost");

    // GitHub presents the right certificate, CircleCI none, Jira one the upstream's CA did not issue.
    let client = connect(env(
        &localhost,
        &localhost,
        &localhost,
        &[
            ("MCP_CA_BUNDLE", &ca_pem),
            ("GITHUB_CLIENT_CERT", &cert),
            ("GITHUB_CLIENT_KEY", &key),
            ("ATLASSIAN_CLIENT_CERT", &other_cert),
            ("ATLASSIAN_CLIENT_KEY", &other_key),
        ],
    ))
    .await;
    assert_fixture(&read(&client, GITHUB).await);
    assert_eq!(upstream.requests(), 1);

    let connections = upstream.connections();
    let result = read(&client, CIRCLECI).await;
    let host = format!("`localhost:{}`", upstream.port());
    assert_error(
        &result,
        &[
            &host,
            "asks for a client certificate",
            "CIRCLECI_CLIENT_CERT",
            "CIRCLECI_CLIENT_KEY",
        ],
    );
    assert_one_attempt(&upstream, connections, 1).await;

    let connections = upstream.connections();
    let result = read(&client, JIRA).await;
    assert_error(
        &result,
        &[
            &host,
            "refused the client certificate of ATLASSIAN_CLIENT_CERT",
            "unknown ca",
        ],
    );
    assert_one_attempt(&upstream, connections, 1).await;
    client.cancel().await.unwrap();
}

/// Runs the binary with `env` (and nothing else of the environment but `PATH`) until it stops; its exit code and
/// standard error.
async fn start_up(env: &[(&str, &str)]) -> (Option<i32>, String) {
    let mut command = tokio::process::Command::new(common::BIN);
    command
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", "/nonexistent-home")
        .env("STREAMING_ARTIFACT_STORE", "memory")
        .envs(env.iter().copied())
        .stdin(std::process::Stdio::null());
    let output = tokio::time::timeout(Duration::from_secs(20), command.output())
        .await
        .expect("start-up stops instead of serving")
        .unwrap();
    assert!(output.stdout.is_empty(), "nothing served on stdout");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The binary with `env` starts: an MCP session opens and lists the tools.
async fn serves(env: &[(&str, &str)]) {
    let mut pairs: Vec<(String, String)> = vec![
        ("PATH".to_owned(), std::env::var("PATH").unwrap_or_default()),
        ("STREAMING_ARTIFACT_STORE".to_owned(), "memory".to_owned()),
        ("RUST_LOG".to_owned(), "error".to_owned()),
    ];
    pairs.extend(env.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let client = connect(pairs).await;
    assert!(!client.list_all_tools().await.unwrap().is_empty());
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn pem_files_that_cannot_be_used_stop_start_up_naming_the_setting() {
    let ca = TestCa::new("start-up CA");
    let dir = tempfile::tempdir().unwrap();
    let Issued { cert, key } = ca.client("mcp-devtools");
    let Issued { key: other_key, .. } = ca.client("someone else");
    let cert = write(dir.path(), "client.pem", &cert);
    let key_path = write(dir.path(), "client.key", &key);
    let other_key = write(dir.path(), "other.key", &other_key);
    let not_pem = write(dir.path(), "notes.txt", "this is not a certificate\n");
    let rsa = write(
        dir.path(),
        "rsa.key",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEow==\n-----END RSA PRIVATE KEY-----\n",
    );
    let missing = dir.path().join("missing.pem").display().to_string();
    let (code, stderr) = start_up(&[
        ("GITHUB_CA_BUNDLE", &missing),
        ("MCP_CA_BUNDLE", &not_pem),
        ("GITHUB_CLIENT_CERT", &cert),
        ("GITHUB_CLIENT_KEY", &other_key),
        ("CIRCLECI_CLIENT_CERT", &cert),
        ("ATLASSIAN_CLIENT_CERT", &cert),
        ("ATLASSIAN_CLIENT_KEY", &rsa),
    ])
    .await;
    assert_eq!(code, Some(2), "{stderr}");
    for needle in [
        format!("GITHUB_CA_BUNDLE={missing}: cannot be read"),
        format!("MCP_CA_BUNDLE={not_pem} holds no PEM certificate"),
        format!("GITHUB_CLIENT_CERT={cert} and GITHUB_CLIENT_KEY={other_key}: the TLS backend refused"),
        "CIRCLECI_CLIENT_CERT is set but CIRCLECI_CLIENT_KEY is not".to_owned(),
        format!("ATLASSIAN_CLIENT_KEY={rsa} holds a PKCS#1 RSA private key"),
        "openssl pkcs8 -topk8".to_owned(),
    ] {
        assert!(stderr.contains(&needle), "missing {needle:?} in:\n{stderr}");
    }
    let key_body = key.lines().nth(1).unwrap();
    assert!(!stderr.contains(key_body), "a private key was shown:\n{stderr}");

    // The certificate with its own key: the server starts.
    serves(&[("GITHUB_CLIENT_CERT", &cert), ("GITHUB_CLIENT_KEY", &key_path)]).await;
}

#[tokio::test]
async fn a_plain_http_base_off_loopback_stops_start_up_unless_allowed() {
    let bases = [
        ("GITHUB_API_BASE", "http://ghe.example.com/api/v3"),
        ("CIRCLECI_API_BASE", "http://circleci.example.com/api/v2"),
        ("JIRA_BASE_URL", "http://jira.example.com:8080"),
        ("CONFLUENCE_BASE_URL", "http://wiki.example.com"),
        ("BITBUCKET_BASE_URL", "http://10.0.0.7:7990"),
    ];
    let (code, stderr) = start_up(&bases).await;
    assert_eq!(code, Some(2), "{stderr}");
    for (setting, _) in bases {
        let line = stderr
            .lines()
            .find(|line| line.contains(&format!("{setting}=http://")))
            .unwrap_or_else(|| panic!("{setting} is not named:\n{stderr}"));
        assert!(
            line.contains("is plain http to a host that is not loopback")
                && line.contains("MCP_ALLOW_INSECURE_HTTP=true"),
            "{line}"
        );
    }
    assert!(
        stderr.contains("JIRA_BASE_URL=http://jira.example.com:8080 "),
        "{stderr}"
    );

    // Loopback stays allowed, and the switch allows the rest: the server starts and answers.
    let mut allowed: Vec<(&str, &str)> = bases.to_vec();
    allowed.push(("MCP_ALLOW_INSECURE_HTTP", "true"));
    serves(&allowed).await;
    serves(&[
        ("GITHUB_API_BASE", "http://127.0.0.1:9"),
        ("CIRCLECI_API_BASE", "http://localhost:9/api/v2"),
        ("JIRA_BASE_URL", "http://[::1]:9"),
        ("BITBUCKET_BASE_URL", "http://127.0.0.2:9"),
    ])
    .await;
}
