//! Storage quotas: how many bytes the whole store and each principal may hold, and the ledger
//! that enforces them.
//!
//! Policy (one, for every backend): **a put that would go over a quota fails** with
//! [`ArtifactError::QuotaExceeded`]; nothing is ever evicted to make room, so no artifact is
//! lost early and no principal's data is removed because of another's put. In the server the
//! oversized result then carries `incomplete.artifactId: null`, and is still a
//! success. Room comes back when artifacts are deleted or swept after expiry.
//!
//! Sizes are the artifacts' data lengths in bytes (the filesystem store's small per-file header
//! is not counted). An artifact counts from the moment its put starts until it is deleted or
//! removed by a sweep, so an expired artifact still counts until the next sweep (at most one
//! sweep interval).

use std::collections::HashMap;
use std::ops::RangeInclusive;

use crate::error::{ArtifactError, QuotaScope};

/// Default bytes the whole store may hold: 1 GiB.
pub const DEFAULT_MAX_STORE_BYTES: u64 = 1 << 30;
/// Default bytes one principal may hold: 256 MiB.
pub const DEFAULT_MAX_PRINCIPAL_BYTES: u64 = 256 << 20;
/// Allowed range of both quotas, in bytes (1 KiB ..= 1 TiB); a host clamps its settings into it.
pub const QUOTA_BYTES_RANGE: RangeInclusive<u64> = 1024..=(1 << 40);

/// Byte quotas of one store. A put must fit both; the effective per-principal limit is therefore
/// `min(max_principal_bytes, max_store_bytes)`.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quota {
    /// Most bytes of artifact data the store holds for all principals together.
    pub max_store_bytes: u64,
    /// Most bytes of artifact data the store holds for one principal (owner).
    pub max_principal_bytes: u64,
}

impl Quota {
    /// This quota with [`Quota::max_store_bytes`] set.
    #[must_use]
    pub fn with_max_store_bytes(mut self, max_store_bytes: u64) -> Self {
        self.max_store_bytes = max_store_bytes;
        self
    }

    /// This quota with [`Quota::max_principal_bytes`] set.
    #[must_use]
    pub fn with_max_principal_bytes(mut self, max_principal_bytes: u64) -> Self {
        self.max_principal_bytes = max_principal_bytes;
        self
    }
}

impl Default for Quota {
    /// 1 GiB per store, 256 MiB per principal.
    fn default() -> Self {
        Self {
            max_store_bytes: DEFAULT_MAX_STORE_BYTES,
            max_principal_bytes: DEFAULT_MAX_PRINCIPAL_BYTES,
        }
    }
}

/// Bytes currently held, in total and per owner. Updated only under the store's index lock.
#[derive(Debug, Default)]
pub(crate) struct Ledger {
    total: u64,
    per_owner: HashMap<String, u64>,
}

impl Ledger {
    /// Counts `bytes` for `owner` if both quotas leave room, else `QuotaExceeded` (nothing
    /// counted). The per-principal check comes first, so a principal learns about the store-wide
    /// limit only when its own quota has room.
    pub fn reserve(&mut self, quota: &Quota, owner: &str, bytes: u64) -> Result<(), ArtifactError> {
        let held = self.per_owner.get(owner).copied().unwrap_or(0);
        if held.saturating_add(bytes) > quota.max_principal_bytes {
            return Err(ArtifactError::QuotaExceeded {
                scope: QuotaScope::Principal,
                bytes,
                limit: quota.max_principal_bytes,
            });
        }
        if self.total.saturating_add(bytes) > quota.max_store_bytes {
            return Err(ArtifactError::QuotaExceeded {
                scope: QuotaScope::Store,
                bytes,
                limit: quota.max_store_bytes,
            });
        }
        self.add(owner, bytes);
        Ok(())
    }

    /// Counts `bytes` for `owner` without checking (artifacts found when a store is reopened).
    pub fn add(&mut self, owner: &str, bytes: u64) {
        self.total = self.total.saturating_add(bytes);
        let held = self.per_owner.entry(owner.to_owned()).or_default();
        *held = held.saturating_add(bytes);
    }

    /// Stops counting `bytes` for `owner` (deleted, swept, or a failed put).
    pub fn release(&mut self, owner: &str, bytes: u64) {
        self.total = self.total.saturating_sub(bytes);
        if let Some(held) = self.per_owner.get_mut(owner) {
            *held = held.saturating_sub(bytes);
            if *held == 0 {
                self.per_owner.remove(owner);
            }
        }
    }

    /// Bytes held by everyone.
    #[cfg(test)]
    pub fn total(&self) -> u64 {
        self.total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Quota = Quota {
        max_store_bytes: 100,
        max_principal_bytes: 60,
    };

    #[test]
    fn principal_then_store_limit() {
        let mut ledger = Ledger::default();
        assert!(ledger.reserve(&SMALL, "a", 60).is_ok());
        let err = ledger.reserve(&SMALL, "a", 1).err();
        assert!(matches!(
            err,
            Some(ArtifactError::QuotaExceeded {
                scope: QuotaScope::Principal,
                bytes: 1,
                limit: 60
            })
        ));
        assert!(ledger.reserve(&SMALL, "b", 40).is_ok());
        let err = ledger.reserve(&SMALL, "c", 1).err();
        assert!(matches!(
            err,
            Some(ArtifactError::QuotaExceeded {
                scope: QuotaScope::Store,
                ..
            })
        ));
        ledger.release("a", 60);
        assert!(ledger.reserve(&SMALL, "c", 60).is_ok());
        assert_eq!(ledger.total(), 100);
    }
}
