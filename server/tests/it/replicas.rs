//! Many replicas, one state (CONTRACT §9-§10), whole chain: two `mcp-devtools --http` processes with
//! `MCP_HTTP_STATELESS=true` share one S3 bucket (artifacts) and one Redis (HTTP cache); rmcp clients for two
//! principals talk to either replica.
//!
//! Needs the services `scripts/test` starts: `MCP_DEVTOOLS_TEST_S3_ENDPOINT` + `MCP_DEVTOOLS_TEST_S3_BUCKET` (a local
//! S3-compatible server) and `MCP_DEVTOOLS_TEST_REDIS_URL` (a local `redis-server`). Without them the test prints
//! why and passes, unless `MCP_DEVTOOLS_REQUIRE_SERVICES=1`, which makes a missing service a failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use common::http::{HttpServer, tokens_file};
use recorded_upstream::RecordedUpstream;
use recorded_upstream::wiremock::matchers::{method, path};
use recorded_upstream::wiremock::{Mock, ResponseTemplate};
use rmcp::RoleClient;
use rmcp::service::RunningService;
use serde_json::{Value, json};

const ALICE: &str = "alice-token-replicas-1";
const BOB: &str = "bob-token-replicas-2";
const AWS_SECRET: &str = "replica-test-aws-secret-7f3c";

/// The shared services, or `None` (after printing why) when the test should skip.
fn services() -> Option<(String, String, String)> {
    let get = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let found = (
        get("MCP_DEVTOOLS_TEST_S3_ENDPOINT"),
        get("MCP_DEVTOOLS_TEST_S3_BUCKET"),
        get("MCP_DEVTOOLS_TEST_REDIS_URL"),
    );
    if let (Some(endpoint), Some(bucket), Some(redis)) = found {
        return Some((endpoint, bucket, redis));
    }
    assert!(
        std::env::var("MCP_DEVTOOLS_REQUIRE_SERVICES").as_deref() != Ok("1"),
        "MCP_DEVTOOLS_REQUIRE_SERVICES=1 but the S3 / Redis test services are not set"
    );
    eprintln!(
        "SKIPPED: no S3 / Redis test services (set MCP_DEVTOOLS_TEST_S3_ENDPOINT, MCP_DEVTOOLS_TEST_S3_BUCKET and \
         MCP_DEVTOOLS_TEST_REDIS_URL, or run scripts/test)"
    );
    None
}

/// One replica: stateless HTTP, artifacts in `s3_url`, the cache in `redis`, principals alice and bob.
async fn replica(upstream: &str, endpoint: &str, s3_url: &str, redis: &str) -> HttpServer {
    let dir = tempfile::tempdir().unwrap();
    let tokens = tokens_file(&dir, &[(ALICE, "alice"), (BOB, "bob")]);
    let circleci_base = format!("{upstream}/api/v2");
    let env = common::server_env(
        upstream,
        &[
            ("MCP_STRUCTURED_OUTPUT", "true"),
            ("MCP_STRUCTURED_MAX_BYTES", "16384"),
            ("CIRCLECI_TOKEN", "circle-secret-token"),
            ("CIRCLECI_API_BASE", circleci_base.as_str()),
            ("STREAMING_ARTIFACT_STORE", "s3"),
            ("STREAMING_ARTIFACT_S3_URL", s3_url),
            ("AWS_ENDPOINT_URL", endpoint),
            ("AWS_REGION", "us-east-1"),
            ("AWS_ACCESS_KEY_ID", "test"),
            ("AWS_SECRET_ACCESS_KEY", AWS_SECRET),
            ("AWS_ALLOW_HTTP", "true"),
            ("HTTP_CACHE_REDIS_URL", redis),
            // Generous: this test is about sharing, not the timeout (a loaded machine can pause 50 ms).
            ("HTTP_CACHE_REDIS_TIMEOUT_MS", "2000"),
            ("MCP_HTTP_STATELESS", "true"),
            ("RUST_LOG", "info"),
        ],
    );
    HttpServer::start(env, &["--tokens-file", tokens.to_str().unwrap()], dir).await
}

async fn call(client: &RunningService<RoleClient, ()>, tool: &str, args: Value) -> Value {
    serde_json::to_value(common::call(client, tool, args).await).unwrap()
}

