//! [`CacheConfig`]: the cache's bounds and default freshness (typed; the host program reads its own settings).

use std::time::Duration;

use std::ops::RangeInclusive;

/// Default most entries: 512.
pub const DEFAULT_MAX_ENTRIES: u64 = 512;
/// Default byte bound: 64 MiB.
pub const DEFAULT_MAX_BYTES: u64 = 64 * 1024 * 1024;
/// Accepted range of [`CacheConfig::max_entries`].
pub const MAX_ENTRIES_RANGE: RangeInclusive<u64> = 1..=1_000_000;
/// Accepted range of [`CacheConfig::max_bytes`]: 64 KiB ..= 4 GiB.
pub const MAX_BYTES_RANGE: RangeInclusive<u64> = 64 * 1024..=4 * 1024 * 1024 * 1024;
/// Default TTL: 60 s.
pub const DEFAULT_TTL: Duration = Duration::from_secs(60);
/// Longest any entry stays fresh, whatever the response says: 3600 s.
pub const MAX_TTL: Duration = Duration::from_secs(3600);

/// Bounds and defaults of an [`crate::cache::HttpCache`].
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheConfig {
    /// False: nothing is looked up or stored; every result is a fresh fetch (`hit: false, ageMs: 0`).
    pub enabled: bool,
    /// Most entries kept.
    pub max_entries: u64,
    /// Most bytes kept (body + headers + URL of each entry, each weighing at least `max_bytes / max_entries`).
    pub max_bytes: u64,
    /// Freshness when the response has neither `Cache-Control: max-age` nor `Expires`; at most [`MAX_TTL`].
    pub default_ttl: Duration,
}

impl CacheConfig {
    /// This config with [`CacheConfig::enabled`] set.
    #[must_use]
    pub fn with_enabled(mut self, enabled: bool) -> Self {
        self.enabled = enabled;
        self
    }

    /// This config with [`CacheConfig::max_entries`] set.
    #[must_use]
    pub fn with_max_entries(mut self, max_entries: u64) -> Self {
        self.max_entries = max_entries;
        self
    }

    /// This config with [`CacheConfig::max_bytes`] set.
    #[must_use]
    pub fn with_max_bytes(mut self, max_bytes: u64) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// This config with [`CacheConfig::default_ttl`] set.
    #[must_use]
    pub fn with_default_ttl(mut self, default_ttl: Duration) -> Self {
        self.default_ttl = default_ttl;
        self
    }
}

impl Default for CacheConfig {
    /// Enabled, 512 entries, 64 MiB, 60 s.
    fn default() -> Self {
        Self {
            enabled: true,
            max_entries: DEFAULT_MAX_ENTRIES,
            max_bytes: DEFAULT_MAX_BYTES,
            default_ttl: DEFAULT_TTL,
        }
    }
}
