//! S3 artifact store (feature `s3`): artifacts in S3-compatible object storage (AWS S3, MinIO, ...), shared by
//! every replica of the server.

mod accounting;
mod config;
mod keys;
mod uploads;

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use bytes::Bytes;
use futures_util::{StreamExt, TryStreamExt, stream};
use object_store::path::Path;
use object_store::{
    Attribute, Attributes, GetOptions, GetRange, GetResult, ObjectStore, ObjectStoreExt, PutMultipartOptions,
    PutOptions, PutPayload, WriteMultipart,
};

pub use config::{S3Config, S3ConfigError};

use accounting::Accounting;
use keys::{CREATED_MS, Layout, Marker, from_millis, owner_key, to_millis};
use uploads::Uploads;

use crate::chunk::{Chunk, plan_range};
use crate::clock::{Clock, SystemClock, is_expired};
use crate::config::StoreConfig;
use crate::error::{ArtifactError, IoFailure};
use crate::id::ArtifactId;
use crate::store::{ArtifactStore, SWEEP_BATCH_LIMIT};

/// Values larger than this many bytes are uploaded in parts (S3 multipart upload): 8 MiB.
pub const MULTIPART_THRESHOLD_BYTES: usize = 8 * 1024 * 1024;
/// Size of each part of a multipart upload, in bytes (S3's minimum is 5 MiB): 8 MiB.
pub const MULTIPART_PART_BYTES: usize = 8 * 1024 * 1024;
/// Parts of one multipart upload in flight at once.
const MULTIPART_CONCURRENCY: usize = 4;
/// How old a put's leftovers must be before a sweep removes them (an expiry marker without data, an unfinished
/// multipart upload): 15 minutes, longer than any put that is still running (see [`crate::StoreLimits`]).
pub const LEFTOVER_GRACE: Duration = Duration::from_secs(15 * 60);

/// Keeps artifacts in an S3 bucket so that every replica serves every artifact.
///
/// - Layout (see the keys below the configured prefix): `data/<sha256(owner)>/<id>` holds the bytes, with the
///   MIME type as `Content-Type` and the creation time as user metadata; an empty marker
///   `expiry/<created>.<sha256(owner)>.<id>.<bytes>` lists it for sweeps and quotas. No key contains an owner's
///   name.
/// - A put writes the marker, then the data: a single PUT, or a multipart upload in
///   [`MULTIPART_PART_BYTES`] parts above [`MULTIPART_THRESHOLD_BYTES`]. A failed put removes what it wrote.
/// - A read is one ranged GET of `data/<sha256(owner)>/<id>` for `[offset, offset + max_bytes)`: another
///   principal's read addresses another key and gets "no such key", so owners need no shared index. The
///   creation time comes back with the bytes, and an expired artifact is [`ArtifactError::NotFound`]. A read that
///   has its response finishes whatever happens to the object meanwhile. Only a read at or past the end (where S3
///   answers 416) costs a second request, a HEAD, to tell `eof` from [`ArtifactError::OffsetPastEnd`].
/// - [`ArtifactStore::sweep_expired`] lists the markers (oldest first), deletes the expired artifacts (bulk
///   deletes, at most [`SWEEP_BATCH_LIMIT`] per call) whichever replica wrote them, and refreshes this replica's
///   quota ledger from the listing. Quotas are therefore exact for what one replica does and up to one sweep
///   interval behind for the others' puts.
/// - Leftovers of a put that died half-way (its replica killed, or its caller's timeout, [`crate::Bounded`]): a
///   marker without data stops counting against its owner's quota, and an unfinished multipart upload is
///   aborted, by the first sweep at least [`LEFTOVER_GRACE`] after the put started.
/// - As a belt to those braces, a bucket lifecycle rule expiring objects under the prefix after the retention plus
///   a day, and aborting incomplete multipart uploads after a day, removes anything a crashed replica left
///   (docs/server.md, "Running several replicas").
/// - Requests are retried (at most 3 times, 15 s in all) by object_store; errors are [`ArtifactError::Io`] with no
///   bucket, key or credential in their text (the full error is logged at `warn`).
#[derive(Debug)]
pub struct S3Store {
    objects: Arc<dyn ObjectStore>,
    uploads: Uploads,
    layout: Layout,
    clock: Arc<dyn Clock>,
    retention: Duration,
    accounting: Mutex<Accounting>,
}

