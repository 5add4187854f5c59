//! [`Secret`]: a credential (token, password) that never prints.

use std::fmt;

use sha2::{Digest, Sha256};

/// A credential: an API token, app password or similar.
///
/// `Debug` and `Display` both print `***`. Read the value with [`Secret::expose`] only to build an auth header;
/// compare or key on it with [`Secret::fingerprint`] (SHA-256), never on the value itself.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a secret value, kept exactly as given (no trimming).
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    /// The secret itself. Use it only to build the auth header; never log it or put it in an error.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// SHA-256 of the value: 32 bytes that identify the credential without revealing it (used in cache keys).
    pub fn fingerprint(&self) -> [u8; 32] {
        Sha256::digest(self.0.as_bytes()).into()
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_prints() {
        let secret = Secret::new("s3cr3t-value");
        assert_eq!(format!("{secret:?} {secret}"), "*** ***");
        assert_eq!(secret.expose(), "s3cr3t-value");
        assert_ne!(secret.fingerprint(), Secret::new("other").fingerprint());
        assert_eq!(secret.fingerprint(), Secret::new("s3cr3t-value").fingerprint());
    }
}
