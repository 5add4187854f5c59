//! Streamable-HTTP sessions belong to the principal that opened them, and are bounded.
//!
//! rmcp's session manager knows sessions by their `Mcp-Session-Id` only: any authenticated caller holding Alice's
//! session id could use (or `DELETE`) her session. [`bind_sessions`] remembers which [`Principal`] received each
//! new session id (the `initialize` response's header) and answers any request naming a session that is not the
//! caller's, whether unknown, ended, expired, deleted or another principal's, with the same `404 Not Found` rmcp
//! gives an unknown session (MCP "Streamable HTTP", session management: the client initializes again), so a
//! session id's existence is not disclosed. An owner is forgotten when its session is deleted, when rmcp answers
//! `404` for it (ended by idle expiry, [`SessionLimits::idle`]), and whenever the table is checked against rmcp's
//! live sessions ([`SessionOwners::prune`]: before a cap decision, and every [`SessionOwners::SWEEP_MAX`] or idle
//! expiry, whichever is shorter, while [`super::serve`] runs).
//!
//! Live sessions are capped: a request opening a session (a `POST` without `Mcp-Session-Id`) when the caller
//! already has [`SessionLimits::max_per_principal`] live sessions, or the server [`SessionLimits::max_total`],
//! closes the caller's least recently used idle session (one with no `POST` in flight) to make room; when the
//! caller has none idle it gets `503 Service Unavailable` with `Retry-After` (seconds) before rmcp creates
//! anything. Sessions being opened count against the caps from the moment the request is let through, so
//! concurrent `initialize` requests cannot overshoot them. A stateless server opens no sessions: nothing is counted.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::{Method, StatusCode, header};
use rmcp::transport::streamable_http_server::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use tokio::time::MissedTickBehavior;
use tokio_util::sync::CancellationToken;

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

/// One live session.
#[derive(Debug)]
struct Entry {
    owner: Principal,
    /// When its last request arrived or its last answer ended.
    last_used: Instant,
    /// Its `POST`s in flight (until their answer is sent in full).
    busy: usize,
}

#[derive(Debug, Default)]
struct Table {
    sessions: HashMap<String, Entry>,
    /// Sessions being opened, per principal (their `initialize` is in flight).
    opening: HashMap<Principal, usize>,
}

impl Table {
    fn opening_total(&self) -> usize {
        self.opening.values().sum()
    }

    fn count_of(&self, principal: &Principal) -> usize {
        let live = self.sessions.values().filter(|entry| entry.owner == *principal).count();
        live + self.opening.get(principal).copied().unwrap_or(0)
    }

    fn full_for(&self, principal: &Principal, limits: &SessionLimits) -> bool {
        self.sessions.len() + self.opening_total() >= limits.max_total
            || self.count_of(principal) >= limits.max_per_principal
    }

    /// The least recently used session of `principal` with nothing in flight.
    fn oldest_idle_of(&self, principal: &Principal) -> Option<String> {
        self.sessions
            .iter()
            .filter(|(_, entry)| entry.owner == *principal && entry.busy == 0)
            .min_by_key(|(_, entry)| entry.last_used)
            .map(|(id, _)| id.clone())
    }

    fn end_opening(&mut self, principal: &Principal) {
        if let Some(count) = self.opening.get_mut(principal) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                self.opening.remove(principal);
            }
        }
    }
}

/// Which principal owns each live session, plus rmcp's session manager (to close and forget sessions) and the caps.
#[derive(Clone)]
pub struct SessionOwners {
    table: Arc<Mutex<Table>>,
    manager: Arc<LocalSessionManager>,
    limits: SessionLimits,
    stateless: bool,
}

impl SessionOwners {
    /// The longest time between two sweeps of ended sessions ([`SessionOwners::sweep`]).
    pub const SWEEP_MAX: Duration = Duration::from_secs(60);

    /// Owners of the sessions of `manager` (the one given to rmcp's `StreamableHttpService`), capped by `limits`;
    /// `stateless`: rmcp opens no sessions, so requests without a session id are not counted.
    pub fn new(manager: Arc<LocalSessionManager>, limits: SessionLimits, stateless: bool) -> Self {
        SessionOwners {
            table: Arc::default(),
            manager,
            limits,
            stateless,
        }
    }

