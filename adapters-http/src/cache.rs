//! [`HttpCache`]: the HTTP cache shared by the vendor clients (`cache`).
//!
//! - Bounded by [`moka`]: at most `max_entries` entries and `max_bytes` weighed bytes. Each entry weighs
//!   `max(its size, max_bytes / max_entries)`, so one capacity in bytes enforces both bounds. An entry larger than
//!   half of `max_bytes` is not stored.
//! - Freshness from [`http_cache_semantics`] (RFC 9111, private-cache view): `Cache-Control: max-age`, else
//!   `Expires`, else the default TTL; `no-store`, `no-cache` and `Vary: *` are honoured; TTL capped at
//!   [`MAX_TTL`] (3600 s). Only 2xx answers to GET are stored: error responses never are.
//! - Key: vendor + partition (the caller's principal) + SHA-256 of the credential + method + full URL with query,
//!   so two principals or two credentials never share an entry.
//! - Time comes from a [`Clock`] (injectable, so tests advance time without sleeping). `fetched_at` is when the
//!   body was read upstream; `age` is `now - fetched_at`.
//! - [`HttpCache::clear_vendor`] drops one vendor's entries; [`crate::HttpClient::send`] calls it for every
//!   non-GET/HEAD request.
//! - Shared tier (optional, [`HttpCache::with_redis`]): entries live in Redis
//!   instead of this process, with the same keys, TTLs and rules, so every replica serves every entry and `hit`,
//!   `ageMs` and `fetchedAt` stay true across replicas. Redis unreachable: calls go uncached, one warning per
//!   outage. See [`redis`] for the layout.

mod config;
mod freshness;
pub mod redis;

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use http::Method;
use moka::Expiry;
use url::Url;

pub use config::{
    CacheConfig, DEFAULT_MAX_BYTES, DEFAULT_MAX_ENTRIES, DEFAULT_TTL, MAX_BYTES_RANGE, MAX_ENTRIES_RANGE, MAX_TTL,
};

use self::redis::{RedisCacheConfig, RedisConfigError, RedisTier, Ticket};
use crate::response::RawResponse;

/// Where the cache reads the time: `now()` as a wall-clock `SystemTime`.
pub type Clock = Arc<dyn Fn() -> SystemTime + Send + Sync>;

/// The system clock.
pub fn system_clock() -> Clock {
    Arc::new(SystemTime::now)
}

/// How one GET may use the cache.
#[derive(Debug, Clone, Copy)]
pub struct CacheRequest<'a> {
    /// The cache partition: the calling principal's name. Entries are never shared across partitions.
    pub partition: &'a str,
    /// Skip the lookup, fetch, and replace the entry (or remove it if the new answer is not storable).
    pub fresh: bool,
    /// Whether this URL may be cached at all (vendor rule, e.g. CircleCI's pipeline/workflow/job paths).
    pub cacheable: bool,
}

/// Where a body came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheStatus {
    /// True when served from the cache.
    pub hit: bool,
    /// Time since the entry was stored (zero when fetched now).
    pub age: Duration,
    /// When the body was read from upstream (unchanged on hits).
    pub fetched_at: SystemTime,
}

impl CacheStatus {
    /// A body fetched now: `hit: false`, age zero.
    pub fn fetched(at: SystemTime) -> Self {
        Self {
            hit: false,
            age: Duration::ZERO,
            fetched_at: at,
        }
    }

    /// `age` in whole milliseconds (saturating).
    pub fn age_ms(&self) -> u64 {
        u64::try_from(self.age.as_millis()).unwrap_or(u64::MAX)
    }

