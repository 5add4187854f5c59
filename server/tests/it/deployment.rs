//! Deployment, whole chain: the binary over streamable HTTP (rmcp client, the TypeScript SDK client, raw HTTP),
//! bearer tokens and principals, policy refusals, enterprise `_meta`, `--print-config`, and logs without secrets.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::path::Path;

use common::http::{HttpServer, tokens_file};
use recorded_upstream::RecordedUpstream;
use rmcp::ServiceExt;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use serde_json::{Value, json};

const ALICE: &str = "alice-token-5d1f0c";
const BOB: &str = "bob-token-8e2a77";
const CAROL: &str = "carol-token-31b9e4";
const GITHUB_SECRET: &str = "ghp_DeploymentTestSecret0042";

const POLICY: &str = r#"
version = "2025-11-30"

[[rules]]
id = "bob-no-github"
principal = "bob"
vendor = "github"
effect = "deny"
reason = "Bob has no GitHub access"

[[rules]]
id = "carol-jobs-need-approval"
principal = "carol"
tool = "github_list_workflow_jobs"
effect = "approval_required"
reason = "Jobs listings are reviewed"
"#;

/// A server with three principals, the policy above, enterprise mode, this bound and debug logs.
async fn start(upstream: &str, structured: &str, max_bytes: &str) -> HttpServer {
    let dir = tempfile::tempdir().unwrap();
    let tokens = tokens_file(&dir, &[(ALICE, "alice"), (BOB, "bob"), (CAROL, "carol")]);
    let policy = dir.path().join("policy.toml");
    std::fs::write(&policy, POLICY).unwrap();
    let env = common::server_env(
        upstream,
        &[
            ("GITHUB_TOKEN", GITHUB_SECRET),
            ("MCP_STRUCTURED_OUTPUT", structured),
            ("MCP_STRUCTURED_MAX_BYTES", max_bytes),
            ("MCP_ENTERPRISE_MODE", "true"),
            ("RUST_LOG", "debug"),
        ],
    );
    let args = [
        "--tokens-file",
        tokens.to_str().unwrap(),
        "--policy",
        policy.to_str().unwrap(),
    ];
    HttpServer::start(env, &args, dir).await
}

fn as_json(result: &rmcp::model::CallToolResult) -> Value {
    serde_json::to_value(result).unwrap()
}

fn assert_no_secret(logs: &str) {
    for secret in [ALICE, BOB, CAROL, GITHUB_SECRET] {
        assert!(!logs.contains(secret), "a secret appears in the logs:\n{logs}");
    }
    assert!(
        logs.contains("tool_call"),
        "the debug logs hold no tool-call span:\n{logs}"
    );
}

#[tokio::test]
async fn principals_over_http_own_their_artifacts_and_policy_applies() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let server = start(&upstream.uri(), "true", "16384").await;
    let alice = server.client(ALICE).await;
    let bob = server.client(BOB).await;

    let args = json!({"owner": "octo-org", "repo": "octo-repo"});
    let result = common::call(&alice, "github_list_workflow_runs", args.clone()).await;
    let value = as_json(&result);
    assert_eq!(result.is_error, Some(false), "{}", value["content"][0]["text"]);
    let artifact_id = value["structuredContent"]["incomplete"]["artifactId"]
        .as_str()
        .expect("an oversized result with an artifact")
        .to_string();
    let upstream_meta = &value["_meta"]["mcp-devtools/upstream"];
    assert_eq!(upstream_meta["vendor"], "github");
    assert_eq!(upstream_meta["credentialLabel"], "GITHUB_TOKEN");
    assert_eq!(upstream_meta["authority"], upstream.uri().trim_start_matches("http://"));

    let own = as_json(
        &common::call(
            &alice,
            "artifact_read",
            json!({"artifactId": artifact_id, "maxBytes": 10}),
        )
        .await,
    );
    assert_eq!(own["isError"], false, "{own}");
    assert_eq!(own["_meta"]["mcp-devtools/upstream"]["vendor"], "none");
    let other = as_json(&common::call(&bob, "artifact_read", json!({"artifactId": artifact_id})).await);
    assert_eq!(other["isError"], true);
    assert!(
        other["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("Artifact not found or expired"),
        "{other}"
    );

    // Bob is denied GitHub: nothing reaches the upstream.
    let before = upstream.server().received_requests().await.unwrap_or_default().len();
    let denied = as_json(&common::call(&bob, "github_list_workflow_runs", args).await);
    assert_eq!(
        upstream.server().received_requests().await.unwrap_or_default().len(),
        before,
        "a refused call reached the upstream"
    );
    assert_eq!(denied["isError"], true);
    assert!(denied.get("structuredContent").is_none());
    assert_eq!(denied["_meta"]["code"], "policy_denied");
    assert_eq!(
        denied["_meta"]["decision"],
        json!({"rule": "bob-no-github", "effect": "deny", "reason": "Bob has no GitHub access", "policyVersion": "2025-11-30"})
    );
    assert_eq!(denied["_meta"]["mcp-devtools/upstream"]["vendor"], "github");

    // An upstream error carries the enterprise _meta too.
    let missing = as_json(
        &common::call(
            &alice,
            "github_list_workflow_runs",
            json!({"owner": "octo-org", "repo": "missing"}),
        )
        .await,
    );
    assert_eq!(missing["isError"], true);
    assert_eq!(
        missing["_meta"]["mcp-devtools/upstream"]["credentialLabel"],
        "GITHUB_TOKEN"
    );

    alice.cancel().await.unwrap();
    bob.cancel().await.unwrap();
    let logs = server.logs();
    assert_no_secret(&logs);
    assert!(
        logs.contains("principal=alice") && logs.contains("upstream_status=404"),
        "{logs}"
    );
}

