//! A fair share per principal: at most [`FairShare::max_concurrent_per_principal`] `POST`s of one principal in
//! flight (until their answer is sent in full), and optionally at most [`FairShare::rate_per_principal`] `POST`s a
//! second (governor's keyed GCRA limiter, bursts up to the same number). Past either, the request gets
//! `429 Too Many Requests` with `Retry-After` (seconds) before rmcp sees it. Other principals are unaffected:
//! every count is per principal.
//!
//! A `POST` that finds the principal's share in use waits up to [`AT_LIMIT_WAIT`] for one of its calls to end
//! before the `429`. A call counts until its answer's stream has ended on the server; a client reads the answer
//! event and sends its next call at once, often a moment before the server sees its stream end. Without the wait,
//! a client keeping exactly its share busy was refused now and then (seen in the `cpu_per_call` bench).

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::Clock;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use http::{Method, StatusCode, header};
use tokio::sync::Semaphore;

use crate::principal::Principal;

/// How long a `POST` past its principal's share of calls in flight waits for one to end before it gets `429`
/// (module docs): longer than the moment between a client reading an answer and the server ending its stream, even
/// on a loaded machine; short enough that a flood is refused at once, in effect.
pub const AT_LIMIT_WAIT: Duration = Duration::from_millis(100);

/// How much of the server one principal may use at once.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FairShare {
    /// `POST`s of one principal in flight at once (default 32).
    pub max_concurrent_per_principal: usize,
    /// `POST`s of one principal per second, bursts up to the same number; `None` (the default): no rate limit.
    pub rate_per_principal: Option<NonZeroU32>,
}

impl FairShare {
    /// This share with [`FairShare::max_concurrent_per_principal`] set.
    #[must_use]
    pub fn with_max_concurrent_per_principal(mut self, max_concurrent_per_principal: usize) -> Self {
        self.max_concurrent_per_principal = max_concurrent_per_principal;
        self
    }

    /// This share with [`FairShare::rate_per_principal`] set.
    #[must_use]
    pub fn with_rate_per_principal(mut self, rate_per_principal: Option<NonZeroU32>) -> Self {
        self.rate_per_principal = rate_per_principal;
        self
    }
}

impl Default for FairShare {
    fn default() -> Self {
        FairShare {
            max_concurrent_per_principal: 32,
            rate_per_principal: None,
        }
    }
}

/// The per-principal counters behind [`limit_principals`].
#[derive(Clone)]
pub struct Limiter {
    share: FairShare,
    in_flight: Arc<Mutex<HashMap<Principal, Arc<Semaphore>>>>,
    rate: Option<Arc<DefaultKeyedRateLimiter<Principal>>>,
}

impl Limiter {
    /// Counters enforcing `share`.
    pub fn new(share: FairShare) -> Self {
        Limiter {
            share,
            in_flight: Arc::default(),
            rate: share
                .rate_per_principal
                .map(|rate| Arc::new(RateLimiter::keyed(Quota::per_second(rate)))),
        }
    }

    fn semaphore(&self, principal: &Principal) -> Arc<Semaphore> {
        self.in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(principal.clone())
            .or_insert_with(|| Arc::new(Semaphore::new(self.share.max_concurrent_per_principal.max(1))))
            .clone()
    }
}

/// `429 Too Many Requests` with `Retry-After: seconds`.
fn too_many(seconds: u64, why: &str) -> Response {
    (
        StatusCode::TOO_MANY_REQUESTS,
        [(header::RETRY_AFTER, seconds.max(1).to_string())],
        format!("Too Many Requests: {why}; retry after the time in Retry-After"),
    )
        .into_response()
}

/// Axum middleware (after authentication): counts each principal's `POST`s against its [`FairShare`].
pub async fn limit_principals(State(limiter): State<Limiter>, request: Request, next: Next) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let Some(principal) = request.extensions().get::<Principal>().cloned() else {
        return next.run(request).await;
    };
    if let Some(rate) = &limiter.rate
        && let Err(not_until) = rate.check_key(&principal)
    {
        let wait = not_until.wait_time_from(rate.clock().now());
        tracing::info!(principal = %principal, "refused a request: over the rate per principal");
        return too_many(wait.as_secs_f64().ceil() as u64, "over this caller's request rate");
    }
    let semaphore = limiter.semaphore(&principal);
    let permit = match semaphore.clone().try_acquire_owned() {
        Ok(permit) => Some(permit),
        Err(_) => tokio::time::timeout(AT_LIMIT_WAIT, semaphore.acquire_owned())
            .await
            .ok()
            .and_then(Result::ok),
    };
    let Some(permit) = permit else {
        tracing::info!(principal = %principal, "refused a request: too many calls of this caller in flight");
        return too_many(1, "too many requests of this caller in flight");
    };
    super::guarded::hold(next.run(request).await, permit)
}
