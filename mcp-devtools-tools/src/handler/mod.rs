//! The rmcp `ServerHandler` (private module: [`DevtoolsServer`] is at the crate root, with these details).

use std::sync::{Arc, OnceLock};
use std::time::Instant;

use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskParams, GetTaskParams, GetTaskResult,
    Implementation, ListResourceTemplatesResult, ListToolsResult, NumberOrString, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, RequestId, ServerCapabilities, ServerConfig, Tool,
    UpdateTaskParams,
};
use rmcp::service::{Peer, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tracing::Instrument;

use crate::Principal;
use crate::app::App;
use crate::gate;

mod catalog;
mod described;
mod tasks;

pub use catalog::Catalog;
pub(crate) use catalog::{CatalogTool, Identity};

/// The devtools MCP server: the shared [`App`], the catalogue of its tools (every vendor's `#[tool]` methods on one
/// rmcp router, [`Catalog`]), and (for stdio or an embedder) a fixed principal. Build it once per process with
/// [`DevtoolsServer::new`] and clone it for each session: clones share the app and the catalogue (an `Arc` each),
/// so a session costs a few pointers.
///
/// ```no_run
/// # async fn embed() -> anyhow::Result<()> {
/// use std::sync::Arc;
/// use mcp_devtools_tools::{App, DevtoolsServer, Principal, ToolsConfig};
/// use rmcp::model::CallToolRequestParams;
///
/// let mut config = ToolsConfig::default();
/// config.github.http.credential = Some(adapters_http::Secret::new("ghp_example"));
/// let server = DevtoolsServer::new(Arc::new(App::new(config).await?));
/// let args = serde_json::json!({"owner": "octo-org", "repo": "octo-repo", "jq": ".total_count"});
/// let request = CallToolRequestParams::new("github_list_workflow_runs")
///     .with_arguments(args.as_object().cloned().unwrap_or_default());
/// let result = server.call_tool_as(&Principal::named("agent"), request).await?;
/// println!("{:?}", result.structured_content);
/// # Ok(()) }
/// ```
///
/// The rmcp `ServerHandler`: answers `initialize`, `tools/list` and `tools/call` from the catalogue (built once
/// per process). Each call resolves its principal (put into the request's extensions for the tool methods), is
/// routed to its `#[tool]` method through the policy's guard (a refusal sends nothing upstream), gets the
/// enterprise `_meta` and is logged in one `tool_call` span (tool, principal, upstream status, policy effect,
/// duration). [`DevtoolsServer::call_tool_as`] runs that same path in-process, without a transport (embedding).
///
/// It advertises the MCP Tasks extension (`io.modelcontextprotocol/tasks`): a call of a tool that runs as a task
/// ([`Catalog::runs_as_task`]) from a client that declared the extension is answered at once with a task, kept in
/// [`App::tasks`] for `tasks/get` and `tasks/cancel` (`tasks/update` is refused: no task asks for input); any other
/// call, and every call of a client that did not declare it, is answered when it is done, as always.
#[derive(Clone)]
pub struct DevtoolsServer {
    app: Arc<App>,
    tools: Arc<Catalog>,
    principal: Option<Principal>,
    in_flight: Option<TaskTracker>,
    /// The peer of in-process calls' request contexts (made on the first [`DevtoolsServer::call_tool_as`]).
    in_process: Arc<OnceLock<Peer<RoleServer>>>,
}

impl DevtoolsServer {
    /// The server over the shared `app` with `catalog` (built by the vendor registry:
    /// [`DevtoolsServer::new`]).
    pub(crate) fn from_catalog(app: Arc<App>, catalog: Catalog) -> Self {
        DevtoolsServer {
            tools: Arc::new(catalog),
            app,
            principal: None,
            in_flight: None,
            in_process: Arc::default(),
        }
    }

    /// This server, answering calls that carry no principal of their own as `principal` (stdio: one session,
    /// one principal).
    pub fn with_principal(mut self, principal: Principal) -> Self {
        self.principal = Some(principal);
        self
    }

    /// This server, tracking its tool calls in `in_flight` (so a shutdown can wait for them).
    pub fn with_in_flight(mut self, in_flight: TaskTracker) -> Self {
        self.in_flight = Some(in_flight);
        self
    }

    /// The shared application state (configuration, store, clients).
    pub fn app(&self) -> &Arc<App> {
        &self.app
    }

    /// The tools this server offers, exactly as `tools/list` lists them.
    pub fn tools(&self) -> Vec<Tool> {
        self.tools.listed().to_vec()
    }

    /// The catalogue of the tools this server offers.
    pub fn catalog(&self) -> &Catalog {
        &self.tools
    }

    /// Runs one `tools/call` for `principal` in-process, exactly as the server answers it over a transport: the
    /// tool selection, the policy (a refusal is an `isError` result with `_meta.code`, and nothing is sent
    /// upstream), the tool with its argument and result limits, the enterprise `_meta`, the `tool_call` span, and
    /// the in-flight tracking. The request's `_meta` is accepted and not used.
    ///
    /// # Errors
    /// Invalid params (JSON-RPC `-32602`) when the tool is not offered, as `tools/call` answers: the message names
    /// the setting that leaves it out ([`crate::toolsets::SelectionNames`]), or says to call `tools/list`. Tool failures are `Ok` results with `isError`.
    pub async fn call_tool_as(
        &self,
        principal: &Principal,
        request: CallToolRequestParams,
    ) -> Result<CallToolResult, ErrorData> {
        let peer = self.in_process_peer().clone();
        let context = RequestContext::new(RequestId::from(NumberOrString::Number(0)), peer);
        self.call_traced(principal, request, context).await
    }

    /// The peer of in-process calls: a server session of its own over an in-memory pipe whose far end is closed, so
    /// that a tool's request context is a real one; nothing reaches a client (there is none), and a notification a
    /// tool sends is dropped.
    fn in_process_peer(&self) -> &Peer<RoleServer> {
        self.in_process.get_or_init(|| {
            let (near, _far) = tokio::io::duplex(64);
            let running = rmcp::service::serve_directly(NoTools, near, None);
            running.peer().clone()
        })
    }

    /// The caller: from the HTTP request when there is one, else the server's principal.
    fn principal_for(&self, context: &RequestContext<RoleServer>) -> Option<Principal> {
        mcp_policy::principal_of(context).or_else(|| self.principal.clone())
    }

    /// [`DevtoolsServer::call_tool_as`] with the request's `context`, stopped when its cancellation token fires
    /// (`notifications/cancelled` or the session ending): the call's future is dropped there, which closes its
    /// upstream connection and kills its jq worker (`kill_on_drop`). rmcp sends no answer for a cancelled request,
    /// so that error is never seen by the client.
    async fn call_traced(
        &self,
        principal: &Principal,
        request: CallToolRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let (vendor, identity) = self
            .tools
            .find(&request.name)
            .map_err(|message| ErrorData::invalid_params(message, None))?;
        let span = tracing::info_span!(
            "tool_call",
            tool = %request.name,
            principal = %principal,
            upstream_status = tracing::field::Empty,
            policy_effect = tracing::field::Empty,
        );
        let cancelled: CancellationToken = context.ct.clone();
        context.extensions.insert(principal.clone());
        let call = async {
            let started = Instant::now();
            let routed = self.tools.router().call(ToolCallContext::new(self, request, context));
            let result = tokio::select! {
                result = routed => result,
                () = cancelled.cancelled() => {
                    tracing::info!(elapsed_ms = started.elapsed().as_millis() as u64, "tool call cancelled");
                    return Err(ErrorData::internal_error("the call was cancelled", None));
                }
            };
            let mut result = match result? {
                CallToolResponse::Complete(result) => result,
                // The bundled tools never ask for input (MRTR).
                _ => mcp_results::error("Internal error: the tool asked for input, which this server does not do"),
            };
            if self.app.config.enterprise_mode {
                let (credential, authority) = identity(&self.app);
                gate::attach_upstream(&mut result, gate::upstream_identity(vendor, credential, authority));
            }
            let elapsed_ms = started.elapsed().as_millis() as u64;
            tracing::info!(
                is_error = result.is_error.unwrap_or(false),
                elapsed_ms,
                "tool call finished"
            );
            Ok(result)
        }
        .instrument(span);
        match &self.in_flight {
            Some(tracker) => tracker.track_future(call).await,
            None => call.await,
        }
    }
}

/// The handler of the in-process peer's session: it is never asked anything.
#[derive(Clone, Copy)]
struct NoTools;

impl ServerHandler for NoTools {}

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
        // With structured output on, artifacts are resources too (`artifact://<id>`, mcp_results::resources); off,
        // the capabilities are what they always were.
        let capabilities = ServerCapabilities::builder().enable_tools().enable_tasks().build();
        ServerConfig::new(self.app.results.resource_capabilities(capabilities))
            .with_server_info(Implementation::new("mcp-devtools", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Tools for CI and issue-tracker APIs. Results are TOON text by default (outputFormat: json for \
                 JSON); use jq (or JMESPath) to keep only what you need: its output replaces data. Oversized \
                 structured results are saved as artifacts: read them with artifact_read.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // An unknown tool is refused before the principal is looked at, as it always was.
        self.tools
            .find(&request.name)
            .map_err(|message| ErrorData::invalid_params(message, None))?;
        let Some(principal) = self.principal_for(&context) else {
            tracing::error!(tool = %request.name, "an HTTP call arrived without an authenticated principal");
            return Ok(
                mcp_results::error("Internal error: the caller is not authenticated; reconnect with a token").into(),
            );
        };
        let request = if self.tools.runs_as_task(&request.name) && tasks::declared_tasks(&context) {
            match self.start_task(&principal, request, &context).await {
                Ok(task) => return Ok(CallToolResponse::Task(task)),
                Err(request) => *request,
            }
        } else {
            request
        };
        Ok(self.call_traced(&principal, request, context).await?.into())
    }

    /// `resources/read` of an artifact's URI (`artifact://<id>`), for its owner only: the caller's principal, as
    /// for `artifact_read` (another's, unknown and expired ids: resource not found). Method not found with
    /// structured output off.
    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let Some(principal) = self.principal_for(&context) else {
            tracing::error!("an HTTP resources/read arrived without an authenticated principal");
            return Err(ErrorData::internal_error(
                "the caller is not authenticated; reconnect with a token",
                None,
            ));
        };
        context.extensions.insert(principal);
        Ok(self.app.results.read_resource(&request, &context).await?.into())
    }

    /// `resources/templates/list`: the artifact URI template (structured output on; method not found off).
    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        self.app.results.resource_templates()
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        self.task_get(request, &context).await
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.task_cancel(request, &context).await
    }

    /// No task of this server asks for input (none is ever `input_required`), so there is nothing to update.
    async fn update_task(
        &self,
        _request: UpdateTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        Err(ErrorData::invalid_params(
            "tasks/update: this server's tasks never ask for input, so no task awaits an update",
            None,
        ))
    }
}
