//! Streamable-HTTP sessions belong to the principal that opened them, and are bounded (private module: re-exported by
//! [`crate::http`]; the details are on [`SessionLimits`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::{Method, StatusCode, header};
use rmcp::transport::streamable_http_server::SessionManager;
use rmcp::transport::streamable_http_server::session::local::SessionConfig;
use tokio::time::MissedTickBehavior;
use tokio_util::sync::CancellationToken;

use super::dormant::{DormantSessions, SessionStates};
use crate::principal::Principal;

/// Bounds on live streamable-HTTP sessions.
///
/// Streamable-HTTP sessions belong to the principal that opened them, and are bounded.
///
/// rmcp's session manager knows sessions by their `Mcp-Session-Id` only: any authenticated caller holding Alice's
/// session id could use (or `DELETE`) her session. `bind_sessions` remembers which [`Principal`] received each
/// new session id (the `initialize` response's header) and answers any request naming a session that is not the
/// caller's, whether unknown, ended, expired, deleted or another principal's, with the same `404 Not Found` rmcp
/// gives an unknown session (MCP "Streamable HTTP", session management: the client initializes again), so a
/// session id's existence is not disclosed. A session ends, and its owner is forgotten, when it is deleted, when rmcp
/// answers `404` for it, and when it expired: no request for [`SessionLimits::idle`] (checked when a request names
/// it, and by `SessionOwners::prune`: before a cap decision, and every `SessionOwners::SWEEP_MAX` or idle
/// expiry, whichever is shorter, while [`super::serve`] runs).
///
/// A session with no `POST` in flight and no open `GET` stream sleeps ([`super::dormant`]: its rmcp worker ends,
/// its `initialize` parameters stay) [`SessionLimits::dormant_after`] after its last answer was delivered, or
/// [`RESUME_WINDOW`] after an answer the client did not take in full (so it can still resume that stream). A
/// request naming a sleeping session waits until the sleep is done; rmcp then restores the session.
///
/// Live sessions are capped: a request opening a session (a `POST` without `Mcp-Session-Id`) when the caller
/// already has [`SessionLimits::max_per_principal`] live sessions, or the server [`SessionLimits::max_total`],
/// closes the caller's least recently used idle session (one with no `POST` in flight) to make room; when the
/// caller has none idle it gets `503 Service Unavailable` with `Retry-After` (seconds) before rmcp creates
/// anything. Sessions being opened count against the caps from the moment the request is let through, so
/// concurrent `initialize` requests cannot overshoot them. A stateless server opens no sessions: nothing is counted.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionLimits {
    /// A session with no request for this long is closed (default 600 s).
    pub idle: Duration,
    /// Live sessions in all (default 1000).
    pub max_total: usize,
    /// Live sessions of one principal (default 100).
    pub max_per_principal: usize,
    /// How long a session with nothing in flight keeps its rmcp worker after its last answer was delivered, before
    /// it sleeps ([`super::dormant`]; default 250 ms). A sleeping session costs its `initialize` parameters (about
    /// 1 KB) instead of about 60 KiB; the next request restores it. No sleep when this is not shorter than `idle`.
    pub dormant_after: Duration,
}

impl SessionLimits {
    /// This limits with [`SessionLimits::idle`] set.
    #[must_use]
    pub fn with_idle(mut self, idle: Duration) -> Self {
        self.idle = idle;
        self
    }

    /// This limits with [`SessionLimits::max_total`] set.
    #[must_use]
    pub fn with_max_total(mut self, max_total: usize) -> Self {
        self.max_total = max_total;
        self
    }

    /// This limits with [`SessionLimits::max_per_principal`] set.
    #[must_use]
    pub fn with_max_per_principal(mut self, max_per_principal: usize) -> Self {
        self.max_per_principal = max_per_principal;
        self
    }

    /// This limits with [`SessionLimits::dormant_after`] set.
    #[must_use]
    pub fn with_dormant_after(mut self, dormant_after: Duration) -> Self {
        self.dormant_after = dormant_after;
        self
    }
}

impl Default for SessionLimits {
    fn default() -> Self {
        SessionLimits {
            idle: Duration::from_secs(600),
            max_total: 1000,
            max_per_principal: 100,
            dormant_after: Duration::from_millis(250),
        }
    }
}

/// How long a session waits before sleeping after an answer its client did not take in full: rmcp's replay cache
/// of completed response streams lives this long (the client may reconnect with `Last-Event-ID`).
pub const RESUME_WINDOW: Duration = SessionConfig::DEFAULT_COMPLETED_CACHE_TTL;

