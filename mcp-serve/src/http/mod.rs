//! Streamable HTTP transport (MCP 2025-06-18 "Streamable HTTP") for any rmcp [`ServerHandler`]: rmcp's
//! `StreamableHttpService` mounted at `/mcp` on axum, behind the protections below. [`serve`] runs it on a listener;
//! [`router`] gives the axum router alone (to mount beside other routes).
//!
//! - Authentication ([`Auth`]): every request carries `Authorization: Bearer <token>` of the tokens table
//!   or an OAuth access token ([`crate::oauth`], whose metadata is served at `/.well-known/oauth-protected-resource`),
//!   or gets `401`; the [`Principal`](crate::Principal) goes into the request's extensions ([`principal_of`](crate::principal_of) reads it in a handler)
//!   and the `Authorization` header is removed before rmcp sees the request.
//! - Sessions ([`SessionLimits`]): a session belongs to the principal that opened it; idle expiry and caps
//!   ([`SessionLimits`]); a quiet session sleeps, keeping only its `initialize` parameters ([`dormant`]).
//! - `Accept` read per RFC 9110 (`*/*`, `text/*`, none, `text/event-stream` alone accept the event stream) before
//!   rmcp's literal check (the private `accept` module).
//! - Messages ([`framing`]): every `POST` body is checked first (size [`HttpConfig::max_request_bytes`], JSON,
//!   depth, batches per revision).
//! - `Host` and `Origin` validation (DNS rebinding): [`HttpConfig::allowed_hosts`], [`HttpConfig::allowed_origins`].
//! - Connections ([`ConnectionLimits`]): a cap on open connections, header-read (and idle keep-alive) and body-read
//!   timeouts ([`ConnectionLimits`]).
//! - Fair share ([`FairShare`]): concurrent `POST`s and an optional rate per principal, `429` + `Retry-After` past
//!   them ([`FairShare`]).
//! - Answers: an event-stream answer complete at once (a cached read) is sent as one body of known length, one
//!   write instead of a chunked stream of several (the private `coalesce` module); a longer one streams as before.
//! - Shutdown: when the `shutdown` future resolves, new connections stop, calls in flight finish (bounded by
//!   [`HttpConfig::shutdown_grace`]), their answers are sent ([`drain`]), then sessions close.

mod accept;
#[doc(hidden)]
pub use accept::accepts_for_fuzzing;
mod auth;
mod coalesce;
mod connections;
pub mod dormant;
pub mod drain;
mod fair;
pub mod framing;
mod guarded;
mod sessions;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::middleware;
use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::session::local::SessionConfig;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

pub use auth::{Auth, OpenOffLoopback};
pub use connections::ConnectionLimits;
pub use fair::FairShare;
pub use sessions::{RESUME_WINDOW, SessionLimits};

use crate::incoming::DEFAULT_MAX_REQUEST_BYTES;
use dormant::{DormantSessions, SessionStates};
use framing::Framing;
use sessions::SessionOwners;

/// How the streamable-HTTP transport behaves. `HttpConfig::default()` is a safe start; the bundled server fills it
/// from its settings.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpConfig {
    /// Extra accepted `Host` header values, beside the loopback names and the bound address (with and without
    /// port). Any other `Host` gets `403` from rmcp.
    pub allowed_hosts: Vec<String>,
    /// Extra accepted `Origin` values (`scheme://host[:port]`, port `*` for any), beside the loopback origins a
    /// loopback bind allows. A request without `Origin` (a non-browser client) passes; any other gets `403`.
    pub allowed_origins: Vec<String>,
    /// No server-side sessions: no `Mcp-Session-Id`, each `POST` answered on its own (plain JSON when it can be),
    /// so a load balancer may send any request to any replica.
    pub stateless: bool,
    /// The largest `POST` body accepted, bytes; a larger one gets `413` with a JSON-RPC error.
    pub max_request_bytes: usize,
    /// How long a shutdown waits for calls in flight and their answers.
    pub shutdown_grace: Duration,
    /// Idle expiry and caps of live sessions.
    pub sessions: SessionLimits,
    /// Open connections and the time a client may take to send a request.
    pub connections: ConnectionLimits,
    /// What one principal may use at once.
    pub fair: FairShare,
}

impl HttpConfig {
    /// This config with [`HttpConfig::allowed_hosts`] set.
    #[must_use]
    pub fn with_allowed_hosts(mut self, allowed_hosts: Vec<String>) -> Self {
        self.allowed_hosts = allowed_hosts;
        self
    }

    /// This config with [`HttpConfig::allowed_origins`] set.
    #[must_use]
    pub fn with_allowed_origins(mut self, allowed_origins: Vec<String>) -> Self {
        self.allowed_origins = allowed_origins;
        self
    }

    /// This config with [`HttpConfig::stateless`] set.
    #[must_use]
    pub fn with_stateless(mut self, stateless: bool) -> Self {
        self.stateless = stateless;
        self
    }

