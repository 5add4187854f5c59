//! The in-memory index every backend keeps: owners, expiry order, quota usage and read pins.
//!
//! Every method does only in-memory work — O(1) hash operations plus O(log n) in the expiry
//! order, and O(k) for `k` artifacts swept — and no I/O, so a store holds its index lock only
//! for that, never across file I/O: a sweep never blocks puts or reads for longer than it takes
//! to unhook at most [`crate::SWEEP_BATCH_LIMIT`] entries.

use std::collections::{BTreeSet, HashMap};
use std::time::{Duration, SystemTime};

use crate::clock::is_expired;
use crate::config::StoreConfig;
use crate::error::ArtifactError;
use crate::id::ArtifactId;
use crate::quota::{Ledger, Quota};

/// What a store knows about one artifact; `P` is the backend's handle on the bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Record<P> {
    pub owner: String,
    pub mime_type: String,
    pub created: SystemTime,
    /// The artifact's length in bytes.
    pub total_bytes: u64,
    pub payload: P,
}

/// What the caller must do with the storage of an artifact it removed or unpinned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use]
pub(crate) enum Disposal {
    /// Nobody reads it: remove the storage now.
    Remove,
    /// Nothing to do now (still live, or a read still holds a pin; the last unpin says
    /// [`Disposal::Remove`]).
    Keep,
}

#[derive(Debug)]
struct Slot<P> {
    record: Record<P>,
    /// Reads in progress (past the ownership check, not yet finished with the storage).
    pins: u32,
}

/// The index. Not synchronised itself: stores keep it behind a mutex.
#[derive(Debug)]
pub(crate) struct Index<P> {
    retention: Duration,
    quota: Quota,
    live: HashMap<ArtifactId, Slot<P>>,
    /// `(created, id)` of every live artifact, oldest first, so expired ones are found without
    /// scanning.
    by_age: BTreeSet<(SystemTime, ArtifactId)>,
    /// Artifacts removed from `live` while pinned: id → pins left.
    draining: HashMap<ArtifactId, u32>,
    ledger: Ledger,
}

impl<P> Index<P> {
    /// An empty index applying `config`'s retention and quota.
    pub fn new(config: &StoreConfig) -> Self {
        Self {
            retention: config.retention,
            quota: config.quota,
            live: HashMap::new(),
            by_age: BTreeSet::new(),
            draining: HashMap::new(),
            ledger: Ledger::default(),
        }
    }

    /// Counts `bytes` for `owner` against the quotas before a put stores anything.
    /// Errors: [`ArtifactError::QuotaExceeded`] (nothing counted).
    pub fn reserve(&mut self, owner: &str, bytes: u64) -> Result<(), ArtifactError> {
        self.ledger.reserve(&self.quota, owner, bytes)
    }

    /// Gives back a reservation whose put failed.
    pub fn release(&mut self, owner: &str, bytes: u64) {
        self.ledger.release(owner, bytes);
    }

    /// Publishes an artifact whose bytes were [`Index::reserve`]d and are now stored.
    pub fn insert(&mut self, id: ArtifactId, record: Record<P>) {
        self.by_age.insert((record.created, id.clone()));
        self.live.insert(id, Slot { record, pins: 0 });
    }

    /// Publishes an artifact found in storage when the store opens, counting it without a
    /// quota check (what is there is served even if the quota was lowered since).
    pub fn restore(&mut self, id: ArtifactId, record: Record<P>) {
        self.ledger.add(&record.owner, record.total_bytes);
        self.insert(id, record);
    }

    /// The live artifact `raw_id` of `owner` at `now`, or [`ArtifactError::NotFound`].
    ///
    /// Same work for every failure (no existence oracle): a malformed id is replaced by a decoy
    /// that is looked up like a real one, and the format, owner and expiry checks are all
    /// evaluated before the single decision.
    pub fn lookup(
        &self,
        owner: &str,
        raw_id: &str,
        now: SystemTime,
    ) -> Result<(ArtifactId, &Record<P>), ArtifactError> {
        let parsed = raw_id.parse::<ArtifactId>();
        let well_formed = parsed.is_ok();
        let id = parsed.unwrap_or_else(|_| ArtifactId::decoy());
        let slot = self.live.get(&id);
        let owned = slot.is_some_and(|s| s.record.owner == owner);
        let fresh = slot.is_some_and(|s| !is_expired(s.record.created, now, self.retention));
        match slot {
            Some(slot) if well_formed & owned & fresh => Ok((id, &slot.record)),
            _ => Err(ArtifactError::NotFound),
        }
    }

