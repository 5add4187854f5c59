//! [`CacheConfig`] and its settings.

use std::time::Duration;

use crate::config::whole_number_setting;

/// Setting: whether the HTTP cache is used (`true` by default).
pub const ENV_CACHE_ENABLED: &str = "HTTP_CACHE_ENABLED";
/// Setting: most entries kept (default 512, clamped 1..=1,000,000).
pub const ENV_CACHE_MAX_ENTRIES: &str = "HTTP_CACHE_MAX_ENTRIES";
/// Setting: most bytes kept, weighed (default 64 MiB, clamped 64 KiB..=4 GiB).
pub const ENV_CACHE_MAX_BYTES: &str = "HTTP_CACHE_MAX_BYTES";
/// Setting: freshness when the response gives none, seconds (default 60, clamped 1..=3600).
pub const ENV_CACHE_DEFAULT_TTL: &str = "HTTP_CACHE_DEFAULT_TTL_SECONDS";

/// Default most entries: 512.
pub const DEFAULT_MAX_ENTRIES: u64 = 512;
/// Default byte bound: 64 MiB.
pub const DEFAULT_MAX_BYTES: u64 = 64 * 1024 * 1024;
/// Default TTL: 60 s.
pub const DEFAULT_TTL: Duration = Duration::from_secs(60);
/// Longest any entry stays fresh, whatever the response says: 3600 s.
pub const MAX_TTL: Duration = Duration::from_secs(3600);

/// Bounds and defaults of an [`crate::HttpCache`].
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

impl CacheConfig {
    /// Reads `HTTP_CACHE_MAX_ENTRIES`, `HTTP_CACHE_MAX_BYTES` and `HTTP_CACHE_DEFAULT_TTL_SECONDS` through
    /// `lookup`; `enabled` is `HTTP_CACHE_ENABLED` already parsed by the caller's boolean rules. Returns the
    /// configuration and one warning line per malformed or clamped value.
    pub fn from_lookup(enabled: bool, lookup: impl Fn(&str) -> Option<String>) -> (Self, Vec<String>) {
        let mut warnings = Vec::new();
        let mut read = |name: &str, default: u64, range: std::ops::RangeInclusive<u64>| {
            let (value, warning) = whole_number_setting(name, lookup(name).as_deref(), default, range);
            warnings.extend(warning);
            value
        };
        let max_entries = read(ENV_CACHE_MAX_ENTRIES, DEFAULT_MAX_ENTRIES, 1..=1_000_000);
        let max_bytes = read(
            ENV_CACHE_MAX_BYTES,
            DEFAULT_MAX_BYTES,
            64 * 1024..=4 * 1024 * 1024 * 1024,
        );
        let ttl = read(ENV_CACHE_DEFAULT_TTL, DEFAULT_TTL.as_secs(), 1..=MAX_TTL.as_secs());
        let config = Self {
            enabled,
            max_entries,
            max_bytes,
            default_ttl: Duration::from_secs(ttl),
        };
        (config, warnings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_default_and_clamp() {
        let (config, warnings) = CacheConfig::from_lookup(true, |_| None);
        assert_eq!(config, CacheConfig::default());
        assert!(warnings.is_empty());
        let (config, warnings) = CacheConfig::from_lookup(false, |name| match name {
            ENV_CACHE_DEFAULT_TTL => Some("7200".into()),
            ENV_CACHE_MAX_ENTRIES => Some("many".into()),
            ENV_CACHE_MAX_BYTES => Some("1048576".into()),
            _ => None,
        });
        assert!(!config.enabled);
        assert_eq!(config.default_ttl, MAX_TTL);
        assert_eq!(config.max_entries, 512);
        assert_eq!(config.max_bytes, 1_048_576);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
    }
}
