//! In-memory artifact store.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::SystemTime;

use bytes::Bytes;

use crate::chunk::{Chunk, plan_range};
use crate::clock::{Clock, SystemClock, is_expired};
use crate::config::StoreConfig;
use crate::error::ArtifactError;
use crate::id::ArtifactId;
use crate::store::ArtifactStore;

/// Keeps artifacts in process memory as [`Bytes`]; lost on restart.
///
/// Reads clone the `Bytes` handle (no copy of the data) and slice it, so a read that has
/// looked the artifact up completes even if it is deleted or swept meanwhile.
#[derive(Debug)]
pub struct MemoryStore {
    config: StoreConfig,
    clock: Arc<dyn Clock>,
    entries: Mutex<HashMap<ArtifactId, Entry>>,
}

#[derive(Debug)]
struct Entry {
    owner: String,
    mime_type: String,
    created: SystemTime,
    bytes: Bytes,
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
            config,
            clock,
            entries: Mutex::new(HashMap::new()),
        }
    }

    fn entries(&self) -> MutexGuard<'_, HashMap<ArtifactId, Entry>> {
        // A panic while holding the lock cannot leave the map half-updated (every mutation is a
        // single insert/remove/retain), so a poisoned lock is safe to keep using.
        self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The live entry for `owner`/`id`, or `NotFound`.
    fn live<'a>(
        &self,
        entries: &'a HashMap<ArtifactId, Entry>,
        owner: &str,
        id: &ArtifactId,
    ) -> Result<&'a Entry, ArtifactError> {
        let now = self.clock.now();
        entries
            .get(id)
            .filter(|e| e.owner == owner && !is_expired(e.created, now, self.config.retention))
            .ok_or(ArtifactError::NotFound)
    }
}

#[async_trait::async_trait]
impl ArtifactStore for MemoryStore {
    async fn put(&self, owner: &str, mime_type: &str, bytes: Bytes) -> Result<ArtifactId, ArtifactError> {
        let id = ArtifactId::generate();
        let entry = Entry {
            owner: owner.to_owned(),
            mime_type: mime_type.to_owned(),
            created: self.clock.now(),
            bytes,
        };
        self.entries().insert(id.clone(), entry);
        Ok(id)
    }

    async fn read_chunk(&self, owner: &str, id: &str, offset: u64, max_bytes: u64) -> Result<Chunk, ArtifactError> {
        let id: ArtifactId = id.parse().map_err(|_| ArtifactError::NotFound)?;
        let (mime_type, bytes) = {
            let entries = self.entries();
            let entry = self.live(&entries, owner, &id)?;
            (entry.mime_type.clone(), entry.bytes.clone())
        };
        let total_bytes = bytes.len() as u64;
        let range = plan_range(offset, max_bytes, total_bytes)?;
        // Both ends are <= total_bytes == bytes.len(), so they fit in usize.
        let data = bytes.slice(range.start as usize..range.end as usize);
        Ok(Chunk::new(id.into(), mime_type, range, total_bytes, data))
    }

    async fn delete(&self, owner: &str, id: &str) -> Result<(), ArtifactError> {
        let id: ArtifactId = id.parse().map_err(|_| ArtifactError::NotFound)?;
        let mut entries = self.entries();
        self.live(&entries, owner, &id)?;
        entries.remove(&id);
        Ok(())
    }

    async fn sweep_expired(&self) -> Result<usize, ArtifactError> {
        let now = self.clock.now();
        let retention = self.config.retention;
        let mut entries = self.entries();
        let before = entries.len();
        entries.retain(|_, e| !is_expired(e.created, now, retention));
        Ok(before - entries.len())
    }
}