/// One `artifact_read` chunk: its decoded bytes and `nextOffset`, `eof`.
async fn read_chunk(client: &RunningService<RoleClient, ()>, id: &str, offset: u64) -> (Vec<u8>, u64, bool) {
    let result = call(
        client,
        "artifact_read",
        json!({"artifactId": id, "offset": offset, "maxBytes": 4096}),
    )
    .await;
    assert_eq!(result["isError"], false, "{result}");
    let chunk = &result["structuredContent"];
    assert_eq!(chunk["offset"], offset);
    let data = STANDARD.decode(chunk["data"].as_str().unwrap()).expect("base64");
    (
        data,
        chunk["nextOffset"].as_u64().unwrap(),
        chunk["eof"].as_bool().unwrap(),
    )
}

/// Reads `id` from `offset` to the end through `client`.
async fn read_rest(client: &RunningService<RoleClient, ()>, id: &str, mut offset: u64, out: &mut Vec<u8>) {
    loop {
        let (data, next, eof) = read_chunk(client, id, offset).await;
        out.extend_from_slice(&data);
        if eof {
            return;
        }
        offset = next;
    }
}

/// One raw JSON-RPC POST to `url` as `token`: the status, the `Mcp-Session-Id` header if any, and the JSON-RPC
/// answer (plain JSON, or the `data:` line of an event stream).
async fn post(url: &str, token: &str, body: Value) -> (u16, Option<String>, Value) {
    let response = reqwest::Client::new()
        .post(url)
        .bearer_auth(token)
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let session = response
        .headers()
        .get("mcp-session-id")
        .map(|v| v.to_str().unwrap().to_owned());
    let text = response.text().await.unwrap();
    let json = text
        .lines()
        .find_map(|line| line.strip_prefix("data:").map(str::trim).filter(|d| !d.is_empty()))
        .unwrap_or(text.as_str())
        .to_owned();
    (
        status,
        session,
        serde_json::from_str(&json).unwrap_or(Value::String(text)),
    )
}

