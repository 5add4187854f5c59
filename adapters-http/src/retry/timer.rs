//! [`RetryTimer`]: how retry waits are spent, and the time budget of one call.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How retry waits are spent. Cheap to clone (a simulated timer's record is shared by its clones).
///
/// - [`RetryTimer::tokio`] (the default) sleeps with `tokio::time::sleep`.
/// - [`RetryTimer::simulated`] does not sleep: it records each wait (see [`RetryTimer::waits`]) and counts it
///   against the call's time budget as if it had been slept, so tests of waits and caps run in milliseconds.
#[derive(Clone, Default)]
pub struct RetryTimer {
    simulated: Option<Arc<Mutex<Vec<Duration>>>>,
}

impl fmt::Debug for RetryTimer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.simulated.is_some() {
            "RetryTimer::simulated"
        } else {
            "RetryTimer::tokio"
        })
    }
}

impl RetryTimer {
    /// Real waits on tokio's timer.
    pub fn tokio() -> Self {
        Self::default()
    }

    /// Simulated waits: nothing sleeps, every wait is recorded and counted against the call's budget.
    pub fn simulated() -> Self {
        Self {
            simulated: Some(Arc::new(Mutex::new(Vec::new()))),
        }
    }

    /// Every wait taken so far through this timer and its clones, in order (always empty for tokio's timer).
    pub fn waits(&self) -> Vec<Duration> {
        self.simulated
            .as_ref()
            .map(|waits| waits.lock().unwrap_or_else(PoisonError::into_inner).clone())
            .unwrap_or_default()
    }

    /// Spends `wait`: sleeps it, or records it (and charges `budget`) when simulated.
    pub(crate) fn sleep(&self, wait: Duration, budget: &CallBudget) -> Pin<Box<dyn Future<Output = ()> + Send>> {
        match &self.simulated {
            None => Box::pin(tokio::time::sleep(wait)),
            Some(waits) => {
                waits.lock().unwrap_or_else(PoisonError::into_inner).push(wait);
                budget.charge(wait);
                Box::pin(std::future::ready(()))
            }
        }
    }
}

/// The time budget of one call: its timeout, minus real time elapsed, minus simulated waits.
#[derive(Debug)]
pub(crate) struct CallBudget {
    start: Instant,
    total: Duration,
    simulated: Mutex<Duration>,
}

impl CallBudget {
    /// A budget of `total`, starting now.
    pub(crate) fn new(total: Duration) -> Self {
        Self {
            start: Instant::now(),
            total,
            simulated: Mutex::new(Duration::ZERO),
        }
    }

    /// The whole budget (the client's timeout).
    pub(crate) fn total(&self) -> Duration {
        self.total
    }

    /// What is left (zero when spent).
    pub(crate) fn remaining(&self) -> Duration {
        let simulated = *self.simulated.lock().unwrap_or_else(PoisonError::into_inner);
        self.total
            .saturating_sub(self.start.elapsed())
            .saturating_sub(simulated)
    }

    fn charge(&self, wait: Duration) {
        let mut simulated = self.simulated.lock().unwrap_or_else(PoisonError::into_inner);
        *simulated = simulated.saturating_add(wait);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn simulated_waits_are_recorded_and_charged() {
        let timer = RetryTimer::simulated();
        let budget = CallBudget::new(Duration::from_secs(30));
        timer.clone().sleep(Duration::from_secs(10), &budget).await;
        assert_eq!(timer.waits(), vec![Duration::from_secs(10)]);
        assert!(budget.remaining() <= Duration::from_secs(20));
        assert!(budget.remaining() > Duration::from_secs(19));
        assert!(RetryTimer::tokio().waits().is_empty());
        assert_eq!(format!("{timer:?}"), "RetryTimer::simulated");
    }
}