impl S3Store {
    /// Opens the store on the system clock: builds the client and lists the markers once to count what the
    /// bucket already holds (so a bad bucket, endpoint or credential fails here, at start-up).
    ///
    /// Errors: [`S3OpenError`].
    pub async fn open(s3: &S3Config, config: StoreConfig) -> Result<Self, S3OpenError> {
        Self::open_with_clock(s3, config, Arc::new(SystemClock)).await
    }

    /// [`S3Store::open`] reading time from `clock` (tests pass a [`crate::ManualClock`]).
    ///
    /// Errors: [`S3OpenError`].
    pub async fn open_with_clock(
        s3: &S3Config,
        config: StoreConfig,
        clock: Arc<dyn Clock>,
    ) -> Result<Self, S3OpenError> {
        let (s3, prefix) = s3.build()?;
        let store = Self {
            objects: s3.clone(),
            uploads: Uploads::new(s3),
            layout: Layout::new(&prefix),
            clock,
            retention: config.retention,
            accounting: Mutex::new(Accounting::new(config.quota)),
        };
        let started = store.accounting().seq();
        let markers = store.list_markers().await.map_err(S3OpenError::Unreachable)?;
        store.apply_listing(started, &markers);
        Ok(store)
    }

    fn accounting(&self) -> MutexGuard<'_, Accounting> {
        // Only counters are updated under the lock; a panic cannot leave them unsafe to use.
        self.accounting.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn apply_listing(&self, started: u64, markers: &[Marker]) {
        let listed = markers
            .iter()
            .map(|m| (m.id.clone(), m.owner_key.clone(), m.bytes))
            .collect();
        self.accounting().apply_listing(started, listed);
    }

    /// Every marker under the prefix, oldest first. Objects that are not markers are skipped.
    async fn list_markers(&self) -> Result<Vec<Marker>, ArtifactError> {
        let mut markers: Vec<Marker> = self
            .objects
            .list(Some(self.layout.expiry_dir()))
            .map_err(|e| storage_error("listing artifacts", &e))
            .try_filter_map(|meta| async move { Ok(meta.location.filename().and_then(Marker::parse)) })
            .try_collect()
            .await?;
        // S3 lists in key order already; other stores need not.
        markers.sort_by_key(|m| m.created_ms);
        Ok(markers)
    }

    async fn upload(&self, path: &Path, mime_type: &str, created_ms: u64, bytes: Bytes) -> object_store::Result<()> {
        let mut attributes = Attributes::new();
        attributes.insert(Attribute::ContentType, mime_type.to_owned().into());
        attributes.insert(Attribute::Metadata(CREATED_MS.into()), created_ms.to_string().into());
        if bytes.len() <= MULTIPART_THRESHOLD_BYTES {
            let options = PutOptions::from(attributes);
            self.objects.put_opts(path, PutPayload::from(bytes), options).await?;
            return Ok(());
        }
        let upload = self
            .objects
            .put_multipart_opts(path, PutMultipartOptions::from(attributes))
            .await?;
        let mut writer = WriteMultipart::new_with_chunk_size(upload, MULTIPART_PART_BYTES);
        let mut rest = bytes;
        while !rest.is_empty() {
            if let Err(err) = writer.wait_for_capacity(MULTIPART_CONCURRENCY).await {
                // Abandoned parts cost storage until aborted; the failure reported is the upload's.
                let _ = writer.abort().await;
                return Err(err);
            }
            // Parts are views of the caller's bytes: nothing is copied.
            let part = rest.split_to(rest.len().min(MULTIPART_PART_BYTES));
            writer.put(part);
        }
        writer.finish().await.map(|_| ())
    }