fn not_found(result: &Value) -> bool {
    result["isError"] == true
        && result["content"][0]["text"]
            .as_str()
            .is_some_and(|t| t.contains("Artifact not found or expired"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_share_artifacts_and_the_cache_and_survive_a_sigkill() {
    let Some((endpoint, bucket, redis)) = services() else {
        return;
    };
    let upstream = RecordedUpstream::github().await.unwrap();
    let me = recorded_upstream::fixture("circleci/me").unwrap();
    Mock::given(method("GET"))
        .and(path("/api/v2/me"))
        .respond_with(
            ResponseTemplate::new(200)
                .insert_header("cache-control", "max-age=300")
                .set_body_raw(me.body, "application/json"),
        )
        .expect(1)
        .mount(upstream.server())
        .await;
    let nonce = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let s3_url = format!("s3://{bucket}/replicas-{nonce}-{}", std::process::id());
    let mut one = replica(&upstream.uri(), &endpoint, &s3_url, &redis).await;
    let two = replica(&upstream.uri(), &endpoint, &s3_url, &redis).await;
    let alice_one = one.client(ALICE).await;
    let alice_two = two.client(ALICE).await;
    let bob_one = one.client(BOB).await;
    let bob_two = two.client(BOB).await;

    // An oversized result on replica one; its artifact read from replica two, byte for byte.
    let runs = call(
        &alice_one,
        "github_list_workflow_runs",
        json!({"owner": "octo-org", "repo": "octo-repo"}),
    )
    .await;
    assert_eq!(runs["isError"], false, "{runs}");
    let incomplete = &runs["structuredContent"]["incomplete"];
    let id = incomplete["artifactId"].as_str().expect("an artifact id").to_owned();
    let total = incomplete["bytes"].as_u64().unwrap();
    assert!(total > 3 * 4096, "several chunks: {total} bytes");
    let mut from_two = Vec::new();
    read_rest(&alice_two, &id, 0, &mut from_two).await;
    assert_eq!(from_two.len() as u64, total);
    let mut from_one = Vec::new();
    read_rest(&alice_one, &id, 0, &mut from_one).await;
    assert!(from_one == from_two, "both replicas serve the same bytes");
    let value: Value = serde_json::from_slice(&from_two).expect("the artifact is the JSON value");
    assert!(value.get("data").is_some(), "the full structuredContent value: {value}");

    // The other principal: not found on either replica.
    assert!(not_found(
        &call(&bob_one, "artifact_read", json!({"artifactId": id})).await
    ));
    assert!(not_found(
        &call(&bob_two, "artifact_read", json!({"artifactId": id})).await
    ));

    // The HTTP cache: a miss on replica one, a hit on replica two with the same fetchedAt.
    let first = call(&alice_one, "circleci_get", json!({"path": "/me"})).await;
    let second = call(&alice_two, "circleci_get", json!({"path": "/me"})).await;
    let (first, second) = (
        &first["structuredContent"]["cache"],
        &second["structuredContent"]["cache"],
    );
    assert_eq!(first["hit"], false, "{first}");
    assert_eq!(second["hit"], true, "{second}");
    assert_eq!(first["fetchedAt"], second["fetchedAt"]);
    assert!(second["ageMs"].as_u64().is_some(), "{second}");

    // Stateless HTTP: initialize on replica one hands out no session; a call sent straight to replica two is
    // answered, with the same protocol negotiation and authentication.
    let (status, session, init) = post(
        &one.url,
        ALICE,
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}),
    )
    .await;
    assert_eq!(status, 200, "{init}");
    assert_eq!(session, None, "no server-side session");
    assert_eq!(init["result"]["protocolVersion"], "2025-06-18", "{init}");
    let call_two = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "artifact_read", "arguments": {"artifactId": id, "maxBytes": 16}}});
    let (status, _, answer) = post(&two.url, ALICE, call_two.clone()).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    assert_eq!(answer["result"]["structuredContent"]["nextOffset"], 16, "{answer}");
    let (status, _, _) = post(&two.url, "not-a-token", call_two).await;
    assert_eq!(status, 401, "authentication unchanged");

    // Replica one killed (SIGKILL) in the middle of a read: the read goes on from replica two.
    let (head, next, eof) = read_chunk(&alice_one, &id, 0).await;
    assert!(!eof);
    one.child.kill().await.expect("SIGKILL replica one");
    let mut resumed = head;
    read_rest(&alice_two, &id, next, &mut resumed).await;
    assert!(resumed == from_two, "the read finished on replica two, byte for byte");

    let logs = format!("{}{}", one.logs(), two.logs());
    assert!(
        !logs.contains(AWS_SECRET) && !logs.contains(ALICE),
        "a secret in the logs:\n{logs}"
    );
    assert!(
        logs.contains("artifact store open") && logs.contains("s3 s3://"),
        "{logs}"
    );
    // Dropping the upstream verifies `.expect(1)`: /me was fetched once for both replicas.
}

#[tokio::test]
async fn print_config_names_the_shared_backends_without_secrets() {
    let output = tokio::process::Command::new(common::BIN)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .envs([
            ("STREAMING_ARTIFACT_STORE", "s3"),
            ("STREAMING_ARTIFACT_S3_URL", "s3://team-bucket/mcp"),
            ("AWS_ENDPOINT_URL", "http://127.0.0.1:9000"),
            ("AWS_SECRET_ACCESS_KEY", AWS_SECRET),
            ("HTTP_CACHE_REDIS_URL", "redis://:redis-pa55@cache:6379/0"),
            ("MCP_TASKS_REDIS_URL", "redis://:tasks-pa55@tasks:6379/1"),
            ("MCP_HTTP_STATELESS", "true"),
        ])
        .arg("--print-config")
        .output()
        .await
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    for line in [
        "AWS_SECRET_ACCESS_KEY = ***",
        "HTTP_CACHE_REDIS_URL = ***",
        "MCP_HTTP_STATELESS = true",
        "# backend: artifacts: s3 s3://team-bucket/mcp (endpoint http://127.0.0.1:9000",
        "# backend: http cache: redis redis://:***@cache:6379/0",
        "MCP_TASKS_REDIS_URL = ***",
        "# backend: tasks: redis redis://:***@tasks:6379/1 (shared by replicas)",
        "# backend: http sessions: stateless",
    ] {
        assert!(text.contains(line), "missing {line:?} in:\n{text}");
    }
    assert!(
        !text.contains(AWS_SECRET) && !text.contains("redis-pa55") && !text.contains("tasks-pa55"),
        "{text}"
    );
}
