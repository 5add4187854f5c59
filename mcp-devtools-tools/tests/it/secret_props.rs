//! Property: whatever an upstream answers — any status, media type, body and header — with the
//! configured secrets inside, in any of the forms a vendor may echo (as is, JSON-escaped, percent-encoded, the
//! `Basic` base64 of `user:secret`), no result of any vendor's tool and no log line holds one of them. In process
//! (`DevtoolsServer::call_tool_as`, the server's whole call path) against a wiremock upstream, every log line of every
//! crate captured at `trace` (`common::capture_log`: process-wide, which nextest's one process per test keeps to
//! this test).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::OnceLock;

use crate::common;

use adapters_http::cache::redis::RedisCacheConfig;
use base64::Engine as _;
use mcp_devtools_tools::{DevtoolsServer, Principal};
use proptest::prelude::*;
use recorded_upstream::wiremock::matchers::any as any_request;
use recorded_upstream::wiremock::{Mock, MockServer, ResponseTemplate};
use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};

const GITHUB_TOKEN: &str = "ghp_propTOKEN0000000001";
const CIRCLECI_TOKEN: &str = "circle-prop-token-0002";
/// A space, a quote, a slash, a plus and a non-ASCII letter: every form differs from the value.
const ATLASSIAN_TOKEN: &str = "ATATT/prop+tok\"en é-0003";
const EMAIL: &str = "mia@example.com";
const BB_USER: &str = "bbuser";
const BB_PASSWORD: &str = "bb-app/pass+word-0004";
const REDIS_PASSWORD: &str = "redis-prop-pass-0005";

const SECRETS: [&str; 5] = [
    GITHUB_TOKEN,
    CIRCLECI_TOKEN,
    ATLASSIAN_TOKEN,
    BB_PASSWORD,
    REDIS_PASSWORD,
];

/// What may never appear: each secret as is and JSON-escaped (as it would sit in a serialized result), and the two
/// Basic pairs.
fn forbidden() -> Vec<String> {
    let mut all: Vec<String> = SECRETS.iter().map(|s| (*s).to_owned()).collect();
    all.extend(
        SECRETS
            .iter()
            .map(|s| serde_json::to_string(s).unwrap().trim_matches('"').to_owned()),
    );
    for (user, secret) in [(EMAIL, ATLASSIAN_TOKEN), (BB_USER, BB_PASSWORD)] {
        all.push(base64::engine::general_purpose::STANDARD.encode(format!("{user}:{secret}")));
    }
    all
}

/// `secret` in echo form `kind`.
fn form(secret: &str, user: &str, kind: u8) -> String {
    let percent = |upper: bool| {
        secret
            .bytes()
            .map(|b| {
                if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                    char::from(b).to_string()
                } else if upper {
                    format!("%{b:02X}")
                } else {
                    format!("%{b:02x}")
                }
            })
            .collect::<String>()
    };
    let json = serde_json::to_string(secret).unwrap().trim_matches('"').to_owned();
    match kind {
        0 => secret.to_owned(),
        1 => json,
        2 => json.replace('/', "\\/"),
        3 => json
            .chars()
            .map(|c| {
                if c.is_ascii() {
                    c.to_string()
                } else {
                    format!("\\u{:04x}", u32::from(c))
                }
            })
            .collect(),
        4 => percent(true),
        5 => percent(false),
        _ => base64::engine::general_purpose::STANDARD.encode(format!("{user}:{secret}")),
    }
}

/// Kinds whose text is valid inside a JSON string as is.
fn json_safe(kind: u8) -> bool {
    kind != 0
}

struct World {
    runtime: tokio::runtime::Runtime,
    upstream: MockServer,
    server: DevtoolsServer,
}

