//! Streamable-HTTP sessions belong to the principal that opened them.
//!
//! rmcp's session manager knows sessions by their `Mcp-Session-Id` only: any authenticated caller holding Alice's
//! session id could use (or `DELETE`) her session. [`bind_sessions`] remembers which [`Principal`] received each
//! new session id (the `initialize` response's header) and answers any request naming a session that is not the
//! caller's, whether unknown, ended, deleted or another principal's, with the same `404 Not Found` rmcp gives an
//! unknown session (MCP "Streamable HTTP", session management), so a session id's existence is not disclosed.
//! A successful `DELETE` forgets the session; sessions rmcp ends by itself (idle timeout, [`SessionLimits::idle`])
//! are forgotten when the next session opens, and a request naming one gets `404`.
//!
//! Live sessions are capped: a request opening a session (one without `Mcp-Session-Id`) when the caller already has
//! [`SessionLimits::max_per_principal`] live sessions, or the server [`SessionLimits::max_total`], gets
//! `503 Service Unavailable` with `Retry-After` (seconds) before rmcp creates anything.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::{Method, StatusCode, header};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

use crate::principal::Principal;

/// Bounds on live streamable-HTTP sessions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionLimits {
    /// A session with no request for this long is closed (default 600 s).
    pub idle: Duration,
    /// Live sessions in all (default 1000).
    pub max_total: usize,
    /// Live sessions of one principal (default 100).
    pub max_per_principal: usize,
}

impl Default for SessionLimits {
    fn default() -> Self {
        SessionLimits {
            idle: Duration::from_secs(600),
            max_total: 1000,
            max_per_principal: 100,
        }
    }
}

/// The `Mcp-Session-Id` header.
const SESSION_HEADER: &str = "mcp-session-id";

/// The largest `Retry-After` sent with a `503` for a full session table, seconds (the idle expiry, if shorter).
const RETRY_AFTER_MAX_SECONDS: u64 = 30;

/// Which principal owns each live session, plus rmcp's session manager (to forget ended sessions) and the caps.
#[derive(Clone)]
pub struct SessionOwners {
    owners: Arc<Mutex<HashMap<String, Principal>>>,
    manager: Arc<LocalSessionManager>,
    limits: SessionLimits,
}

impl SessionOwners {
    /// Owners of the sessions of `manager` (the one given to rmcp's `StreamableHttpService`), capped by `limits`.
    pub fn new(manager: Arc<LocalSessionManager>, limits: SessionLimits) -> Self {
        SessionOwners {
            owners: Arc::default(),
            manager,
            limits,
        }
    }

    /// Forgets the sessions rmcp has ended, then tells whether `principal` may open one more session.
    async fn has_room_for(&self, principal: &Principal) -> bool {
        self.prune().await;
        let owners = self.owners.lock().unwrap_or_else(PoisonError::into_inner);
        let mine = owners.values().filter(|owner| *owner == principal).count();
        owners.len() < self.limits.max_total && mine < self.limits.max_per_principal
    }

    /// Forgets the owners of sessions rmcp no longer holds (ended by idle expiry or by the client).
    async fn prune(&self) {
        let live: std::collections::HashSet<String> = {
            let sessions = self.manager.sessions.read().await;
            sessions.keys().map(|id| id.to_string()).collect()
        };
        self.owners
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|id, _| live.contains(id));
    }

    fn owner(&self, session: &str) -> Option<Principal> {
        self.owners
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(session)
            .cloned()
    }

    fn insert(&self, session: String, principal: Principal) {
        self.owners
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(session, principal);
    }

    fn remove(&self, session: &str) {
        self.owners
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(session);
    }
}

/// Axum middleware (after authentication): refuses a session id that is not the caller's with `404`, records
/// the owner of a new session, forgets a deleted one.
pub async fn bind_sessions(State(owners): State<SessionOwners>, request: Request, next: Next) -> Response {
    let principal = request.extensions().get::<Principal>().cloned();
    let session = request
        .headers()
        .get(SESSION_HEADER)
        .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned());
    let deleting = request.method() == Method::DELETE;
    if let Some(session) = &session
        && (principal.is_none() || owners.owner(session) != principal)
    {
        tracing::info!("refused a request naming a session that is not the caller's (or no longer exists)");
        return (StatusCode::NOT_FOUND, "Not Found: Session not found").into_response();
    }
    if session.is_none()
        && request.method() == Method::POST
        && let Some(principal) = &principal
        && !owners.has_room_for(principal).await
    {
        tracing::warn!(principal = %principal, "refused a new session: the session cap is reached");
        let retry = owners
            .limits
            .idle
            .as_secs()
            .clamp(1, RETRY_AFTER_MAX_SECONDS)
            .to_string();
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::RETRY_AFTER, retry)],
            "Service Unavailable: too many live sessions; close one (DELETE) or retry later",
        )
            .into_response();
    }
    let response = next.run(request).await;
    match (session, principal) {
        (Some(session), _) if deleting && response.status().is_success() => owners.remove(&session),
        (None, Some(principal)) => {
            if let Some(new) = response
                .headers()
                .get(SESSION_HEADER)
                .and_then(|value| value.to_str().ok())
            {
                owners.insert(new.to_string(), principal);
            }
        }
        _ => {}
    }
    response
}
