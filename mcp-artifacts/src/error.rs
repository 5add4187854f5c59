//! The error type shared by every artifact store.

use std::io;

/// Text of [`ArtifactError::NotFound`]; fixed by CONTRACT §5.
pub const NOT_FOUND_MESSAGE: &str = "Artifact not found or expired";

/// Errors returned by [`crate::ArtifactStore`] operations.
///
/// The `Display` text of every variant is safe to show to a client: it never contains a
/// filesystem path, an owner name or any other principal's data (CONTRACT §5). Details that
/// could contain paths are logged with `tracing` where the error is created instead.
#[derive(Debug, thiserror::Error)]
pub enum ArtifactError {
    /// The artifact does not exist for this caller. Returned, with the same text
    /// (`"Artifact not found or expired"`), for an unknown id, a malformed id, an expired
    /// artifact and an artifact owned by another principal, so callers cannot probe ids.
    #[error("Artifact not found or expired")]
    NotFound,

    /// The requested `offset` (in bytes) is greater than the artifact's length.
    /// Valid offsets are `0..=total_bytes`; `offset == total_bytes` reads an empty, `eof` chunk.
    #[error(
        "offset {offset} is past the end of the artifact ({total_bytes} bytes); valid offsets are 0..={total_bytes}"
    )]
    OffsetPastEnd {
        /// The offset the caller asked for, in bytes.
        offset: u64,
        /// The artifact's length, in bytes.
        total_bytes: u64,
    },

    /// The artifact's metadata (owner and MIME type) is too large to store
    /// (more than [`crate::fs::MAX_HEADER_BYTES`] bytes once serialized).
    #[error("artifact metadata is too large ({bytes} bytes, limit {limit})")]
    MetadataTooLarge {
        /// Serialized metadata length, in bytes.
        bytes: u64,
        /// The limit, in bytes.
        limit: u64,
    },

    /// A storage I/O operation failed. Only the operation and the error kind are kept (see
    /// [`IoFailure`]); the full OS error, which may name a path, is logged at `warn` level when
    /// this is created.
    #[error("artifact storage I/O error while {0}")]
    Io(IoFailure),

    /// A background storage task panicked or was cancelled.
    #[error("artifact storage task failed")]
    TaskFailed,
}

impl ArtifactError {
    /// Builds an [`ArtifactError::Io`] from `err`, logging the full error (which may contain a
    /// path) so it is available to operators but never reaches a client.
    pub fn io(operation: &'static str, err: &io::Error) -> Self {
        tracing::warn!(operation, error = %err, "artifact storage I/O error");
        Self::Io(IoFailure {
            operation,
            kind: err.kind(),
        })
    }

    /// `true` for [`ArtifactError::NotFound`].
    pub fn is_not_found(&self) -> bool {
        matches!(self, Self::NotFound)
    }
}

/// The path-free description of a failed storage I/O operation, carried by
/// [`ArtifactError::Io`]. Displays as `"<operation>: <kind>"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{operation}: {kind}")]
pub struct IoFailure {
    /// What the store was doing, e.g. `"writing an artifact"`.
    pub operation: &'static str,
    /// The kind of the underlying [`io::Error`].
    pub kind: io::ErrorKind,
}