#[tokio::test]
async fn bad_credentials_get_401_and_nothing_else() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let server = start(&upstream.uri(), "true", "16384").await;
    let http = reqwest::Client::new();
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}});
    let cases: [(&str, Option<String>); 5] = [
        ("no header", None),
        ("wrong token", Some("Bearer not-a-known-token".into())),
        ("malformed header", Some(format!("Bearer{ALICE}"))),
        ("other scheme", Some(format!("Basic {ALICE}"))),
        ("empty token", Some("Bearer ".into())),
    ];
    for (name, header) in cases {
        let mut request = http
            .post(&server.url)
            .header("accept", "application/json, text/event-stream")
            .json(&init);
        if let Some(header) = header {
            request = request.header("authorization", header);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 401, "{name}");
        assert_eq!(response.headers().get("www-authenticate").unwrap(), "Bearer", "{name}");
        assert!(response.text().await.unwrap().is_empty(), "{name}: the 401 has a body");
    }
    let ok = http
        .post(&server.url)
        .header("accept", "application/json, text/event-stream")
        .bearer_auth(ALICE)
        .json(&init)
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), 200);
}

#[tokio::test]
async fn no_auth_is_refused_off_loopback() {
    let output = tokio::process::Command::new(common::BIN)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .args(["--http", "0.0.0.0:0", "--no-auth"])
        .output()
        .await
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("only allowed on a loopback address"), "{stderr}");
}

/// A malformed `MCP_HTTP_ADDR` (or `--http`) stops start-up naming the setting, instead of serving stdio.
#[tokio::test]
async fn malformed_http_addr_stops_start_up() {
    for (env, args) in [(Some("localhost"), &[][..]), (None, &["--http", "127.0.0.1"][..])] {
        let mut command = tokio::process::Command::new(common::BIN);
        command
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", "/nonexistent-home")
            .args(args)
            .stdin(std::process::Stdio::null());
        if let Some(addr) = env {
            command.env("MCP_HTTP_ADDR", addr);
        }
        let output = tokio::time::timeout(std::time::Duration::from_secs(20), command.output())
            .await
            .expect("start-up stops instead of serving")
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("MCP_HTTP_ADDR=") && stderr.contains("is not IP:PORT"),
            "{stderr}"
        );
        assert!(output.stdout.is_empty(), "nothing served on stdout");
    }
}

#[tokio::test]
async fn sigterm_stops_the_http_server() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let mut server = start(&upstream.uri(), "false", "16384").await;
    let client = server.client(ALICE).await;
    let result = common::call(
        &client,
        "github_list_workflow_runs",
        json!({"owner": "octo-org", "repo": "octo-repo"}),
    )
    .await;
    assert_eq!(result.is_error, Some(false));
    let status = server.terminate().await;
    assert!(status.success(), "{status:?}: {}", server.logs());
}

