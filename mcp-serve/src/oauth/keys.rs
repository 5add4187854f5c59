//! The authorization server's signing keys (its JWKS, RFC 7517), fetched at start-up and again when a token names a
//! `kid` the cache does not hold, at most once per refresh interval: a rotated key is picked up on its first use,
//! and a flood of tokens with forged `kid`s costs the authorization server one fetch per interval.

use std::str::FromStr;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::{Jwk, PublicKeyUse};
use jsonwebtoken::{Algorithm, AlgorithmFamily, DecodingKey};
use serde_json::Value;

use super::OAuthSetupError;
use super::discovery::get_json;

/// One verification key of the JWKS.
#[derive(Clone)]
pub(super) struct Key {
    kid: Option<String>,
    /// The key's `alg`, when it names one: a token must then use exactly that algorithm.
    alg: Option<Algorithm>,
    family: AlgorithmFamily,
    key: DecodingKey,
}

/// The cached keys and when they were last fetched.
pub(super) struct KeyCache {
    uri: Option<String>,
    keys: RwLock<Arc<Vec<Key>>>,
    last_fetch: tokio::sync::Mutex<Instant>,
    interval: Duration,
}

impl std::fmt::Debug for KeyCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let count = self.keys.read().map(|keys| keys.len()).unwrap_or_default();
        write!(f, "KeyCache({:?}, {count} keys)", self.uri)
    }
}

/// The usable verification keys of a JWKS document: `use` absent or `sig`, of an asymmetric kind jsonwebtoken reads.
/// Other keys (encryption keys, symmetric `oct` keys, unknown kinds) are skipped.
pub(super) fn parse(doc: &Value) -> Vec<Key> {
    let Some(items) = doc.get("keys").and_then(Value::as_array) else {
        return Vec::new();
    };
    let mut keys = Vec::new();
    for item in items {
        let Ok(jwk) = serde_json::from_value::<Jwk>(item.clone()) else {
            continue;
        };
        if matches!(jwk.common.public_key_use, Some(ref u) if *u != PublicKeyUse::Signature) {
            continue;
        }
        let Ok(key) = DecodingKey::from_jwk(&jwk) else { continue };
        if key.family() == AlgorithmFamily::Hmac {
            continue;
        }
        let alg = jwk
            .common
            .key_algorithm
            .and_then(|alg| Algorithm::from_str(&alg.to_string()).ok());
        keys.push(Key {
            kid: jwk.common.key_id.clone(),
            alg,
            family: key.family(),
            key,
        });
    }
    keys
}

impl KeyCache {
    /// No keys and nowhere to fetch them (introspection only).
    pub(super) fn empty() -> Self {
        KeyCache {
            uri: None,
            keys: RwLock::new(Arc::new(Vec::new())),
            last_fetch: tokio::sync::Mutex::new(Instant::now()),
            interval: Duration::MAX,
        }
    }

    /// Fetches the JWKS at `uri`.
    pub(super) async fn load(http: &reqwest::Client, uri: &str, interval: Duration) -> Result<Self, OAuthSetupError> {
        let failed = |reason: String| OAuthSetupError::Keys {
            url: uri.to_string(),
            reason,
        };
        super::discovery::check_url("jwks_uri", uri).map_err(|_| failed("not an https URL".into()))?;
        let keys = parse(&get_json(http, uri).await.map_err(failed)?);
        if keys.is_empty() {
            return Err(failed(
                "no signature key of a supported kind (RSA, EC P-256/P-384, Ed25519)".into(),
            ));
        }
        tracing::info!(jwks = %uri, keys = keys.len(), "read the authorization server's signing keys");
        Ok(KeyCache {
            uri: Some(uri.to_string()),
            keys: RwLock::new(Arc::new(keys)),
            last_fetch: tokio::sync::Mutex::new(Instant::now()),
            interval,
        })
    }

    /// The key for a token signed with `alg` naming `kid`: the key with that `kid`, or without a `kid` the only key
    /// of `alg`'s family. A key whose own `alg` differs from `alg` does not match.
    fn find(&self, kid: Option<&str>, alg: Algorithm) -> Option<DecodingKey> {
        let keys = self.keys.read().ok()?.clone();
        let fits = |key: &&Key| key.family == alg.family() && key.alg.is_none_or(|own| own == alg);
        match kid {
            Some(kid) => keys.iter().filter(fits).find(|key| key.kid.as_deref() == Some(kid)),
            None => {
                let mut candidates = keys.iter().filter(fits);
                candidates.next().filter(|_| candidates.next().is_none())
            }
        }
        .map(|key| key.key.clone())
    }

    /// The key for (`kid`, `alg`), fetching the JWKS again once when it is not cached and the last fetch is older
    /// than the interval. `None`: no such key.
    pub(super) async fn key(&self, http: &reqwest::Client, kid: Option<&str>, alg: Algorithm) -> Option<DecodingKey> {
        if let Some(key) = self.find(kid, alg) {
            return Some(key);
        }
        let uri = self.uri.as_deref()?;
        let mut last = self.last_fetch.lock().await;
        // Another request may have refreshed while this one waited.
        if let Some(key) = self.find(kid, alg) {
            return Some(key);
        }
        if last.elapsed() < self.interval {
            return None;
        }
        *last = Instant::now();
        match get_json(http, uri).await.map(|doc| parse(&doc)) {
            Ok(keys) if !keys.is_empty() => {
                tracing::info!(jwks = %uri, keys = keys.len(), "refreshed the authorization server's signing keys");
                if let Ok(mut slot) = self.keys.write() {
                    *slot = Arc::new(keys);
                }
            }
            Ok(_) => tracing::warn!(jwks = %uri, "the refreshed JWKS holds no usable key; keeping the old keys"),
            Err(err) => tracing::warn!(jwks = %uri, error = %err, "could not refresh the signing keys"),
        }
        drop(last);
        self.find(kid, alg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_signature_keys_of_asymmetric_kinds_are_kept() {
        let doc = json!({"keys": [
            {"kty": "oct", "k": "c2VjcmV0", "kid": "hmac"},
            {"kty": "EC", "crv": "P-256", "kid": "enc", "use": "enc",
             "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"},
            {"kty": "EC", "crv": "P-256", "kid": "sig", "alg": "ES256",
             "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"},
            {"kty": "nope"}
        ]});
        let keys = parse(&doc);
        assert_eq!(keys.len(), 1);
        assert_eq!(keys[0].kid.as_deref(), Some("sig"));
        let cache = KeyCache::empty();
        *cache.keys.write().unwrap() = Arc::new(keys);
        assert!(cache.find(Some("sig"), Algorithm::ES256).is_some());
        assert!(
            cache.find(None, Algorithm::ES256).is_some(),
            "the only key of its family"
        );
        assert!(
            cache.find(Some("sig"), Algorithm::ES384).is_none(),
            "the key's alg is ES256"
        );
        assert!(cache.find(Some("sig"), Algorithm::RS256).is_none());
        assert!(cache.find(Some("hmac"), Algorithm::ES256).is_none());
    }
}