    /// `fetched_at` as RFC 3339 UTC with milliseconds, e.g. `2026-10-07T16:20:11.402Z` (times before 1970 or
    /// out of range print as the epoch).
    pub fn fetched_at_rfc3339(&self) -> String {
        let ts = jiff::Timestamp::try_from(self.fetched_at).unwrap_or(jiff::Timestamp::UNIX_EPOCH);
        ts.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct CacheKey {
    vendor: &'static str,
    partition: String,
    credential: Option<[u8; 32]>,
    method: Method,
    url: String,
}

#[derive(Debug)]
struct Entry {
    response: RawResponse,
    fetched_at: SystemTime,
    expires_at: SystemTime,
    ttl: Duration,
}

/// Lets moka drop an entry once its own TTL has passed (real time), so memory is returned without a lookup.
struct EntryExpiry;

impl Expiry<CacheKey, Arc<Entry>> for EntryExpiry {
    fn expire_after_create(&self, _key: &CacheKey, value: &Arc<Entry>, _created_at: Instant) -> Option<Duration> {
        Some(value.ttl)
    }
}

/// A bounded HTTP cache shared by vendor clients; cheap to clone (all clones share the entries).
#[derive(Clone)]
pub struct HttpCache {
    entries: moka::sync::Cache<CacheKey, Arc<Entry>>,
    config: CacheConfig,
    clock: Clock,
    redis: Option<RedisTier>,
}

/// What a lookup found, and what the store after a miss needs.
pub(crate) struct Lookup {
    /// A fresh entry, with its status.
    pub hit: Option<(RawResponse, CacheStatus)>,
    /// The Redis generation read by the lookup (shared tier only).
    ticket: Option<Ticket>,
}

impl std::fmt::Debug for HttpCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpCache")
            .field("config", &self.config)
            .field("entries", &self.entries.entry_count())
            .field("shared", &self.redis.is_some())
            .finish()
    }
}

impl HttpCache {
    /// A cache with `config` on the system clock.
    pub fn new(config: CacheConfig) -> Self {
        Self::with_clock(config, system_clock())
    }

    /// A cache with `config` reading time from `clock`.
    pub fn with_clock(config: CacheConfig, clock: Clock) -> Self {
        let max_bytes = config.max_bytes.max(1);
        let slot = max_bytes.div_ceil(config.max_entries.max(1));
        let entries = moka::sync::Cache::builder()
            .max_capacity(max_bytes)
            .weigher(move |_key: &CacheKey, entry: &Arc<Entry>| {
                u32::try_from(entry.response.weight_bytes().max(slot)).unwrap_or(u32::MAX)
            })
            .expire_after(EntryExpiry)
            .support_invalidation_closures()
            .build();
        Self {
            entries,
            config,
            clock,
            redis: None,
        }
    }

    /// This cache with its entries kept in Redis (shared by every replica) instead of in this process. Connects
    /// lazily: an unreachable Redis is not an error here, calls just go uncached until it answers.
    ///
    /// Errors: [`RedisConfigError`] when the URL is not a Redis URL.
    pub fn with_redis(mut self, redis: &RedisCacheConfig) -> Result<Self, RedisConfigError> {
        self.redis = Some(RedisTier::new(redis)?);
        Ok(self)
    }

    /// True when entries are kept in Redis ([`HttpCache::with_redis`]).
    pub fn is_shared(&self) -> bool {
        self.redis.is_some()
    }

    /// The configuration in force.
    pub fn config(&self) -> &CacheConfig {
        &self.config
    }

    /// The clock's current time.
    pub fn now(&self) -> SystemTime {
        (self.clock)()
    }

    /// Number of live entries, after running moka's pending maintenance (evictions, invalidations).
    pub fn entry_count(&self) -> u64 {
        self.entries.run_pending_tasks();
        self.entries.entry_count()
    }

    /// Drops every entry of `vendor` (all partitions and credentials; in Redis, for every replica). Entries dropped
    /// are never returned again. A Redis failure is logged (once per outage), not returned.
    pub async fn clear_vendor(&self, vendor: &'static str) {
        if let Some(redis) = &self.redis {
            redis.clear_vendor(vendor).await;
        }
        if let Err(err) = self.entries.invalidate_entries_if(move |key, _| key.vendor == vendor) {
            tracing::warn!(target: "adapters_http", error = %err, "clearing cache entries failed; clearing all");
            self.entries.invalidate_all();
        }
    }

