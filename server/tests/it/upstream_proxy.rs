//! Issue 44, point 3: the upstreams behind a proxy, through the whole chain — rmcp client → `mcp-devtools` binary →
//! adapter → a **real** proxy, proxy.py (`common::proxy`, one private instance per test on 127.0.0.1) → the
//! upstreams on 127.0.0.1: the recorded upstream (wiremock, plain http: a forwarded request) and a TLS upstream with
//! the test's CA (`common::tls`: a `CONNECT` tunnel). The proxy's own access log says what went through it.
//!
//! Loopback is not exempt from the proxy by itself (reqwest's and curl's rule), so `127.0.0.1` reaches the
//! upstreams through the proxy while `localhost`, listed in `NO_PROXY`, reaches the same wiremock server direct: two
//! names of one loopback server, one proxied and one not.
//!
//! Without proxy.py (`scripts/services install`) these tests say so and pass, unless
//! `MCP_DEVTOOLS_REQUIRE_SERVICES=1`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use base64::Engine as _;
use recorded_upstream::RecordedUpstream;
use recorded_upstream::wiremock::matchers::{method, path};
use recorded_upstream::wiremock::{Mock, ResponseTemplate};
use rmcp::RoleClient;
use rmcp::model::CallToolResult;
use rmcp::service::RunningService;
use serde_json::{Value, json};
use tokio::sync::Mutex;

use crate::common::proxy::{ProxyPy, missing};
use crate::common::tls::{TestCa, TlsUpstream, fixture_bytes, write};
use crate::common::{self, call, connect_logged, server_env, text};

/// `env` for a server against `upstream` (every vendor, structured output on), with `extra`.
fn env(upstream: &RecordedUpstream, extra: &[(&str, &str)]) -> Vec<(String, String)> {
    let settings: Vec<(String, String)> = upstream.env().into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
    let mut pairs: Vec<(&str, &str)> = settings.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    pairs.push(("MCP_STRUCTURED_OUTPUT", "true"));
    pairs.extend_from_slice(extra);
    server_env(&upstream.uri(), &pairs)
}

fn data(result: &CallToolResult) -> Value {
    assert_ne!(result.is_error, Some(true), "{}", text(result));
    result.structured_content.as_ref().unwrap()["data"].clone()
}

/// Ends the session and waits for the server process to exit (its connections to the proxy close, so the proxy
/// writes their log lines); its log.
async fn stop(client: RunningService<RoleClient, ()>, log: Arc<Mutex<Vec<u8>>>) -> String {
    client.cancel().await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    String::from_utf8_lossy(&log.lock().await).into_owned()
}

#[tokio::test]
async fn upstream_calls_go_through_a_real_proxy_and_no_proxy_hosts_go_direct() {
    let Some(proxy) = ProxyPy::start(None).await else {
        return missing();
    };
    let upstream = RecordedUpstream::all().await.unwrap();
    let ca = TestCa::new("proxy test CA");
    let tls = TlsUpstream::start(&ca, None).await;
    let dir = tempfile::tempdir().unwrap();
    let ca_pem = write(dir.path(), "ca.pem", &ca.pem());
    let plain = upstream.uri(); // http://127.0.0.1:PORT
    let port = plain.rsplit(':').next().unwrap().to_owned();
    let direct = format!("http://localhost:{port}");
    let circleci = format!("{plain}/api/v2");
    // GitHub over https (a CONNECT tunnel), CircleCI over plain http (forwarded), Jira direct (NO_PROXY); the
    // settings by their lower-case names, as curl reads them too.
    let (client, log) = connect_logged(env(
        &upstream,
        &[
            ("GITHUB_API_BASE", &tls.uri("127.0.0.1")),
            ("GITHUB_CA_BUNDLE", &ca_pem),
            ("CIRCLECI_API_BASE", &circleci),
            ("JIRA_BASE_URL", &direct),
            ("https_proxy", &proxy.url()),
            ("http_proxy", &proxy.url()),
            ("no_proxy", "localhost"),
        ],
    ))
    .await;
    let github = call(&client, "github_get", json!({"path": "/user"})).await;
    assert_eq!(
        data(&github),
        serde_json::from_slice::<Value>(&fixture_bytes()).unwrap()
    );
    let circleci = call(&client, "circleci_get", json!({"path": "/me", "fresh": true})).await;
    assert_eq!(data(&circleci), common::fixture_json("circleci/me"));
    let jira = call(&client, "jira_get", json!({"path": "/rest/api/3/myself"})).await;
    assert_eq!(data(&jira), common::fixture_json("jira/myself"));
    stop(client, log).await;

    let tunnel = format!("CONNECT 127.0.0.1:{}", tls.port());
    let forwarded = format!("GET 127.0.0.1:{port}/api/v2/me");
    let seen = proxy.log_with(&[&tunnel, &forwarded]).await;
    assert!(seen.contains(&tunnel), "the https call went through the proxy:\n{seen}");
    assert!(
        seen.contains(&forwarded),
        "the http call went through the proxy:\n{seen}"
    );
    assert!(!seen.contains("localhost"), "the NO_PROXY host went direct:\n{seen}");
    assert!(
        !seen.contains("/rest/api/3/myself"),
        "the NO_PROXY host went direct:\n{seen}"
    );
    assert_eq!(tls.requests(), 1);
}

