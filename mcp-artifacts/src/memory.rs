//! In-memory artifact store.

use std::sync::{Arc, Mutex, MutexGuard};

use bytes::Bytes;

use crate::chunk::{Chunk, plan_range};
use crate::clock::{Clock, SystemClock};
use crate::config::StoreConfig;
use crate::error::ArtifactError;
use crate::id::ArtifactId;
use crate::index::{Index, Record};
use crate::store::{ArtifactStore, SWEEP_BATCH_LIMIT};

/// Keeps artifacts in process memory as [`Bytes`]; lost on restart.
///
/// - A put keeps the caller's `Bytes` handle: the data is never copied.
/// - Reads clone the `Bytes` handle (no copy of the data) and slice it: the clone is the read's
///   pin, so a read that has passed the ownership check completes even if the artifact expires,
///   is deleted or is swept meanwhile.
/// - Quotas count the artifacts' lengths; over a quota the put fails (see [`crate::Quota`]).
/// - The lock is held only for index updates (no copying, no I/O).
#[derive(Debug)]
pub struct MemoryStore {
    clock: Arc<dyn Clock>,
    index: Mutex<Index<Bytes>>,
}

impl Default for MemoryStore {
    /// An empty store with the default [`StoreConfig`] (retention, quotas) and the system clock.
    fn default() -> Self {
        Self::new(StoreConfig::default())
    }
}

impl MemoryStore {
    /// An empty store using the system clock.
    pub fn new(config: StoreConfig) -> Self {
        Self::with_clock(config, Arc::new(SystemClock))
    }

    /// An empty store using `clock` for creation and expiry times (tests pass a
    /// [`crate::ManualClock`]).
    pub fn with_clock(config: StoreConfig, clock: Arc<dyn Clock>) -> Self {
        Self {
            clock,
            index: Mutex::new(Index::new(&config)),
        }
    }

    fn index(&self) -> MutexGuard<'_, Index<Bytes>> {
        // A panic while holding the lock cannot leave the index half-updated in a way that
        // breaks safety (at worst a quota count is off), so a poisoned lock is safe to keep using.
        self.index.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[async_trait::async_trait]
impl ArtifactStore for MemoryStore {
    async fn put(&self, owner: &str, mime_type: &str, bytes: Bytes) -> Result<ArtifactId, ArtifactError> {
        let id = ArtifactId::generate();
        let total_bytes = bytes.len() as u64;
        let record = Record {
            owner: owner.to_owned(),
            mime_type: mime_type.to_owned(),
            created: self.clock.now(),
            total_bytes,
            payload: bytes,
        };
        let mut index = self.index();
        index.reserve(owner, total_bytes)?;
        index.insert(id.clone(), record);
        Ok(id)
    }

    async fn read_chunk(&self, owner: &str, id: &str, offset: u64, max_bytes: u64) -> Result<Chunk, ArtifactError> {
        let now = self.clock.now();
        let (id, mime_type, bytes) = {
            let index = self.index();
            let (id, record) = index.lookup(owner, id, now)?;
            (id, record.mime_type.clone(), record.payload.clone())
        };
        let total_bytes = bytes.len() as u64;
        let range = plan_range(offset, max_bytes, total_bytes)?;
        // Both ends are <= total_bytes == bytes.len(), so they fit in usize.
        let data = bytes.slice(range.start as usize..range.end as usize);
        Ok(Chunk::new(id.into(), mime_type, range, total_bytes, data))
    }

    async fn delete(&self, owner: &str, id: &str) -> Result<(), ArtifactError> {
        let now = self.clock.now();
        // Dropping the index's `Bytes` handle frees the data once no read holds a clone.
        self.index().remove(owner, id, now).map(|_| ())
    }

    async fn sweep_expired(&self) -> Result<usize, ArtifactError> {
        let now = self.clock.now();
        let taken = self.index().take_expired(now, SWEEP_BATCH_LIMIT);
        Ok(taken.len())
    }
}
