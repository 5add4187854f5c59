//! What several modules set up: a tokens file for two principals, and the router driven in-process.

use std::io::Write as _;
use std::sync::Arc;
use std::time::Duration;

use mcp_serve::http::{Auth, Drain, HttpConfig};
use mcp_serve::tokens::TokenTable;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, JsonObject, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};
use sha2::Digest;
use tower::ServiceExt as _;

/// Alice's bearer token (principal `alice`).
pub const ALICE: &str = "alice-token";
/// Bob's bearer token (principal `bob`).
pub const BOB: &str = "bob-token";

/// [`Auth::Tokens`] of a tokens file mapping [`ALICE`] and [`BOB`] to `alice` and `bob`; the file lives in the
/// returned folder.
pub fn alice_and_bob() -> (Auth, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tokens.toml");
    let mut file = std::fs::File::create(&path).unwrap();
    writeln!(file, "[tokens]").unwrap();
    for (token, who) in [(ALICE, "alice"), (BOB, "bob")] {
        writeln!(file, "\"{}\" = \"{who}\"", hex::encode(sha2::Sha256::digest(token))).unwrap();
    }
    drop(file);
    (Auth::Tokens(Arc::new(TokenTable::load(&path).unwrap())), dir)
}

/// A server of two tools: `whoami` answers the caller's principal, `hang` never returns (its session stays busy);
/// `hanging` counts the `hang` calls begun.
#[derive(Clone, Default)]
pub struct Tools {
    /// The `hang` calls begun so far.
    pub hanging: Arc<tokio::sync::watch::Sender<usize>>,
}

impl ServerHandler for Tools {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let schema = Arc::new(JsonObject::from_iter([("type".to_string(), json!("object"))]));
        Ok(ListToolsResult::with_all_items(vec![
            Tool::new("whoami", "The caller's principal.", schema.clone()),
            Tool::new("hang", "Never returns.", schema),
        ]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if request.name == "hang" {
            self.hanging.send_modify(|n| *n += 1);
            std::future::pending::<()>().await;
        }
        let who = mcp_serve::principal_of(&context).map(|p| p.as_str().to_string());
        Ok(CallToolResult::success(vec![ContentBlock::text(who.unwrap_or_default())]).into())
    }
}

/// The address the in-process router believes it is bound to (`Host` and `Origin` are checked against it).
pub const ADDR: &str = "127.0.0.1:8080";

/// [`mcp_serve::http::router`] of [`Tools`], driven in-process (no socket): one request at a time with
/// [`App::send`].
#[derive(Clone)]
pub struct App {
    router: axum::Router,
    /// The handlers' shared state.
    pub tools: Tools,
}

/// One request to an [`App`].
#[derive(Debug, Clone, Default)]
pub struct Request<'a> {
    /// `POST` when `None`.
    pub method: Option<http::Method>,
    pub token: Option<&'a str>,
    pub session: Option<&'a str>,
    /// `Mcp-Protocol-Version`.
    pub version: Option<&'a str>,
    pub origin: Option<&'a str>,
    pub body: Vec<u8>,
}

/// One exchange with an [`App`].
#[derive(Debug)]
pub struct Exchange {
    pub status: u16,
    pub session: Option<String>,
    pub retry_after: Option<u64>,
    /// The JSON body, or the JSON-RPC message of an event stream (the last `data:` line), or the text as a string.
    pub body: Value,
}

impl App {
    /// The router with `auth` and `config`.
    pub fn new(auth: Auth, config: &HttpConfig) -> App {
        let tools = Tools::default();
        let new_handler = {
            let tools = tools.clone();
            move || tools.clone()
        };
        let router = mcp_serve::http::router(new_handler, auth, ADDR.parse().unwrap(), config, &Drain::default());
        App { router, tools }
    }

