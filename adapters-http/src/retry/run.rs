//! The retry loop: [`backon`] drives the attempts and waits; this module decides which answers and waits qualify.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, SystemTime};

use backon::{ConstantBuilder, Retryable};

use super::timer::CallBudget;
use super::{MIN_ATTEMPT_BUDGET, MIN_WAIT, RetryPolicy, Verdict, whole_seconds};
use crate::error::HttpError;
use crate::response::RawResponse;
use crate::vendor::Vendor;

/// Why an attempt did not end the call by itself.
enum Failure {
    /// An answer the classifier would retry, with the wait the upstream asked for.
    Retryable {
        response: RawResponse,
        asked: Option<Duration>,
    },
    /// A failure that is never retried (transport, body cap, …).
    Fatal(HttpError),
}

/// Runs `attempt` (given the time left in the call, to use as its timeout) until its answer is final, the
/// attempts are used up, or the next wait does not fit in `timeout`. Returns the last answer (which may be a
/// retryable status such as 429: the caller turns it into its error) or the first transport-level error.
pub(crate) async fn with_retries<F, Fut>(
    policy: &RetryPolicy,
    vendor: Vendor,
    timeout: Duration,
    mut attempt: F,
) -> Result<RawResponse, HttpError>
where
    F: FnMut(Duration) -> Fut,
    Fut: Future<Output = Result<RawResponse, HttpError>>,
{
    let budget = Arc::new(CallBudget::new(timeout));
    let classify = policy.classify;
    let sent = AtomicU32::new(0);
    let run = || {
        sent.fetch_add(1, Ordering::Relaxed);
        let pending = attempt(budget.remaining());
        async move {
            let response = pending.await.map_err(Failure::Fatal)?;
            match classify(&response, SystemTime::now()) {
                Verdict::Final => Ok(response),
                Verdict::Retry(asked) => Err(Failure::Retryable { response, asked }),
            }
        }
    };
    let timer = policy.timer.clone();
    let sleep_budget = Arc::clone(&budget);
    let retries = usize::try_from(policy.attempts().saturating_sub(1)).unwrap_or(0);
    let outcome = run
        .retry(ConstantBuilder::new().with_delay(MIN_WAIT).with_max_times(retries))
        .sleep(move |wait| timer.sleep(wait, &sleep_budget))
        .when(|failure| matches!(failure, Failure::Retryable { .. }))
        .adjust(|failure, next| {
            let Failure::Retryable { response, asked } = failure else {
                return None;
            };
            let status = response.status.as_u16();
            let attempts = sent.load(Ordering::Relaxed);
            if next.is_none() {
                tracing::info!(target: "adapters_http", vendor = vendor.name, status, attempts, "giving up: no attempts left");
                return None;
            }
            let wait = asked.unwrap_or(MIN_WAIT).max(MIN_WAIT);
            let left = budget.remaining();
            if wait.saturating_add(MIN_ATTEMPT_BUDGET) > left {
                tracing::info!(
                    target: "adapters_http",
                    vendor = vendor.name,
                    status,
                    attempts,
                    asked_s = whole_seconds(wait),
                    left_ms = u64::try_from(left.as_millis()).unwrap_or(u64::MAX),
                    timeout_s = budget.total().as_secs(),
                    "not retried: the upstream asked for a wait that does not fit in the call's timeout"
                );
                return None;
            }
            tracing::info!(
                target: "adapters_http",
                vendor = vendor.name,
                status,
                attempts,
                wait_ms = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX),
                "retrying"
            );
            Some(wait)
        })
        .await;
    match outcome {
        Ok(response) | Err(Failure::Retryable { response, .. }) => Ok(response),
        Err(Failure::Fatal(err)) => Err(err),
    }
}