#[tokio::test]
async fn stdio_session_logs_hold_no_secret() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let env = common::server_env(
        &upstream.uri(),
        &[
            ("GITHUB_TOKEN", GITHUB_SECRET),
            ("MCP_STRUCTURED_OUTPUT", "true"),
            ("RUST_LOG", "debug"),
        ],
    );
    let command = tokio::process::Command::new(common::BIN).configure(|cmd| {
        cmd.env_clear().envs(env);
    });
    let (transport, stderr) = TokioChildProcess::builder(command)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let reader = tokio::spawn(async move {
        let mut text = String::new();
        tokio::io::AsyncReadExt::read_to_string(&mut stderr.unwrap(), &mut text)
            .await
            .unwrap();
        text
    });
    let client = ().serve(transport).await.unwrap();
    let args = json!({"owner": "octo-org", "repo": "octo-repo", "jq": ".total_count"});
    assert_eq!(
        common::call(&client, "github_list_workflow_runs", args).await.is_error,
        Some(false)
    );
    let missing = common::call(
        &client,
        "github_list_workflow_runs",
        json!({"owner": "octo-org", "repo": "missing"}),
    )
    .await;
    assert_eq!(missing.is_error, Some(true));
    client.cancel().await.unwrap();
    let logs = tokio::time::timeout(std::time::Duration::from_secs(10), reader)
        .await
        .unwrap()
        .unwrap();
    assert!(
        !logs.contains(GITHUB_SECRET),
        "the GitHub token appears in the logs:\n{logs}"
    );
    assert!(
        logs.contains("upstream_status=200") && logs.contains("principal=local:tester"),
        "{logs}"
    );
}

#[tokio::test]
async fn print_config_names_each_source_and_masks_secrets() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        "MCP_STRUCTURED_MAX_BYTES = 40000\nmcp_upstream_timeout_seconds = 7\nMCP_ENTERPRISE_MODE = true\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join(".env"),
        "MCP_UPSTREAM_TIMEOUT_SECONDS=9\nGITHUB_API_BASE=http://dotenv.invalid\n",
    )
    .unwrap();
    let output = tokio::process::Command::new(common::BIN)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("MCP_DEVTOOLS_CONFIG", &config)
        .env("GITHUB_API_BASE", "http://env.invalid")
        .env("GITHUB_TOKEN", GITHUB_SECRET)
        .env("STREAMING_ARTIFACT_RETENTION_SECONDS", "1")
        .current_dir(dir.path())
        .args(["--print-config", "--github-api-base", "http://flag.invalid"])
        .output()
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for line in [
        "GITHUB_API_BASE = http://flag.invalid  # flag",
        "GITHUB_TOKEN = ***  # env",
        "MCP_UPSTREAM_TIMEOUT_SECONDS = 9  # .env",
        "MCP_STRUCTURED_MAX_BYTES = 40000  # file",
        "MCP_ENTERPRISE_MODE = true  # file",
        "MCP_STRUCTURED_OUTPUT = false  # default",
    ] {
        assert!(stdout.contains(line), "missing {line:?} in:\n{stdout}");
    }
    assert!(!stdout.contains(GITHUB_SECRET), "{stdout}");
    assert!(
        stdout.contains("# warning: ") && stdout.contains("STREAMING_ARTIFACT_RETENTION_SECONDS"),
        "{stdout}"
    );

    std::fs::write(&config, "MCP_STRUCTURED_MAX_BYTE = 1\n").unwrap();
    let output = tokio::process::Command::new(common::BIN)
        .env_clear()
        .env("MCP_DEVTOOLS_CONFIG", &config)
        .current_dir(dir.path())
        .arg("--print-config")
        .output()
        .await
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(
        stderr.contains("config.toml") && stderr.contains("MCP_STRUCTURED_MAX_BYTE"),
        "{stderr}"
    );
}

#[tokio::test]
async fn typescript_sdk_streamable_http_client_accepts_results_and_refusals() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../clients/ts");
    assert!(
        dir.join("node_modules/@modelcontextprotocol/sdk").exists(),
        "run scripts/test first: it runs npm ci in {}",
        dir.display()
    );
    let upstream = RecordedUpstream::github().await.unwrap();
    for structured in ["true", "false"] {
        let server = start(&upstream.uri(), structured, "262144").await;
        let output = tokio::process::Command::new("node")
            .arg(dir.join("http.mjs"))
            .env("MCP_URL", &server.url)
            .env("STRUCTURED", structured)
            .env("TOKEN_ALICE", ALICE)
            .env("TOKEN_BOB", BOB)
            .env("TOKEN_CAROL", CAROL)
            .output()
            .await
            .expect("run node");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "structured={structured}:\n{stdout}\n{stderr}");
        assert!(stdout.contains(" passed, 0 failed"), "{stdout}");
        assert_no_secret(&server.logs());
    }
}

