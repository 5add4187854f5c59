//! `Origin` validation over streamable HTTP (CONTRACT §9; MCP "Streamable HTTP" security warning: servers must
//! validate `Origin` against DNS rebinding), raw HTTP against the binary bound to loopback with `--no-auth`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::http::HttpServer;
use serde_json::json;

#[tokio::test]
async fn origins_outside_the_allowed_set_get_403() {
    let dir = tempfile::tempdir().unwrap();
    let env = common::server_env(
        "http://127.0.0.1:9",
        &[(
            "MCP_HTTP_ALLOWED_ORIGINS",
            "https://app.example.com, http://tools.example:8443",
        )],
    );
    let server = HttpServer::start(env, &["--no-auth"], dir).await;
    let http = reqwest::Client::new();
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}});
    let cases: [(Option<&str>, u16); 9] = [
        (Some("http://evil.example"), 403),
        (Some("https://evil.example:443"), 403),
        (Some("null"), 403),
        (Some("http://tools.example:9999"), 403),
        (None, 200),
        (Some("http://localhost:5173"), 200),
        (Some("http://127.0.0.1:6274"), 200),
        (Some("https://app.example.com"), 200),
        (Some("http://tools.example:8443"), 200),
    ];
    for (origin, status) in cases {
        let mut request = http
            .post(&server.url)
            .header("accept", "application/json, text/event-stream")
            .json(&init);
        if let Some(origin) = origin {
            request = request.header("origin", origin);
        }
        let response = request.send().await.unwrap();
        let session = response.headers().get("mcp-session-id").is_some();
        assert_eq!(response.status().as_u16(), status, "Origin {origin:?}");
        assert_eq!(
            session,
            status == 200,
            "Origin {origin:?}: a session id only when accepted"
        );
    }
}
