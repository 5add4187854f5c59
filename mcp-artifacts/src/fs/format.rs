//! On-disk layout of one artifact file.
//!
//! `<id>.artifact` = the 8-byte magic `MCPART01`, a little-endian `u32` header length, a JSON
//! header `{"owner", "mimeType", "createdUnixMs"}`, then the artifact's bytes. Keeping the
//! metadata in the same file means one rename publishes both atomically.

use std::io::{self, Read};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::error::ArtifactError;

/// First bytes of every artifact file.
const MAGIC: &[u8; 8] = b"MCPART01";
/// Magic plus the `u32` header length, in bytes.
const PREAMBLE_LEN: u64 = MAGIC.len() as u64 + 4;
/// Largest accepted JSON header, in bytes.
pub const MAX_HEADER_BYTES: u64 = 64 * 1024;
/// File-name suffix of artifact files (`<id>.artifact`).
pub(crate) const ARTIFACT_SUFFIX: &str = ".artifact";
/// File-name prefix of temporary files; any left over at open time are deleted.
pub(crate) const TEMP_PREFIX: &str = ".tmp-artifact-";

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Header {
    owner: String,
    mime_type: String,
    created_unix_ms: u64,
}

/// What the store knows about one artifact file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    pub owner: String,
    pub mime_type: String,
    pub created: SystemTime,
    /// Byte position in the file where the artifact's data starts.
    pub data_start: u64,
    /// The artifact's length in bytes.
    pub total_bytes: u64,
}

/// The preamble and header to write before the data, or `MetadataTooLarge`.
pub(crate) fn encode_header(owner: &str, mime_type: &str, created: SystemTime) -> Result<Vec<u8>, ArtifactError> {
    let created_unix_ms = created
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0);
    let header = Header {
        owner: owner.to_owned(),
        mime_type: mime_type.to_owned(),
        created_unix_ms,
    };
    let json = serde_json::to_vec(&header).map_err(|_| ArtifactError::MetadataTooLarge {
        bytes: 0,
        limit: MAX_HEADER_BYTES,
    })?;
    let len = json.len() as u64;
    let len32 = u32::try_from(len)
        .ok()
        .filter(|_| len <= MAX_HEADER_BYTES)
        .ok_or(ArtifactError::MetadataTooLarge {
            bytes: len,
            limit: MAX_HEADER_BYTES,
        })?;
    let mut out = Vec::with_capacity(json.len() + PREAMBLE_LEN as usize);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&len32.to_le_bytes());
    out.extend_from_slice(&json);
    Ok(out)
}

/// Reads the header from the start of a file of `file_len` bytes. A file that is not a
/// well-formed artifact is an [`io::ErrorKind::InvalidData`] error.
pub(crate) fn decode_header(reader: &mut impl Read, file_len: u64) -> io::Result<Entry> {
    let mut preamble = [0u8; PREAMBLE_LEN as usize];
    reader.read_exact(&mut preamble)?;
    let (magic, len) = preamble.split_at(MAGIC.len());
    if magic != MAGIC {
        return Err(invalid("bad magic"));
    }
    let len_bytes: [u8; 4] = len.try_into().map_err(|_| invalid("bad header length"))?;
    let header_len = u64::from(u32::from_le_bytes(len_bytes));
    let data_start = PREAMBLE_LEN + header_len;
    if header_len > MAX_HEADER_BYTES || data_start > file_len {
        return Err(invalid("bad header length"));
    }
    let mut json = Vec::with_capacity(header_len as usize);
    reader.take(header_len).read_to_end(&mut json)?;
    let header: Header = serde_json::from_slice(&json).map_err(|_| invalid("bad header"))?;
    Ok(Entry {
        owner: header.owner,
        mime_type: header.mime_type,
        created: UNIX_EPOCH + Duration::from_millis(header.created_unix_ms),
        data_start,
        total_bytes: file_len - data_start,
    })
}

fn invalid(what: &'static str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_roundtrip() -> io::Result<()> {
        let created = UNIX_EPOCH + Duration::from_millis(1_700_000_000_123);
        let mut file =
            encode_header("alice", "application/json", created).map_err(|e| io::Error::other(e.to_string()))?;
        let data_start = file.len() as u64;
        file.extend_from_slice(b"hello");
        let entry = decode_header(&mut file.as_slice(), file.len() as u64)?;
        assert_eq!(
            entry,
            Entry {
                owner: "alice".into(),
                mime_type: "application/json".into(),
                created,
                data_start,
                total_bytes: 5,
            }
        );
        Ok(())
    }

    #[test]
    fn garbage_is_invalid_data() {
        let garbage = b"not an artifact at all";
        let err = decode_header(&mut garbage.as_slice(), garbage.len() as u64).err();
        assert_eq!(err.map(|e| e.kind()), Some(io::ErrorKind::InvalidData));
        let short = b"MC";
        let err = decode_header(&mut short.as_slice(), 2).err();
        assert_eq!(err.map(|e| e.kind()), Some(io::ErrorKind::UnexpectedEof));
    }

    #[test]
    fn huge_owner_is_rejected() {
        let owner = "x".repeat(MAX_HEADER_BYTES as usize + 1);
        assert!(matches!(
            encode_header(&owner, "text/plain", SystemTime::now()),
            Err(ArtifactError::MetadataTooLarge { .. })
        ));
    }
}
