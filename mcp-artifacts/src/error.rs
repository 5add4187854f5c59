//! The error type shared by every artifact store.

use std::io;

/// Text of [`ArtifactError::NotFound`]; fixed by the project's contract (`docs/CONTRACT.md`).
pub const NOT_FOUND_MESSAGE: &str = "Artifact not found or expired";

/// Errors returned by [`crate::ArtifactStore`] operations.
///
/// The `Display` text of every variant is safe to show to a client: it never contains a
/// filesystem path, an owner name or any other principal's data. Details that
/// could contain paths are logged with `tracing` where the error is created instead.
///
/// No existence oracle: every "you cannot have this artifact" case is the one variant
/// [`ArtifactError::NotFound`] with one fixed text, and the stores decide it with the same work
/// for every cause: a malformed id is replaced by a decoy id and looked up like any other, then
/// the owner and expiry checks are all evaluated (no early return) against the in-memory index,
/// before and without any filesystem access. What remains is nanosecond-scale variation (hash
/// lookup hit or miss, string comparison of the owner names), far below the jitter of any MCP
/// transport; no test asserts timings, which would be flaky.
#[non_exhaustive]
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

    /// Saving `bytes` bytes would take the principal's or the whole store's holdings over its
    /// quota (`limit` bytes); the put stored nothing and evicted nothing (see [`crate::Quota`]).
    /// An artifact larger than the quota itself always fails this way.
    #[error("artifact not saved: {bytes} bytes would exceed the {scope} quota of {limit} bytes")]
    QuotaExceeded {
        /// Which quota was hit.
        scope: QuotaScope,
        /// Length of the artifact that was not saved, in bytes.
        bytes: u64,
        /// That quota, in bytes.
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

    /// The store's backend did not answer within the timeout of [`crate::StoreLimits`] (waiting for a turn
    /// included): the operation was abandoned. The backend is down, hung or overloaded; try again later.
    #[error(
        "the artifact store did not answer within {} ms while {operation} (it is unreachable or overloaded); try \
         again later",
        timeout.as_millis()
    )]
    Unavailable {
        /// What the store was doing, e.g. `"saving an artifact"`.
        operation: &'static str,
        /// The timeout that ran out.
        timeout: std::time::Duration,
    },
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

/// Which quota a put hit ([`ArtifactError::QuotaExceeded`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuotaScope {
    /// The caller's own quota ([`crate::Quota::max_principal_bytes`]).
    Principal,
    /// The whole store's quota ([`crate::Quota::max_store_bytes`]).
    Store,
}

impl std::fmt::Display for QuotaScope {
    /// `"per-principal"` or `"store-wide"`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Principal => "per-principal",
            Self::Store => "store-wide",
        })
    }
}

/// The path-free description of a failed storage I/O operation, carried by
/// [`ArtifactError::Io`]. Displays as `"<operation>: <kind>"`.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{operation}: {kind}")]
pub struct IoFailure {
    /// What the store was doing, e.g. `"writing an artifact"`.
    pub operation: &'static str,
    /// The kind of the underlying [`io::Error`].
    pub kind: io::ErrorKind,
}
