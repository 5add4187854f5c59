//! [`Auth`]: how a request authenticates, and the header it becomes.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use http::{HeaderName, HeaderValue, header};
use sha2::{Digest, Sha256};

use crate::secret::Secret;

/// The credential sent with every request of one [`crate::HttpClient`]. `Debug` never shows a secret.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Auth {
    /// No credential.
    #[default]
    None,
    /// `Authorization: Bearer <secret>` (GitHub; RFC 6750).
    Bearer(Secret),
    /// A custom header carrying the secret as is, e.g. `Circle-Token: <secret>` (CircleCI API v2).
    Header {
        /// Header name, e.g. `circle-token`.
        name: HeaderName,
        /// The secret value.
        value: Secret,
    },
    /// `Authorization: Basic base64(user:secret)` (RFC 7617; Atlassian e-mail + API token).
    Basic {
        /// User name or e-mail (not secret).
        user: String,
        /// Password, API token or app password.
        secret: Secret,
    },
}

impl Auth {
    /// True when there is no credential.
    pub fn is_none(&self) -> bool {
        matches!(self, Auth::None)
    }

    /// The header to send, marked sensitive (so `http` never prints it); `None` for [`Auth::None`].
    ///
    /// Errors: `Err(())` when the value cannot be an HTTP header value (e.g. a stray newline); the caller names
    /// the setting, never the value.
    pub(crate) fn header(&self) -> Result<Option<(HeaderName, HeaderValue)>, ()> {
        let (name, raw) = match self {
            Auth::None => return Ok(None),
            Auth::Bearer(secret) => (header::AUTHORIZATION, format!("Bearer {}", secret.expose())),
            Auth::Header { name, value } => (name.clone(), value.expose().to_owned()),
            Auth::Basic { user, secret } => (
                header::AUTHORIZATION,
                format!("Basic {}", STANDARD.encode(format!("{user}:{}", secret.expose()))),
            ),
        };
        let mut value = HeaderValue::from_str(&raw).map_err(|_| ())?;
        value.set_sensitive(true);
        Ok(Some((name, value)))
    }

    /// SHA-256 over the kind, user and secret: identifies the credential in cache keys without revealing it.
    /// `None` for [`Auth::None`].
    pub fn fingerprint(&self) -> Option<[u8; 32]> {
        let mut hash = Sha256::new();
        match self {
            Auth::None => return None,
            Auth::Bearer(secret) => {
                hash.update(b"bearer\0");
                hash.update(secret.fingerprint());
            }
            Auth::Header { name, value } => {
                hash.update(b"header\0");
                hash.update(name.as_str().as_bytes());
                hash.update(b"\0");
                hash.update(value.fingerprint());
            }
            Auth::Basic { user, secret } => {
                hash.update(b"basic\0");
                hash.update(user.as_bytes());
                hash.update(b"\0");
                hash.update(secret.fingerprint());
            }
        }
        Some(hash.finalize().into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_and_fingerprints() {
        let bearer = Auth::Bearer(Secret::new("t1"));
        let (name, value) = bearer.header().unwrap().unwrap();
        assert_eq!(name, header::AUTHORIZATION);
        assert_eq!(value.to_str().unwrap(), "Bearer t1");
        assert!(value.is_sensitive());

        let custom = Auth::Header {
            name: HeaderName::from_static("circle-token"),
            value: Secret::new("t1"),
        };
        let (name, value) = custom.header().unwrap().unwrap();
        assert_eq!(name.as_str(), "circle-token");
        assert_eq!(value.to_str().unwrap(), "t1");

        let basic = Auth::Basic {
            user: "mia@example.com".into(),
            secret: Secret::new("pw"),
        };
        let (_, value) = basic.header().unwrap().unwrap();
        assert_eq!(value.to_str().unwrap(), "Basic bWlhQGV4YW1wbGUuY29tOnB3");

        assert_ne!(bearer.fingerprint(), custom.fingerprint());
        assert_eq!(Auth::None.fingerprint(), None);
        assert!(Auth::Bearer(Secret::new("a\nb")).header().is_err());
        assert!(!format!("{basic:?}{custom:?}").contains("pw"));
    }
}
