//! The `mcp-devtools` MCP server: the wiring of the tools ([`mcp_devtools_tools`]) to settings and transports.
//!
//! The rules this crate shares with the rest of the workspace (result shapes, limits, errors) are written down in
//! the project's contract, [docs/CONTRACT.md].
//!
//! [docs/CONTRACT.md]: https://github.com/mcp-devtools/mcp-devtools/blob/main/docs/CONTRACT.md
//!
//! With no arguments the `mcp-devtools` binary serves MCP over stdio; `--http IP:PORT` serves streamable HTTP at
//! `/mcp` ([`http`]). Settings come from the configuration cascade ([`cascade`], [`registry`], [`config`]) and are
//! read into the tools' typed [`ToolsConfig`] and the [`deploy_settings`]; how the upstreams are reached (proxies,
//! each upstream's CA bundle and client certificate, the https-only rule) is read by [`upstream`]. Logs go to stderr
//! only: on stdio, stdout is the protocol.

#[cfg(feature = "cli")]
pub mod cascade;
#[cfg(feature = "cli")]
pub mod cli;
pub mod config;
pub mod deploy_settings;
#[cfg(all(test, feature = "cli"))]
mod docs_check;
#[cfg(feature = "http")]
pub mod http;
pub mod registry;
pub mod upstream;

use std::sync::Arc;

pub use config::Settings;
pub use mcp_devtools_tools::{self as tools, App, AppError, DevtoolsServer, Principal, ToolsConfig};

/// Stack size of every thread of the server's tokio runtime (async workers and the blocking pool), bytes: 256 MiB of
/// reserved address space, committed only as far as it is used. Serializing, rendering and freeing a JSON value take
/// one stack frame per nesting level, in rmcp's transport as well as here, so this bounds the depth of a result
/// ([`mcp_results::MAX_RESULT_DEPTH`]); a body nested deeper is still parsed, and projected with `jq`.
pub const RUNTIME_STACK_BYTES: usize = 256 * 1024 * 1024;

/// The multi-threaded tokio runtime the server runs on: all drivers enabled, every thread with a stack of
/// [`RUNTIME_STACK_BYTES`], one async worker per CPU.
///
/// # Errors
/// The runtime cannot be started (threads or the I/O driver).
pub fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    runtime_with_workers(None)
}

/// The runtime for `settings`' transport: for streamable HTTP, [`crate::deploy_settings::DeploySettings::http_worker_threads`] async workers
/// (`MCP_HTTP_WORKER_THREADS`; by default one on a machine of 1-2 CPUs, else one per CPU: many sessions share them);
/// one async worker for stdio. One stdio session is one client: its calls' async parts (framing, rmcp's service loop,
/// the handler, the upstream's connection) then wake each other on one thread instead of across threads, which is
/// most of a small call's CPU (issue 46: futex and eventfd wake-ups); the CPU work (jq, rendering results over
/// [`mcp_results::INLINE_RENDER_BYTES`], parsing large bodies) runs on the blocking pool as before, in parallel.
///
/// # Errors
/// The runtime cannot be started (threads or the I/O driver).
pub fn runtime_for(settings: &Settings) -> std::io::Result<tokio::runtime::Runtime> {
    let workers = match settings.deploy.http_addr {
        Some(_) => settings.deploy.http_worker_threads(),
        None => 1,
    };
    runtime_with_workers(Some(workers))
}

fn runtime_with_workers(workers: Option<usize>) -> std::io::Result<tokio::runtime::Runtime> {
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    if let Some(workers) = workers {
        builder.worker_threads(workers);
    }
    builder.enable_all().thread_stack_size(RUNTIME_STACK_BYTES).build()
}

/// Serves one MCP session over stdin/stdout ([`mcp_serve::stdio`]) until the client disconnects, or until
/// SIGINT/SIGTERM: then calls in flight finish (bounded by `MCP_HTTP_SHUTDOWN_GRACE_SECONDS`), their answers are
/// written, and it returns. Every line is checked first (size limit `MCP_MAX_REQUEST_BYTES`, parse errors answered).
///
/// # Errors
/// The store or clients cannot be built, or the transport fails.
async fn serve_stdio(settings: Settings) -> anyhow::Result<()> {
    let config = mcp_serve::stdio::StdioConfig::default()
        .with_max_request_bytes(settings.deploy.request_limit())
        .with_shutdown_grace(std::time::Duration::from_secs(settings.deploy.shutdown_grace_seconds))
        // The catalogue is fixed when the server starts (no `listChanged`).
        .with_static_tool_list(true);
    let app = app(settings.tools).await?;
    let in_flight = tokio_util::task::TaskTracker::new();
    let shutdown = draining(&app);
    let server = DevtoolsServer::new(app)
        .with_principal(Principal::local_user())
        .with_in_flight(in_flight.clone());
    mcp_serve::stdio::serve(server, config, in_flight, shutdown).await?;
    Ok(())
}