/// The `Mcp-Session-Id` header.
const SESSION_HEADER: &str = "mcp-session-id";

/// The largest `Retry-After` sent with a `503` for a full session table, seconds (the idle expiry, if shorter).
const RETRY_AFTER_MAX_SECONDS: u64 = 30;

/// One session (live or sleeping).
#[derive(Debug)]
struct Entry {
    owner: Principal,
    /// When its last request arrived or its last answer ended.
    last_used: Instant,
    /// Its `POST`s in flight (until their answer is sent in full).
    busy: usize,
    /// Its open `GET` streams.
    streams: usize,
    /// Held (locked) while it is being put to sleep: requests naming it wait on it.
    sleeping: Option<Arc<tokio::sync::Mutex<()>>>,
}

impl Entry {
    fn new(owner: Principal) -> Self {
        Entry {
            owner,
            last_used: Instant::now(),
            busy: 0,
            streams: 0,
            sleeping: None,
        }
    }

    /// No `POST` in flight (an open `GET` stream does not count) and not being put to sleep.
    fn idle(&self) -> bool {
        self.busy == 0 && self.sleeping.is_none()
    }

    /// Idle and no stream open: it may sleep.
    fn quiet(&self) -> bool {
        self.idle() && self.streams == 0
    }

    fn expired(&self, idle: Duration) -> bool {
        self.idle() && self.last_used.elapsed() >= idle
    }
}

/// What a request does to its session while it is in flight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Use {
    /// A `POST`: the session is busy until its answer ends.
    Call,
    /// A `GET`: an event stream is open until it ends.
    Stream,
    /// Anything else (`DELETE`).
    Other,
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
            .filter(|(_, entry)| entry.owner == *principal && entry.idle())
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

/// Which principal owns each session, plus the session manager and store (to close, put to sleep and forget
/// sessions) and the caps.
#[derive(Clone)]
pub struct SessionOwners {
    table: Arc<Mutex<Table>>,
    manager: Arc<DormantSessions>,
    states: Arc<SessionStates>,
    limits: SessionLimits,
    stateless: bool,
}

impl SessionOwners {
    /// The longest time between two sweeps of ended sessions ([`SessionOwners::sweep`]).
    pub const SWEEP_MAX: Duration = Duration::from_secs(60);

    /// Owners of the sessions of `manager` and `states` (the session manager and store given to rmcp's
    /// `StreamableHttpService`), capped by `limits`; `stateless`: rmcp opens no sessions, so requests without a
    /// session id are not counted.
    pub fn new(
        manager: Arc<DormantSessions>,
        states: Arc<SessionStates>,
        limits: SessionLimits,
        stateless: bool,
    ) -> Self {
        SessionOwners {
            table: Arc::default(),
            manager,
            states,
            limits,
            stateless,
        }
    }

    /// Forgets ended sessions (`SessionOwners::prune`) every `SessionOwners::SWEEP_MAX` or idle expiry,
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

    /// Ends the sessions that expired (no request for [`SessionLimits::idle`]).
    pub async fn prune(&self) {
        let idle = self.limits.idle;
        let expired: Vec<String> = {
            let mut table = self.table();
            let ids: Vec<String> = table
                .sessions
                .iter()
                .filter(|(_, entry)| entry.expired(idle))
                .map(|(id, _)| id.clone())
                .collect();
            for id in &ids {
                table.sessions.remove(id);
            }
            ids
        };
        for id in expired {
            self.end(&id).await;
        }
    }

    /// Ends a session already removed from the table: forgets its `initialize` parameters, closes its worker.
    async fn end(&self, session: &str) {
        self.states.forget(session);
        if let Err(error) = self.manager.close_session(&session.into()).await {
            tracing::debug!(%error, "the ended session's worker had already stopped");
        }
    }

