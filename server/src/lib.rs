//! The `mcp-devtools` MCP server: a thin composition of the envelope, artifact and vendor-adapter crates over rmcp.
//!
//! With no arguments the `mcp-devtools` binary serves MCP over stdio; `--http IP:PORT` serves streamable HTTP at
//! `/mcp` ([`http`]). Settings come from the configuration cascade ([`cascade`], [`registry`], [`config`]). Logs go
//! to stderr only: on stdio, stdout is the protocol.

pub mod app;
pub mod args;
pub mod cascade;
pub mod cli;
pub mod config;
pub mod deploy_settings;
pub mod drain;
pub mod gate;
pub mod handler;
pub mod http;
pub mod policy;
pub mod principal;
pub mod projection_worker;
pub mod registry;
pub mod respond;
pub mod tokens;
pub mod tools;
pub mod vendor;

use std::sync::Arc;

use rmcp::ServiceExt;

pub use app::App;
pub use config::Settings;
pub use handler::DevtoolsServer;
pub use principal::Principal;

/// Serves one MCP session over stdin/stdout until the client disconnects.
///
/// # Errors
/// The store or clients cannot be built, or the transport fails.
pub async fn serve_stdio(settings: Settings) -> anyhow::Result<()> {
    let app = Arc::new(App::new(settings).await?);
    let server = DevtoolsServer::new(app, Principal::local_user());
    let running = server.serve(rmcp::transport::stdio()).await?;
    running.waiting().await?;
    Ok(())
}

/// Serves MCP the way `settings` ask: streamable HTTP when `MCP_HTTP_ADDR` is set (until SIGINT/SIGTERM), else
/// stdio. Prints `mcp-devtools: serving streamable HTTP at http://ADDR/mcp` on stderr once the port is bound.
///
/// # Errors
/// HTTP authentication is misconfigured ([`http::HttpSetupError`]), the address cannot be bound, the store, clients
/// or policy cannot be built, or the transport fails.
pub async fn serve(settings: Settings) -> anyhow::Result<()> {
    let Some(addr) = settings.deploy.http_addr else {
        tracing::info!(
            structured_output = settings.structured_output,
            max_bytes = settings.max_bytes.bytes(),
            "starting mcp-devtools on stdio"
        );
        return serve_stdio(settings).await;
    };
    let auth = http::Auth::from_settings(&settings.deploy, addr)?;
    let app = Arc::new(App::new(settings).await?);
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|err| anyhow::anyhow!("cannot listen on {addr}: {err}"))?;
    let bound = listener.local_addr()?;
    eprintln!("mcp-devtools: serving streamable HTTP at http://{bound}/mcp");
    tracing::info!(%bound, structured_output = app.settings.structured_output, "starting mcp-devtools on HTTP");
    http::serve(app, listener, auth, http::shutdown_signal()).await
}
