//! Streamable HTTP transport (MCP 2025-06-18 "Streamable HTTP"): rmcp's `StreamableHttpService` mounted at `/mcp`
//! on axum, behind bearer-token authentication.
//!
//! - Every request must carry `Authorization: Bearer <token>` whose SHA-256 is in the tokens file
//!   ([`crate::tokens`]); otherwise the answer is `401` with an empty body and `WWW-Authenticate: Bearer` (RFC 6750
//!   §3), whatever was wrong. `--no-auth` skips this, and is refused unless the address is loopback.
//! - The authenticated [`Principal`] is put in the request's extensions; the handler reads it per call
//!   ([`crate::handler::DevtoolsServer::for_http`]). The `Authorization` header is removed before rmcp sees the
//!   request, so no later log can contain the token.
//! - A session belongs to the principal that opened it: a request naming another principal's (or an unknown)
//!   `Mcp-Session-Id` gets `404` ([`crate::session_owner`]).
//! - Sessions expire after `MCP_HTTP_SESSION_IDLE_SECONDS` without a request and are capped in all and per
//!   principal (`503` + `Retry-After` past a cap): [`crate::session_owner`].
//! - Every `POST` body is checked first (size `MCP_MAX_REQUEST_BYTES`, JSON, depth, batches per revision):
//!   [`crate::http_framing`].
//! - SIGINT/SIGTERM ([`shutdown_signal`]): new connections stop, calls in flight finish (bounded by
//!   `MCP_HTTP_SHUTDOWN_GRACE_SECONDS`), then sessions close and the server exits.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{Request, State};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::serve::ListenerExt;
use http::{StatusCode, header};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::app::App;
use crate::deploy_settings::DeploySettings;
use crate::handler::DevtoolsServer;
use crate::http_framing::Framing;
use crate::principal::Principal;
use crate::session_owner::SessionOwners;
use crate::tokens::{TokenTable, TokensError};

/// Who may call over HTTP.
#[derive(Debug, Clone)]
pub enum Auth {
    /// Bearer tokens from the tokens file.
    Tokens(Arc<TokenTable>),
    /// No authentication (loopback only): every call is this principal (the local user).
    Open(Principal),
}

/// Why the HTTP transport cannot start as configured.
#[derive(Debug, thiserror::Error)]
pub enum HttpSetupError {
    /// `--no-auth` on an address other clients can reach.
    #[error(
        "--no-auth (MCP_HTTP_NO_AUTH) is only allowed on a loopback address, not {0}: bind 127.0.0.1 or configure a \
         tokens file"
    )]
    NoAuthOffLoopback(SocketAddr),
    /// Neither a tokens file nor `--no-auth`.
    #[error("HTTP needs a tokens file (--tokens-file / MCP_HTTP_TOKENS_FILE), or --no-auth on a loopback address")]
    NoTokens,
    /// The tokens file is unusable.
    #[error(transparent)]
    Tokens(#[from] TokensError),
}

impl Auth {
    /// The authentication the deployment settings ask for.
    ///
    /// # Errors
    /// [`HttpSetupError`]: `--no-auth` off loopback, no tokens file, or a tokens file that cannot be loaded.
    pub fn from_settings(deploy: &DeploySettings, addr: SocketAddr) -> Result<Auth, HttpSetupError> {
        if deploy.no_auth {
            if !addr.ip().is_loopback() {
                return Err(HttpSetupError::NoAuthOffLoopback(addr));
            }
            return Ok(Auth::Open(Principal::local_user()));
        }
        let path = deploy.tokens_file.as_deref().ok_or(HttpSetupError::NoTokens)?;
        Ok(Auth::Tokens(Arc::new(TokenTable::load(path)?)))
    }
}

/// The `Host` values accepted: loopback names, the bound address (with and without port) and `extra`.
fn allowed_hosts(addr: SocketAddr, extra: &[String]) -> Vec<String> {
    let mut hosts: Vec<String> = vec!["localhost".into(), "127.0.0.1".into(), "::1".into()];
    hosts.push(addr.ip().to_string());
    hosts.push(addr.to_string());
    hosts.extend(extra.iter().cloned());
    hosts
}