    /// The creation time and MIME type an object's response carries; `None` when missing (not ours).
    fn metadata(result: &GetResult) -> Option<(std::time::SystemTime, String)> {
        let created = result
            .attributes
            .get(&Attribute::Metadata(CREATED_MS.into()))
            .and_then(|v| v.parse::<u64>().ok())
            .map(from_millis)?;
        let mime = result
            .attributes
            .get(&Attribute::ContentType)
            .map_or_else(|| "application/octet-stream".to_owned(), |v| v.to_string());
        Some((created, mime))
    }

    /// Removes from the bucket and from `markers` the markers older than [`LEFTOVER_GRACE`] (not yet expired)
    /// whose data is missing: a put that died between its marker and its data. They would otherwise count against
    /// their owner's quota until they expire.
    async fn remove_markers_without_data(
        &self,
        markers: &mut Vec<Marker>,
        now: std::time::SystemTime,
    ) -> Result<(), ArtifactError> {
        let old = |m: &Marker| {
            let created = from_millis(m.created_ms);
            now.duration_since(created).is_ok_and(|age| age >= LEFTOVER_GRACE)
                && !is_expired(created, now, self.retention)
        };
        if !markers.iter().any(old) {
            return Ok(());
        }
        let layout = &self.layout;
        let data: std::collections::HashSet<(String, ArtifactId)> = self
            .objects
            .list(Some(layout.data_dir()))
            .map_err(|e| storage_error("listing artifacts", &e))
            .try_filter_map(|meta| async move { Ok(layout.parse_data(&meta.location)) })
            .try_collect()
            .await?;
        let (orphans, kept): (Vec<Marker>, Vec<Marker>) = std::mem::take(markers)
            .into_iter()
            .partition(|m| old(m) && !data.contains(&(m.owner_key.clone(), m.id.clone())));
        *markers = kept;
        if orphans.is_empty() {
            return Ok(());
        }
        tracing::info!(
            markers = orphans.len(),
            "removing S3 artifact markers whose data was never written"
        );
        let paths = orphans.iter().map(|m| self.layout.marker(m)).collect();
        delete_all(&*self.objects, paths).await?;
        let mut accounting = self.accounting();
        for marker in &orphans {
            accounting.forget(&marker.id);
        }
        Ok(())
    }

    /// HEAD of `path`: creation time, MIME type and size, or [`ArtifactError::NotFound`] when absent or expired.
    async fn head(&self, path: &Path) -> Result<(std::time::SystemTime, String, u64), ArtifactError> {
        let options = GetOptions {
            head: true,
            ..GetOptions::default()
        };
        let result = match self.objects.get_opts(path, options).await {
            Ok(result) => result,
            Err(object_store::Error::NotFound { .. }) => return Err(ArtifactError::NotFound),
            Err(err) => return Err(storage_error("reading an artifact", &err)),
        };
        let (created, mime) = Self::metadata(&result).ok_or(ArtifactError::NotFound)?;
        if is_expired(created, self.clock.now(), self.retention) {
            return Err(ArtifactError::NotFound);
        }
        Ok((created, mime, result.meta.size))
    }
}

/// A put not finished yet: dropped, it stops counting against the quota and removes what it may have written.
struct Unfinished<'a> {
    store: &'a S3Store,
    /// `None` once the put finished.
    id: Option<ArtifactId>,
    /// The data and marker paths, to remove in the background; `None` when already removed.
    written: Option<[Path; 2]>,
}

impl Drop for Unfinished<'_> {
    fn drop(&mut self) {
        let Some(id) = self.id.take() else {
            return;
        };
        self.store.accounting().forget(&id);
        let (Some(paths), Ok(runtime)) = (self.written.take(), tokio::runtime::Handle::try_current()) else {
            return;
        };
        let objects = self.store.objects.clone();
        runtime.spawn(async move {
            for path in paths {
                // A failure (the store is down) is left to the sweep.
                let _ = objects.delete(&path).await;
            }
        });
    }
}

