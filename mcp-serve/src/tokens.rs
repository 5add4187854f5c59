//! The HTTP tokens file: which bearer token belongs to which principal.
//!
//! TOML, one entry per token: the key is the lowercase SHA-256 hex of the token, the value the principal name.
//!
//! ```toml
//! [tokens]
//! "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08" = "alice"
//! ```
//!
//! Hash a token with `printf %s "$TOKEN" | sha256sum | cut -d' ' -f1`. The file never holds a token itself.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::principal::Principal;

/// Why the tokens file cannot be used; start-up stops with this message (it never contains a token).
#[non_exhaustive]
#[derive(Debug, thiserror::Error)]
pub enum TokensError {
    /// The file cannot be read.
    #[error("cannot read the tokens file {path}: {source}")]
    Read {
        /// The tokens file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not TOML of the documented shape.
    #[error("tokens file {path} is malformed: {message}")]
    Malformed {
        /// The tokens file.
        path: PathBuf,
        /// The TOML parser's message.
        message: String,
    },
    /// A key is not 64 hex digits.
    #[error("tokens file {path}: key `{key}` is not a SHA-256 hex digest (64 hex digits)")]
    BadHash {
        /// The tokens file.
        path: PathBuf,
        /// The offending key.
        key: String,
    },
    /// The file maps no token.
    #[error("tokens file {path} has no entries under [tokens]")]
    Empty {
        /// The tokens file.
        path: PathBuf,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TokensFile {
    tokens: BTreeMap<String, String>,
}

/// The loaded token table: SHA-256 digests → principals.
#[derive(Clone)]
pub struct TokenTable {
    entries: Vec<([u8; 32], Principal)>,
}

impl std::fmt::Debug for TokenTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TokenTable({} entries)", self.entries.len())
    }
}

impl TokenTable {
    /// Reads and checks the tokens file at `path`.
    ///
    /// # Errors
    /// [`TokensError`]: unreadable, not TOML of the documented shape, a key that is not a SHA-256 hex digest, or
    /// no entries.
    pub fn load(path: &Path) -> Result<TokenTable, TokensError> {
        let text = std::fs::read_to_string(path).map_err(|source| TokensError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Self::parse(path, &text)
    }

    fn parse(path: &Path, text: &str) -> Result<TokenTable, TokensError> {
        let file: TokensFile = toml::from_str(text).map_err(|err| TokensError::Malformed {
            path: path.to_path_buf(),
            message: err.message().to_string(),
        })?;
        let mut entries = Vec::with_capacity(file.tokens.len());
        for (key, principal) in file.tokens {
            let digest = hex::decode(key.trim().to_ascii_lowercase())
                .ok()
                .and_then(|bytes| <[u8; 32]>::try_from(bytes).ok())
                .ok_or_else(|| TokensError::BadHash {
                    path: path.to_path_buf(),
                    key: key.clone(),
                })?;
            entries.push((digest, Principal::named(principal)));
        }
        if entries.is_empty() {
            return Err(TokensError::Empty {
                path: path.to_path_buf(),
            });
        }
        Ok(TokenTable { entries })
    }

    /// The principal whose token is `presented`, comparing its SHA-256 with every entry in constant time (every
    /// entry is compared, whether or not an earlier one matched).
    pub fn authenticate(&self, presented: &str) -> Option<Principal> {
        let digest: [u8; 32] = Sha256::digest(presented.as_bytes()).into();
        let mut found = None;
        for (hash, principal) in &self.entries {
            if bool::from(hash.ct_eq(&digest)) {
                found = Some(principal.clone());
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sha(token: &str) -> String {
        hex::encode(Sha256::digest(token.as_bytes()))
    }

    #[test]
    fn maps_tokens_to_principals() {
        let text = format!(
            "[tokens]\n\"{}\" = \"alice\"\n\"{}\" = \"bob\"\n",
            sha("a-token"),
            sha("b-token")
        );
        let table = TokenTable::parse(Path::new("t.toml"), &text).unwrap();
        assert_eq!(table.authenticate("a-token"), Some(Principal::named("alice")));
        assert_eq!(table.authenticate("b-token"), Some(Principal::named("bob")));
        assert_eq!(table.authenticate("c-token"), None);
        assert_eq!(table.authenticate(""), None);
        assert!(!format!("{table:?}").contains(&sha("a-token")));
    }

    #[test]
    fn bad_files_name_the_problem() {
        let path = Path::new("t.toml");
        assert!(matches!(
            TokenTable::parse(path, "[tokens]\nabc = \"x\"\n"),
            Err(TokensError::BadHash { .. })
        ));
        assert!(matches!(
            TokenTable::parse(path, "[tokens]\n"),
            Err(TokensError::Empty { .. })
        ));
        assert!(matches!(
            TokenTable::parse(path, "tokens = 3\n"),
            Err(TokensError::Malformed { .. })
        ));
    }
}
