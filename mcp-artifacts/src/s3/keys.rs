//! Where an artifact lives in the bucket.
//!
//! Under the configured prefix:
//!
//! - `data/<owner-key>/<id>`: the bytes. `Content-Type` is the artifact's MIME type; the user metadata
//!   `x-amz-meta-created-ms` is the creation time in milliseconds since the Unix epoch (the store's clock).
//! - `expiry/<created-ms, 20 digits>.<owner-key>.<id>.<bytes>`: an empty marker. Listing `expiry/` returns every
//!   artifact oldest first (S3 lists keys in byte order) with its owner and size, so a sweep finds expired
//!   artifacts and a replica rebuilds its quota ledger without reading any object.
//!
//! `<owner-key>` is the hex SHA-256 of the owner name, so keys never contain a principal's name and any owner
//! string is a valid key part. A reader knows the owner and the id, so it addresses `data/<owner-key>/<id>`
//! directly: another principal's read is a plain "no such key".

use std::time::{Duration, SystemTime};

use object_store::path::Path;
use sha2::{Digest, Sha256};

use crate::id::ArtifactId;

/// The user-metadata name carrying the creation time (`x-amz-meta-created-ms` on S3).
pub(super) const CREATED_MS: &str = "created-ms";

/// The key part naming an owner: hex SHA-256 of the owner name.
pub(super) fn owner_key(owner: &str) -> String {
    hex::encode(Sha256::digest(owner.as_bytes()))
}

/// Milliseconds since the Unix epoch (0 for earlier times, saturating).
pub(super) fn to_millis(time: SystemTime) -> u64 {
    time.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// The time `millis` after the Unix epoch.
pub(super) fn from_millis(millis: u64) -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_millis(millis)
}

/// One artifact as its expiry marker names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Marker {
    pub created_ms: u64,
    pub owner_key: String,
    pub id: ArtifactId,
    pub bytes: u64,
}

impl Marker {
    /// The marker's file name: `<created-ms:020>.<owner-key>.<id>.<bytes>`.
    pub fn name(&self) -> String {
        format!(
            "{:020}.{}.{}.{}",
            self.created_ms,
            self.owner_key,
            self.id.as_str(),
            self.bytes
        )
    }

    /// Parses a marker file name; `None` for anything else (a foreign object under the prefix).
    pub fn parse(name: &str) -> Option<Self> {
        let mut parts = name.split('.');
        let created_ms = parts.next()?.parse().ok()?;
        let owner_key = parts.next()?;
        let id = parts.next()?.parse().ok()?;
        let bytes = parts.next()?.parse().ok()?;
        let well_formed = parts.next().is_none()
            && owner_key.len() == 64
            && owner_key
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        well_formed.then(|| Self {
            created_ms,
            owner_key: owner_key.to_owned(),
            id,
            bytes,
        })
    }
}

/// The key layout under one prefix.
#[derive(Debug, Clone)]
pub(super) struct Layout {
    data: Path,
    expiry: Path,
}

impl Layout {
    /// The layout under `prefix` (may be empty: the bucket's root).
    pub fn new(prefix: &Path) -> Self {
        Self {
            data: prefix.clone().join("data"),
            expiry: prefix.clone().join("expiry"),
        }
    }

    /// `data/<owner-key>/<id>`.
    pub fn data(&self, owner_key: &str, id: &ArtifactId) -> Path {
        self.data.clone().join(owner_key).join(id.as_str())
    }

    /// The folder holding every artifact's data.
    pub fn data_dir(&self) -> &Path {
        &self.data
    }

    /// The owner key and id of a data object's path (`data/<owner-key>/<id>`); `None` for anything else.
    pub fn parse_data(&self, path: &Path) -> Option<(String, ArtifactId)> {
        let mut parts = path.prefix_match(&self.data)?;
        let owner_key = parts.next()?.as_ref().to_owned();
        let id = parts.next()?.as_ref().parse().ok()?;
        parts.next().is_none().then_some((owner_key, id))
    }

    /// The folder holding every expiry marker.
    pub fn expiry_dir(&self) -> &Path {
        &self.expiry
    }

    /// `expiry/<marker name>`.
    pub fn marker(&self, marker: &Marker) -> Path {
        self.expiry.clone().join(marker.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marker_names_round_trip_and_sort_by_age() {
        let id = ArtifactId::generate();
        let marker = Marker {
            created_ms: 1_700_000_000_123,
            owner_key: owner_key("alice"),
            id: id.clone(),
            bytes: 42,
        };
        assert_eq!(Marker::parse(&marker.name()), Some(marker.clone()));
        let older = Marker {
            created_ms: 999,
            ..marker.clone()
        };
        assert!(older.name() < marker.name(), "zero-padded times sort as numbers");
        for junk in ["", "x", "1.2.3.4", &format!("1.{}.{}.-1", owner_key("a"), id.as_str())] {
            assert_eq!(Marker::parse(junk), None, "{junk}");
        }
        assert_ne!(owner_key("alice"), owner_key("mallory"));
        assert_eq!(from_millis(to_millis(from_millis(5))), from_millis(5));
    }
}
