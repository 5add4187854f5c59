//! The OAuth 2.1 resource server against a real authorization server (oidc-provider, `clients/oauth`): the
//! protected-resource metadata and challenges a client discovers from, client_credentials tokens accepted and
//! mapped to `oauth:<sub>` principals, scopes per tool (`403 insufficient_scope`), every bad token refused with
//! its status and header and nothing sent upstream, opaque tokens introspected, the tokens file still accepted
//! beside OAuth, state kept per principal, no token in the logs, and start-up stopped by a bad issuer.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::time::Duration;

use common::http::{HttpServer, tokens_file};
use common::oauth::AuthServer;
use recorded_upstream::RecordedUpstream;
use serde_json::{Value, json};

const CI_BOT: &str = "ci-bot-token-from-the-tokens-file";
const BOTH: &str = "devtools:read devtools:write";

async fn start(auth: &AuthServer, upstream: &RecordedUpstream) -> HttpServer {
    let dir = tempfile::tempdir().unwrap();
    let tokens = tokens_file(&dir, &[(CI_BOT, "ci-bot")]);
    let policy = dir.path().join("policy.toml");
    std::fs::write(
        &policy,
        "version = \"1\"\n[[rules]]\nid = \"b-no-circleci\"\nprincipal = \"oauth:machine-b\"\ntool = \"circleci_*\"\neffect = \"deny\"\n",
    )
    .unwrap();
    let env = common::server_env(
        &upstream.uri(),
        &[
            ("MCP_OAUTH_ISSUER", auth.issuer.as_str()),
            ("MCP_OAUTH_LEEWAY_SECONDS", "0"),
            ("MCP_OAUTH_INTROSPECTION_CLIENT_ID", "mcp-devtools"),
            ("MCP_OAUTH_INTROSPECTION_CLIENT_SECRET", "mcp-devtools-secret"),
            ("MCP_STRUCTURED_OUTPUT", "true"),
            ("RUST_LOG", "info"),
            ("MCP_POLICY_FILE", policy.to_str().unwrap()),
        ],
    );
    HttpServer::start(env, &["--tokens-file", tokens.to_str().unwrap()], dir).await
}

async fn post(url: &str, token: Option<&str>, session: Option<&str>, body: &Value) -> reqwest::Response {
    let mut request = reqwest::Client::new()
        .post(url)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .body(serde_json::to_vec(body).unwrap());
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(session) = session {
        request = request
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", "2025-06-18");
    }
    request.send().await.unwrap()
}

fn initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}})
}

fn tool_call(tool: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": tool, "arguments": arguments}})
}

