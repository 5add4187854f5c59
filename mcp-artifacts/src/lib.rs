//! Artifact storage for oversized MCP tool results.
//!
//! The rules this crate shares with the rest of the workspace (result shapes, limits, errors) are written down in
//! the project's contract, [docs/CONTRACT.md].
//!
//! [docs/CONTRACT.md]: https://github.com/mcp-devtools/mcp-devtools/blob/main/docs/CONTRACT.md
//!
//! When a tool's `structuredContent` exceeds its size bound, the full value is saved here as
//! an *artifact* owned by the calling principal, and clients read it back in base64 chunks
//! with the `artifact_read` tool.
//!
//! - [`ArtifactStore`]: the storage interface; [`MemoryStore`] and [`FsStore`] implement it, and with the `s3`
//!   feature `S3Store` (S3-compatible object storage shared by several server replicas).
//! - With the `conformance` feature, `conformance`: the suite every backend (this crate's or a third party's)
//!   passes.
//! - [`ArtifactId`]: 128-bit random ids, validated before any use.
//! - [`Bounded`] / [`StoreLimits`]: any store behind a cap on concurrent operations and a timeout on each, so a
//!   hung backend costs only the calls that use it.
//! - [`StoreConfig`]: retention, sweep interval and [`Quota`]; [`spawn_sweeper`] runs the sweep.
//! - [`ArtifactReadResult`]: the `artifact_read` result, built from a [`Chunk`].
//! - [`Clock`]: time source, replaceable by [`ManualClock`] in tests.
//!
//! The rules every store keeps (owners, the one not-found error, expiry before any sweep, chunk sizes) are on
//! [`ArtifactStore`]; quotas never evict (a put that does not fit fails, so no principal loses data to another's
//! put) and are on [`Quota`]; the sweep's bounds per call and per tick are on [`spawn_sweeper`].

mod bounded;
mod chunk;
mod clock;
mod config;
#[cfg(feature = "conformance")]
pub mod conformance;
mod error;
mod fs;
mod id;
mod index;
mod memory;
mod quota;
mod read;
#[cfg(feature = "s3")]
mod s3;
mod store;
mod sweeper;

pub use bounded::{Bounded, DEFAULT_STORE_CONCURRENCY, DEFAULT_STORE_TIMEOUT, StoreLimits};
pub use chunk::{Chunk, DEFAULT_READ_MAX_BYTES, MAX_READ_MAX_BYTES, MIN_READ_MAX_BYTES, clamp_read_max_bytes};
pub use clock::{Clock, ManualClock, SystemClock};
pub use config::{
    DEFAULT_RETENTION_SECONDS, DEFAULT_SWEEP_INTERVAL_SECONDS, RETENTION_SECONDS_RANGE, SWEEP_INTERVAL_SECONDS_RANGE,
    StoreConfig,
};
pub use error::{ArtifactError, IoFailure, NOT_FOUND_MESSAGE, QuotaScope};
pub use fs::{FsStore, MAX_HEADER_BYTES};
pub use id::{ArtifactId, ID_LEN, MalformedId};
pub use memory::MemoryStore;
pub use quota::{DEFAULT_MAX_PRINCIPAL_BYTES, DEFAULT_MAX_STORE_BYTES, QUOTA_BYTES_RANGE, Quota};
pub use read::{ArtifactReadResult, Encoding, InvalidChunkData};
#[cfg(feature = "s3")]
pub use s3::{
    LEFTOVER_GRACE, MULTIPART_PART_BYTES, MULTIPART_THRESHOLD_BYTES, S3Config, S3ConfigError, S3OpenError, S3Store,
};
pub use store::{ArtifactStore, SWEEP_BATCH_LIMIT};
pub use sweeper::{MIN_SWEEPER_INTERVAL, SWEEP_BATCHES_PER_TICK, spawn_sweeper};

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