/// The `Origin` values accepted (CONTRACT §9, MCP "Streamable HTTP" security warning against DNS rebinding):
/// `http(s)` on any port of the loopback names when bound to a loopback address, and `extra`. Requests without an
/// `Origin` header (non-browser clients) are not affected; any other `Origin` gets `403` from rmcp.
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

/// The axum router: `/mcp` served by rmcp behind bearer authentication (`authenticate`). `sessions_closed` ends every MCP session when
/// cancelled; `in_flight` tracks tool calls; `requests` tracks `POST`s until their answer is sent
/// ([`crate::drain`]).
pub fn router(
    app: Arc<App>,
    auth: Auth,
    addr: SocketAddr,
    sessions_closed: CancellationToken,
    in_flight: TaskTracker,
    requests: TaskTracker,
) -> Router {
    let limit = app.settings.deploy.request_limit();
    let stateless = app.settings.deploy.stateless;
    // Stateless (MCP_HTTP_STATELESS): no Mcp-Session-Id, each POST answered on its own (plain JSON when it can be),
    // so a load balancer may send any request to any replica.
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(!stateless)
        .with_json_response(stateless)
        .with_allowed_hosts(allowed_hosts(addr, &app.settings.deploy.allowed_hosts))
        .with_allowed_origins(allowed_origins(addr, &app.settings.deploy.allowed_origins))
        .enforce_origin_validation()
        .with_max_request_body_bytes(limit)
        .with_cancellation_token(sessions_closed);
    let limits = app.settings.deploy.sessions;
    let mut manager = LocalSessionManager::default();
    // rmcp closes a session whose worker saw no request for this long; a later request naming it gets 404.
    manager.session_config.keep_alive = Some(Duration::from_secs(limits.idle_seconds));
    let sessions = Arc::new(manager);
    let service = StreamableHttpService::new(
        move || Ok(DevtoolsServer::for_http(app.clone(), in_flight.clone())),
        sessions.clone(),
        config,
    );
    let framing = Framing {
        limit,
        service: Arc::new(service.clone()),
    };
    // Outermost last: POST tracking, authentication, session ownership, message checks, rmcp.
    Router::new()
        .nest_service("/mcp", service)
        .layer(middleware::from_fn_with_state(
            framing,
            crate::http_framing::check_posts,
        ))
        .layer(middleware::from_fn_with_state(
            SessionOwners::new(sessions, limits),
            crate::session_owner::bind_sessions,
        ))
        .layer(middleware::from_fn_with_state(Arc::new(auth), authenticate))
        .layer(middleware::from_fn_with_state(requests, crate::drain::track_posts))
}