    /// Pins live artifact `id` so that removing it defers the storage removal to the last
    /// [`Index::unpin`]. Call right after a successful [`Index::lookup`], under the same lock.
    pub fn pin(&mut self, id: &ArtifactId) {
        if let Some(slot) = self.live.get_mut(id) {
            slot.pins = slot.pins.saturating_add(1);
        }
    }

    /// Ends one pin of `id`. [`Disposal::Remove`] when it was the last pin of an artifact
    /// removed meanwhile: the caller removes the storage.
    pub fn unpin(&mut self, id: &ArtifactId) -> Disposal {
        if let Some(slot) = self.live.get_mut(id) {
            slot.pins = slot.pins.saturating_sub(1);
            return Disposal::Keep;
        }
        match self.draining.get_mut(id) {
            Some(pins) if *pins > 1 => {
                *pins -= 1;
                Disposal::Keep
            }
            Some(_) => {
                self.draining.remove(id);
                Disposal::Remove
            }
            None => Disposal::Keep,
        }
    }

    /// Removes live artifact `raw_id` of `owner` (same checks as [`Index::lookup`]).
    /// Errors: [`ArtifactError::NotFound`]; an expired artifact is left for the sweep.
    pub fn remove(
        &mut self,
        owner: &str,
        raw_id: &str,
        now: SystemTime,
    ) -> Result<(ArtifactId, Disposal), ArtifactError> {
        let (id, _) = self.lookup(owner, raw_id, now)?;
        let disposal = self.detach(&id);
        Ok((id, disposal))
    }

    /// Removes at most `limit` artifacts expired at `now`, oldest first, and returns them with
    /// what to do with their storage.
    pub fn take_expired(&mut self, now: SystemTime, limit: usize) -> Vec<(ArtifactId, Disposal)> {
        let mut taken = Vec::new();
        while taken.len() < limit {
            let Some((created, id)) = self.by_age.first().cloned() else {
                break;
            };
            if !is_expired(created, now, self.retention) {
                break;
            }
            let disposal = self.detach(&id);
            taken.push((id, disposal));
        }
        taken
    }

    /// Number of live (published, not yet removed) artifacts, expired ones included.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.live.len()
    }

    fn detach(&mut self, id: &ArtifactId) -> Disposal {
        let Some(slot) = self.live.remove(id) else {
            return Disposal::Keep;
        };
        self.by_age.remove(&(slot.record.created, id.clone()));
        self.ledger.release(&slot.record.owner, slot.record.total_bytes);
        if slot.pins == 0 {
            Disposal::Remove
        } else {
            self.draining.insert(id.clone(), slot.pins);
            Disposal::Keep
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(owner: &str, created: SystemTime, total_bytes: u64) -> Record<()> {
        Record {
            owner: owner.into(),
            mime_type: "text/plain".into(),
            created,
            total_bytes,
            payload: (),
        }
    }

    fn put(index: &mut Index<()>, owner: &str, created: SystemTime, bytes: u64) -> ArtifactId {
        let id = ArtifactId::generate();
        assert!(index.reserve(owner, bytes).is_ok());
        index.insert(id.clone(), record(owner, created, bytes));
        id
    }

    #[test]
    fn pinned_removal_is_deferred_to_the_last_unpin() {
        let now = SystemTime::now();
        let mut index = Index::new(&StoreConfig::default());
        let id = put(&mut index, "a", now, 5);
        let (found, _) = index
            .lookup("a", id.as_str(), now)
            .map_err(|e| e.to_string())
            .unwrap_or_else(|e| panic!("{e}"));
        index.pin(&found);
        index.pin(&found);
        assert!(matches!(index.remove("a", id.as_str(), now), Ok((_, Disposal::Keep))));
        assert!(index.lookup("a", id.as_str(), now).is_err());
        assert_eq!(index.unpin(&id), Disposal::Keep);
        assert_eq!(index.unpin(&id), Disposal::Remove);
        assert_eq!(index.unpin(&id), Disposal::Keep);
    }

    #[test]
    fn take_expired_is_bounded_and_oldest_first() {
        let start = SystemTime::now();
        let config = StoreConfig::default();
        let mut index = Index::new(&config);
        let ids: Vec<ArtifactId> = (0..5u64)
            .map(|i| put(&mut index, "a", start + Duration::from_secs(i), 1))
            .collect();
        let now = start + config.retention + Duration::from_secs(3);
        let first = index.take_expired(now, 2);
        assert_eq!(
            first,
            vec![(ids[0].clone(), Disposal::Remove), (ids[1].clone(), Disposal::Remove)]
        );
        assert_eq!(index.take_expired(now, 10).len(), 2);
        assert_eq!(index.len(), 1);
        assert!(index.take_expired(now, 10).is_empty());
    }
}