const USER: &str = "mia";
const PASSWORD: &str = "proxy-pass-0123456789";
const WRONG: &str = "wrong-pass-0123456789";

#[tokio::test]
async fn a_proxy_asking_for_credentials_gets_them_and_its_password_never_comes_back() {
    let Some(proxy) = ProxyPy::start(Some(&format!("{USER}:{PASSWORD}"))).await else {
        return missing();
    };
    let upstream = RecordedUpstream::all().await.unwrap();
    let basic = base64::engine::general_purpose::STANDARD.encode(format!("{USER}:{PASSWORD}"));
    // An upstream that quotes the proxy's credentials back (a debug endpoint echoing what it was sent).
    let echo = format!(r#"{{"password": "{PASSWORD}", "proxyAuthorization": "Basic {basic}"}}"#);
    Mock::given(method("GET"))
        .and(path("/echo"))
        .respond_with(ResponseTemplate::new(200).set_body_raw(echo, "application/json"))
        .mount(upstream.server())
        .await;
    let ca = TestCa::new("proxy auth CA");
    let tls = TlsUpstream::start(&ca, None).await;

    let (client, log) = connect_logged(env(
        &upstream,
        &[("HTTP_PROXY", &proxy.url_with(USER, PASSWORD)), ("RUST_LOG", "trace")],
    ))
    .await;
    let runs = call(
        &client,
        "github_list_workflow_runs",
        json!({"owner": "octo-org", "repo": "octo-repo"}),
    )
    .await;
    assert!(data(&runs)["total_count"].is_number());
    let echoed = call(&client, "github_get", json!({"path": "/echo"})).await;
    assert_eq!(
        data(&echoed),
        json!({"password": "[redacted HTTP_PROXY]", "proxyAuthorization": "Basic [redacted HTTP_PROXY]"})
    );
    let first_log = stop(client, log).await;
    // At trace level reqwest logs the proxy it picks: by its address alone.
    assert!(
        first_log.contains(&proxy.authority()),
        "the log names the proxy: {first_log}"
    );
    let mut shown = format!("{}\n{}\n{}", text(&runs), text(&echoed), first_log);
    let through = format!(
        "GET {}/repos/octo-org/octo-repo/actions/runs",
        upstream.uri().trim_start_matches("http://")
    );
    let seen = proxy.log_with(&[&through]).await;
    assert!(
        seen.contains(&through),
        "the call went through the proxy, credentials accepted:\n{seen}"
    );

    // Wrong credentials: refused by the proxy, for a forwarded request (a 407 answer) and a tunnel (a 407 to
    // CONNECT); one clear error each, naming the setting, never the password.
    let circleci = format!("{}/api/v2", tls.uri("127.0.0.1"));
    let (client, log) = connect_logged(env(
        &upstream,
        &[
            ("HTTP_PROXY", &proxy.url_with(USER, WRONG)),
            ("HTTPS_PROXY", &proxy.url_with(USER, WRONG)),
            ("CIRCLECI_API_BASE", &circleci),
            ("RUST_LOG", "debug"),
        ],
    ))
    .await;
    let masked = format!("http://{USER}:***@{}", proxy.authority());
    for (tool, args, setting) in [
        ("github_get", json!({"path": "/user"}), "HTTP_PROXY"),
        ("circleci_get", json!({"path": "/me"}), "HTTPS_PROXY"),
    ] {
        let result = call(&client, tool, args).await;
        let error = text(&result);
        assert_eq!(result.is_error, Some(true), "{error}");
        let want = format!("the proxy {masked} of {setting} refused the user and password in it (407 Proxy");
        assert!(error.contains(&want), "missing {want:?} in: {error}");
        assert_eq!(serde_json::to_value(&result.meta).unwrap()["code"], "invalid_setting");
        shown.push_str(&error);
    }
    shown.push_str(&stop(client, log).await);
    assert_eq!(tls.requests(), 0, "the tunnel was refused");

    // --print-config masks them too.
    let output = tokio::process::Command::new(common::BIN)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("https_proxy", proxy.url_with(USER, PASSWORD))
        .env("NO_PROXY", "localhost")
        .arg("--print-config")
        .output()
        .await
        .unwrap();
    let printed = String::from_utf8_lossy(&output.stdout).into_owned();
    for line in [
        "HTTPS_PROXY = ***  # env".to_owned(),
        format!("# backend: upstream proxies: https via {masked} (HTTPS_PROXY); direct: NO_PROXY localhost"),
    ] {
        assert!(printed.contains(&line), "missing {line:?} in:\n{printed}");
    }
    shown.push_str(&printed);

    let wrong = base64::engine::general_purpose::STANDARD.encode(format!("{USER}:{WRONG}"));
    for secret in [PASSWORD, WRONG, &basic, &wrong] {
        assert!(
            !shown.contains(secret),
            "{secret} shown in results, errors, logs or --print-config:\n{shown}"
        );
    }
}