/// SIGINT/SIGTERM ([`mcp_serve::shutdown_signal`]), which also ends the wait tools' waits ([`App::shutdown`]) so that
/// the drain is not held by a wait of up to an hour: each answers at once with `stoppedBy: shutdown`.
pub(crate) fn draining(app: &App) -> impl Future<Output = ()> + Send + 'static {
    let waits = app.shutdown.clone();
    async move {
        mcp_serve::shutdown_signal().await;
        tracing::info!("shutting down: ending the waits in flight");
        waits.cancel();
    }
}

/// Builds the tools from `config`; an error that stops start-up names the settings behind it.
async fn app(config: ToolsConfig) -> anyhow::Result<Arc<App>> {
    use registry::{ARTIFACT_S3_URL, AWS_ENDPOINT_URL, AWS_REGION, HTTP_CACHE_REDIS_URL, TASKS_REDIS_URL};
    App::new(config).await.map(Arc::new).map_err(|err| match err {
        AppError::S3(_) => {
            anyhow::anyhow!("{err} (settings {ARTIFACT_S3_URL}, {AWS_ENDPOINT_URL}, {AWS_REGION} and the AWS_* keys)")
        }
        AppError::Redis(_) => anyhow::anyhow!("{HTTP_CACHE_REDIS_URL}: {err}"),
        AppError::TaskStore(_) => anyhow::anyhow!("{TASKS_REDIS_URL}: {err}"),
        _ => err.into(),
    })
}

/// The one start-up line saying which vendors have credentials and which tools are offered.
fn log_start(tools: &ToolsConfig) {
    let configured = tools.configured_vendors();
    let configured = if configured.is_empty() {
        "none (set GITHUB_TOKEN, CIRCLECI_TOKEN or the ATLASSIAN_* settings)".to_owned()
    } else {
        configured.join(",")
    };
    let selection = &tools.selection;
    tracing::info!(
        vendors_configured = %configured,
        toolsets = %selection.toolsets_text(),
        read_only = selection.read_only,
        "mcp-devtools {}: vendors with credentials: {configured}; toolsets: {}{}",
        env!("CARGO_PKG_VERSION"),
        selection.toolsets_text(),
        if selection.read_only { " (read-only)" } else { "" }
    );
}

/// Serves MCP the way `settings` ask: streamable HTTP when `MCP_HTTP_ADDR` is set (until SIGINT/SIGTERM), else
/// stdio. Prints `mcp-devtools: serving streamable HTTP at http://ADDR/mcp` on stderr once the port is bound.
///
/// # Errors
/// A setting stops start-up ([`Settings::errors`]), HTTP authentication is misconfigured
/// ([`http::HttpSetupError`]), the address cannot be bound, the store, clients or policy cannot be built
/// ([`AppError`]), or the transport fails.
pub async fn serve(settings: Settings) -> anyhow::Result<()> {
    if let Some(error) = settings.errors.first() {
        anyhow::bail!("{error}");
    }
    log_start(&settings.tools);
    let Some(addr) = settings.deploy.http_addr else {
        tracing::info!(
            structured_output = settings.tools.structured_output,
            max_bytes = settings.tools.max_bytes.bytes(),
            "starting mcp-devtools on stdio"
        );
        return serve_stdio(settings).await;
    };
    #[cfg(not(feature = "http"))]
    anyhow::bail!(
        "{}={addr} asks for streamable HTTP, but this build has no HTTP serving (cargo feature `http`)",
        registry::HTTP_ADDR
    );
    #[cfg(feature = "http")]
    serve_http(settings, addr).await
}

/// Serves streamable HTTP on `addr` until SIGINT/SIGTERM.
#[cfg(feature = "http")]
async fn serve_http(settings: Settings, addr: std::net::SocketAddr) -> anyhow::Result<()> {
    if settings.deploy.no_auth && !addr.ip().is_loopback() {
        return Err(http::HttpSetupError::NoAuthOffLoopback(addr).into());
    }
    let app = app(settings.tools).await?;
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|err| anyhow::anyhow!("cannot listen on {addr}: {err}"))?;
    let bound = listener.local_addr()?;
    // After binding: OAuth's default resource URI is the bound address, and its scopes come from the tools offered.
    let auth = http::auth(&settings.deploy, bound, &DevtoolsServer::new(app.clone()).tools()).await?;
    eprintln!("mcp-devtools: serving streamable HTTP at http://{bound}/mcp");
    tracing::info!(%bound, structured_output = app.config.structured_output, "starting mcp-devtools on HTTP");
    http::serve(app, listener, auth, &settings.deploy).await
}
