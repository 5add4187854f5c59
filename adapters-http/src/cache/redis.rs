//! The shared tier of [`crate::HttpCache`]: entries in Redis, so every replica of the server sees the same entries
//! (CONTRACT §10).
//!
//! - Keys: `mcp-devtools:http-cache:v1:<vendor>:<hex SHA-256 of partition, credential hash, method and URL>`;
//!   neither the principal nor the URL appears in Redis in clear.
//! - Values: JSON with the response (status, headers, base64 body, URL), `fetchedAt` and `expiresAt` in Unix
//!   milliseconds, and the vendor's generation; Redis expires the key with the entry (`PX`). `hit`, `ageMs` and
//!   `fetchedAt` computed on any replica are therefore the same as on the replica that fetched.
//! - [`crate::HttpCache::clear_vendor`] increments `mcp-devtools:http-cache:v1:<vendor>:generation`: entries stored
//!   under an older generation are never served again (they expire on their own). A lookup reads the generation
//!   and the entry in one `MGET`; a store records the generation read before the fetch, so a write that happened
//!   during the fetch also invalidates what the fetch stores.
//! - Redis unreachable or failing: the call goes uncached (a miss; a store is skipped), never an error for the
//!   caller. One warning is logged when an outage starts and one line when Redis answers again, not one per call;
//!   a new connection is tried at most once per [`RECONNECT_INTERVAL`].

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use bytes::Bytes;
use http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use redis::AsyncCommands as _;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use url::Url;

use crate::response::RawResponse;

/// How to reach the shared cache (the bundled server fills it from one of its settings).
#[derive(Clone, PartialEq, Eq)]
pub struct RedisCacheConfig {
    /// `redis://[user:password@]HOST:PORT/DB` (or `rediss://` for TLS).
    pub url: String,
}

impl RedisCacheConfig {
    /// The password in [`RedisCacheConfig::url`] (percent-decoded), if any: for a host's [`crate::Redactor`].
    pub fn password(&self) -> Option<String> {
        let url = url::Url::parse(&self.url).ok()?;
        let password = url.password()?;
        Some(
            percent_encoding::percent_decode_str(password)
                .decode_utf8_lossy()
                .into_owned(),
        )
    }
}

impl std::fmt::Debug for RedisCacheConfig {
    /// Shows the URL with any password replaced by `***`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisCacheConfig")
            .field("url", &masked_url(&self.url))
            .finish()
    }
}

/// `url` with its password (if any) replaced by `***`; an unparsable URL is shown as `<invalid URL>`.
pub fn masked_url(url: &str) -> String {
    match Url::parse(url) {
        Ok(mut parsed) => {
            if parsed.password().is_some() {
                let _ = parsed.set_password(Some("***"));
            }
            parsed.to_string()
        }
        Err(_) => "<invalid URL>".to_owned(),
    }
}

/// A bad [`RedisCacheConfig`]; the text never contains the password.
#[derive(Debug, thiserror::Error)]
#[error("the RedisCacheConfig `url` is not a valid Redis URL ({url}): expected redis://HOST:PORT/DB")]
pub struct RedisConfigError {
    url: String,
}

/// Waiting at least this long between two connection attempts while Redis is down: 1 s.
pub const RECONNECT_INTERVAL: Duration = Duration::from_secs(1);
/// Connecting to Redis gives up after this long: 1 s.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(1);
/// One command gives up after this long: 2 s.
const RESPONSE_TIMEOUT: Duration = Duration::from_secs(2);

const PREFIX: &str = "mcp-devtools:http-cache:v1";

/// One entry as stored in Redis.
#[derive(Debug, Serialize, Deserialize)]
struct Stored {
    status: u16,
    /// Header names and base64 values (values need not be UTF-8).
    headers: Vec<(String, String)>,
    /// Base64 body.
    body: String,
    url: String,
    fetched_at_ms: u64,
    expires_at_ms: u64,
    generation: u64,
}

/// The Redis tier; cheap to clone.
#[derive(Clone)]
pub(crate) struct RedisTier {
    client: redis::Client,
    state: Arc<State>,
}

struct State {
    connection: tokio::sync::Mutex<Connection>,
    down: AtomicBool,
}

enum Connection {
    Ready(ConnectionManager),
    /// No connection; the next attempt is allowed at this instant.
    Idle(Instant),
}

/// What a lookup learnt that the following store needs: the vendor's generation before the fetch (`None` when
/// Redis could not be read: then nothing is stored).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ticket {
    pub generation: Option<u64>,
}

