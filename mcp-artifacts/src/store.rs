//! The storage interface every backend implements.

use std::sync::Arc;

use bytes::Bytes;

use crate::chunk::Chunk;
use crate::error::ArtifactError;
use crate::id::ArtifactId;

/// Most artifacts one [`ArtifactStore::sweep_expired`] call removes; the rest wait for the next
/// call (they are already unreadable). Bounds the work, and the time the index lock
/// is held, per sweep.
pub const SWEEP_BATCH_LIMIT: usize = 1024;

/// Where oversized tool results are kept.
///
/// Every artifact belongs to one `owner` (the principal that made the call). Reads and
/// deletes by another owner, with an unknown or malformed id, or of an expired artifact all
/// fail with [`ArtifactError::NotFound`]. An artifact is expired once it is at least
/// `retention` old ([`crate::StoreConfig`]); it stops being readable at that moment, even
/// before [`ArtifactStore::sweep_expired`] removes it. A `read_chunk` call that has passed the
/// ownership check finishes with the right bytes even if the artifact expires, is deleted or is
/// swept meanwhile (the read pins it). Puts over a quota fail ([`crate::Quota`]).
#[async_trait::async_trait]
pub trait ArtifactStore: Send + Sync + 'static {
    /// Saves `bytes` for `owner` with the given MIME type and returns its new, unguessable id
    /// (128 random bits, 32 lowercase hex characters).
    ///
    /// The data is taken as [`Bytes`] so a store can keep or write it without copying.
    ///
    /// Errors: [`ArtifactError::QuotaExceeded`] if it does not fit the principal's or the
    /// store's quota (nothing is stored, nothing evicted), [`ArtifactError::Io`] /
    /// [`ArtifactError::TaskFailed`] if storage fails, [`ArtifactError::MetadataTooLarge`] for an
    /// absurdly long owner or MIME type (fs store). A failed put leaves nothing behind.
    async fn put(&self, owner: &str, mime_type: &str, bytes: Bytes) -> Result<ArtifactId, ArtifactError>;

    /// Reads at most `max_bytes` bytes starting at byte `offset` of artifact `id`.
    ///
    /// `max_bytes` is clamped to `1..=MAX_READ_MAX_BYTES` (1 MiB). `offset == total_bytes`
    /// returns an empty chunk with `eof: true` (so an empty artifact is readable at offset 0).
    ///
    /// Errors: [`ArtifactError::NotFound`] (unknown, malformed, expired, or another owner's),
    /// [`ArtifactError::OffsetPastEnd`] when `offset > total_bytes`, [`ArtifactError::Io`].
    async fn read_chunk(&self, owner: &str, id: &str, offset: u64, max_bytes: u64) -> Result<Chunk, ArtifactError>;

    /// Deletes artifact `id`.
    ///
    /// Errors: [`ArtifactError::NotFound`] under the same rules as `read_chunk` (an expired
    /// artifact is left for the sweep), [`ArtifactError::Io`].
    async fn delete(&self, owner: &str, id: &str) -> Result<(), ArtifactError>;

    /// Removes expired artifacts, oldest first, at most [`SWEEP_BATCH_LIMIT`] per call, and
    /// returns how many were removed. An artifact being read is unhooked at once, and its storage
    /// removed when the last read finishes.
    ///
    /// Errors: [`ArtifactError::Io`] / [`ArtifactError::TaskFailed`] only for failures that
    /// stop the whole sweep; a single file that cannot be removed is logged and skipped.
    async fn sweep_expired(&self) -> Result<usize, ArtifactError>;
}

#[async_trait::async_trait]
impl<T: ArtifactStore + ?Sized> ArtifactStore for Arc<T> {
    async fn put(&self, owner: &str, mime_type: &str, bytes: Bytes) -> Result<ArtifactId, ArtifactError> {
        (**self).put(owner, mime_type, bytes).await
    }

    async fn read_chunk(&self, owner: &str, id: &str, offset: u64, max_bytes: u64) -> Result<Chunk, ArtifactError> {
        (**self).read_chunk(owner, id, offset, max_bytes).await
    }

    async fn delete(&self, owner: &str, id: &str) -> Result<(), ArtifactError> {
        (**self).delete(owner, id).await
    }

    async fn sweep_expired(&self) -> Result<usize, ArtifactError> {
        (**self).sweep_expired().await
    }
}