    /// Puts `session` to sleep `after` now, if by then it has had nothing in flight for that long.
    fn sleep_later(&self, session: String, after: Duration) {
        if after >= self.limits.idle {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let owners = self.clone();
        runtime.spawn(async move {
            tokio::time::sleep(after).await;
            owners.sleep(&session, after).await;
        });
    }

    /// Puts `session` to sleep if it has had nothing in flight for `quiet_for`; requests naming it meanwhile wait.
    async fn sleep(&self, session: &str, quiet_for: Duration) {
        let gate = Arc::new(tokio::sync::Mutex::new(()));
        let Ok(held) = gate.clone().try_lock_owned() else {
            return;
        };
        {
            let mut table = self.table();
            let Some(entry) = table.sessions.get_mut(session) else {
                return;
            };
            if !entry.quiet() || entry.last_used.elapsed() < quiet_for {
                return;
            }
            entry.sleeping = Some(gate);
        }
        if self.manager.sleep(session).await {
            tracing::debug!("an idle session went to sleep");
        }
        if let Some(entry) = self.table().sessions.get_mut(session) {
            entry.sleeping = None;
        }
        drop(held);
    }

    /// Marks `session` as used by a request of kind `used`, once any sleep in progress is done. `false`: the
    /// session is unknown.
    async fn enter(&self, session: &str, used: Use) -> bool {
        loop {
            let gate = {
                let mut table = self.table();
                let Some(entry) = table.sessions.get_mut(session) else {
                    return false;
                };
                match &entry.sleeping {
                    Some(gate) => gate.clone(),
                    None => {
                        match used {
                            Use::Call => entry.busy += 1,
                            Use::Stream => entry.streams += 1,
                            Use::Other => {}
                        }
                        entry.last_used = Instant::now();
                        return true;
                    }
                }
            };
            drop(gate.lock().await);
        }
    }

    /// Ends `session` now if it expired. `true`: it did (or is unknown).
    async fn end_if_expired(&self, session: &str) -> bool {
        let expired = {
            let mut table = self.table();
            match table.sessions.get(session) {
                Some(entry) if entry.expired(self.limits.idle) => table.sessions.remove(session).is_some(),
                Some(_) => false,
                None => return true,
            }
        };
        if expired {
            self.end(session).await;
        }
        expired
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
            self.end(&id).await;
        }
        true
    }

    fn owner(&self, session: &str) -> Option<Principal> {
        self.table().sessions.get(session).map(|entry| entry.owner.clone())
    }

    /// Forgets `session` (deleted, or unknown to rmcp).
    fn remove(&self, session: &str) {
        self.table().sessions.remove(session);
        self.states.forget(session);
    }

    /// Marks one request of `session` of kind `used` as ended (`delivered`: its answer was taken in full), and
    /// schedules its sleep once nothing is in flight.
    fn finish(&self, session: &str, used: Use, delivered: bool) {
        let quiet = {
            let mut table = self.table();
            let Some(entry) = table.sessions.get_mut(session) else {
                return;
            };
            // The end of a `GET` stream is no request: it does not postpone the idle expiry.
            match used {
                Use::Call => {
                    entry.busy = entry.busy.saturating_sub(1);
                    entry.last_used = Instant::now();
                }
                Use::Stream => entry.streams = entry.streams.saturating_sub(1),
                Use::Other => entry.last_used = Instant::now(),
            }
            entry.quiet()
        };
        if quiet {
            let after = if delivered || used != Use::Call {
                self.limits.dormant_after
            } else {
                RESUME_WINDOW
            };
            self.sleep_later(session.to_string(), after);
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

/// Ends a session's request (its answer sent in full, or dropped) when dropped.
struct InFlight {
    owners: SessionOwners,
    session: String,
    used: Use,
    delivered: bool,
}

impl super::guarded::Guard for InFlight {
    fn delivered(&mut self) {
        self.delivered = true;
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.owners.finish(&self.session, self.used, self.delivered);
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

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "Not Found: Session not found").into_response()
}

/// Axum middleware (after authentication): refuses a session id that is not the caller's with `404`, bounds and
/// records new sessions, tracks each session's requests in flight, puts quiet sessions to sleep, ends expired ones,
/// forgets deleted and ended sessions.
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
            return not_found();
        }
        let used = match method {
            Method::POST => Use::Call,
            Method::GET => Use::Stream,
            _ => Use::Other,
        };
        if owners.end_if_expired(&session).await || !owners.enter(&session, used).await {
            tracing::debug!("refused a request naming an expired session");
            return not_found();
        }
        let in_flight = InFlight {
            owners: owners.clone(),
            session: session.clone(),
            used,
            delivered: false,
        };
        let response = next.run(request).await;
        let status = response.status();
        if status == StatusCode::NOT_FOUND || (method == Method::DELETE && status.is_success()) {
            // Deleted, or unknown to rmcp: forget it.
            drop(in_flight);
            owners.remove(&session);
            return response;
        }
        return super::guarded::hold(response, in_flight);
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
        owners.table().sessions.insert(new.to_string(), Entry::new(principal));
        owners.sleep_later(new.to_string(), owners.limits.dormant_after);
    }
    drop(opening);
    response
}
