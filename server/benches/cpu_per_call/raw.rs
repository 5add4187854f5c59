//! A raw JSON-RPC client of streamable HTTP for [`super`]: `reqwest` over one keep-alive connection, the headers an
//! SDK client sends, no SDK (so that the floor and the real server are driven by the same client).

use bytes::Bytes;
use serde_json::json;

/// The protocol revision the session is opened at.
const PROTOCOL: &str = "2025-06-18";

/// A cached small read: `circleci_get /me`.
pub const CACHED_READ: &str =
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"circleci_get","arguments":{"path":"/me"}}}"#;

/// One answer: its `Content-Type` and body.
pub struct Answer {
    pub content_type: String,
    pub body: Bytes,
}

/// An open session: the URL, the bearer token and the `Mcp-Session-Id` (when the server gave one).
pub struct Session {
    client: reqwest::Client,
    url: String,
    token: String,
    id: Option<String>,
}

impl Session {
    /// `initialize`, then `notifications/initialized`.
    pub async fn open(url: &str, token: &str) -> Session {
        let mut session = Session {
            client: reqwest::Client::builder().pool_max_idle_per_host(1).build().unwrap(),
            url: url.to_owned(),
            token: token.to_owned(),
            id: None,
        };
        let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": "cpu_per_call", "version": "1"}}});
        let response = session.post(initialize.to_string()).await;
        session.id = response
            .headers()
            .get("mcp-session-id")
            .and_then(|id| id.to_str().ok())
            .map(str::to_owned);
        response.bytes().await.unwrap();
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        session.post(initialized.to_string()).await.bytes().await.unwrap();
        session
    }

    /// Sends `request` (a JSON-RPC request's text) and reads the whole answer, which must be a success.
    pub async fn call(&self, request: &'static str) -> Answer {
        let response = self.post(request.to_owned()).await;
        assert!(response.status().is_success(), "{}", response.status());
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let body = response.bytes().await.unwrap();
        let error = br#""isError":true"#;
        assert!(
            !body.windows(error.len()).any(|w| w == error),
            "{}",
            String::from_utf8_lossy(&body)
        );
        Answer { content_type, body }
    }

    async fn post(&self, body: String) -> reqwest::Response {
        let mut request = self
            .client
            .post(&self.url)
            .bearer_auth(&self.token)
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json")
            .header("mcp-protocol-version", PROTOCOL)
            .body(body);
        if let Some(id) = &self.id {
            request = request.header("mcp-session-id", id);
        }
        request.send().await.unwrap()
    }
}
