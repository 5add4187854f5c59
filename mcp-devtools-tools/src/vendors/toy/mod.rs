//! The toy vendor of the tests: a vendor added the way docs/library.md says ("Adding a vendor"), through this
//! folder and one line of the registry, and nothing else. Its config part is its token (a constant here; a real
//! vendor's lives in [`crate::ToolsConfig`]); its one tool, `toy_get`, answers without an upstream.

use mcp_results::{Args, Json, Structured, WithView};
use rmcp::model::CallToolResult;
use rmcp::service::RequestContext;
use rmcp::{RoleServer, tool, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::VendorEntry;
use crate::Vendor;
use crate::handler::DevtoolsServer;
use crate::tools::output_schema;

/// The vendor: `toy`.
pub(crate) const VENDOR: Vendor = Vendor::named("toy");

/// The toy vendor's credential, as its setting would hold it.
pub(crate) const TOKEN: &str = "toy-token-7f3a9c21e5b8";

/// The registry entry.
pub(crate) const ENTRY: VendorEntry = VendorEntry {
    vendor: VENDOR,
    tools: DevtoolsServer::toy_tools,
    order: &["toy_get"],
    secrets: |_, secrets| secrets.secret("TOY_TOKEN", TOKEN),
    configured: |_| true,
    identity: |_| (Some("TOY_TOKEN"), None),
};

/// `toy_get`'s own argument.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ToyArgs {
    /// Whom to greet.
    name: Option<String>,
}

#[tool_router(router = toy_tools, vis = "pub(crate)")]
impl DevtoolsServer {
    #[tool(
        name = "toy_get",
        description = "Greet someone (the toy vendor of the tests).",
        input_schema = mcp_results::schema::input_schema::<WithView<ToyArgs>>(),
        output_schema = output_schema(mcp_envelope::Envelope::<Value>::output_schema(), None),
        annotations(title = "Toy GET", read_only_hint = true, open_world_hint = false)
    )]
    async fn toy_get(
        &self,
        args: Args<WithView<ToyArgs>>,
        cx: RequestContext<RoleServer>,
    ) -> Result<Json<Structured<Value>>, CallToolResult> {
        let WithView { args, view } = args.into_result()?;
        let greeting = json!({"greeting": format!("hello {}", args.name.as_deref().unwrap_or("toy"))});
        Ok(self.app().results.json(&cx, greeting, view).await)
    }
}
