//! One MCP session over stdin/stdout, every line passing [`crate::stdio_framing`]'s transport.

use std::future::Future;
use std::time::Duration;

use std::pin::Pin;
use std::task::{Context, Poll};

use rmcp::{ServerHandler, ServiceExt};
use tokio::io::{AsyncRead, ReadBuf};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// How [`serve`] behaves.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StdioConfig {
    /// The longest line (one JSON-RPC message) accepted, bytes; a longer one is answered with a `-32600` error.
    pub max_request_bytes: usize,
    /// How long a shutdown waits for calls in flight.
    pub shutdown_grace: Duration,
    /// The handler's `tools/list` answer never changes during a session: after the first, `tools/list` is answered
    /// by the transport from its JSON text ([`crate::stdio_framing::StdioTransport::with_static_tool_list`]).
    /// Default `false`.
    pub static_tool_list: bool,
}

impl StdioConfig {
    /// This config with [`StdioConfig::max_request_bytes`] set.
    #[must_use]
    pub fn with_max_request_bytes(mut self, max_request_bytes: usize) -> Self {
        self.max_request_bytes = max_request_bytes;
        self
    }

    /// This config with [`StdioConfig::shutdown_grace`] set.
    #[must_use]
    pub fn with_shutdown_grace(mut self, shutdown_grace: Duration) -> Self {
        self.shutdown_grace = shutdown_grace;
        self
    }

    /// This config with [`StdioConfig::static_tool_list`] set.
    #[must_use]
    pub fn with_static_tool_list(mut self, static_tool_list: bool) -> Self {
        self.static_tool_list = static_tool_list;
        self
    }
}

impl Default for StdioConfig {
    fn default() -> Self {
        StdioConfig {
            max_request_bytes: crate::incoming::DEFAULT_MAX_REQUEST_BYTES,
            shutdown_grace: Duration::from_secs(30),
            static_tool_list: false,
        }
    }
}

/// Why [`serve`] failed.
#[non_exhaustive]
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
/// client keeps it open (it is read through the I/O driver or on a thread of its own: [`crate::stdin`]). When stdin ends (the client closed
/// it or went away), the calls in flight are cancelled at once (as by `notifications/cancelled`) and it returns.
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
    // stdin and stdout through the I/O driver when they are pipes or sockets; else stdin on a thread of its own, so
    // that a shutdown never waits for a pending read (`crate::stdin`), and stdout through tokio's (`crate::stdout`).
    let stdout = crate::stdout::stdout();
    let closed = CancellationToken::new();
    let stdin = SignalEof {
        inner: crate::stdin::stdin(),
        eof: closed.clone(),
    };
    let running = handler
        .serve(
            crate::stdio_framing::StdioTransport::new(stdin, stdout, config.max_request_bytes)
                .with_static_tool_list(config.static_tool_list),
        )
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
        () = closed.cancelled() => {
            // The client closed its end (MCP stdio: how a client ends the session, or it went away): nobody waits
            // for the answers of the calls in flight, so they are cancelled (upstream calls, projections and
            // artifact saves stop, their permits are freed) rather than left to finish.
            tracing::info!(calls_in_flight = in_flight.len(), "stdin closed: cancelling calls in flight");
            stop.cancel();
            let _ = tokio::time::timeout(Duration::from_secs(2), waiting).await;
            return Ok(());
        }
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

/// stdin, cancelling `eof` when it reaches its end (or fails).
struct SignalEof<R> {
    inner: R,
    eof: CancellationToken,
}

impl<R: AsyncRead + Unpin> AsyncRead for SignalEof<R> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        let ended = match &polled {
            Poll::Ready(Ok(())) => buf.filled().len() == before && buf.remaining() > 0,
            Poll::Ready(Err(_)) => true,
            Poll::Pending => false,
        };
        if ended {
            self.eof.cancel();
        }
        polled
    }
}
