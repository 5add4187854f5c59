//! How the ci tools read zip archives ([`ArchiveLimits`], [`crate::ToolsConfig::archive`]).

use std::path::PathBuf;

/// Default of [`ArchiveLimits::max_entries`]: 10,000 entries.
pub const DEFAULT_MAX_ENTRIES: u64 = 10_000;
/// Default of [`ArchiveLimits::max_uncompressed_bytes`]: 1 GiB.
pub const DEFAULT_MAX_UNCOMPRESSED_BYTES: u64 = 1024 * 1024 * 1024;
/// Default of [`ArchiveLimits::max_ratio`]: 100 (an entry may be at most 100 times its compressed size).
pub const DEFAULT_MAX_RATIO: u64 = 100;
/// Entries this small (uncompressed bytes) are not held to [`ArchiveLimits::max_ratio`]: a tiny file of one
/// repeated byte compresses far better than 100:1 and costs nothing to read.
pub const RATIO_FLOOR_BYTES: u64 = 64 * 1024;

/// The bounds on a zip archive the ci tools read (`ci_artifact_entries`, `ci_artifact_entry`,
/// `ci_test_results`): an archive past any of them is refused before any entry is read, and an entry that
/// inflates past what its header declares is refused while it is read. The download itself is bounded by the
/// vendor's body cap (`HTTP_MAX_BODY_BYTES`) and spooled to a temporary file in [`ArchiveLimits::temp_dir`],
/// removed when the call ends. [`ArchiveLimits::default`]: 10,000 entries, 1 GiB uncompressed in all, a ratio
/// of 100, the system's temporary directory.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchiveLimits {
    /// Most entries (files and directories) an archive may list.
    pub max_entries: u64,
    /// Most bytes all entries may hold uncompressed, as their headers declare.
    pub max_uncompressed_bytes: u64,
    /// Largest uncompressed / compressed size of one entry (entries of at most [`RATIO_FLOOR_BYTES`] are not
    /// held to it).
    pub max_ratio: u64,
    /// Where downloads are spooled (`None`: the system's temporary directory, `TMPDIR` on Unix).
    pub temp_dir: Option<PathBuf>,
}

impl Default for ArchiveLimits {
    fn default() -> Self {
        ArchiveLimits {
            max_entries: DEFAULT_MAX_ENTRIES,
            max_uncompressed_bytes: DEFAULT_MAX_UNCOMPRESSED_BYTES,
            max_ratio: DEFAULT_MAX_RATIO,
            temp_dir: None,
        }
    }
}

impl ArchiveLimits {
    /// These limits with [`ArchiveLimits::max_entries`] set.
    #[must_use]
    pub fn with_max_entries(mut self, entries: u64) -> Self {
        self.max_entries = entries;
        self
    }

    /// These limits with [`ArchiveLimits::max_uncompressed_bytes`] set.
    #[must_use]
    pub fn with_max_uncompressed_bytes(mut self, bytes: u64) -> Self {
        self.max_uncompressed_bytes = bytes;
        self
    }

    /// These limits with [`ArchiveLimits::max_ratio`] set (at least 1).
    #[must_use]
    pub fn with_max_ratio(mut self, ratio: u64) -> Self {
        self.max_ratio = ratio.max(1);
        self
    }

    /// These limits with [`ArchiveLimits::temp_dir`] set.
    #[must_use]
    pub fn with_temp_dir(mut self, dir: Option<PathBuf>) -> Self {
        self.temp_dir = dir;
        self
    }
}