    /// This config with [`HttpConfig::max_request_bytes`] set.
    #[must_use]
    pub fn with_max_request_bytes(mut self, max_request_bytes: usize) -> Self {
        self.max_request_bytes = max_request_bytes;
        self
    }

    /// This config with [`HttpConfig::shutdown_grace`] set.
    #[must_use]
    pub fn with_shutdown_grace(mut self, shutdown_grace: Duration) -> Self {
        self.shutdown_grace = shutdown_grace;
        self
    }

    /// This config with [`HttpConfig::sessions`] set.
    #[must_use]
    pub fn with_sessions(mut self, sessions: SessionLimits) -> Self {
        self.sessions = sessions;
        self
    }

    /// This config with [`HttpConfig::connections`] set.
    #[must_use]
    pub fn with_connections(mut self, connections: ConnectionLimits) -> Self {
        self.connections = connections;
        self
    }

    /// This config with [`HttpConfig::fair`] set.
    #[must_use]
    pub fn with_fair(mut self, fair: FairShare) -> Self {
        self.fair = fair;
        self
    }
}

impl Default for HttpConfig {
    fn default() -> Self {
        HttpConfig {
            allowed_hosts: Vec::new(),
            allowed_origins: Vec::new(),
            stateless: false,
            max_request_bytes: DEFAULT_MAX_REQUEST_BYTES,
            shutdown_grace: Duration::from_secs(30),
            sessions: SessionLimits::default(),
            connections: ConnectionLimits::default(),
            fair: FairShare::default(),
        }
    }
}

/// What a shutdown waits for: tool calls (`in_flight`, the tracker the handlers track their calls in) and `POST`s
/// until their answer is sent (`requests`, [`drain`]). `sessions_closed` ends every MCP session when cancelled.
#[derive(Debug, Clone, Default)]
pub struct Drain {
    /// Tool calls in flight: give a clone to each handler and track its calls there.
    pub in_flight: TaskTracker,
    /// `POST`s until their response body is sent in full.
    pub requests: TaskTracker,
    /// Cancelled once the calls have drained: closes every session and its event stream.
    pub sessions_closed: CancellationToken,
}

/// The `Host` values accepted: loopback names, the bound address (with and without port) and `extra`.
fn allowed_hosts(addr: SocketAddr, extra: &[String]) -> Vec<String> {
    let mut hosts: Vec<String> = vec!["localhost".into(), "127.0.0.1".into(), "::1".into()];
    hosts.push(addr.ip().to_string());
    hosts.push(addr.to_string());
    hosts.extend(extra.iter().cloned());
    hosts
}

/// The `Origin` values accepted (MCP "Streamable HTTP" security warning against DNS rebinding): `http(s)` on any
/// port of the loopback names when bound to a loopback address, and `extra`. Requests without an `Origin` header
/// (non-browser clients) are not affected; any other `Origin` gets `403` from rmcp.
fn allowed_origins(addr: SocketAddr, extra: &[String]) -> Vec<String> {
    let mut origins = Vec::new();
    if addr.ip().is_loopback() {
        for scheme in ["http", "https"] {
            for host in ["localhost", "127.0.0.1", "[::1]"] {
                origins.push(format!("{scheme}://{host}:*"));
            }
        }
    }
    origins.extend(extra.iter().cloned());
    origins
}

/// The axum router: `/mcp` served by rmcp with a handler from `new_handler` per session (per request when
/// stateless), behind (outermost first) `POST` tracking ([`drain`]), authentication ([`Auth`]), the fair share
/// per principal ([`FairShare`]), session ownership and caps ([`SessionLimits`]), message checks ([`framing`]) and one body
/// for an answer complete at once. `addr` is the bound address (for `Host`/`Origin`).
pub fn router<S, F>(new_handler: F, auth: Auth, addr: SocketAddr, config: &HttpConfig, drain: &Drain) -> Router
where
    S: ServerHandler + Send + 'static,
    F: Fn() -> S + Send + Sync + 'static,
{
    router_and_owners(new_handler, auth, addr, config, drain).0
}