/// Opens a session for `token`; returns its id.
async fn open(url: &str, token: &str) -> String {
    let init = post(url, Some(token), None, &initialize()).await;
    assert_eq!(init.status(), 200);
    let session = init.headers()["mcp-session-id"].to_str().unwrap().to_string();
    let done = post(
        url,
        Some(token),
        Some(&session),
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .await;
    assert_eq!(done.status(), 202);
    session
}

fn challenge(response: &reqwest::Response) -> String {
    response
        .headers()
        .get("www-authenticate")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default()
}

async fn upstream_requests(upstream: &RecordedUpstream) -> usize {
    upstream.server().received_requests().await.map_or(0, |r| r.len())
}

fn runs() -> Value {
    json!({"owner": "octo-org", "repo": "octo-repo"})
}

#[tokio::test]
async fn access_tokens_of_the_authorization_server_are_checked_end_to_end() {
    let auth = AuthServer::start().await;
    let upstream = RecordedUpstream::github().await.unwrap();
    let server = start(&auth, &upstream).await;
    let url = server.url.clone();
    let origin = url.trim_end_matches("/mcp").to_string();
    let metadata_url = format!("{origin}/.well-known/oauth-protected-resource/mcp");

    // Discovery: the metadata at the path-suffixed and the root location, and the challenge pointing at it.
    for location in [
        metadata_url.clone(),
        format!("{origin}/.well-known/oauth-protected-resource"),
    ] {
        let doc: Value = reqwest::get(&location).await.unwrap().json().await.unwrap();
        assert_eq!(doc["resource"], json!(url), "{location}: {doc}");
        assert_eq!(doc["authorization_servers"], json!([auth.issuer]));
        assert_eq!(doc["scopes_supported"], json!(["devtools:read", "devtools:write"]));
        assert_eq!(doc["bearer_methods_supported"], json!(["header"]));
    }
    let anonymous = post(&url, None, None, &initialize()).await;
    assert_eq!(anonymous.status(), 401);
    let header = challenge(&anonymous);
    assert_eq!(
        header,
        format!("Bearer scope=\"{BOTH}\", resource_metadata=\"{metadata_url}\"")
    );

    // A machine client with both scopes: connects, lists and calls tools.
    let full = auth.token(&auth.issuer, "machine-a", BOTH, &url).await;
    let client = server.client(&full).await;
    let tools = client.list_all_tools().await.unwrap();
    assert!(tools.iter().any(|tool| tool.name == "jira_write"));
    let result = common::call(&client, "github_list_workflow_runs", runs()).await;
    assert_ne!(result.is_error, Some(true), "{result:?}");
    let after_call = upstream_requests(&upstream).await;
    assert!(after_call > 0);

    // A read-only token: reads, and a write tool gets 403 naming the scope it needs, sending nothing upstream.
    let reader = auth.token(&auth.issuer, "machine-b", "devtools:read", &url).await;
    let session = open(&url, &reader).await;
    let write = json!({"method": "POST", "path": "/rest/api/3/issue", "body": {}});
    let refused = post(&url, Some(&reader), Some(&session), &tool_call("jira_write", write)).await;
    assert_eq!(refused.status(), 403);
    let header = challenge(&refused);
    assert!(
        header.starts_with("Bearer error=\"insufficient_scope\", scope=\"devtools:write\"")
            && header.ends_with(&format!("resource_metadata=\"{metadata_url}\"")),
        "{header}"
    );
    let read = post(
        &url,
        Some(&reader),
        Some(&session),
        &tool_call("github_list_workflow_runs", runs()),
    )
    .await;
    assert_eq!(read.status(), 200);
    assert!(read.text().await.unwrap().contains("\"result\""));
    let before_refusals = upstream_requests(&upstream).await;

    // Every bad token is refused with 401 invalid_token (the query string with 400), before anything runs.
    let short = auth.token(&auth.issuer, "short-lived", BOTH, &url).await;
    let wrong_audience = auth
        .token(&auth.issuer, "machine-a", BOTH, "http://127.0.0.1:1/other")
        .await;
    let wrong_issuer = auth.token(&auth.other, "machine-a", BOTH, &url).await;
    let unknown_kid = auth.token(&auth.rogue, "machine-a", BOTH, &url).await;
    // One character of the signature changed (not the last, whose low bits are padding).
    let at = full.len() - 10;
    let swapped = if &full[at..=at] == "A" { "B" } else { "A" };
    let tampered = format!("{}{swapped}{}", &full[..at], &full[at + 1..]);
    let (alg_none, hmac_with_public_key) = forged(&auth, &full).await;
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let bad = [
        ("alg none", alg_none.as_str(), "signing algorithm is not accepted"),
        (
            "HS256 keyed with the public key",
            hmac_with_public_key.as_str(),
            "signing algorithm is not accepted",
        ),
        ("expired", short.as_str(), "expired"),
        (
            "wrong audience",
            wrong_audience.as_str(),
            "not issued for this resource",
        ),
        (
            "wrong issuer",
            wrong_issuer.as_str(),
            "not issued by the configured authorization server",
        ),
        (
            "unknown kid",
            unknown_kid.as_str(),
            "a key the authorization server does not publish",
        ),
        ("tampered signature", tampered.as_str(), "signature does not verify"),
        (
            "opaque, unknown to introspection",
            "not-a-token-the-server-knows",
            "not active",
        ),
    ];
    for (case, token, why) in bad {
        for body in [initialize(), tool_call("github_list_workflow_runs", runs())] {
            let response = post(&url, Some(token), None, &body).await;
            assert_eq!(response.status(), 401, "{case}");
            let header = challenge(&response);
            assert!(
                header.starts_with("Bearer error=\"invalid_token\", error_description=\"")
                    && header.contains(why)
                    && header.ends_with(&format!("resource_metadata=\"{metadata_url}\"")),
                "{case}: {header}"
            );
        }
    }
    let in_query = reqwest::Client::new()
        .post(format!("{url}?access_token={full}"))
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .body(serde_json::to_vec(&initialize()).unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(in_query.status(), 400);
    assert!(challenge(&in_query).starts_with("Bearer error=\"invalid_request\""));
    assert_eq!(
        upstream_requests(&upstream).await,
        before_refusals,
        "nothing was sent upstream"
    );

    // Beside OAuth: the tokens file's machine token, and an opaque token checked by introspection.
    for (who, token) in [
        ("tokens file", CI_BOT.to_string()),
        ("introspected", auth.token(&auth.issuer, "opaque", BOTH, &url).await),
    ] {
        let client = server.client(&token).await;
        let result = common::call(&client, "github_list_workflow_runs", runs()).await;
        assert_ne!(result.is_error, Some(true), "{who}: {result:?}");
    }

    // OAuth principals feed the policy rules: machine-b is denied the CircleCI tools, machine-a is not.
    let b_client = server.client(&reader).await;
    let denied = common::call(&b_client, "circleci_get", json!({"path": "/me"})).await;
    assert_eq!(denied.is_error, Some(true));
    let meta = serde_json::to_value(&denied.meta).unwrap();
    assert_eq!(meta["code"], "policy_denied", "{denied:?}");
    assert_eq!(meta["decision"]["rule"], "b-no-circleci");

    // Per principal: machine-b cannot use machine-a's session nor read machine-a's artifact.
    let a_session = open(&url, &full).await;
    let stolen = post(
        &url,
        Some(&reader),
        Some(&a_session),
        &tool_call("github_list_workflow_runs", runs()),
    )
    .await;
    assert_eq!(stolen.status(), 404);
    let big = common::call(
        &client,
        "github_list_workflow_runs",
        json!({"owner": "octo-org", "repo": "octo-repo", "perPage": 100}),
    )
    .await;
    let artifact = big.structured_content.as_ref().unwrap()["incomplete"]["artifactId"]
        .as_str()
        .expect("an oversized result names its artifact")
        .to_string();
    let own = common::call(
        &client,
        "artifact_read",
        json!({"artifactId": artifact, "maxBytes": 16}),
    )
    .await;
    assert_ne!(own.is_error, Some(true), "{own:?}");
    let other = common::call(&b_client, "artifact_read", json!({"artifactId": artifact})).await;
    assert_eq!(other.is_error, Some(true));
    assert!(
        common::text(&other).contains("Artifact not found or expired"),
        "{other:?}"
    );

    // The logs name the principals and never a token.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let logs = server.logs();
    assert!(logs.contains("principal=oauth:machine-a"), "{logs}");
    assert!(logs.contains("principal=oauth:machine-b"), "{logs}");
    for token in [
        &full,
        &reader,
        &short,
        &wrong_audience,
        &wrong_issuer,
        &unknown_kid,
        &tampered,
    ] {
        let signature = token.rsplit('.').next().unwrap();
        assert!(!logs.contains(signature), "a token reached the logs:\n{logs}");
    }
    assert!(
        !logs.contains(CI_BOT) && !logs.contains("not-a-token-the-server-knows"),
        "{logs}"
    );
}

/// Two forgeries from `real`'s claims: `alg: none` with an empty signature, and `alg: HS256` keyed with the
/// authorization server's public RSA key (its JWKS modulus), the classic algorithm-confusion attack.
async fn forged(auth: &AuthServer, real: &str) -> (String, String) {
    use base64::Engine;
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let payload = real.split('.').nth(1).unwrap();
    let claims: Value = serde_json::from_slice(&b64.decode(payload).unwrap()).unwrap();
    let none = format!("{}.{payload}.", b64.encode(br#"{"alg":"none","typ":"at+jwt"}"#));
    let jwks: Value = reqwest::get(format!("{}/jwks", auth.issuer))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let modulus = b64.decode(jwks["keys"][0]["n"].as_str().unwrap()).unwrap();
    let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256);
    header.kid = jwks["keys"][0]["kid"].as_str().map(String::from);
    let hmac = jsonwebtoken::encode(
        &header,
        &claims,
        &jsonwebtoken::EncodingKey::from_secret(&modulus).unwrap(),
    )
    .unwrap();
    (none, hmac)
}

async fn start_up(env: Vec<(String, String)>, args: &[&str]) -> (bool, String, String) {
    let output = tokio::time::timeout(
        Duration::from_secs(60),
        tokio::process::Command::new(common::BIN)
            .env_clear()
            .envs(env)
            .args(args)
            .stdin(std::process::Stdio::null())
            .output(),
    )
    .await
    .expect("the server stopped by itself")
    .unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[tokio::test]
async fn a_bad_issuer_stops_start_up_and_print_config_shows_the_mode() {
    let mut auth = AuthServer::start().await;
    let env = |issuer: &str| common::server_env("http://127.0.0.1:9", &[("MCP_OAUTH_ISSUER", issuer)]);
    let http = ["--http", "127.0.0.1:0"];

    let (ok, stdout, _) = start_up(env(&auth.issuer), &["--print-config"]).await;
    assert!(ok);
    assert!(
        stdout.contains(&format!(
            "# backend: http auth: oauth (issuer {}, resource http://<bound address>/mcp, principal claim sub",
            auth.issuer
        )),
        "{stdout}"
    );

    let with_slash = format!("{}/", auth.issuer);
    let (ok, _, stderr) = start_up(env(&with_slash), &http).await;
    assert!(!ok);
    assert!(
        stderr.contains("MCP_OAUTH_ISSUER") && stderr.contains(&format!("names issuer \"{}\"", auth.issuer)),
        "{stderr}"
    );

    let off_loopback = env(&auth.issuer);
    let (ok, _, stderr) = start_up(off_loopback, &["--http", "0.0.0.0:0"]).await;
    assert!(!ok);
    assert!(stderr.contains("MCP_OAUTH_RESOURCE must be set"), "{stderr}");

    let unreachable = auth.issuer.clone();
    auth.kill();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (ok, _, stderr) = start_up(env(&unreachable), &http).await;
    assert!(!ok);
    assert!(
        stderr.contains("MCP_OAUTH_ISSUER") && stderr.contains("is unreachable or serves no metadata"),
        "{stderr}"
    );
}

#[tokio::test]
async fn the_typescript_sdk_client_authorizes_with_pkce_and_calls_tools() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../clients/ts");
    assert!(
        dir.join("node_modules/@modelcontextprotocol/sdk").exists(),
        "run scripts/test first: it runs npm ci in {}",
        dir.display()
    );
    let auth = AuthServer::start().await;
    let upstream = RecordedUpstream::github().await.unwrap();
    let server = start(&auth, &upstream).await;
    let output = tokio::time::timeout(
        Duration::from_secs(120),
        tokio::process::Command::new("node")
            .arg(dir.join("oauth.mjs"))
            .env("MCP_URL", &server.url)
            .output(),
    )
    .await
    .expect("the TypeScript client finished")
    .expect("run node");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("5 passed, 0 failed"), "{stdout}");
    let logs = server.logs();
    for principal in ["oauth:alice", "oauth:bob", "oauth:machine-a"] {
        assert!(logs.contains(&format!("principal={principal}")), "{principal}: {logs}");
    }
    assert!(!logs.contains("eyJ"), "an access token reached the logs:\n{logs}");
}