fn world() -> &'static World {
    static WORLD: OnceLock<World> = OnceLock::new();
    WORLD.get_or_init(|| {
        common::capture_log();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let (upstream, server) = runtime.block_on(async {
            let upstream = MockServer::start().await;
            let uri = upstream.uri();
            let redis = format!("redis://:{REDIS_PASSWORD}@127.0.0.1:1/0");
            let atlassian = common::atlassian(&uri, EMAIL, ATLASSIAN_TOKEN)
                .with_bitbucket_username(Some(BB_USER.to_owned()))
                .with_bitbucket_app_password(Some(adapters_http::Secret::new(BB_PASSWORD)));
            let config = common::unconfigured()
                .with_structured_output(true)
                .with_github(common::github(&uri, Some(GITHUB_TOKEN)))
                .with_circleci(common::circleci(&uri, Some(CIRCLECI_TOKEN)))
                .with_atlassian(atlassian)
                .with_http_cache_redis(Some(RedisCacheConfig::new(redis)));
            (upstream, common::server(config).await)
        });
        World {
            runtime,
            upstream,
            server,
        }
    })
}

/// The tools called: the five reads and a write, each with arguments that reach the mock upstream.
fn tool(index: usize) -> (&'static str, Value) {
    match index {
        0 => ("github_list_workflow_runs", json!({"owner": "o", "repo": "r"})),
        1 => ("circleci_get", json!({"path": "/me", "fresh": true})),
        2 => ("jira_get", json!({"path": "/rest/api/3/issue/EX-1"})),
        3 => ("conf_get", json!({"path": "/wiki/api/v2/pages"})),
        4 => ("bb_get", json!({"path": "/repositories/w/r"})),
        _ => (
            "jira_write",
            json!({"method": "POST", "path": "/rest/api/3/issue", "body": {"fields": {}}}),
        ),
    }
}

const STATUSES: [u16; 9] = [200, 201, 400, 401, 403, 404, 409, 422, 500];
const MEDIA: [&str; 5] = [
    "application/json",
    "application/json; charset=utf-8",
    "text/plain; charset=utf-8",
    "text/html",
    "application/octet-stream",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn no_configured_secret_comes_back_in_a_result_or_a_log(
        tool_index in 0usize..6,
        status in prop::sample::select(STATUSES.to_vec()),
        media in prop::sample::select(MEDIA.to_vec()),
        secret in 0usize..SECRETS.len(),
        kind in 0u8..7,
        prefix in "[a-z0-9 :=]{0,6}",
        suffix in "[a-z0-9 .]{0,6}",
        in_header in any::<bool>(),
        in_message in any::<bool>(),
    ) {
        let world = world();
        let user = if SECRETS[secret] == BB_PASSWORD { BB_USER } else { EMAIL };
        let echoed = format!("{prefix}{}{suffix}", form(SECRETS[secret], user, kind));
        let body = if media.starts_with("application/json") && json_safe(kind) {
            let field = if in_message { "message" } else { "note" };
            format!("{{\"{field}\":\"{echoed}\",\"errorMessages\":[\"{echoed}\"],\"total_count\":0}}")
        } else if media == "text/html" {
            format!("<html><head><title>{echoed}</title></head><body>{echoed}</body></html>")
        } else {
            echoed.clone()
        };
        let mut response = ResponseTemplate::new(status).set_body_raw(body.into_bytes(), media);
        if in_header && echoed.bytes().all(|b| (0x20..0x7f).contains(&b)) {
            response = response.insert_header("x-echo", echoed.as_str()).insert_header("link", format!("<{echoed}>; rel=\"next\"").as_str());
        }
        let (name, args) = tool(tool_index);
        let result = world.runtime.block_on(async {
            world.upstream.reset().await;
            Mock::given(any_request()).respond_with(response).mount(&world.upstream).await;
            let request = CallToolRequestParams::new(name.to_owned()).with_arguments(args.as_object().cloned().unwrap());
            world.server.call_tool_as(&Principal::named("prop"), request).await.unwrap()
        });
        let wire = serde_json::to_string(&result).unwrap();
        let text = serde_json::to_value(&result.content[0]).unwrap()["text"].as_str().unwrap_or_default().to_owned();
        let structured = result.structured_content.as_ref().map(Value::to_string).unwrap_or_default();
        for secret in forbidden() {
            prop_assert!(!wire.contains(&secret), "{name} {status} {media}: {secret:?} in {wire}");
            prop_assert!(!text.contains(&secret), "{name}: {secret:?} in the text {text}");
            prop_assert!(!structured.contains(&secret), "{name}: {secret:?} in {structured}");
        }
        let log = common::log();
        for secret in forbidden() {
            prop_assert!(!log.contains(&secret), "{secret:?} in the log");
        }
    }
}
