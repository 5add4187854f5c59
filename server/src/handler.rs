//! The rmcp `ServerHandler`: answers `initialize`, `tools/list` and `tools/call` from the tool catalogue. Each call
//! resolves its principal, asks the policy (a refusal sends nothing upstream), runs the tool, adds the enterprise
//! `_meta` and is logged in one `tool_call` span (tool, principal, upstream status, policy effect, duration).

use std::sync::Arc;
use std::time::Instant;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, JsonObject, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use tokio_util::task::TaskTracker;
use tracing::Instrument;

use crate::app::App;
use crate::gate;
use crate::principal::Principal;
use crate::tools::{self, ToolSpec};

/// One MCP session's handler: the shared [`App`], the caller's principal and the tool catalogue.
#[derive(Clone)]
pub struct DevtoolsServer {
    app: Arc<App>,
    principal: Option<Principal>,
    catalog: Arc<Vec<ToolSpec>>,
    in_flight: Option<TaskTracker>,
}

impl DevtoolsServer {
    /// A handler serving `principal` with the shared `app` (stdio: one session, one principal).
    pub fn new(app: Arc<App>, principal: Principal) -> Self {
        DevtoolsServer {
            catalog: Arc::new(offered(&app)),
            app,
            principal: Some(principal),
            in_flight: None,
        }
    }

    /// This handler, tracking its tool calls in `in_flight` (so a shutdown can wait for them).
    pub fn with_in_flight(mut self, in_flight: TaskTracker) -> Self {
        self.in_flight = Some(in_flight);
        self
    }

    /// A handler for streamable HTTP: the principal of each call is the [`Principal`] the auth middleware put in
    /// the HTTP request's extensions (rmcp passes the request's `http::request::Parts` to the handler). A call
    /// without one is refused. Calls are tracked in `in_flight` so shutdown can wait for them.
    pub fn for_http(app: Arc<App>, in_flight: TaskTracker) -> Self {
        DevtoolsServer {
            catalog: Arc::new(offered(&app)),
            app,
            principal: None,
            in_flight: Some(in_flight),
        }
    }

    /// The caller: from the HTTP request when there is one, else the session's principal.
    fn principal_for(&self, context: &RequestContext<RoleServer>) -> Option<Principal> {
        mcp_serve::http::principal_of(context).or_else(|| self.principal.clone())
    }

    async fn run(&self, principal: &Principal, spec: &ToolSpec, arguments: Option<JsonObject>) -> CallToolResult {
        let decision = self
            .app
            .policy
            .as_ref()
            .and_then(|policy| policy.decide(principal, spec.name, spec.vendor));
        if let Some(decision) = &decision {
            tracing::Span::current().record("policy_effect", tracing::field::debug(decision.effect));
        }
        let mut result = match decision.as_ref().and_then(|d| gate::refusal(spec.name, d)) {
            Some(refusal) => refusal,
            None => tools::call(&self.app, principal, spec.name, arguments)
                .await
                .unwrap_or_else(|| mcp_results::error(format!("Internal error: {} has no handler", spec.name))),
        };
        if self.app.settings.deploy.enterprise_mode {
            gate::attach_upstream(&mut result, gate::upstream_identity(&self.app, spec.vendor));
        }
        result
    }
}

/// The tools `app`'s settings offer (CONTRACT §11); none if the selection is invalid ([`App::new`] refuses that).
fn offered(app: &App) -> Vec<ToolSpec> {
    match &app.settings.tools {
        Ok(selection) => selection.select(tools::catalog()),
        Err(_) => Vec::new(),
    }
}

/// Records the upstream HTTP status (`None`: no response, e.g. a transport error or a missing token) on the
/// current tool-call span. Tools call it once per upstream answer.
pub fn record_upstream_status(status: Option<u16>) {
    if let Some(status) = status {
        tracing::Span::current().record("upstream_status", status);
    }
}

impl ServerHandler for DevtoolsServer {
    /// rmcp passes here any request it could not parse, e.g. a `tools/call` whose `arguments` is not an object:
    /// answer invalid params saying what is wrong (rmcp's default is "method not found" naming only the method).
    async fn on_custom_request(
        &self,
        request: rmcp::model::CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::CustomResult, ErrorData> {
        match request.method.as_str() {
            "tools/call" => Err(ErrorData::invalid_params(
                crate::args::malformed_call_params(request.params.as_ref()),
                None,
            )),
            method => Err(ErrorData::new(
                rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                format!("Unknown method {method:?} (or its params could not be read)"),
                None,
            )),
        }
    }

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
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.to_string();
        let Some(spec) = self.catalog.iter().find(|spec| spec.name == name) else {
            let left_out = tools::catalog().into_iter().find(|spec| spec.name == name);
            let message = match (left_out, &self.app.settings.tools) {
                (Some(spec), Ok(selection)) => selection.refusal_in(&spec),
                _ => format!("Unknown tool {name:?}: call tools/list for the tools this server offers"),
            };
            return Err(ErrorData::invalid_params(message, None));
        };
        let Some(principal) = self.principal_for(&context) else {
            tracing::error!(tool = %name, "an HTTP call arrived without an authenticated principal");
            return Ok(
                mcp_results::error("Internal error: the caller is not authenticated; reconnect with a token").into(),
            );
        };
        let span = tracing::info_span!(
            "tool_call",
            tool = %name,
            principal = %principal,
            upstream_status = tracing::field::Empty,
            policy_effect = tracing::field::Empty,
        );
        // `notifications/cancelled` (or the session ending) cancels `context.ct`: the call's future is dropped
        // there, which closes its upstream connection and kills its jq worker (`kill_on_drop`). rmcp sends no
        // answer for a cancelled request, so the error below is never seen by the client.
        let cancelled = context.ct.clone();
        let call = async {
            let started = Instant::now();
            let result = tokio::select! {
                result = self.run(&principal, spec, request.arguments) => result,
                () = cancelled.cancelled() => {
                    tracing::info!(elapsed_ms = started.elapsed().as_millis() as u64, "tool call cancelled");
                    return Err(ErrorData::internal_error("the call was cancelled", None));
                }
            };
            let elapsed_ms = started.elapsed().as_millis() as u64;
            tracing::info!(
                is_error = result.is_error.unwrap_or(false),
                elapsed_ms,
                "tool call finished"
            );
            Ok(result.into())
        }
        .instrument(span);
        match &self.in_flight {
            Some(tracker) => tracker.track_future(call).await,
            None => call.await,
        }
    }
}