/// [`router`], and the session table behind it (for [`SessionOwners::sweep`]).
fn router_and_owners<S, F>(
    new_handler: F,
    auth: Auth,
    addr: SocketAddr,
    config: &HttpConfig,
    drain: &Drain,
) -> (Router, SessionOwners)
where
    S: ServerHandler + Send + 'static,
    F: Fn() -> S + Send + Sync + 'static,
{
    let limit = config.max_request_bytes;
    let mut rmcp_config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(!config.stateless)
        .with_json_response(config.stateless)
        .with_allowed_hosts(allowed_hosts(addr, &config.allowed_hosts))
        .with_allowed_origins(allowed_origins(addr, &config.allowed_origins))
        .enforce_origin_validation()
        .with_max_request_body_bytes(limit)
        .with_cancellation_token(drain.sessions_closed.clone());
    let limits = config.sessions;
    let states = Arc::new(SessionStates::default());
    if !config.stateless {
        // rmcp keeps each session's `initialize` parameters here and restores a sleeping session from them.
        rmcp_config.session_store = Some(states.clone());
    }
    let mut session_config = SessionConfig::default();
    // rmcp also ends a live worker that saw no request for this long (the session layer expires the session).
    session_config.keep_alive = Some(limits.idle);
    let manager = Arc::new(DormantSessions::new(session_config));
    let service = StreamableHttpService::new(move || Ok(new_handler()), manager.clone(), rmcp_config);
    let framing = Framing {
        limit,
        service: Arc::new(service.clone()),
    };
    let owners = SessionOwners::new(manager, states, limits, config.stateless);
    // The protected-resource metadata is public: served beside `/mcp`, outside authentication.
    let metadata = auth
        .resource_server()
        .map(|server| crate::oauth::metadata::router(server.clone(), "/mcp"));
    // Outermost last: POST tracking, authentication, fair share, session ownership, Accept, message checks, one
    // body for an answer complete at once, rmcp.
    let router = Router::new()
        .nest_service("/mcp", service)
        .layer(middleware::from_fn(coalesce::coalesce))
        .layer(middleware::from_fn_with_state(framing, framing::check_posts::<S>))
        .layer(middleware::from_fn_with_state(config.stateless, accept::negotiate))
        .layer(middleware::from_fn_with_state(owners.clone(), sessions::bind_sessions))
        .layer(middleware::from_fn_with_state(
            fair::Limiter::new(config.fair),
            fair::limit_principals,
        ))
        .layer(middleware::from_fn_with_state(Arc::new(auth), auth::authenticate))
        .layer(middleware::from_fn_with_state(
            drain.requests.clone(),
            drain::track_posts,
        ));
    let router = match metadata {
        Some(metadata) => router.merge(metadata),
        None => router,
    };
    (router, owners)
}

/// Why [`serve`] stopped with an error.
#[non_exhaustive]
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The listener failed (its address cannot be read, or accepting failed for good).
    #[error("the HTTP listener failed: {0}")]
    Listener(#[from] std::io::Error),
}

/// Serves `/mcp` on `listener` (handlers from `new_handler`, see [`router`]) until `shutdown` resolves; then new
/// connections stop, calls tracked in `drain.in_flight` finish and their answers are sent (at most
/// [`HttpConfig::shutdown_grace`]), sessions close, and it returns. Connections are accepted within
/// [`HttpConfig::connections`] (cap, timeouts, `TCP_NODELAY`).
///
/// # Errors
/// [`ServeError::Listener`]: the listener fails.
pub async fn serve<S, F>(
    new_handler: F,
    listener: TcpListener,
    auth: Auth,
    config: &HttpConfig,
    drain: Drain,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError>
where
    S: ServerHandler + Send + 'static,
    F: Fn() -> S + Send + Sync + 'static,
{
    let addr = listener.local_addr()?;
    let grace = config.shutdown_grace;
    let (router, owners) = router_and_owners(new_handler, auth, addr, config, &drain);
    let stop = CancellationToken::new();
    // Owners of sessions rmcp ended (idle expiry) are forgotten even when no new session opens.
    tokio::spawn(owners.sweep(stop.clone()));
    tokio::spawn({
        let stop = stop.clone();
        async move {
            shutdown.await;
            stop.cancel();
        }
    });
    // After the signal: no new connections, calls in flight finish (bounded by the grace period), then the
    // sessions and their event streams close, which lets the graceful shutdown complete.
    tokio::spawn({
        let stop = stop.clone();
        async move {
            stop.cancelled().await;
            tracing::info!(
                calls_in_flight = drain.in_flight.len(),
                "shutting down: finishing calls in flight"
            );
            drain.in_flight.close();
            drain.requests.close();
            // Every tool call has returned and every POST's answer has been sent (or the grace period is over).
            let drained = async {
                drain.in_flight.wait().await;
                drain.requests.wait().await;
            };
            if tokio::time::timeout(grace, drained).await.is_err() {
                tracing::warn!(
                    grace_seconds = grace.as_secs(),
                    "calls still in flight after the grace period"
                );
            }
            drain.sessions_closed.cancel();
        }
    });
    let served = connections::accept_loop(listener, router, config.connections, stop.clone());
    tokio::select! {
        () = served => {}
        () = async {
            stop.cancelled().await;
            tokio::time::sleep(grace + Duration::from_secs(5)).await;
        } => tracing::warn!("connections still open after the grace period; exiting"),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_origins_only_on_a_loopback_bind() {
        let extra = vec!["https://app.example.com".to_string()];
        let on_loopback = allowed_origins("127.0.0.1:8080".parse().unwrap(), &extra);
        assert!(on_loopback.contains(&"http://localhost:*".to_string()));
        assert!(on_loopback.contains(&"https://[::1]:*".to_string()));
        assert!(on_loopback.contains(&"https://app.example.com".to_string()));
        let public = allowed_origins("0.0.0.0:8080".parse().unwrap(), &extra);
        assert_eq!(public, extra);
    }
}
