//! `mcp-devtools`: serves MCP over stdio (the only transport in this version). Settings come from the environment;
//! logs go to stderr, filtered by `RUST_LOG` (default `info`).

use mcp_devtools_server::{Settings, serve_stdio};
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")))
        .init();
    let (settings, warnings) = Settings::from_env();
    for warning in warnings {
        tracing::warn!("{warning}");
    }
    tracing::info!(
        structured_output = settings.structured_output,
        max_bytes = settings.max_bytes.bytes(),
        "starting mcp-devtools on stdio"
    );
    serve_stdio(settings).await
}
