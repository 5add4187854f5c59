//! The quota ledger of one S3 store replica, kept in step with the bucket.
//!
//! Every replica counts its own puts and deletes at once (exact for what it does), and every sweep replaces what
//! it knows of the others' with the bucket's listing of expiry markers. So quotas hold across replicas with a lag of
//! at most one sweep interval: between two sweeps a replica does not see the others' new artifacts (the store-wide
//! total can then exceed the quota by what the other replicas put in that interval).
//!
//! A listing runs without the lock, so puts and deletes can happen during it. Each change gets a sequence number;
//! when a listing started at sequence `s` is applied, puts still in flight or finished after `s` are kept (the
//! listing may have missed their marker), and deletes after `s` stay deleted (the listing may still show them).

use std::collections::HashMap;

use crate::error::ArtifactError;
use crate::id::ArtifactId;
use crate::quota::{Ledger, Quota};

/// One counted artifact.
#[derive(Debug, Clone)]
struct Counted {
    owner_key: String,
    bytes: u64,
    /// Sequence number when its put finished; `None` while the put is in flight.
    done: Option<u64>,
}

/// What a replica counts against the quotas.
#[derive(Debug, Default)]
pub(super) struct Accounting {
    quota: Quota,
    ledger: Ledger,
    counted: HashMap<ArtifactId, Counted>,
    /// Ids deleted by this replica, with the sequence number of the delete.
    deleted: HashMap<ArtifactId, u64>,
    seq: u64,
}

impl Accounting {
    /// Nothing counted yet; `quota` applies.
    pub fn new(quota: Quota) -> Self {
        Self {
            quota,
            ..Self::default()
        }
    }

    /// The current sequence number: pass it to [`Accounting::apply_listing`] for a listing started now.
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// Counts a put about to start. Errors: [`ArtifactError::QuotaExceeded`] (nothing counted).
    pub fn reserve(&mut self, owner_key: &str, id: &ArtifactId, bytes: u64) -> Result<(), ArtifactError> {
        self.ledger.reserve(&self.quota, owner_key, bytes)?;
        self.counted.insert(
            id.clone(),
            Counted {
                owner_key: owner_key.to_owned(),
                bytes,
                done: None,
            },
        );
        Ok(())
    }

    /// The put of `id` finished (its marker and data are in the bucket).
    pub fn finish(&mut self, id: &ArtifactId) {
        self.seq += 1;
        if let Some(counted) = self.counted.get_mut(id) {
            counted.done = Some(self.seq);
        }
    }

    /// `id` is gone (failed put, delete, or sweep): stop counting it.
    pub fn forget(&mut self, id: &ArtifactId) {
        self.seq += 1;
        self.deleted.insert(id.clone(), self.seq);
        if let Some(counted) = self.counted.remove(id) {
            self.ledger.release(&counted.owner_key, counted.bytes);
        }
    }

    /// Replaces the counts with `listed` (every artifact in the bucket, from a listing started at sequence
    /// `started`), keeping this replica's changes made since.
    pub fn apply_listing(&mut self, started: u64, listed: Vec<(ArtifactId, String, u64)>) {
        let mut counted: HashMap<ArtifactId, Counted> = self
            .counted
            .drain()
            .filter(|(_, c)| c.done.is_none_or(|done| done > started))
            .collect();
        for (id, owner_key, bytes) in listed {
            let deleted_since = self.deleted.get(&id).is_some_and(|&at| at > started);
            if !deleted_since {
                counted.entry(id).or_insert(Counted {
                    owner_key,
                    bytes,
                    done: Some(started),
                });
            }
        }
        self.deleted.retain(|_, at| *at > started);
        let mut ledger = Ledger::default();
        for c in counted.values() {
            ledger.add(&c.owner_key, c.bytes);
        }
        self.ledger = ledger;
        self.counted = counted;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const QUOTA: Quota = Quota {
        max_store_bytes: 100,
        max_principal_bytes: 100,
    };

    #[test]
    fn a_listing_keeps_concurrent_puts_and_deletes() {
        let mut acc = Accounting::new(QUOTA);
        let (a, b, c) = (ArtifactId::generate(), ArtifactId::generate(), ArtifactId::generate());
        assert!(acc.reserve("o", &a, 30).is_ok());
        acc.finish(&a);
        let started = acc.seq();
        // During the listing: b is put (the listing missed it), a is deleted (the listing saw it).
        assert!(acc.reserve("o", &b, 30).is_ok());
        acc.finish(&b);
        acc.forget(&a);
        // Another replica's artifact c appears in the listing.
        acc.apply_listing(started, vec![(a.clone(), "o".into(), 30), (c.clone(), "p".into(), 40)]);
        // b (30) + c (40) are counted, a is not: 30 bytes left.
        assert!(acc.reserve("q", &ArtifactId::generate(), 31).is_err());
        assert!(acc.reserve("q", &ArtifactId::generate(), 30).is_ok());
        // A later listing without b drops it (it was finished before that listing started).
        let later = acc.seq();
        acc.apply_listing(later, vec![(c, "p".into(), 40)]);
        // Counted now: c (40) and the in-flight put of 30 bytes; b is gone.
        assert!(acc.reserve("q", &ArtifactId::generate(), 31).is_err());
        assert!(acc.reserve("q", &ArtifactId::generate(), 30).is_ok());
    }
}
