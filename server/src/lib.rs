//! The `mcp-devtools` MCP server: a thin composition of the envelope, artifact and vendor-adapter crates over rmcp.
//!
//! With no arguments the `mcp-devtools` binary serves MCP over stdio; settings come from the environment
//! (see [`config`]). Logs go to stderr only: on stdio, stdout is the protocol.

pub mod app;
pub mod args;
pub mod config;
pub mod handler;
pub mod principal;
pub mod respond;
pub mod tools;

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
