//! Retention, sweep and quota configuration, typed; the host program reads its own settings.

use std::ops::RangeInclusive;
use std::time::Duration;

use crate::quota::Quota;

/// Default retention, in seconds.
pub const DEFAULT_RETENTION_SECONDS: u64 = 3600;
/// Allowed retention, in seconds; a host clamps its setting into it.
pub const RETENTION_SECONDS_RANGE: RangeInclusive<u64> = 300..=604_800;
/// Default sweep interval, in seconds.
pub const DEFAULT_SWEEP_INTERVAL_SECONDS: u64 = 60;
/// Allowed sweep interval, in seconds; a host clamps its setting into it.
pub const SWEEP_INTERVAL_SECONDS_RANGE: RangeInclusive<u64> = 5..=3600;

/// How long artifacts live, how often expired ones are removed, and how many bytes may be held.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoreConfig {
    /// An artifact expires (is no longer readable) once it is this old.
    pub retention: Duration,
    /// How often [`crate::spawn_sweeper`] should run a sweep (the stores themselves only read
    /// `retention`).
    pub sweep_interval: Duration,
    /// Byte quotas per store and per principal; a put over either fails (see [`Quota`]).
    pub quota: Quota,
}

impl StoreConfig {
    /// This config with [`StoreConfig::retention`] set.
    #[must_use]
    pub fn with_retention(mut self, retention: Duration) -> Self {
        self.retention = retention;
        self
    }

    /// This config with [`StoreConfig::sweep_interval`] set.
    #[must_use]
    pub fn with_sweep_interval(mut self, sweep_interval: Duration) -> Self {
        self.sweep_interval = sweep_interval;
        self
    }
}

impl Default for StoreConfig {
    /// 3600 s retention, 60 s sweep interval, default [`Quota`] (1 GiB per store, 256 MiB per
    /// principal).
    fn default() -> Self {
        Self {
            retention: Duration::from_secs(DEFAULT_RETENTION_SECONDS),
            sweep_interval: Duration::from_secs(DEFAULT_SWEEP_INTERVAL_SECONDS),
            quota: Quota::default(),
        }
    }
}

impl StoreConfig {
    /// This config with `quota` instead of its current one.
    pub fn with_quota(self, quota: Quota) -> Self {
        Self { quota, ..self }
    }
}
