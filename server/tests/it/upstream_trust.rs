//! Nothing an upstream sends can leak our credentials, drive the user's terminal, or pass a failed login off as data,
//! through the whole chain: rmcp client (and, once, the official TypeScript SDK client) →
//! `mcp-devtools` binary (its log collected) → wiremock upstream. One test per row of the threat list, each across the
//! five vendors (GitHub, CircleCI, Jira, Confluence, Bitbucket).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::path::Path;
use std::sync::Arc;

use base64::Engine as _;
use common::{call, server_env, text};
use recorded_upstream::RecordedUpstream;
use recorded_upstream::wiremock::matchers::{method, path};
use recorded_upstream::wiremock::{Mock, ResponseTemplate};
use rmcp::RoleClient;
use rmcp::model::CallToolResult;
use rmcp::service::RunningService;
use serde_json::{Value, json};
use tokio::sync::Mutex;

const GITHUB_TOKEN: &str = "ghp_trustTOKEN0001abcdef";
const CIRCLECI_TOKEN: &str = "circle-trust-token-0002";
/// With `/`, `+` and `"`, so its JSON-escaped and percent-encoded forms differ from it.
const ATLASSIAN_TOKEN: &str = "ATATT3x/trust+token\"0003";
const EMAIL: &str = "mia@example.com";
const REDIS_PASSWORD: &str = "redis-trust-pass-0005";

/// Every form of every configured secret that must never come back.
fn secrets() -> Vec<String> {
    let basic = base64::engine::general_purpose::STANDARD.encode(format!("{EMAIL}:{ATLASSIAN_TOKEN}"));
    vec![
        GITHUB_TOKEN.to_owned(),
        CIRCLECI_TOKEN.to_owned(),
        ATLASSIAN_TOKEN.to_owned(),
        serde_json::to_string(ATLASSIAN_TOKEN)
            .unwrap()
            .trim_matches('"')
            .to_owned(),
        "ATATT3x%2Ftrust%2Btoken%220003".to_owned(),
        basic,
        REDIS_PASSWORD.to_owned(),
    ]
}

fn assert_clean(what: &str, haystack: &str) {
    for secret in secrets() {
        assert!(
            !haystack.contains(&secret),
            "{what} holds a secret form {secret:?}: {haystack}"
        );
    }
}

/// A server child process (all five vendors configured against `upstream`) whose stderr (its log) is collected.
struct Server {
    client: RunningService<RoleClient, ()>,
    log: Arc<Mutex<Vec<u8>>>,
}

impl Server {
    /// With `redis`, the HTTP cache's Redis tier is a refused port with a password in its URL (calls go uncached).
    async fn start(upstream: &RecordedUpstream, redis: bool) -> Self {
        let uri = upstream.uri();
        let wiki = format!("{uri}/wiki");
        let redis_url = format!("redis://:{REDIS_PASSWORD}@127.0.0.1:1/0");
        let mut pairs = vec![
            ("MCP_STRUCTURED_OUTPUT", "true"),
            ("GITHUB_TOKEN", GITHUB_TOKEN),
            ("CIRCLECI_TOKEN", CIRCLECI_TOKEN),
            ("CIRCLECI_API_BASE", uri.as_str()),
            ("JIRA_BASE_URL", uri.as_str()),
            ("CONFLUENCE_BASE_URL", wiki.as_str()),
            ("BITBUCKET_BASE_URL", uri.as_str()),
            ("ATLASSIAN_USER_EMAIL", EMAIL),
            ("ATLASSIAN_API_TOKEN", ATLASSIAN_TOKEN),
            ("RUST_LOG", "debug"),
        ];
        if redis {
            pairs.push(("HTTP_CACHE_REDIS_URL", redis_url.as_str()));
        }
        let env = server_env(&uri, &pairs);
        let (client, log) = common::connect_logged(env).await;
        Server { client, log }
    }

    async fn call(&self, tool: &str, args: Value) -> CallToolResult {
        call(&self.client, tool, args).await
    }

