//! Artifact identifiers: 128 random bits as 32 lowercase hex characters.

use std::fmt;
use std::str::FromStr;

/// Number of random bytes in an id (128 bits).
pub const ID_RANDOM_BYTES: usize = 16;

/// Length of an id's text form: 32 lowercase hexadecimal characters.
pub const ID_LEN: usize = ID_RANDOM_BYTES * 2;

/// An artifact id: exactly [`ID_LEN`] characters from `0-9a-f`.
///
/// The only ways to obtain one are [`ArtifactId::generate`] and [`str::parse`], which validates
/// the format, so a value of this type is always safe to use as a file name (no separators,
/// no `..`, no path traversal).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ArtifactId(String);

/// Returned by `ArtifactId::from_str` for text that is not a well-formed id.
/// Stores map it to [`crate::ArtifactError::NotFound`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("malformed artifact id")]
pub struct MalformedId;

impl ArtifactId {
    /// A new id from the thread-local CSPRNG ([`rand::random`]).
    pub fn generate() -> Self {
        let bytes: [u8; ID_RANDOM_BYTES] = rand::random();
        Self(hex::encode(bytes))
    }

    /// A well-formed id that stands in for a malformed one, so that a lookup of a malformed id
    /// does the same work as any other (no existence oracle). Its lookup result is never used.
    pub(crate) fn decoy() -> Self {
        Self("0".repeat(ID_LEN))
    }

    /// The id's text (32 lowercase hex characters).
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for ArtifactId {
    type Err = MalformedId;

    /// Accepts exactly [`ID_LEN`] ASCII characters from `0-9a-f`; anything else is
    /// [`MalformedId`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let well_formed = s.len() == ID_LEN && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        if well_formed {
            Ok(Self(s.to_owned()))
        } else {
            Err(MalformedId)
        }
    }
}

impl fmt::Display for ArtifactId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for ArtifactId {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl From<ArtifactId> for String {
    fn from(id: ArtifactId) -> Self {
        id.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_ids_parse_and_differ() {
        let a = ArtifactId::generate();
        let b = ArtifactId::generate();
        assert_ne!(a, b);
        assert_eq!(a.as_str().len(), ID_LEN);
        assert_eq!(a.as_str().parse::<ArtifactId>(), Ok(a));
    }

    #[test]
    fn malformed_ids_are_rejected() {
        for bad in [
            "",
            "../../etc/passwd",
            "0123456789abcdef0123456789ABCDEF",
            "0123456789abcdef0123456789abcde",
            "0123456789abcdef0123456789abcdef0",
            "0123456789abcdef/123456789abcdef",
            "0123456789abcdef0123456789abcdeé",
        ] {
            assert_eq!(bad.parse::<ArtifactId>(), Err(MalformedId), "{bad:?}");
        }
    }
}
