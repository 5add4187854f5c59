//! Filesystem artifact store: one file per artifact in a private directory.

mod disk;
mod format;

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use bytes::Bytes;

pub use format::MAX_HEADER_BYTES;
use format::{Entry, encode_header};

use crate::chunk::{Chunk, plan_range};
use crate::clock::{Clock, SystemClock, is_expired};
use crate::config::StoreConfig;
use crate::error::ArtifactError;
use crate::id::ArtifactId;
use crate::store::ArtifactStore;

/// Keeps each artifact in its own file, `<dir>/<id>.artifact`, and survives restarts.
///
/// - The directory is created with mode 0700 (an existing one is set to 0700): it should be
///   dedicated to this store. Files are created 0600.
/// - Writes are atomic: temporary file in the same directory, fsync, rename, fsync of the
///   directory. The owner, MIME type and creation time live in a small header at the start of
///   the file, so one rename publishes data and metadata together.
/// - [`FsStore::open`] re-indexes the directory: leftover temporary files, unreadable
///   artifact files and expired artifacts are deleted; the rest are served to their owners.
/// - Reads seek to the requested range and read at most `max_bytes` bytes; the whole file is
///   never loaded. A read holds its open file handle, so it completes even if the artifact
///   is swept meanwhile.
/// - Paths are built only from validated [`ArtifactId`]s and never appear in results or in
///   error text.
#[derive(Debug)]
pub struct FsStore {
    dir: PathBuf,
    config: StoreConfig,
    clock: Arc<dyn Clock>,
    index: Mutex<HashMap<ArtifactId, Entry>>,
}

impl FsStore {
    /// Opens (creating if needed) the store in `dir`, using the system clock.
    ///
    /// Errors: [`ArtifactError::Io`] if the directory cannot be created, secured or scanned.
    pub async fn open(dir: impl Into<PathBuf>, config: StoreConfig) -> Result<Self, ArtifactError> {
        Self::open_with_clock(dir, config, Arc::new(SystemClock)).await
    }

    /// Like [`FsStore::open`], with `clock` for creation and expiry times (tests pass a
    /// [`crate::ManualClock`]).
    pub async fn open_with_clock(
        dir: impl Into<PathBuf>,
        config: StoreConfig,
        clock: Arc<dyn Clock>,
    ) -> Result<Self, ArtifactError> {
        let dir = dir.into();
        let now = clock.now();
        let retention = config.retention;
        let scan_dir = dir.clone();
        let index = blocking("opening the artifact directory", move || {
            disk::ensure_dir(&scan_dir)?;
            disk::scan(&scan_dir, now, retention)
        })
        .await?;
        tracing::debug!(artifacts = index.len(), "artifact store opened");
        Ok(Self {
            dir,
            config,
            clock,
            index: Mutex::new(index),
        })
    }

    /// The directory this store writes to (for operators; never send it to clients).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn index(&self) -> MutexGuard<'_, HashMap<ArtifactId, Entry>> {
        // Every mutation is a single insert/remove, so a poisoned map is still consistent.
        self.index.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A copy of the live entry for `owner`/`id`, or `NotFound`.
    fn live(&self, owner: &str, id: &ArtifactId) -> Result<Entry, ArtifactError> {
        let now = self.clock.now();
        self.index()
            .get(id)
            .filter(|e| e.owner == owner && !is_expired(e.created, now, self.config.retention))
            .cloned()
            .ok_or(ArtifactError::NotFound)
    }
}

/// Runs blocking filesystem work off the async threads, mapping its error to
/// [`ArtifactError::Io`] (logged, path-free) or [`ArtifactError::TaskFailed`].
async fn blocking<T, F>(operation: &'static str, work: F) -> Result<T, ArtifactError>
where
    T: Send + 'static,
    F: FnOnce() -> io::Result<T> + Send + 'static,
{
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|_| ArtifactError::TaskFailed)?
        .map_err(|err| ArtifactError::io(operation, &err))
}

#[async_trait::async_trait]
impl ArtifactStore for FsStore {
    async fn put(&self, owner: &str, mime_type: &str, bytes: Bytes) -> Result<ArtifactId, ArtifactError> {
        let id = ArtifactId::generate();
        let created = self.clock.now();
        let header = encode_header(owner, mime_type, created)?;
        let entry = Entry {
            owner: owner.to_owned(),
            mime_type: mime_type.to_owned(),
            created,
            data_start: header.len() as u64,
            total_bytes: bytes.len() as u64,
        };
        let dir = self.dir.clone();
        let path = disk::artifact_path(&self.dir, &id);
        blocking("writing an artifact", move || {
            disk::write_atomic(&dir, &path, &header, &bytes)
        })
        .await?;
        self.index().insert(id.clone(), entry);
        Ok(id)
    }