    /// Stops the server and returns its whole log, checked free of every secret.
    async fn stop(self) -> String {
        self.client.cancel().await.unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        let log = String::from_utf8_lossy(&self.log.lock().await).into_owned();
        assert!(
            log.contains("upstream response"),
            "the log was collected at debug level: {log}"
        );
        assert_clean("the log", &log);
        log
    }
}

/// The five read tools, each with its arguments for upstream path `name` and the path the upstream serves.
fn reads(name: &str) -> Vec<(&'static str, Value, String)> {
    vec![
        (
            "github_list_workflow_runs",
            json!({"owner": "trust", "repo": name}),
            format!("/repos/trust/{name}/actions/runs"),
        ),
        ("circleci_get", json!({"path": format!("/{name}")}), format!("/{name}")),
        (
            "jira_get",
            json!({"path": format!("/rest/api/3/{name}")}),
            format!("/rest/api/3/{name}"),
        ),
        (
            "conf_get",
            json!({"path": format!("/wiki/api/v2/{name}")}),
            format!("/wiki/api/v2/{name}"),
        ),
        ("bb_get", json!({"path": format!("/{name}")}), format!("/2.0/{name}")),
    ]
}

async fn serve(upstream: &RecordedUpstream, at: &str, response: ResponseTemplate) {
    Mock::given(method("GET"))
        .and(path(at))
        .respond_with(response)
        .mount(upstream.server())
        .await;
}

fn json_body(status: u16, body: &Value) -> ResponseTemplate {
    ResponseTemplate::new(status).set_body_raw(body.to_string().into_bytes(), "application/json")
}

/// The whole result as the client received it (text, structuredContent, everything).
fn wire(result: &CallToolResult) -> String {
    serde_json::to_string(result).unwrap()
}

fn assert_error_names(tool: &str, result: &CallToolResult, parts: &[&str]) {
    assert_eq!(result.is_error, Some(true), "{tool}: {}", text(result));
    let text = text(result);
    for part in parts {
        assert!(text.contains(part), "{tool}: {part:?} not in {text}");
    }
}

/// Row 1: a credential echoed back (in an error message, in a `200` body's field, in a header) comes back as
/// `[redacted NAME]` from every vendor, in every form (raw, JSON-escaped, percent-encoded, the Basic header), the
/// other vendors' credentials and the Redis password included; the log never holds one either.
#[tokio::test]
async fn an_echoed_credential_never_comes_back_from_any_vendor() {
    let upstream = RecordedUpstream::start().await;
    let basic = base64::engine::general_purpose::STANDARD.encode(format!("{EMAIL}:{ATLASSIAN_TOKEN}"));
    let own = [
        ("GITHUB_TOKEN", GITHUB_TOKEN),
        ("CIRCLECI_TOKEN", CIRCLECI_TOKEN),
        ("ATLASSIAN_API_TOKEN", ATLASSIAN_TOKEN),
        ("ATLASSIAN_API_TOKEN", ATLASSIAN_TOKEN),
        ("ATLASSIAN_API_TOKEN", ATLASSIAN_TOKEN),
    ];
    for ((_, at), (_, token)) in reads("echo401").iter().map(|(t, _, p)| (t, p)).zip(own) {
        let message = format!("Bad credentials: token {token} is not valid");
        let body = json!({"message": message, "errorMessages": [message], "error": {"message": message}});
        serve(&upstream, at, json_body(401, &body)).await;
    }
    let echoed = json!({
        "total_count": 0,
        "workflow_runs": [],
        "note": format!("you sent {GITHUB_TOKEN} and {CIRCLECI_TOKEN}"),
        "escaped": format!("token {}", ATLASSIAN_TOKEN),
        "url": "https://h.example/?token=ATATT3x%2Ftrust%2Btoken%220003",
        "authorization": format!("Basic {basic}"),
        "redis": format!("redis://:{REDIS_PASSWORD}@cache"),
    });
    for (_, _, at) in reads("echo200") {
        let response = json_body(200, &echoed).insert_header("x-debug-token", GITHUB_TOKEN);
        serve(&upstream, &at, response).await;
    }
    let server = Server::start(&upstream, true).await;
    for ((tool, args, _), (name, _)) in reads("echo401").into_iter().zip(own) {
        let result = server.call(tool, args).await;
        assert_error_names(tool, &result, &["401", &format!("[redacted {name}]")]);
        assert_clean(tool, &wire(&result));
    }
    for (tool, args, _) in reads("echo200") {
        for format in ["toon", "json"] {
            let mut args = args.clone();
            args["outputFormat"] = json!(format);
            let result = server.call(tool, args).await;
            assert_ne!(result.is_error, Some(true), "{tool}: {}", text(&result));
            assert_clean(tool, &wire(&result));
            let data = &result.structured_content.as_ref().expect("structuredContent")["data"];
            assert_eq!(
                data["note"],
                json!("you sent [redacted GITHUB_TOKEN] and [redacted CIRCLECI_TOKEN]"),
                "{tool}"
            );
            assert_eq!(data["escaped"], json!("token [redacted ATLASSIAN_API_TOKEN]"), "{tool}");
            assert_eq!(
                data["url"],
                json!("https://h.example/?token=[redacted ATLASSIAN_API_TOKEN]")
            );
            assert_eq!(data["authorization"], json!("Basic [redacted ATLASSIAN_API_TOKEN]"));
            assert_eq!(data["redis"], json!("redis://:[redacted Redis password]@cache"));
            assert!(text(&result).contains("[redacted GITHUB_TOKEN]"), "{tool}");
        }
    }
    server.stop().await;
}

