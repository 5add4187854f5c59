//! Filesystem artifact store: one file per artifact in a private directory.

mod disk;
mod format;

use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use bytes::Bytes;

pub use format::MAX_HEADER_BYTES;
use format::encode_header;

use crate::chunk::{Chunk, plan_range};
use crate::clock::{Clock, SystemClock};
use crate::config::StoreConfig;
use crate::error::ArtifactError;
use crate::id::ArtifactId;
use crate::index::{Disposal, Index, Record};
use crate::store::{ArtifactStore, SWEEP_BATCH_LIMIT};

/// Keeps each artifact in its own file, `<dir>/<id>.artifact`, and survives restarts.
///
/// - The directory is created with mode 0700 (an existing one is set to 0700): it should be
///   dedicated to this store. Files are created 0600.
/// - Writes are atomic: temporary file in the same directory, fsync, rename, fsync of the
///   directory. The owner, MIME type and creation time live in a small header at the start of
///   the file, so one rename publishes data and metadata together. A writer killed mid-put
///   leaves at most a temporary file, never a readable partial artifact.
/// - A put writes the caller's [`Bytes`] straight to the file (no copy of the data).
/// - [`FsStore::open`] re-indexes the directory: leftover temporary files, unreadable
///   artifact files and expired artifacts are deleted; the rest are served to their owners.
/// - Reads seek to the requested range and read at most `max_bytes` (≤ 1 MiB) bytes into a
///   buffer of exactly that size: the rest of the file is never read or loaded, whatever the
///   artifact's size.
/// - A read pins the artifact from the ownership check until its bytes are read: a delete or
///   sweep meanwhile unhooks it at once (new reads get `NotFound`) but the file is removed only
///   when the last pinned read ends.
/// - The index lock is never held across file I/O; all I/O runs in `spawn_blocking`, and the
///   index update that publishes a put runs in the same blocking task, so a cancelled put never
///   leaves an orphan file or a stale quota reservation.
/// - Paths are built only from validated [`ArtifactId`]s and never appear in results or in
///   error text.
#[derive(Debug)]
pub struct FsStore {
    shared: Arc<Shared>,
    clock: Arc<dyn Clock>,
}

/// What the store's blocking tasks need: the directory and the index.
#[derive(Debug)]
struct Shared {
    dir: PathBuf,
    /// The payload is the byte position in the file where the artifact's data starts.
    index: Mutex<Index<u64>>,
}

impl Shared {
    fn index(&self) -> MutexGuard<'_, Index<u64>> {
        // A panic while holding the lock cannot leave the index in a state that breaks
        // ownership or expiry (at worst a quota count is off), so a poisoned lock is kept.
        self.index.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn path(&self, id: &ArtifactId) -> PathBuf {
        disk::artifact_path(&self.dir, id)
    }
}

/// A read's pin on an artifact; dropping it unpins, and removes the file if the artifact was
/// deleted or swept meanwhile and this was its last read. Dropped inside the read's blocking
/// task, so that removal never runs on an async worker.
struct Pin {
    shared: Arc<Shared>,
    id: ArtifactId,
}