    /// Forgets ended sessions ([`SessionOwners::prune`]) every [`SessionOwners::SWEEP_MAX`] or idle expiry,
    /// whichever is shorter, until `stop` is cancelled.
    pub async fn sweep(self, stop: CancellationToken) {
        let mut ticks = tokio::time::interval(self.limits.idle.clamp(Duration::from_secs(1), Self::SWEEP_MAX));
        ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = ticks.tick() => self.prune().await,
                () = stop.cancelled() => return,
            }
        }
    }

    fn table(&self) -> std::sync::MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Live sessions known here (owners recorded, not yet forgotten).
    pub fn len(&self) -> usize {
        self.table().sessions.len()
    }

    /// Whether no session is known.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Forgets the owners of sessions rmcp no longer holds (ended by idle expiry or by the client).
    pub async fn prune(&self) {
        // Holding rmcp's read lock: a session recorded here meanwhile was created before, so it is kept.
        let live = self.manager.sessions.read().await;
        self.table().sessions.retain(|id, _| live.contains_key(id.as_str()));
    }

    /// Reserves room for one more session of `principal`, closing its least recently used idle session when a cap
    /// is reached (one session fewer is below both caps again, since reservations keep the counts at most at the
    /// caps). `false`: a cap is reached and none of its sessions is idle.
    async fn reserve(&self, principal: &Principal) -> bool {
        if self.table().full_for(principal, &self.limits) {
            self.prune().await;
        }
        let evicted = {
            let mut table = self.table();
            let evicted = if table.full_for(principal, &self.limits) {
                match table.oldest_idle_of(principal) {
                    Some(id) => {
                        table.sessions.remove(&id);
                        Some(id)
                    }
                    None => return false,
                }
            } else {
                None
            };
            *table.opening.entry(principal.clone()).or_insert(0) += 1;
            evicted
        };
        if let Some(id) = evicted {
            tracing::info!(principal = %principal, "closed the caller's oldest idle session to open a new one");
            if let Err(error) = self.manager.close_session(&id.as_str().into()).await {
                tracing::debug!(%error, "the evicted session had already ended");
            }
        }
        true
    }

    fn owner(&self, session: &str) -> Option<Principal> {
        self.table().sessions.get(session).map(|entry| entry.owner.clone())
    }

    fn remove(&self, session: &str) {
        self.table().sessions.remove(session);
    }

    /// Marks `session` as having one more `POST` in flight.
    fn start(&self, session: &str) {
        if let Some(entry) = self.table().sessions.get_mut(session) {
            entry.busy += 1;
            entry.last_used = Instant::now();
        }
    }

    /// Marks one `POST` of `session` as answered.
    fn finish(&self, session: &str) {
        if let Some(entry) = self.table().sessions.get_mut(session) {
            entry.busy = entry.busy.saturating_sub(1);
            entry.last_used = Instant::now();
        }
    }
}

/// Releases a reserved opening when dropped (the `initialize` answered, failed or was abandoned).
struct Opening {
    owners: SessionOwners,
    principal: Principal,
}

impl Drop for Opening {
    fn drop(&mut self) {
        self.owners.table().end_opening(&self.principal);
    }
}

/// Ends a session's `POST` (its answer sent in full, or dropped) when dropped.
struct InFlight {
    owners: SessionOwners,
    session: String,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.owners.finish(&self.session);
    }
}

/// `503` + `Retry-After` for a full session table.
fn full(owners: &SessionOwners, principal: &Principal) -> Response {
    tracing::warn!(principal = %principal, "refused a new session: the session cap is reached and none is idle");
    let retry = owners
        .limits
        .idle
        .as_secs()
        .clamp(1, RETRY_AFTER_MAX_SECONDS)
        .to_string();
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [(header::RETRY_AFTER, retry)],
        "Service Unavailable: too many live sessions; close one (DELETE) or retry later",
    )
        .into_response()
}

/// Axum middleware (after authentication): refuses a session id that is not the caller's with `404`, bounds and
/// records new sessions, tracks each session's `POST`s in flight, forgets deleted and ended sessions.
pub async fn bind_sessions(State(owners): State<SessionOwners>, request: Request, next: Next) -> Response {
    let principal = request.extensions().get::<Principal>().cloned();
    let session = request
        .headers()
        .get(SESSION_HEADER)
        .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned());
    let method = request.method().clone();
    if let Some(session) = session {
        if principal.is_none() || owners.owner(&session) != principal {
            tracing::debug!("refused a request naming a session that is not the caller's (or no longer exists)");
            return (StatusCode::NOT_FOUND, "Not Found: Session not found").into_response();
        }
        let in_flight = (method == Method::POST).then(|| {
            owners.start(&session);
            InFlight {
                owners: owners.clone(),
                session: session.clone(),
            }
        });
        let response = next.run(request).await;
        let status = response.status();
        if status == StatusCode::NOT_FOUND || (method == Method::DELETE && status.is_success()) {
            // Deleted, or ended by rmcp (idle expiry): forget its owner.
            drop(in_flight);
            owners.remove(&session);
            return response;
        }
        return match in_flight {
            Some(in_flight) => super::guarded::hold(response, in_flight),
            None => response,
        };
    }
    let (Some(principal), true) = (principal, method == Method::POST && !owners.stateless) else {
        return next.run(request).await;
    };
    if !owners.reserve(&principal).await {
        return full(&owners, &principal);
    }
    let opening = Opening {
        owners: owners.clone(),
        principal: principal.clone(),
    };
    let response = next.run(request).await;
    if let Some(new) = response
        .headers()
        .get(SESSION_HEADER)
        .and_then(|value| value.to_str().ok())
    {
        owners.table().sessions.insert(
            new.to_string(),
            Entry {
                owner: principal,
                last_used: Instant::now(),
                busy: 0,
            },
        );
    }
    drop(opening);
    response
}