/// Row 2: control characters and bidi overrides from an upstream reach no text block raw, from any vendor, in
/// errors and in TOON and JSON text; `structuredContent` keeps the exact values, and JSON text still parses to them.
#[tokio::test]
async fn control_characters_reach_no_text_block_raw() {
    let upstream = RecordedUpstream::start().await;
    let hostile =
        "Not Found\u{1b}[2J\u{1b}]8;;http://evil.example/\u{7}click here\u{1b}]8;;\u{7}\r\u{9b}31m\u{202e}txt.exe";
    for (_, _, at) in reads("ansi404") {
        let body = json!({"message": hostile, "errorMessages": [hostile], "error": {"message": hostile}});
        serve(&upstream, &at, json_body(404, &body)).await;
    }
    let data = json!({"total_count": 0, "workflow_runs": [], "title": hostile, "lines": "ok\n\tindented"});
    for (_, _, at) in reads("ansi200") {
        serve(&upstream, &at, json_body(200, &data)).await;
    }
    let server = Server::start(&upstream, false).await;
    let raw = |text: &str| {
        text.chars()
            .find(|&c| mcp_envelope::sanitize::is_unsafe(c))
            .map(|c| format!("U+{:04X}", u32::from(c)))
    };
    for (tool, args, _) in reads("ansi404") {
        let result = server.call(tool, args).await;
        assert_error_names(
            tool,
            &result,
            &["404", "Not Found\\u001b[2J\\u001b]8;;http://evil.example/\\u0007"],
        );
        assert_eq!(raw(&text(&result)), None, "{tool}: {}", text(&result));
    }
    for (tool, args, _) in reads("ansi200") {
        for format in ["toon", "json"] {
            let mut args = args.clone();
            args["outputFormat"] = json!(format);
            let result = server.call(tool, args).await;
            let shown = text(&result);
            assert_ne!(result.is_error, Some(true), "{tool}: {shown}");
            assert_eq!(raw(&shown), None, "{tool} {format}: {shown}");
            assert!(
                shown.contains("\\u001b[2J") && shown.contains("\\u202e"),
                "{tool} {format}: {shown}"
            );
            let structured = result.structured_content.clone().expect("structuredContent");
            assert_eq!(
                structured["data"]["title"],
                json!(hostile),
                "{tool}: exact in structuredContent"
            );
            if format == "json" {
                let parsed: Value = serde_json::from_str(&shown).expect("JSON text stays JSON");
                let parsed = parsed.get("data").unwrap_or(&parsed);
                assert_eq!(
                    parsed["title"],
                    json!(hostile),
                    "{tool}: the JSON text parses to the same value"
                );
                assert_eq!(parsed["lines"], json!("ok\n\tindented"));
            }
        }
    }
    server.stop().await;
}

