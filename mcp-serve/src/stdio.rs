//! One MCP session over stdin/stdout, every line passing [`crate::stdio_framing`] first.

use std::future::Future;
use std::time::Duration;

use rmcp::{ServerHandler, ServiceExt};
use tokio_util::task::TaskTracker;

/// How [`serve`] behaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StdioConfig {
    /// The longest line (one JSON-RPC message) accepted, bytes; a longer one is answered with a `-32600` error.
    pub max_request_bytes: usize,
    /// How long a shutdown waits for calls in flight.
    pub shutdown_grace: Duration,
}

impl Default for StdioConfig {
    fn default() -> Self {
        StdioConfig {
            max_request_bytes: crate::incoming::DEFAULT_MAX_REQUEST_BYTES,
            shutdown_grace: Duration::from_secs(30),
        }
    }
}

/// Why [`serve`] failed.
#[derive(Debug, thiserror::Error)]
pub enum StdioError {
    /// The session could not start (e.g. the client closed stdin before `initialize`).
    #[error("the stdio session could not start: {0}")]
    Start(Box<rmcp::service::ServerInitializeError>),
    /// The session's task failed.
    #[error("the stdio session failed: {0}")]
    Task(#[from] tokio::task::JoinError),
}

/// Serves `handler` over stdin/stdout until the client disconnects, or until `shutdown` resolves: then calls
/// tracked in `in_flight` (the tracker the handler tracks its calls in) finish (at most
/// [`StdioConfig::shutdown_grace`]), their answers are written, and it returns, whatever stdin is and even while the
/// client keeps it open (it is read on a thread of its own: [`crate::stdin`]).
///
/// # Errors
/// [`StdioError`]: the session could not start, or its task failed.
pub async fn serve<S>(
    handler: S,
    config: StdioConfig,
    in_flight: TaskTracker,
    shutdown: impl Future<Output = ()>,
) -> Result<(), StdioError>
where
    S: ServerHandler + Send + 'static,
{
    // stdout through rmcp's non-blocking pipe when it is a FIFO; stdin on a thread of its own whatever it is
    // (pipe, socket, tty), so that a shutdown never waits for a pending read (`crate::stdin`).
    let (_, stdout) = rmcp::transport::stdio_pipes();
    let stdin = crate::stdin::on_thread(std::io::stdin());
    let running = handler
        .serve(crate::stdio_framing::spawn(stdin, stdout, config.max_request_bytes))
        .await
        .map_err(|err| StdioError::Start(Box::new(err)))?;
    let stop = running.cancellation_token();
    let waiting = running.waiting();
    tokio::pin!(waiting);
    tokio::select! {
        quit = &mut waiting => {
            quit?;
            return Ok(());
        }
        () = shutdown => {}
    }
    tracing::info!(
        calls_in_flight = in_flight.len(),
        "shutting down: finishing calls in flight"
    );
    in_flight.close();
    if tokio::time::timeout(config.shutdown_grace, in_flight.wait())
        .await
        .is_err()
    {
        tracing::warn!(
            grace_seconds = config.shutdown_grace.as_secs(),
            "calls still in flight after the grace period"
        );
    }
    // Let the last answers pass through rmcp and the framing layer to stdout.
    tokio::time::sleep(Duration::from_millis(200)).await;
    stop.cancel();
    let _ = tokio::time::timeout(Duration::from_secs(2), waiting).await;
    Ok(())
}