impl RedisTier {
    /// The tier for `config`. Connects lazily, on first use.
    pub fn new(config: &RedisCacheConfig) -> Result<Self, RedisConfigError> {
        let client = redis::Client::open(config.url.as_str()).map_err(|_| RedisConfigError {
            url: masked_url(&config.url),
        })?;
        Ok(Self {
            client,
            state: Arc::new(State {
                connection: tokio::sync::Mutex::new(Connection::Idle(Instant::now())),
                down: AtomicBool::new(false),
            }),
        })
    }

    async fn connection(&self) -> Option<ConnectionManager> {
        let mut connection = self.state.connection.lock().await;
        match &*connection {
            Connection::Ready(manager) => return Some(manager.clone()),
            Connection::Idle(next) if Instant::now() < *next => return None,
            Connection::Idle(_) => {}
        }
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(CONNECT_TIMEOUT))
            .set_response_timeout(Some(RESPONSE_TIMEOUT))
            .set_number_of_retries(1);
        match ConnectionManager::new_with_config(self.client.clone(), config).await {
            Ok(manager) => {
                *connection = Connection::Ready(manager.clone());
                Some(manager)
            }
            Err(err) => {
                *connection = Connection::Idle(Instant::now() + RECONNECT_INTERVAL);
                self.failed(&err);
                None
            }
        }
    }

    /// Records a failure: the first of an outage is logged.
    fn failed(&self, err: &redis::RedisError) {
        if !self.state.down.swap(true, Ordering::SeqCst) {
            tracing::warn!(
                target: "adapters_http",
                error = %err,
                "HTTP cache: Redis is unreachable; calls go uncached until it is back (logged once per outage)"
            );
        }
    }

    /// Records a success: ends an outage.
    fn succeeded(&self) {
        if self.state.down.swap(false, Ordering::SeqCst) {
            tracing::info!(target: "adapters_http", "HTTP cache: Redis is reachable again");
        }
    }

    fn generation_key(vendor: &str) -> String {
        format!("{PREFIX}:{vendor}:generation")
    }

    fn entry_key(vendor: &str, partition: &str, credential: Option<[u8; 32]>, url: &Url) -> String {
        let mut hash = Sha256::new();
        for part in [
            partition.as_bytes(),
            &credential.unwrap_or([0; 32]),
            b"GET",
            url.as_str().as_bytes(),
        ] {
            hash.update((part.len() as u64).to_be_bytes());
            hash.update(part);
        }
        format!("{PREFIX}:{vendor}:{}", hex::encode(hash.finalize()))
    }

    /// The fresh entry for this GET (unless `skip_entry`), and the ticket for the store that follows a miss.
    pub async fn lookup(
        &self,
        vendor: &str,
        partition: &str,
        credential: Option<[u8; 32]>,
        url: &Url,
        skip_entry: bool,
        now: SystemTime,
    ) -> (Option<(RawResponse, SystemTime)>, Ticket) {
        let none = Ticket { generation: None };
        let Some(mut conn) = self.connection().await else {
            return (None, none);
        };
        let generation_key = Self::generation_key(vendor);
        let read: redis::RedisResult<(Option<u64>, Option<String>)> = if skip_entry {
            conn.get::<_, Option<u64>>(&generation_key).await.map(|g| (g, None))
        } else {
            let entry_key = Self::entry_key(vendor, partition, credential, url);
            conn.mget(&[generation_key, entry_key]).await
        };
        let (generation, entry) = match read {
            Ok(values) => {
                self.succeeded();
                values
            }
            Err(err) => {
                self.failed(&err);
                return (None, none);
            }
        };
        let generation = generation.unwrap_or(0);
        let ticket = Ticket {
            generation: Some(generation),
        };
        let hit = entry
            .and_then(|json| serde_json::from_str::<Stored>(&json).ok())
            .filter(|stored| stored.generation == generation && to_millis(now) < stored.expires_at_ms)
            .and_then(|stored| stored.into_response());
        (hit, ticket)
    }

    /// Stores `response` for `ttl` (or deletes the entry when `ttl` is `None`), under the ticket's generation.
    #[allow(clippy::too_many_arguments)]
    pub async fn store(
        &self,
        ticket: Ticket,
        vendor: &str,
        partition: &str,
        credential: Option<[u8; 32]>,
        url: &Url,
        response: &RawResponse,
        fetched_at: SystemTime,
        ttl: Option<Duration>,
    ) {
        let Some(generation) = ticket.generation else {
            return;
        };
        let Some(mut conn) = self.connection().await else {
            return;
        };
        let key = Self::entry_key(vendor, partition, credential, url);
        let result = match ttl {
            Some(ttl) => {
                let stored = Stored::new(response, fetched_at, fetched_at + ttl, generation);
                let Ok(json) = serde_json::to_string(&stored) else {
                    return;
                };
                let ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1);
                conn.pset_ex::<_, _, ()>(&key, json, ttl_ms).await
            }
            None => conn.del::<_, ()>(&key).await,
        };
        match result {
            Ok(()) => self.succeeded(),
            Err(err) => self.failed(&err),
        }
    }

    /// Invalidates every entry of `vendor` (all replicas) by moving to a new generation.
    pub async fn clear_vendor(&self, vendor: &str) {
        let Some(mut conn) = self.connection().await else {
            return;
        };
        match conn.incr::<_, _, u64>(Self::generation_key(vendor), 1).await {
            Ok(_) => self.succeeded(),
            Err(err) => self.failed(&err),
        }
    }
}

