//! The accept loop and its bounds (private module: re-exported by [`crate::http`]; the details are on [`ConnectionLimits`]).

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tower_http::timeout::RequestBodyTimeout;

/// Bounds on connections and on how long a client may take to send a request.
///
/// The accept loop: a cap on open connections, header-read and idle keep-alive timeouts (hyper), a body-read
/// timeout (tower-http), `TCP_NODELAY`, and graceful shutdown of every connection (hyper-util).
///
/// - At most [`ConnectionLimits::max_connections`] connections are open: the loop takes a permit of a semaphore
///   before it accepts, so further clients wait in the kernel's listen backlog (or are refused by the kernel when
///   that is full) and are served as soon as a connection closes.
/// - A connection that has not sent a whole request header within [`ConnectionLimits::header_read_timeout`] is
///   closed (hyper's `header_read_timeout`). hyper starts that timer whenever the connection waits for a request
///   head, so an idle keep-alive connection is closed after the same time; a response being streamed (an event
///   stream) is not affected.
/// - A request body that sends nothing for [`ConnectionLimits::body_read_timeout`] fails (tower-http's
///   [`RequestBodyTimeout`]); the message checks ([`super::framing`]) answer `408 Request Timeout`.
/// - Only HTTP/1.1 (and 1.0) is served, as before this loop existed (axum's `http1` feature).
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// Open connections at most (default 1024); more wait in the kernel's listen backlog until one closes.
    pub max_connections: usize,
    /// Time to send a whole request header, and the longest idle time of a keep-alive connection (default 10 s).
    pub header_read_timeout: Duration,
    /// The longest pause while sending a request body (default 30 s).
    pub body_read_timeout: Duration,
}

impl ConnectionLimits {
    /// This limits with [`ConnectionLimits::max_connections`] set.
    #[must_use]
    pub fn with_max_connections(mut self, max_connections: usize) -> Self {
        self.max_connections = max_connections;
        self
    }

    /// This limits with [`ConnectionLimits::header_read_timeout`] set.
    #[must_use]
    pub fn with_header_read_timeout(mut self, header_read_timeout: Duration) -> Self {
        self.header_read_timeout = header_read_timeout;
        self
    }

    /// This limits with [`ConnectionLimits::body_read_timeout`] set.
    #[must_use]
    pub fn with_body_read_timeout(mut self, body_read_timeout: Duration) -> Self {
        self.body_read_timeout = body_read_timeout;
        self
    }
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        ConnectionLimits {
            max_connections: 1024,
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(30),
        }
    }
}

/// Accepts connections on `listener` and serves `router` on each until `stop` is cancelled; then stops accepting
/// (the listener is closed), asks every connection to finish its current exchange, and resolves once all have
/// closed.
pub(crate) async fn accept_loop(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    stop: CancellationToken,
) {
    let permits = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let graceful = GracefulShutdown::new();
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .keep_alive(true);
    let service = TowerToHyperService::new(RequestBodyTimeout::new(router, limits.body_read_timeout));
    loop {
        let permit = tokio::select! {
            permit = permits.clone().acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break,
            },
            () = stop.cancelled() => break,
        };
        let tcp = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((tcp, _)) => tcp,
                Err(error) => {
                    // Out of file descriptors and the like: the same pause as axum::serve before accepting again.
                    tracing::warn!(%error, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
            },
            () = stop.cancelled() => break,
        };
        // A response written in several pieces must not wait for the client's delayed ACK.
        if let Err(error) = tcp.set_nodelay(true) {
            tracing::warn!(%error, "could not set TCP_NODELAY on an accepted connection");
        }
        let connection = graceful.watch(builder.serve_connection(TokioIo::new(tcp), service.clone()));
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(%error, "connection closed with an error");
            }
            drop(permit);
        });
    }
    drop(listener);
    graceful.shutdown().await;
}