    /// Sends `request` and reads the whole answer.
    pub async fn send(&self, request: Request<'_>) -> Exchange {
        let response = self.respond(request).await;
        let (parts, body) = response.into_parts();
        let header = |name: &str| parts.headers.get(name).map(|value| value.to_str().unwrap().to_string());
        let status = parts.status.as_u16();
        let session = header("mcp-session-id");
        let retry_after = header("retry-after").map(|value| value.parse().unwrap());
        let bytes = axum::body::to_bytes(body, usize::MAX).await.unwrap();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let body = serde_json::from_str(&text).unwrap_or_else(|_| {
            text.lines()
                .filter_map(|line| line.strip_prefix("data:"))
                .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
                .next_back()
                .unwrap_or(Value::String(text.clone()))
        });
        Exchange {
            status,
            session,
            retry_after,
            body,
        }
    }

    /// Sends `request`: the response as the router gives it, its body not read yet.
    pub async fn respond(&self, request: Request<'_>) -> http::Response<axum::body::Body> {
        let mut builder = http::Request::builder()
            .method(request.method.unwrap_or(http::Method::POST))
            .uri("/mcp")
            .header("host", ADDR)
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json");
        for (name, value) in [
            ("mcp-session-id", request.session),
            ("mcp-protocol-version", request.version),
            ("origin", request.origin),
        ] {
            if let Some(value) = value {
                builder = builder.header(name, value);
            }
        }
        if let Some(token) = request.token {
            builder = builder.header("authorization", format!("Bearer {token}"));
        }
        let request = builder.body(axum::body::Body::from(request.body)).unwrap();
        self.router.clone().oneshot(request).await.unwrap()
    }

    /// `POST`s `body` as `token` on `session` at protocol revision 2025-06-18.
    pub async fn post(&self, token: &str, session: Option<&str>, body: Value) -> Exchange {
        self.send(Request {
            token: Some(token),
            session,
            version: session.map(|_| "2025-06-18"),
            body: serde_json::to_vec(&body).unwrap(),
            ..Request::default()
        })
        .await
    }

    /// Sends `initialize` at `version` as `token`: the answer (200 with a session id, or the refusal). On success
    /// also sends `notifications/initialized`.
    pub async fn open_at(&self, token: &str, version: &str) -> Exchange {
        let init = self
            .send(Request {
                token: Some(token),
                body: serde_json::to_vec(&initialize(version)).unwrap(),
                ..Request::default()
            })
            .await;
        if init.status != 200 {
            return init;
        }
        assert_eq!(init.body["result"]["protocolVersion"], json!(version));
        let session = init.session.as_deref().expect("a session id");
        let done = self
            .send(Request {
                token: Some(token),
                session: Some(session),
                version: (version != "2025-03-26").then_some(version),
                body: serde_json::to_vec(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).unwrap(),
                ..Request::default()
            })
            .await;
        assert_eq!(done.status, 202);
        init
    }

    /// [`App::open_at`] 2025-06-18, which must succeed: the session id.
    pub async fn open(&self, token: &str) -> String {
        let init = self.open_at(token, "2025-06-18").await;
        assert_eq!(init.status, 200, "{}", init.body);
        init.session.unwrap()
    }

    /// Begins a `hang` call on `session` as `token` and waits until the handler runs it (the session is then busy).
    pub async fn hang(&self, token: &'static str, session: &str) -> tokio::task::JoinHandle<Exchange> {
        let mut begun = self.tools.hanging.subscribe();
        let before = *begun.borrow();
        let app = self.clone();
        let session = session.to_string();
        let call = tokio::spawn(async move {
            let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "hang"}});
            app.post(token, Some(&session), call).await
        });
        tokio::time::timeout(Duration::from_secs(10), begun.wait_for(|n| *n > before))
            .await
            .expect("the hang call reached the handler")
            .unwrap();
        call
    }
}

/// An `initialize` request at `version`.
pub fn initialize(version: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}})
}

/// A `ping` request.
pub fn ping(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "ping"})
}