fn to_millis(time: SystemTime) -> u64 {
    time.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

impl Stored {
    fn new(response: &RawResponse, fetched_at: SystemTime, expires_at: SystemTime, generation: u64) -> Self {
        Self {
            status: response.status.as_u16(),
            headers: response
                .headers
                .iter()
                .map(|(name, value)| (name.as_str().to_owned(), STANDARD.encode(value.as_bytes())))
                .collect(),
            body: STANDARD.encode(&response.body),
            url: response.url.as_str().to_owned(),
            fetched_at_ms: to_millis(fetched_at),
            expires_at_ms: to_millis(expires_at),
            generation,
        }
    }

    /// The response and its fetch time; `None` for an entry that does not decode (ignored like a miss).
    fn into_response(self) -> Option<(RawResponse, SystemTime)> {
        let mut headers = HeaderMap::new();
        for (name, value) in self.headers {
            let name = HeaderName::from_bytes(name.as_bytes()).ok()?;
            let value = HeaderValue::from_bytes(&STANDARD.decode(value).ok()?).ok()?;
            headers.append(name, value);
        }
        let response = RawResponse {
            status: StatusCode::from_u16(self.status).ok()?,
            headers,
            body: Bytes::from(STANDARD.decode(self.body).ok()?),
            url: Url::parse(&self.url).ok()?,
        };
        Some((
            response,
            SystemTime::UNIX_EPOCH + Duration::from_millis(self.fetched_at_ms),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_masked_and_keys_hide_principals() {
        let config = RedisCacheConfig {
            url: "redis://user:s3cr3t@cache:6379/2".into(),
        };
        let shown = format!("{config:?}");
        assert!(!shown.contains("s3cr3t") && shown.contains("***"), "{shown}");
        assert!(RedisTier::new(&RedisCacheConfig { url: "http://x".into() }).is_err());
        let url = Url::parse("https://circleci.com/api/v2/me").expect("url");
        let a = RedisTier::entry_key("CircleCI", "alice", None, &url);
        assert!(!a.contains("alice") && !a.contains("circleci.com"), "{a}");
        assert_ne!(a, RedisTier::entry_key("CircleCI", "bob", None, &url));
        assert_ne!(a, RedisTier::entry_key("CircleCI", "alice", Some([1; 32]), &url));
    }

    #[test]
    fn entries_round_trip() {
        let mut headers = HeaderMap::new();
        headers.insert("x-bin", HeaderValue::from_bytes(b"\xff\xfe").expect("value"));
        headers.append("set-cookie", HeaderValue::from_static("a"));
        headers.append("set-cookie", HeaderValue::from_static("b"));
        let response = RawResponse {
            status: StatusCode::OK,
            headers,
            body: Bytes::from_static(b"{\"id\":1}"),
            url: Url::parse("https://h.example/x?y=1").expect("url"),
        };
        let at = SystemTime::UNIX_EPOCH + Duration::from_millis(1_791_390_011_402);
        let json = serde_json::to_string(&Stored::new(&response, at, at, 3)).expect("json");
        let stored: Stored = serde_json::from_str(&json).expect("parse");
        let (back, fetched_at) = stored.into_response().expect("decodes");
        assert_eq!(fetched_at, at);
        assert_eq!(
            (back.status, back.body, back.url),
            (response.status, response.body, response.url)
        );
        assert_eq!(back.headers, response.headers);
    }
}
