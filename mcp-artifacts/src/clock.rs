//! Wall-clock abstraction so retention can be tested without sleeping.

use std::fmt;
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

/// A source of wall-clock time. Stores take an `Arc<dyn Clock>` (see the `with_clock`
/// constructors); production code uses [`SystemClock`].
///
/// Wall-clock (not monotonic) time is used because the filesystem store persists creation
/// times across restarts.
pub trait Clock: fmt::Debug + Send + Sync + 'static {
    /// The current time.
    fn now(&self) -> SystemTime;
}

/// The real clock: [`SystemTime::now`].
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> SystemTime {
        SystemTime::now()
    }
}

/// A clock that only moves when told to; for tests.
#[derive(Debug)]
pub struct ManualClock {
    now: Mutex<SystemTime>,
}

impl ManualClock {
    /// A clock stopped at `start`.
    pub fn new(start: SystemTime) -> Self {
        Self { now: Mutex::new(start) }
    }

    /// A clock stopped at the current system time.
    pub fn starting_now() -> Self {
        Self::new(SystemTime::now())
    }

    /// Moves the clock forward by `by`.
    pub fn advance(&self, by: Duration) {
        let mut now = self.now.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        *now += by;
    }

    /// Sets the clock to `to`.
    pub fn set(&self, to: SystemTime) {
        *self.now.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = to;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> SystemTime {
        *self.now.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// `true` when an artifact created at `created` is expired at `now` under `retention`:
/// its age is at least `retention`. A creation time in the future (clock moved back) is
/// treated as age zero.
pub(crate) fn is_expired(created: SystemTime, now: SystemTime, retention: Duration) -> bool {
    now.duration_since(created).map(|age| age >= retention).unwrap_or(false)
}