/// Row 3: answers that say the login failed are errors naming the cause and the settings, whatever their status,
/// and are never cached: the next call reaches the upstream again and gets the real answer.
#[tokio::test]
async fn a_failed_login_is_an_error_and_never_cached() {
    let upstream = RecordedUpstream::start().await;
    let once = |response: ResponseTemplate, at: &str| {
        Mock::given(method("GET"))
            .and(path(at.to_owned()))
            .respond_with(response)
            .up_to_n_times(1)
            .with_priority(1)
    };
    let good = json!({"total_count": 0, "workflow_runs": [], "issues": [{"key": "EX-1"}], "isLast": true});
    let anonymous = json!({"total_count": 0, "workflow_runs": [], "issues": [], "isLast": true});
    let login_page = "<!DOCTYPE html><html><head><title>Log in with Atlassian account</title></head><body>\
                      <form action=\"/login\"><input type=\"password\" name=\"password\"></form></body></html>";
    let sso = "required; url=https://github.com/orgs/trust/sso?authorization_request=AZSCKtL4U8yX1H3sCQIV";
    let reads = reads("login");
    let failures = [
        ResponseTemplate::new(403)
            .insert_header("x-github-sso", sso)
            .set_body_raw(
                br#"{"message":"Resource protected by organization SAML enforcement."}"#.to_vec(),
                "application/json",
            ),
        ResponseTemplate::new(200).set_body_raw(login_page.as_bytes().to_vec(), "text/html; charset=utf-8"),
        json_body(200, &anonymous).insert_header("X-Seraph-LoginReason", "AUTHENTICATED_FAILED"),
        json_body(401, &json!({"message": "Unauthorized"}))
            .insert_header("X-Seraph-LoginReason", "AUTHENTICATION_DENIED")
            .insert_header(
                "X-Authentication-Denied-Reason",
                "CAPTCHA_CHALLENGE; login-url=https://trust.atlassian.net/login.jsp",
            ),
        ResponseTemplate::new(200).set_body_raw(login_page.as_bytes().to_vec(), "text/html"),
    ];
    let expected: [&[&str]; 5] = [
        &[
            "SAML single sign-on",
            "https://github.com/orgs/trust/sso?authorization_request=AZSCKtL4U8yX1H3sCQIV",
            "GITHUB_TOKEN",
        ],
        &["HTML login page", "CIRCLECI_API_BASE", "CIRCLECI_TOKEN"],
        &[
            "X-Seraph-LoginReason: AUTHENTICATED_FAILED",
            "answered anonymously",
            "ATLASSIAN_USER_EMAIL and ATLASSIAN_API_TOKEN",
        ],
        &[
            "CAPTCHA",
            "log in once in a browser at https://trust.atlassian.net/login.jsp",
            "ATLASSIAN_API_TOKEN",
        ],
        &["HTML login page", "BITBUCKET_BASE_URL", "ATLASSIAN_API_TOKEN"],
    ];
    // Storable for a minute: without the login checks the failure would be cached and served again.
    let storable = |response: ResponseTemplate| response.insert_header("cache-control", "max-age=60");
    for ((_, _, at), failure) in reads.iter().zip(failures) {
        once(storable(failure), at).mount(upstream.server()).await;
        serve(&upstream, at, storable(json_body(200, &good))).await;
    }
    let server = Server::start(&upstream, false).await;
    for ((tool, args, _), parts) in reads.iter().zip(expected) {
        let failed = server.call(tool, args.clone()).await;
        assert_error_names(tool, &failed, parts);
        assert!(failed.structured_content.is_none(), "{tool}");
        let next = server.call(tool, args.clone()).await;
        assert_ne!(next.is_error, Some(true), "{tool}: {}", text(&next));
        let data = &next.structured_content.as_ref().unwrap()["data"];
        assert_eq!(
            data["issues"][0]["key"], "EX-1",
            "{tool}: the failed login was not cached"
        );
        if let Some(cache) = next.structured_content.as_ref().unwrap().get("cache") {
            assert_eq!(cache["hit"], false, "{tool}");
        }
    }
    assert_eq!(upstream.server().received_requests().await.unwrap().len(), 10);
    server.stop().await;
}

