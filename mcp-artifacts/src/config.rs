//! Retention, sweep and quota settings (CONTRACT §5).

use std::ops::RangeInclusive;
use std::time::Duration;

use crate::quota::Quota;

/// Default retention, in seconds (`STREAMING_ARTIFACT_RETENTION_SECONDS`).
pub const DEFAULT_RETENTION_SECONDS: u64 = 3600;
/// Allowed retention, in seconds; values outside are clamped with a warning.
pub const RETENTION_SECONDS_RANGE: RangeInclusive<u64> = 300..=604_800;
/// Default sweep interval, in seconds (`STREAMING_ARTIFACT_SWEEP_INTERVAL_SECONDS`).
pub const DEFAULT_SWEEP_INTERVAL_SECONDS: u64 = 60;
/// Allowed sweep interval, in seconds; values outside are clamped with a warning.
pub const SWEEP_INTERVAL_SECONDS_RANGE: RangeInclusive<u64> = 5..=3600;

/// How long artifacts live, how often expired ones are removed, and how many bytes may be held.
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
    /// Builds a config from optional settings in seconds (`None` = default), clamping each to
    /// its range; the quota is the default (set it with [`StoreConfig::with_quota`]). Returns one
    /// human-readable warning per clamped value (naming the setting), for the caller to log.
    pub fn from_seconds(retention: Option<u64>, sweep: Option<u64>) -> (Self, Vec<String>) {
        let mut warnings = Vec::new();
        let retention = clamp_setting(
            "STREAMING_ARTIFACT_RETENTION_SECONDS",
            retention.unwrap_or(DEFAULT_RETENTION_SECONDS),
            RETENTION_SECONDS_RANGE,
            &mut warnings,
        );
        let sweep = clamp_setting(
            "STREAMING_ARTIFACT_SWEEP_INTERVAL_SECONDS",
            sweep.unwrap_or(DEFAULT_SWEEP_INTERVAL_SECONDS),
            SWEEP_INTERVAL_SECONDS_RANGE,
            &mut warnings,
        );
        let config = Self {
            retention: Duration::from_secs(retention),
            sweep_interval: Duration::from_secs(sweep),
            quota: Quota::default(),
        };
        (config, warnings)
    }

    /// This config with `quota` instead of its current one.
    pub fn with_quota(self, quota: Quota) -> Self {
        Self { quota, ..self }
    }
}

/// Clamps `value` of setting `name` into `range`, pushing one warning if it changed.
pub(crate) fn clamp_setting(name: &str, value: u64, range: RangeInclusive<u64>, warnings: &mut Vec<String>) -> u64 {
    let clamped = value.clamp(*range.start(), *range.end());
    if clamped != value {
        warnings.push(format!(
            "{name}={value} is outside {}..={}; using {clamped}",
            range.start(),
            range.end()
        ));
    }
    clamped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_without_warnings() {
        let (config, warnings) = StoreConfig::from_seconds(None, None);
        assert_eq!(config, StoreConfig::default());
        assert!(warnings.is_empty());
    }

    #[test]
    fn out_of_range_values_are_clamped_with_warnings() {
        let (config, warnings) = StoreConfig::from_seconds(Some(1), Some(u64::MAX));
        assert_eq!(config.retention, Duration::from_secs(300));
        assert_eq!(config.sweep_interval, Duration::from_secs(3600));
        assert_eq!(warnings.len(), 2);
        assert!(warnings[0].contains("STREAMING_ARTIFACT_RETENTION_SECONDS=1"));

        let (config, warnings) = StoreConfig::from_seconds(Some(10_000_000), Some(0));
        assert_eq!(config.retention, Duration::from_secs(604_800));
        assert_eq!(config.sweep_interval, Duration::from_secs(5));
        assert_eq!(warnings.len(), 2);
    }

    #[test]
    fn in_range_values_are_kept() {
        let (config, warnings) = StoreConfig::from_seconds(Some(300), Some(3600));
        assert_eq!(config.retention, Duration::from_secs(300));
        assert_eq!(config.sweep_interval, Duration::from_secs(3600));
        assert!(warnings.is_empty());
    }
}