/// A server with two principals and CircleCI configured against `upstream` (no policy).
async fn start_two_principals(upstream: &str, extra: &[(&str, &str)]) -> HttpServer {
    let dir = tempfile::tempdir().unwrap();
    let tokens = tokens_file(&dir, &[(ALICE, "alice"), (BOB, "bob")]);
    let circleci_base = format!("{upstream}/api/v2");
    let mut env_pairs = vec![
        ("MCP_STRUCTURED_OUTPUT", "true"),
        ("CIRCLECI_TOKEN", "circle-secret-token"),
        ("CIRCLECI_API_BASE", circleci_base.as_str()),
    ];
    env_pairs.extend_from_slice(extra);
    let env = common::server_env(upstream, &env_pairs);
    HttpServer::start(env, &["--tokens-file", tokens.to_str().unwrap()], dir).await
}

#[tokio::test]
async fn two_principals_over_http_never_share_cache_entries() {
    use recorded_upstream::wiremock::matchers::{method, path};
    use recorded_upstream::wiremock::{Mock, ResponseTemplate};

    let upstream = RecordedUpstream::start().await;
    let me = recorded_upstream::fixture("circleci/me").unwrap();
    Mock::given(method("GET"))
        .and(path("/api/v2/me"))
        .respond_with(ResponseTemplate::new(200).set_body_raw(me.body, "application/json"))
        .expect(2)
        .mount(upstream.server())
        .await;
    let server = start_two_principals(&upstream.uri(), &[]).await;
    let alice = server.client(ALICE).await;
    let bob = server.client(BOB).await;
    let cache = |result: rmcp::model::CallToolResult| as_json(&result)["structuredContent"]["cache"].clone();

    let first = cache(common::call(&alice, "circleci_get", json!({"path": "/me"})).await);
    let again = cache(common::call(&alice, "circleci_get", json!({"path": "/me"})).await);
    let other = cache(common::call(&bob, "circleci_get", json!({"path": "/me"})).await);
    assert_eq!(first["hit"], false, "{first}");
    assert_eq!(
        again["hit"], true,
        "alice's second call is served from her entry: {again}"
    );
    assert_eq!(other["hit"], false, "bob never gets alice's entry: {other}");
    alice.cancel().await.unwrap();
    bob.cancel().await.unwrap();
    // Dropping the upstream verifies `.expect(2)`: alice once, bob once.
}

#[tokio::test]
async fn sigterm_lets_a_call_in_flight_finish() {
    use recorded_upstream::wiremock::matchers::{method, path};
    use recorded_upstream::wiremock::{Mock, ResponseTemplate};

    let upstream = RecordedUpstream::start().await;
    let runs = recorded_upstream::fixture("github/actions-runs-empty").unwrap();
    Mock::given(method("GET"))
        .and(path("/repos/octo-org/slow/actions/runs"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_raw(runs.body, "application/json")
                .set_delay(std::time::Duration::from_millis(1500)),
        )
        .mount(upstream.server())
        .await;
    let mut server = start_two_principals(&upstream.uri(), &[("RUST_LOG", "info")]).await;
    let alice = server.client(ALICE).await;
    let in_flight = tokio::spawn(async move {
        let result = common::call(
            &alice,
            "github_list_workflow_runs",
            json!({"owner": "octo-org", "repo": "slow"}),
        )
        .await;
        (result, alice)
    });
    // Wait until the request is at the upstream, then ask the server to stop.
    tokio::time::timeout(std::time::Duration::from_secs(10), async {
        while upstream
            .server()
            .received_requests()
            .await
            .unwrap_or_default()
            .is_empty()
        {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the call reached the upstream");
    let status = server.terminate().await;
    let (result, _alice) = tokio::time::timeout(std::time::Duration::from_secs(20), in_flight)
        .await
        .unwrap_or_else(|_| panic!("the call in flight got no answer: {}", server.logs()))
        .unwrap();
    assert_eq!(
        result.is_error,
        Some(false),
        "the call in flight finished: {}",
        as_json(&result)
    );
    assert_eq!(as_json(&result)["structuredContent"]["data"]["total_count"], 0);
    assert!(status.success(), "{status:?}: {}", server.logs());
}
