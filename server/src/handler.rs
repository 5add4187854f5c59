//! The rmcp `ServerHandler`: answers `initialize`, `tools/list` and `tools/call` from the tool catalogue.

use std::sync::Arc;
use std::time::Instant;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, ListToolsResult, PaginatedRequestParams,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use tracing::Instrument;

use crate::app::App;
use crate::principal::Principal;
use crate::tools::{self, ToolSpec};

/// One MCP session's handler: the shared [`App`], the caller's principal and the tool catalogue.
#[derive(Clone)]
pub struct DevtoolsServer {
    app: Arc<App>,
    principal: Principal,
    catalog: Arc<Vec<ToolSpec>>,
}

impl DevtoolsServer {
    /// A handler serving `principal` with the shared `app`.
    pub fn new(app: Arc<App>, principal: Principal) -> Self {
        DevtoolsServer {
            app,
            principal,
            catalog: Arc::new(tools::catalog()),
        }
    }
}

impl ServerHandler for DevtoolsServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("mcp-devtools", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Tools for CI and issue-tracker APIs. Results are TOON text by default (outputFormat: json for \
                 JSON); use jq to keep only what you need. Oversized structured results are saved as artifacts: \
                 read them with artifact_read.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let structured = self.app.settings.structured_output;
        Ok(ListToolsResult::with_all_items(
            self.catalog.iter().map(|spec| spec.to_tool(structured)).collect(),
        ))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.to_string();
        let span = tracing::info_span!("tool_call", tool = %name, principal = %self.principal);
        async {
            let started = Instant::now();
            let result = tools::call(&self.app, &self.principal, &name, request.arguments).await;
            let elapsed_ms = started.elapsed().as_millis() as u64;
            match result {
                Some(result) => {
                    tracing::info!(
                        is_error = result.is_error.unwrap_or(false),
                        elapsed_ms,
                        "tool call finished"
                    );
                    Ok(result.into())
                }
                None => Err(ErrorData::invalid_params(
                    format!("Unknown tool {name:?}: call tools/list for the tools this server offers"),
                    None,
                )),
            }
        }
        .instrument(span)
        .await
    }
}
