//! `other_server`: a minimal rmcp server that is not mcp-devtools, written as rmcp's own structured-output example
//! is (`#[tool_router]`, `#[tool]` methods taking `Parameters<T>`, `#[tool_handler]`) on one crate of ours,
//! `mcp-results`. Its tool, `list_widgets`, returns a list of widgets; the crate adds the `outputSchema` (from the
//! return type, as rmcp's `Json<T>` does) and `structuredContent`, the caller's `jq` and `outputFormat`, the size
//! bound with oversized results saved as artifacts, the `artifact_read` tool, and a call policy.
//!
//! Integration code beyond rmcp's own boilerplate: **11 lines** — the `results` field (1); the `Responder` built
//! from a memory store with its owner function (1); the policy parsed (`Policy::from_toml`) and the router guarded
//! by it, with `artifact_read` added (3); `WithView` around the tool's arguments, the request context and the
//! `Json<Structured<…>>` return type (3); the `json` call (1); `client_name`'s body, the owner (2).
//!
//! `jq` runs in-process here (the builder's default): fine for a demo, but jaq has no step or memory budget, so a
//! server that runs untrusted callers' `jq` gives the builder an isolated runner (`.runner(...)`).
//!
//! Run: `cargo run -p other-server` serves MCP on stdio; `cargo run -p other-server -- --self-test` drives it with
//! rmcp clients over in-memory pipes and prints what it saw (exit status 1 if anything was not as expected).

mod self_test;

use mcp_results::{Json, MemoryStore, Policy, Responder, Structured, WithView};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Who may call what (an `mcp_policy` file; its vendor is a plain string here, the server has one: `widgets`).
const POLICY: &str = r#"version = "widgets-1"

[[rules]]
id = "guests-do-not-list"
principal = "guest"
tool = "list_widgets"
effect = "deny"
reason = "guests only read artifacts they were given"
"#;

/// One widget: the server's own data.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Widget {
    /// Its id.
    pub id: u32,
    /// Its name.
    pub name: String,
}

/// `list_widgets`' own argument.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListArgs {
    /// How many widgets to list (default 10).
    pub count: Option<u32>,
}

/// The server: the result path and its tools.
#[derive(Clone)]
pub struct Widgets {
    results: Responder,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Widgets {
    /// The server with a memory artifact store, the default bound and in-process `jq`.
    pub fn new() -> Self {
        let results = Responder::builder(MemoryStore::default()).owner(client_name).build();
        let policy = Policy::from_toml(POLICY).expect("POLICY is a valid policy");
        let tools = Self::tool_router().with_route(results.artifact_read_route());
        let tool_router = results.guard(tools, policy, "widgets".to_owned());
        Widgets { results, tool_router }
    }

    /// List widgets.
    #[tool]
    async fn list_widgets(
        &self,
        Parameters(args): Parameters<WithView<ListArgs>>,
        cx: RequestContext<RoleServer>,
    ) -> Json<Structured<Vec<Widget>>> {
        let widgets = list_widgets(args.args.count.unwrap_or(10));
        self.results.json(&cx, widgets, args.view).await
    }
}

impl Default for Widgets {
    fn default() -> Self {
        Self::new()
    }
}

/// Who owns the artifacts of a call: here the client's name from `initialize` (a demo: one user per name); a
/// server behind authentication names the authenticated caller instead.
fn client_name(cx: &RequestContext<RoleServer>) -> String {
    let info = cx.peer.peer_info();
    info.map(|info| info.client_info.name.clone()).unwrap_or_default()
}

/// The server's own code: `count` widgets.
fn list_widgets(count: u32) -> Vec<Widget> {
    (1..=count)
        .map(|id| Widget {
            id,
            name: format!("widget {id}"),
        })
        .collect()
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Widgets {}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    if std::env::args().any(|arg| arg == "--self-test") {
        let report = self_test::run(Widgets::new()).await?;
        println!("{report}");
        return Ok(());
    }
    Widgets::new().serve(rmcp::transport::stdio()).await?.waiting().await?;
    Ok(())
}