    async fn read_chunk(&self, owner: &str, id: &str, offset: u64, max_bytes: u64) -> Result<Chunk, ArtifactError> {
        let id: ArtifactId = id.parse().map_err(|_| ArtifactError::NotFound)?;
        let entry = self.live(owner, &id)?;
        let range = plan_range(offset, max_bytes, entry.total_bytes)?;
        let data = if range.len() == 0 {
            Bytes::new()
        } else {
            let path = disk::artifact_path(&self.dir, &id);
            let pos = entry.data_start + range.start;
            let len = range.len();
            let read = blocking("reading an artifact", move || {
                disk::open(&path)?
                    .map(|mut file| disk::read_at(&mut file, pos, len))
                    .transpose()
            })
            .await?;
            // The file vanished between the index lookup and the open: deleted or swept.
            Bytes::from(read.ok_or(ArtifactError::NotFound)?)
        };
        Ok(Chunk::new(id.into(), entry.mime_type, range, entry.total_bytes, data))
    }

    async fn delete(&self, owner: &str, id: &str) -> Result<(), ArtifactError> {
        let id: ArtifactId = id.parse().map_err(|_| ArtifactError::NotFound)?;
        {
            let now = self.clock.now();
            let mut index = self.index();
            let live = index
                .get(&id)
                .is_some_and(|e| e.owner == owner && !is_expired(e.created, now, self.config.retention));
            if !live {
                return Err(ArtifactError::NotFound);
            }
            index.remove(&id);
        }
        let path = disk::artifact_path(&self.dir, &id);
        blocking("deleting an artifact", move || disk::remove(&path)).await
    }

    async fn sweep_expired(&self) -> Result<usize, ArtifactError> {
        let now = self.clock.now();
        let retention = self.config.retention;
        let expired: Vec<ArtifactId> = {
            let mut index = self.index();
            let expired: Vec<ArtifactId> = index
                .iter()
                .filter(|(_, e)| is_expired(e.created, now, retention))
                .map(|(id, _)| id.clone())
                .collect();
            for id in &expired {
                index.remove(id);
            }
            expired
        };
        if expired.is_empty() {
            return Ok(0);
        }
        let count = expired.len();
        let paths: Vec<PathBuf> = expired.iter().map(|id| disk::artifact_path(&self.dir, id)).collect();
        blocking("sweeping expired artifacts", move || {
            paths.iter().for_each(|path| disk::remove_logged(path));
            Ok(())
        })
        .await?;
        Ok(count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ManualClock;

    /// A read that has opened its file finishes even if the artifact expires and is swept
    /// before the bytes are read.
    #[tokio::test]
    async fn open_handle_survives_sweep() -> Result<(), Box<dyn std::error::Error>> {
        let tmp = tempfile::tempdir()?;
        let clock = Arc::new(ManualClock::starting_now());
        let store = FsStore::open_with_clock(tmp.path(), StoreConfig::default(), clock.clone()).await?;
        let id = store
            .put("alice", "text/plain", Bytes::from_static(b"hello world"))
            .await?;
        let entry = store.live("alice", &id)?;
        let path = disk::artifact_path(store.dir(), &id);
        let mut file = disk::open(&path)?.ok_or("artifact file missing")?;

        clock.advance(StoreConfig::default().retention);
        assert_eq!(store.sweep_expired().await?, 1);
        assert!(!path.exists());

        let bytes = disk::read_at(&mut file, entry.data_start + 6, 5)?;
        assert_eq!(bytes, b"world");
        Ok(())
    }

    #[tokio::test]
    async fn truncated_file_is_an_io_error_without_path() -> Result<(), Box<dyn std::error::Error>> {
        let tmp = tempfile::tempdir()?;
        let store = FsStore::open(tmp.path(), StoreConfig::default()).await?;
        let id = store.put("alice", "text/plain", Bytes::from(vec![7u8; 100])).await?;
        let path = disk::artifact_path(store.dir(), &id);
        let file = std::fs::OpenOptions::new().write(true).open(&path)?;
        file.set_len(50)?;
        let err = store
            .read_chunk("alice", id.as_str(), 0, 100)
            .await
            .err()
            .ok_or("read should fail")?;
        assert!(matches!(err, ArtifactError::Io(_)), "{err:?}");
        assert!(!err.to_string().contains(&*tmp.path().to_string_lossy()));
        Ok(())
    }
}
