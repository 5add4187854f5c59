//! One chunk of an artifact, and the byte-range rule every store applies (`maxBytes` and its clamp included).

use bytes::Bytes;

use crate::error::ArtifactError;

/// `maxBytes` when the client gives none, in bytes.
pub const DEFAULT_READ_MAX_BYTES: u64 = 65_536;
/// Smallest accepted `maxBytes`, in bytes.
pub const MIN_READ_MAX_BYTES: u64 = 1;
/// Largest accepted `maxBytes`, in bytes (1 MiB).
pub const MAX_READ_MAX_BYTES: u64 = 1_048_576;

/// The `maxBytes` to use for a request: `None` gives [`DEFAULT_READ_MAX_BYTES`], anything else
/// is clamped to `MIN_READ_MAX_BYTES..=MAX_READ_MAX_BYTES`.
pub fn clamp_read_max_bytes(requested: Option<u64>) -> u64 {
    requested.map_or(DEFAULT_READ_MAX_BYTES, |n| {
        n.clamp(MIN_READ_MAX_BYTES, MAX_READ_MAX_BYTES)
    })
}

/// Bytes `[offset, next_offset)` of an artifact, as returned by
/// [`crate::ArtifactStore::read_chunk`]. All offsets and sizes are in bytes.
/// Never contains a filesystem path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// The artifact's id (32 lowercase hex characters).
    pub artifact_id: String,
    /// The MIME type given when the artifact was saved.
    pub mime_type: String,
    /// First byte of this chunk.
    pub offset: u64,
    /// One past the last byte of this chunk; the offset to ask for next.
    pub next_offset: u64,
    /// The artifact's full length.
    pub total_bytes: u64,
    /// `true` when `next_offset == total_bytes`.
    pub eof: bool,
    /// Exactly the bytes `[offset, next_offset)` (`next_offset - offset` bytes).
    pub data: Bytes,
}

/// The half-open byte range `[start, end)` a read covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ByteRange {
    pub start: u64,
    pub end: u64,
}

impl ByteRange {
    /// Number of bytes in the range.
    pub fn len(self) -> u64 {
        self.end - self.start
    }
}

/// The range read for `offset`/`max_bytes` in an artifact of `total_bytes` bytes.
///
/// `max_bytes` is clamped to `1..=MAX_READ_MAX_BYTES`. `offset == total_bytes` gives an empty
/// range (an empty, `eof` chunk); `offset > total_bytes` is [`ArtifactError::OffsetPastEnd`].
pub(crate) fn plan_range(offset: u64, max_bytes: u64, total_bytes: u64) -> Result<ByteRange, ArtifactError> {
    if offset > total_bytes {
        return Err(ArtifactError::OffsetPastEnd { offset, total_bytes });
    }
    let len = clamp_read_max_bytes(Some(max_bytes)).min(total_bytes - offset);
    Ok(ByteRange {
        start: offset,
        end: offset + len,
    })
}

impl Chunk {
    /// Assembles a chunk for `range` of an artifact of `total_bytes` bytes.
    pub(crate) fn new(artifact_id: String, mime_type: String, range: ByteRange, total_bytes: u64, data: Bytes) -> Self {
        Self {
            artifact_id,
            mime_type,
            offset: range.start,
            next_offset: range.end,
            total_bytes,
            eof: range.end == total_bytes,
            data,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clamp() {
        assert_eq!(clamp_read_max_bytes(None), DEFAULT_READ_MAX_BYTES);
        assert_eq!(clamp_read_max_bytes(Some(0)), 1);
        assert_eq!(clamp_read_max_bytes(Some(7)), 7);
        assert_eq!(clamp_read_max_bytes(Some(u64::MAX)), MAX_READ_MAX_BYTES);
    }

    #[test]
    fn ranges() {
        assert_eq!(plan_range(0, 10, 4).ok(), Some(ByteRange { start: 0, end: 4 }));
        assert_eq!(plan_range(4, 10, 4).ok(), Some(ByteRange { start: 4, end: 4 }));
        assert_eq!(plan_range(1, 0, 4).ok(), Some(ByteRange { start: 1, end: 2 }));
        assert_eq!(
            plan_range(0, u64::MAX, u64::MAX).ok(),
            Some(ByteRange {
                start: 0,
                end: MAX_READ_MAX_BYTES
            })
        );
        assert!(matches!(
            plan_range(5, 1, 4),
            Err(ArtifactError::OffsetPastEnd {
                offset: 5,
                total_bytes: 4
            })
        ));
    }
}
