//! How the wait tools poll ([`WaitConfig`], [`crate::ToolsConfig::wait`]).

use std::time::Duration;

/// How the wait tools poll the upstream. [`WaitConfig::default`]: every 10 s at first, backing off by half while
/// nothing changes up to 60 s, never faster than the upstream asks (GitHub's `X-Poll-Interval`); a commit's checks
/// settle for 20 s; three failed polls in a row end a wait; progress at least every 10 s.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WaitConfig {
    /// The interval after a change (and the first).
    pub min_interval: Duration,
    /// The longest interval while nothing changes.
    pub max_interval: Duration,
    /// `github_wait_for_checks`: how long after the last check finished (or after the wait began, when none has
    /// reported) a commit's checks count as settled: a check that appears within it is waited for.
    pub settle: Duration,
    /// Failed polls in a row (each already retried by the HTTP layer) that end a wait with `stoppedBy:
    /// upstream_error`.
    pub max_failed_polls: u32,
    /// The longest a wait stays silent: its last progress is sent again after this long without a change, so that
    /// clients that give up on a call after some time without progress (300 s in several; MCP 2026-07-28 lets a
    /// client reset its timeout on progress) keep waiting.
    pub heartbeat: Duration,
}

impl Default for WaitConfig {
    fn default() -> Self {
        WaitConfig {
            min_interval: Duration::from_secs(10),
            max_interval: Duration::from_secs(60),
            settle: Duration::from_secs(20),
            max_failed_polls: 3,
            heartbeat: Duration::from_secs(10),
        }
    }
}

impl WaitConfig {
    /// This config with [`WaitConfig::min_interval`] and [`WaitConfig::max_interval`] set (`max` at least `min`).
    #[must_use]
    pub fn with_intervals(mut self, min: Duration, max: Duration) -> Self {
        self.min_interval = min;
        self.max_interval = max.max(min);
        self
    }

    /// This config with [`WaitConfig::settle`] set.
    #[must_use]
    pub fn with_settle(mut self, settle: Duration) -> Self {
        self.settle = settle;
        self
    }

    /// This config with [`WaitConfig::heartbeat`] set (at least 10 ms).
    #[must_use]
    pub fn with_heartbeat(mut self, heartbeat: Duration) -> Self {
        self.heartbeat = heartbeat.max(Duration::from_millis(10));
        self
    }

    /// This config with [`WaitConfig::max_failed_polls`] set (at least 1).
    #[must_use]
    pub fn with_max_failed_polls(mut self, polls: u32) -> Self {
        self.max_failed_polls = polls.max(1);
        self
    }

    /// The interval after `current` when nothing changed: half as long again, at most [`WaitConfig::max_interval`].
    pub(crate) fn backoff(&self, current: Duration) -> Duration {
        (current + current / 2).clamp(self.min_interval, self.max_interval)
    }
}