impl Drop for Pin {
    fn drop(&mut self) {
        let disposal = self.shared.index().unpin(&self.id);
        if disposal == Disposal::Remove {
            disk::remove_logged(&self.shared.path(&self.id));
        }
    }
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
        let found = blocking("opening the artifact directory", move || {
            disk::ensure_dir(&scan_dir)?;
            disk::scan(&scan_dir, now, retention)
        })
        .await?;
        tracing::debug!(artifacts = found.len(), "artifact store opened");
        let mut index = Index::new(&config);
        for (id, entry) in found {
            index.restore(
                id,
                Record {
                    owner: entry.owner,
                    mime_type: entry.mime_type,
                    created: entry.created,
                    total_bytes: entry.total_bytes,
                    payload: entry.data_start,
                },
            );
        }
        let shared = Arc::new(Shared {
            dir,
            index: Mutex::new(index),
        });
        Ok(Self { shared, clock })
    }

    /// The directory this store writes to (for operators; never send it to clients).
    pub fn dir(&self) -> &Path {
        &self.shared.dir
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
        let total_bytes = bytes.len() as u64;
        let record = Record {
            owner: owner.to_owned(),
            mime_type: mime_type.to_owned(),
            created,
            total_bytes,
            payload: header.len() as u64,
        };
        self.shared.index().reserve(owner, total_bytes)?;
        let shared = Arc::clone(&self.shared);
        blocking("writing an artifact", move || {
            let path = shared.path(&id);
            match disk::write_atomic(&shared.dir, &path, &header, &bytes) {
                Ok(()) => {
                    shared.index().insert(id.clone(), record);
                    Ok(id)
                }
                Err(err) => {
                    shared.index().release(&record.owner, total_bytes);
                    Err(err)
                }
            }
        })
        .await
    }

    async fn read_chunk(&self, owner: &str, id: &str, offset: u64, max_bytes: u64) -> Result<Chunk, ArtifactError> {
        let now = self.clock.now();
        let (id, mime_type, total_bytes, data_start, range) = {
            let mut index = self.shared.index();
            let (id, record) = index.lookup(owner, id, now)?;
            let range = plan_range(offset, max_bytes, record.total_bytes)?;
            let found = (record.mime_type.clone(), record.total_bytes, record.payload);
            if range.len() > 0 {
                index.pin(&id);
            }
            (id, found.0, found.1, found.2, range)
        };
        if range.len() == 0 {
            return Ok(Chunk::new(id.into(), mime_type, range, total_bytes, Bytes::new()));
        }
        let pin = Pin {
            shared: Arc::clone(&self.shared),
            id: id.clone(),
        };
        let read = blocking("reading an artifact", move || {
            let pin = pin;
            let path = pin.shared.path(&pin.id);
            // Only `range.len()` (<= 1 MiB) bytes are read, into a buffer of that size.
            disk::open(&path)?
                .map(|mut file| disk::read_at(&mut file, data_start + range.start, range.len()))
                .transpose()
        })
        .await?;
        // The file vanished while pinned: removed by something other than this store.
        let data = Bytes::from(read.ok_or(ArtifactError::NotFound)?);
        Ok(Chunk::new(id.into(), mime_type, range, total_bytes, data))
    }

    async fn delete(&self, owner: &str, id: &str) -> Result<(), ArtifactError> {
        let now = self.clock.now();
        let (id, disposal) = self.shared.index().remove(owner, id, now)?;
        if disposal == Disposal::Keep {
            return Ok(());
        }
        let path = self.shared.path(&id);
        blocking("deleting an artifact", move || disk::remove(&path)).await
    }

    async fn sweep_expired(&self) -> Result<usize, ArtifactError> {
        let now = self.clock.now();
        let taken = self.shared.index().take_expired(now, SWEEP_BATCH_LIMIT);
        let count = taken.len();
        let paths: Vec<PathBuf> = taken
            .iter()
            .filter(|(_, disposal)| *disposal == Disposal::Remove)
            .map(|(id, _)| self.shared.path(id))
            .collect();
        if !paths.is_empty() {
            blocking("sweeping expired artifacts", move || {
                paths.iter().for_each(|path| disk::remove_logged(path));
                Ok(())
            })
            .await?;
        }
        Ok(count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ManualClock;

    /// What `read_chunk` does between its ownership check and its file I/O: take a pin.
    fn pin_as_a_read_would(store: &FsStore, owner: &str, id: &ArtifactId) -> Result<Pin, ArtifactError> {
        let mut index = store.shared.index();
        let (id, _) = index.lookup(owner, id.as_str(), store.clock.now())?;
        index.pin(&id);
        Ok(Pin {
            shared: Arc::clone(&store.shared),
            id,
        })
    }

    /// A read past its ownership check keeps the file until it ends, even if the artifact
    /// expires and is swept, or is deleted, meanwhile; the last read removes the file.
    #[tokio::test]
    async fn pinned_reads_outlive_sweep_and_delete() -> Result<(), Box<dyn std::error::Error>> {
        let tmp = tempfile::tempdir()?;
        let clock = Arc::new(ManualClock::starting_now());
        let store = FsStore::open_with_clock(tmp.path(), StoreConfig::default(), clock.clone()).await?;
        let swept = store
            .put("alice", "text/plain", Bytes::from_static(b"hello world"))
            .await?;
        let pin = pin_as_a_read_would(&store, "alice", &swept)?;
        let second_pin = pin_as_a_read_would(&store, "alice", &swept)?;
        let swept_path = disk::artifact_path(store.dir(), &swept);

        clock.advance(StoreConfig::default().retention);
        let deleted = store.put("alice", "text/plain", Bytes::from_static(b"bye")).await?;
        let deleted_pin = pin_as_a_read_would(&store, "alice", &deleted)?;
        let deleted_path = disk::artifact_path(store.dir(), &deleted);
        assert_eq!(store.sweep_expired().await?, 1);
        store.delete("alice", deleted.as_str()).await?;
        // Unhooked for new readers at once...
        assert!(store.read_chunk("alice", swept.as_str(), 0, 5).await.is_err());
        assert!(store.read_chunk("alice", deleted.as_str(), 0, 5).await.is_err());
        // ...but the pinned reads still find their bytes.
        assert!(swept_path.exists() && deleted_path.exists());
        let mut file = disk::open(&swept_path)?.ok_or("swept artifact file removed under a pinned read")?;
        let entry = disk::scan(store.dir(), clock.now(), std::time::Duration::MAX)?;
        let data_start = entry.get(&swept).ok_or("entry")?.data_start;
        assert_eq!(disk::read_at(&mut file, data_start + 6, 5)?, b"world");

        drop(pin);
        assert!(swept_path.exists(), "another read still holds it");
        drop(second_pin);
        assert!(!swept_path.exists(), "the last read removes the file");
        drop(deleted_pin);
        assert!(!deleted_path.exists());
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

    /// A put whose write fails gives its quota reservation back and leaves no file.
    #[tokio::test]
    async fn failed_write_releases_the_reservation() -> Result<(), Box<dyn std::error::Error>> {
        let tmp = tempfile::tempdir()?;
        let quota = crate::Quota {
            max_store_bytes: 10_000,
            max_principal_bytes: 10_000,
        };
        let store = FsStore::open(tmp.path(), StoreConfig::default().with_quota(quota)).await?;
        std::fs::remove_dir(tmp.path())?;
        let err = store
            .put("alice", "text/plain", Bytes::from(vec![1u8; 8_000]))
            .await
            .err();
        assert!(matches!(err, Some(ArtifactError::Io(_))), "{err:?}");
        disk::ensure_dir(tmp.path())?;
        store.put("alice", "text/plain", Bytes::from(vec![1u8; 8_000])).await?;
        Ok(())
    }
}
