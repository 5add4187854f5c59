//! Streamable-HTTP sessions belong to the principal that opened them.
//!
//! rmcp's session manager knows sessions by their `Mcp-Session-Id` only: any authenticated caller holding Alice's
//! session id could use (or `DELETE`) her session. [`bind_sessions`] remembers which [`Principal`] received each
//! new session id (the `initialize` response's header) and answers any request naming a session that is not the
//! caller's, whether unknown, ended, deleted or another principal's, with the same `404 Not Found` rmcp gives an
//! unknown session (MCP "Streamable HTTP", session management), so a session id's existence is not disclosed.
//! A successful `DELETE` forgets the session; sessions rmcp ends by itself (idle timeout) are forgotten when the
//! next session opens.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::{Method, StatusCode};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

use crate::principal::Principal;

/// The `Mcp-Session-Id` header.
const SESSION_HEADER: &str = "mcp-session-id";

/// Which principal owns each live session, plus rmcp's session manager (to forget ended sessions).
#[derive(Clone)]
pub struct SessionOwners {
    owners: Arc<Mutex<HashMap<String, Principal>>>,
    manager: Arc<LocalSessionManager>,
}

impl SessionOwners {
    /// Owners of the sessions of `manager` (the one given to rmcp's `StreamableHttpService`).
    pub fn new(manager: Arc<LocalSessionManager>) -> Self {
        SessionOwners {
            owners: Arc::default(),
            manager,
        }
    }

    fn owner(&self, session: &str) -> Option<Principal> {
        self.owners
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(session)
            .cloned()
    }

    async fn insert(&self, session: String, principal: Principal) {
        let live: Vec<String> = {
            let sessions = self.manager.sessions.read().await;
            sessions.keys().map(|id| id.to_string()).collect()
        };
        let mut owners = self.owners.lock().unwrap_or_else(PoisonError::into_inner);
        owners.retain(|id, _| live.contains(id));
        owners.insert(session, principal);
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
    let response = next.run(request).await;
    match (session, principal) {
        (Some(session), _) if deleting && response.status().is_success() => owners.remove(&session),
        (None, Some(principal)) => {
            if let Some(new) = response
                .headers()
                .get(SESSION_HEADER)
                .and_then(|value| value.to_str().ok())
            {
                owners.insert(new.to_string(), principal).await;
            }
        }
        _ => {}
    }
    response
}