/// Why [`S3Store::open`] failed; the text never contains a secret.
#[non_exhaustive]
#[derive(Debug, thiserror::Error)]
pub enum S3OpenError {
    /// The settings are invalid.
    #[error(transparent)]
    Config(#[from] S3ConfigError),
    /// Listing the bucket failed (wrong endpoint, bucket, credentials or network; details in the log).
    #[error(
        "the S3 artifact bucket is unreachable ({0}); check the S3Config `url`, `endpoint`, `region` and credentials"
    )]
    Unreachable(ArtifactError),
}

/// An [`ArtifactError::Io`] for a failed S3 request, logging the full error (which may name the bucket or key,
/// never a credential) for operators.
fn storage_error(operation: &'static str, err: &object_store::Error) -> ArtifactError {
    tracing::warn!(operation, error = %err, "S3 artifact storage error");
    ArtifactError::Io(IoFailure {
        operation,
        kind: std::io::ErrorKind::Other,
    })
}

#[async_trait::async_trait]
impl ArtifactStore for S3Store {
    async fn put(&self, owner: &str, mime_type: &str, bytes: Bytes) -> Result<ArtifactId, ArtifactError> {
        let id = ArtifactId::generate();
        let owner_key = owner_key(owner);
        let total_bytes = bytes.len() as u64;
        self.accounting().reserve(&owner_key, &id, total_bytes)?;
        let marker = Marker {
            created_ms: to_millis(self.clock.now()),
            owner_key,
            id: id.clone(),
            bytes: total_bytes,
        };
        let marker_path = self.layout.marker(&marker);
        let data_path = self.layout.data(&marker.owner_key, &id);
        // A put dropped half-way (its caller's timeout) stops counting at once, and what it wrote is removed in the
        // background (or, the store being down, by a later sweep).
        let mut unfinished = Unfinished {
            store: self,
            id: Some(id.clone()),
            written: Some([data_path.clone(), marker_path.clone()]),
        };
        // The marker first: a put that dies half-way leaves at most a marker (and maybe an unfinished multipart
        // upload), which the sweep removes.
        let written = match self.objects.put(&marker_path, PutPayload::default()).await {
            Ok(_) => self.upload(&data_path, mime_type, marker.created_ms, bytes).await,
            Err(err) => Err(err),
        };
        match written {
            Ok(()) => {
                unfinished.id = None;
                self.accounting().finish(&id);
                Ok(id)
            }
            Err(err) => {
                let error = storage_error("writing an artifact", &err);
                unfinished.written = None;
                let _ = self.objects.delete(&data_path).await;
                let _ = self.objects.delete(&marker_path).await;
                Err(error)
            }
        }
    }

    async fn read_chunk(&self, owner: &str, id: &str, offset: u64, max_bytes: u64) -> Result<Chunk, ArtifactError> {
        // A malformed id is looked up as a decoy, like a real one: same work for every NotFound.
        let id = id.parse::<ArtifactId>().ok();
        let well_formed = id.is_some();
        let id = id.unwrap_or_else(ArtifactId::decoy);
        let path = self.layout.data(&owner_key(owner), &id);
        let want = crate::chunk::clamp_read_max_bytes(Some(max_bytes));
        let options = GetOptions {
            range: Some(GetRange::Bounded(offset..offset.saturating_add(want))),
            ..GetOptions::default()
        };
        let got = self.objects.get_opts(&path, options).await;
        let result = match got {
            Ok(result) if well_formed => result,
            Ok(_) | Err(object_store::Error::NotFound { .. }) => return Err(ArtifactError::NotFound),
            // At or past the end (S3 answers 416), or a failure: the object's size decides.
            Err(err) => {
                let (_, mime, total_bytes) = self.head(&path).await?;
                if offset < total_bytes {
                    return Err(storage_error("reading an artifact", &err));
                }
                let range = plan_range(offset, max_bytes, total_bytes)?;
                return Ok(Chunk::new(id.into(), mime, range, total_bytes, Bytes::new()));
            }
        };
        let (created, mime) = Self::metadata(&result).ok_or(ArtifactError::NotFound)?;
        if is_expired(created, self.clock.now(), self.retention) {
            return Err(ArtifactError::NotFound);
        }
        let total_bytes = result.meta.size;
        let range = plan_range(offset, max_bytes, total_bytes)?;
        let data = result
            .bytes()
            .await
            .map_err(|e| storage_error("reading an artifact", &e))?;
        if data.len() as u64 != range.len() {
            tracing::warn!(expected = range.len(), got = data.len(), "S3 returned a short range");
            return Err(ArtifactError::Io(IoFailure {
                operation: "reading an artifact",
                kind: std::io::ErrorKind::UnexpectedEof,
            }));
        }
        Ok(Chunk::new(id.into(), mime, range, total_bytes, data))
    }

