//! `other_server`: a minimal rmcp server that is not mcp-devtools. Its own tool, `list_widgets`, returns a JSON
//! list; the crates add structured output (`outputSchema` + `structuredContent`), the caller's `jq`, the size
//! bound with oversized results saved as artifacts, and the `artifact_read` tool.
//!
//! Integration code beyond rmcp's own boilerplate (a `ServerHandler` over a `ToolRouter`): **24 lines** — the
//! `results` field (1); the store, the `Responder`, the `WithView` input schema, the envelope output schema and the
//! tool with both (5); the `artifact_read::route` call (1); parsing `WithView<ListArgs>` into an error result when
//! malformed (4); the `respond_serialize` call and its result (4); `owner` (4); and the call policy
//! (`mcp_policy`: the `policy` field, parsing [`POLICY`] and the check before each call, 5).
//!
//! `jq` runs in-process here (`mcp_projection::InProcess`): fine for a demo, but jaq has no step or memory budget,
//! so a server that runs its callers' `jq` should plug an isolated runner into the same `Responder::new` argument.
//!
//! Run: `cargo run -p mcp-devtools-examples --bin other_server` serves MCP on stdio;
//! `cargo run -p mcp-devtools-examples --bin other_server -- --self-test` drives it with an rmcp client over an
//! in-memory pipe and prints what it saw (exit status 1 if anything was not as expected).

#[path = "other_server/self_test.rs"]
mod self_test;

use std::path::Path;
use std::sync::Arc;

use mcp_artifacts::{MemoryStore, StoreConfig};
use mcp_envelope::{Envelope, NoMeta, SizeBound};
use mcp_policy::Policy;
use mcp_projection::InProcess;
use mcp_results::{Responder, WithView, artifact_read};
use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig,
    Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
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
    tools: ToolRouter<Widgets>,
    policy: Arc<Policy<String>>,
}

impl Widgets {
    /// The server with a memory artifact store, the default bound and in-process `jq`.
    pub fn new() -> Self {
        let store = Arc::new(MemoryStore::new(StoreConfig::default()));
        let results = Responder::new(store.clone(), SizeBound::default(), Arc::new(InProcess));
        let input = Arc::new(mcp_results::schema::input_schema::<WithView<ListArgs>>());
        let output = Arc::new(Envelope::<Vec<Widget>>::projected_output_schema());
        let list = Tool::new("list_widgets", "List widgets.", input).with_raw_output_schema(output);
        let tools = ToolRouter::new()
            .with_route(ToolRoute::new_dyn(list, |cx| Box::pin(call_list_widgets(cx))))
            .with_route(artifact_read::route(store, owner));
        let policy = Arc::new(Policy::parse(Path::new("POLICY"), POLICY).expect("POLICY is a valid policy"));
        Widgets { results, tools, policy }
    }
}

/// Runs `list_widgets`.
async fn call_list_widgets(cx: ToolCallContext<'_, Widgets>) -> Result<CallToolResponse, ErrorData> {
    let args = match mcp_results::args::parse::<WithView<ListArgs>>("list_widgets", cx.arguments) {
        Ok(args) => args,
        Err(err) => return Ok(mcp_results::error(err.to_string()).into()),
    };
    let widgets = list_widgets(args.args.count.unwrap_or(10));
    let owner = owner(&cx.request_context);
    let view = args.view();
    let result = cx.service.results.respond_serialize(&owner, &widgets, NoMeta {}, &view);
    Ok(result.await.into())
}

impl Default for Widgets {
    fn default() -> Self {
        Self::new()
    }
}

/// Who owns the artifacts of a call: here the client's name from `initialize` (a demo: one user per name); a
/// server behind authentication names the authenticated caller instead.
fn owner(cx: &RequestContext<RoleServer>) -> String {
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

impl ServerHandler for Widgets {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.list_all()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if let Some(refusal) = self.policy.refuse(&owner(&context), &request.name, &"widgets".into()) {
            return Ok(refusal.into());
        }
        self.tools.call(ToolCallContext::new(self, request, context)).await
    }
}

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