    fn key(vendor: &'static str, request: &CacheRequest<'_>, credential: Option<[u8; 32]>, url: &Url) -> CacheKey {
        CacheKey {
            vendor,
            partition: request.partition.to_owned(),
            credential,
            method: Method::GET,
            url: url.as_str().to_owned(),
        }
    }

    /// A fresh entry for this GET, with its hit status (none when `request.fresh`); an expired one is dropped.
    /// In Redis mode an unreachable Redis is a miss.
    pub(crate) async fn lookup(
        &self,
        vendor: &'static str,
        request: &CacheRequest<'_>,
        credential: Option<[u8; 32]>,
        url: &Url,
    ) -> Lookup {
        let now = self.now();
        if let Some(redis) = &self.redis {
            let (hit, ticket) = redis
                .lookup(vendor, request.partition, credential, url, request.fresh, now)
                .await;
            let hit = hit.map(|(response, fetched_at)| {
                let status = CacheStatus {
                    hit: true,
                    age: now.duration_since(fetched_at).unwrap_or(Duration::ZERO),
                    fetched_at,
                };
                (response, status)
            });
            return Lookup {
                hit,
                ticket: Some(ticket),
            };
        }
        let hit = if request.fresh {
            None
        } else {
            self.local_lookup(vendor, request, credential, url, now)
        };
        Lookup { hit, ticket: None }
    }

    fn local_lookup(
        &self,
        vendor: &'static str,
        request: &CacheRequest<'_>,
        credential: Option<[u8; 32]>,
        url: &Url,
        now: SystemTime,
    ) -> Option<(RawResponse, CacheStatus)> {
        let key = Self::key(vendor, request, credential, url);
        let entry = self.entries.get(&key)?;
        if now >= entry.expires_at {
            self.entries.invalidate(&key);
            return None;
        }
        let status = CacheStatus {
            hit: true,
            age: now.duration_since(entry.fetched_at).unwrap_or(Duration::ZERO),
            fetched_at: entry.fetched_at,
        };
        Some((entry.response.clone(), status))
    }

    /// Stores `response` (fetched at `fetched_at`, after `lookup`) when it is storable; otherwise removes any
    /// previous entry for the key. Returns whether it was stored (in Redis mode: whether it was sent).
    #[allow(clippy::too_many_arguments)]
    pub(crate) async fn store(
        &self,
        lookup: &Lookup,
        vendor: &'static str,
        request: &CacheRequest<'_>,
        credential: Option<[u8; 32]>,
        url: &Url,
        response: &RawResponse,
        fetched_at: SystemTime,
    ) -> bool {
        let ttl = freshness::time_to_live(url, response, fetched_at, self.config.default_ttl);
        let fits = response.weight_bytes() <= self.config.max_bytes / 2;
        if let (Some(redis), Some(ticket)) = (&self.redis, lookup.ticket) {
            let ttl = ttl.filter(|_| fits);
            redis
                .store(
                    ticket,
                    vendor,
                    request.partition,
                    credential,
                    url,
                    response,
                    fetched_at,
                    ttl,
                )
                .await;
            return ttl.is_some() && ticket.generation.is_some();
        }
        if self.redis.is_some() {
            return false;
        }
        let key = Self::key(vendor, request, credential, url);
        match ttl {
            Some(ttl) if fits => {
                let entry = Entry {
                    response: response.clone(),
                    fetched_at,
                    expires_at: fetched_at + ttl,
                    ttl,
                };
                self.entries.insert(key, Arc::new(entry));
                true
            }
            _ => {
                self.entries.invalidate(&key);
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fetched_at_has_milliseconds() {
        let at = SystemTime::UNIX_EPOCH + Duration::from_millis(1_791_390_011_402);
        let status = CacheStatus::fetched(at);
        assert_eq!(status.fetched_at_rfc3339(), "2026-10-07T16:20:11.402Z");
        let whole = CacheStatus::fetched(SystemTime::UNIX_EPOCH + Duration::from_secs(60));
        assert_eq!(whole.fetched_at_rfc3339(), "1970-01-01T00:01:00.000Z");
        assert_eq!(whole.age_ms(), 0);
    }
}