/// Serves `app` on `listener` until `shutdown` resolves, then waits up to the grace period for calls in flight,
/// closes the sessions and returns.
///
/// # Errors
/// The listener fails.
pub async fn serve(
    app: Arc<App>,
    listener: TcpListener,
    auth: Auth,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let addr = listener.local_addr()?;
    let grace = Duration::from_secs(app.settings.deploy.shutdown_grace_seconds);
    let sessions_closed = CancellationToken::new();
    let in_flight = TaskTracker::new();
    let requests = TaskTracker::new();
    let router = router(
        app,
        auth,
        addr,
        sessions_closed.clone(),
        in_flight.clone(),
        requests.clone(),
    );
    let stop = CancellationToken::new();
    tokio::spawn({
        let stop = stop.clone();
        async move {
            shutdown.await;
            stop.cancel();
        }
    });
    // After the signal: no new connections (axum), calls in flight finish (bounded by the grace period), then the
    // sessions and their event streams close, which lets axum's graceful shutdown complete.
    tokio::spawn({
        let stop = stop.clone();
        let sessions_closed = sessions_closed.clone();
        async move {
            stop.cancelled().await;
            tracing::info!(
                calls_in_flight = in_flight.len(),
                "shutting down: finishing calls in flight"
            );
            in_flight.close();
            requests.close();
            // Every tool call has returned and every POST's answer has been sent (or the grace period is over).
            let drained = async {
                in_flight.wait().await;
                requests.wait().await;
            };
            if tokio::time::timeout(grace, drained).await.is_err() {
                tracing::warn!(
                    grace_seconds = grace.as_secs(),
                    "calls still in flight after the grace period"
                );
            }
            sessions_closed.cancel();
        }
    });
    // TCP_NODELAY (CONTRACT §9): a response written in several pieces must not wait for the client's delayed ACK.
    let listener = listener.tap_io(|tcp| {
        if let Err(error) = tcp.set_nodelay(true) {
            tracing::warn!(%error, "could not set TCP_NODELAY on an accepted connection");
        }
    });
    let server = axum::serve(listener, router).with_graceful_shutdown(stop.clone().cancelled_owned());
    tokio::select! {
        served = server => served?,
        () = async {
            stop.cancelled().await;
            tokio::time::sleep(grace + Duration::from_secs(5)).await;
        } => tracing::warn!("connections still open after the grace period; exiting"),
    }
    Ok(())
}

/// Resolves on SIGINT (Ctrl-C) or, on Unix, SIGTERM.
pub async fn shutdown_signal() {
    let interrupt = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
}

/// The bearer-token check. Sets the [`Principal`] extension and strips `Authorization`, or answers `401` with an
/// empty body for a missing, malformed or unknown token.
async fn authenticate(State(auth): State<Arc<Auth>>, mut request: Request, next: Next) -> Response {
    let principal = match auth.as_ref() {
        Auth::Open(principal) => Some(principal.clone()),
        Auth::Tokens(table) => bearer_token(request.headers()).and_then(|token| table.authenticate(token)),
    };
    request.headers_mut().remove(header::AUTHORIZATION);
    match principal {
        Some(principal) => {
            request.extensions_mut().insert(principal);
            next.run(request).await
        }
        None => (StatusCode::UNAUTHORIZED, [(header::WWW_AUTHENTICATE, "Bearer")]).into_response(),
    }
}

/// The token of `Authorization: Bearer <token>` (scheme case-insensitive, RFC 6750 §2.1); `None` when absent,
/// not UTF-8, of another scheme or empty.
fn bearer_token(headers: &http::HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(value: &str) -> http::HeaderMap {
        let mut map = http::HeaderMap::new();
        map.insert(header::AUTHORIZATION, value.parse().unwrap());
        map
    }

    #[test]
    fn bearer_token_parsing() {
        assert_eq!(bearer_token(&headers("Bearer abc")), Some("abc"));
        assert_eq!(bearer_token(&headers("bearer  abc ")), Some("abc"));
        assert_eq!(bearer_token(&headers("Basic abc")), None);
        assert_eq!(bearer_token(&headers("Bearer ")), None);
        assert_eq!(bearer_token(&headers("Bearerabc")), None);
        assert_eq!(bearer_token(&http::HeaderMap::new()), None);
    }

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

    #[test]
    fn no_auth_only_on_loopback() {
        let deploy = DeploySettings {
            no_auth: true,
            ..DeploySettings::default()
        };
        assert!(Auth::from_settings(&deploy, "127.0.0.1:1".parse().unwrap()).is_ok());
        assert!(Auth::from_settings(&deploy, "[::1]:1".parse().unwrap()).is_ok());
        let err = Auth::from_settings(&deploy, "0.0.0.0:1".parse().unwrap()).unwrap_err();
        assert!(matches!(err, HttpSetupError::NoAuthOffLoopback(_)));
        let err = Auth::from_settings(&DeploySettings::default(), "127.0.0.1:1".parse().unwrap()).unwrap_err();
        assert!(matches!(err, HttpSetupError::NoTokens));
    }
}