/// Row 4: a UTF-8 byte-order mark before a JSON body is skipped for every vendor; one inside a string is kept.
#[tokio::test]
async fn a_byte_order_mark_before_json_is_skipped_for_every_vendor() {
    let upstream = RecordedUpstream::start().await;
    let body = "\u{feff}{\"total_count\":0,\"workflow_runs\":[],\"key\":\"EX-1\",\"inside\":\"\u{feff}kept\"}";
    for (_, _, at) in reads("bom") {
        serve(
            &upstream,
            &at,
            ResponseTemplate::new(200).set_body_raw(body.as_bytes().to_vec(), "application/json"),
        )
        .await;
    }
    let server = Server::start(&upstream, false).await;
    for (tool, args, _) in reads("bom") {
        let result = server.call(tool, args).await;
        assert_ne!(result.is_error, Some(true), "{tool}: {}", text(&result));
        let data = &result.structured_content.as_ref().unwrap()["data"];
        assert_eq!(data["key"], "EX-1", "{tool}");
        assert_eq!(data["inside"], "\u{feff}kept", "{tool}");
    }
    server.stop().await;
}

/// The rows through the official TypeScript SDK client (which validates `structuredContent` against
/// `outputSchema`): `clients/ts/trust.mjs` against the same kind of upstream.
#[tokio::test]
async fn the_typescript_sdk_client_sees_the_same() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../clients/ts");
    assert!(
        dir.join("node_modules/@modelcontextprotocol/sdk").exists(),
        "run scripts/test first: it runs npm ci in {}",
        dir.display()
    );
    let upstream = RecordedUpstream::start().await;
    let echo = json!({"message": format!("Bad credentials: token {GITHUB_TOKEN} is not valid")});
    serve(&upstream, "/repos/trust/echo/actions/runs", json_body(401, &echo)).await;
    let ansi = json!({"message": "Not Found\u{1b}[2J\u{1b}]8;;http://evil.example/\u{7}click here\u{1b}]8;;\u{7}"});
    serve(&upstream, "/repos/trust/ansi/actions/runs", json_body(404, &ansi)).await;
    let anonymous = json_body(200, &json!({"issues": [], "isLast": true}))
        .insert_header("X-Seraph-LoginReason", "AUTHENTICATED_FAILED");
    serve(&upstream, "/rest/api/3/search/jql", anonymous).await;
    let bom = "\u{feff}{\"key\":\"EX-1\",\"fields\":{\"summary\":\"token ATATT3x/trust+token\\\"0003\"}}";
    serve(
        &upstream,
        "/rest/api/3/issue/EX-1",
        ResponseTemplate::new(200).set_body_raw(bom.as_bytes().to_vec(), "application/json"),
    )
    .await;
    let output = tokio::process::Command::new("node")
        .arg(dir.join("trust.mjs"))
        .env("MCP_DEVTOOLS_BIN", common::BIN)
        .env("UPSTREAM_URL", upstream.uri())
        .env("GITHUB_TOKEN", GITHUB_TOKEN)
        .env("ATLASSIAN_API_TOKEN", ATLASSIAN_TOKEN)
        .env("ATLASSIAN_USER_EMAIL", EMAIL)
        .output()
        .await
        .expect("run node");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "trust.mjs failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("4 passed, 0 failed"), "{stdout}");
    assert_clean("the TypeScript client's output", &stdout);
}