    async fn delete(&self, owner: &str, id: &str) -> Result<(), ArtifactError> {
        let id = id.parse::<ArtifactId>().unwrap_or_else(|_| ArtifactId::decoy());
        let owner_key = owner_key(owner);
        let path = self.layout.data(&owner_key, &id);
        let (created, _, bytes) = self.head(&path).await?;
        let marker = Marker {
            created_ms: to_millis(created),
            owner_key,
            id: id.clone(),
            bytes,
        };
        self.objects
            .delete(&path)
            .await
            .map_err(|e| storage_error("deleting an artifact", &e))?;
        self.accounting().forget(&id);
        if let Err(err) = self.objects.delete(&self.layout.marker(&marker)).await {
            // The data is gone, so the artifact is; a stale marker is removed by a later sweep.
            tracing::warn!(error = %err, "removing an S3 artifact marker failed");
        }
        Ok(())
    }

    async fn sweep_expired(&self) -> Result<usize, ArtifactError> {
        let started = self.accounting().seq();
        let now = self.clock.now();
        let mut markers = self.list_markers().await?;
        self.remove_markers_without_data(&mut markers, now).await?;
        let expired: Vec<&Marker> = markers
            .iter()
            .take_while(|m| is_expired(from_millis(m.created_ms), now, self.retention))
            .take(SWEEP_BATCH_LIMIT)
            .collect();
        let data: Vec<Path> = expired.iter().map(|m| self.layout.data(&m.owner_key, &m.id)).collect();
        let data_failed = delete_all(&*self.objects, data).await?;
        let mut removed = Vec::new();
        let mut marker_paths = Vec::new();
        for (marker, failed) in expired.iter().zip(data_failed) {
            if failed {
                continue;
            }
            removed.push(marker.id.clone());
            marker_paths.push(self.layout.marker(marker));
        }
        // A marker whose removal failed is retried by the next sweep (its data is already gone).
        delete_all(&*self.objects, marker_paths).await?;
        {
            let mut accounting = self.accounting();
            for id in &removed {
                accounting.forget(id);
            }
        }
        let live: Vec<Marker> = markers.into_iter().filter(|m| !removed.contains(&m.id)).collect();
        self.apply_listing(started, &live);
        let cutoff = now.checked_sub(LEFTOVER_GRACE).unwrap_or(std::time::UNIX_EPOCH);
        self.uploads.abort_older_than(self.layout.data_dir(), cutoff).await;
        Ok(removed.len())
    }
}

/// Deletes `paths` with bulk requests; returns, per path, whether its deletion failed (an absent object is
/// deleted). Errors: only when the bulk requests themselves cannot be made.
async fn delete_all(objects: &dyn ObjectStore, paths: Vec<Path>) -> Result<Vec<bool>, ArtifactError> {
    if paths.is_empty() {
        return Ok(Vec::new());
    }
    let wanted: Vec<Path> = paths.clone();
    let results: Vec<object_store::Result<Path>> = objects
        .delete_stream(stream::iter(paths.into_iter().map(Ok)).boxed())
        .collect()
        .await;
    let mut deleted = std::collections::HashSet::new();
    for result in results {
        match result {
            Ok(path) => {
                deleted.insert(path);
            }
            Err(object_store::Error::NotFound { path, .. }) => {
                deleted.insert(Path::from(path));
            }
            Err(err) => tracing::warn!(error = %err, "sweeping an S3 artifact failed; retried next sweep"),
        }
    }
    Ok(wanted.iter().map(|p| !deleted.contains(p)).collect())
}
