//! The shared tier of [`crate::cache::HttpCache`]: entries in Redis, so every replica of the server sees the same entries
//!.
//!
//! - Keys: `mcp-devtools:http-cache:v1:<vendor>:<hex SHA-256 of partition, credential hash, method and URL>`;
//!   neither the principal nor the URL appears in Redis in clear.
//! - Values: JSON with the response (status, headers, base64 body, URL), `fetchedAt` and `expiresAt` in Unix
//!   milliseconds, and the vendor's generation; Redis expires the key with the entry (`PX`). `hit`, `ageMs` and
//!   `fetchedAt` computed on any replica are therefore the same as on the replica that fetched.
//! - [`crate::cache::HttpCache::clear_vendor`] increments `mcp-devtools:http-cache:v1:<vendor>:generation`: entries stored
//!   under an older generation are never served again (they expire on their own). A lookup reads the generation
//!   and the entry in one `MGET`; a store records the generation read before the fetch, so a write that happened
//!   during the fetch also invalidates what the fetch stores.
//! - Redis unreachable, failing or frozen: the call goes uncached (a miss; a store is skipped), never an error for
//!   the caller. A command that fails or takes longer than [`RedisCacheConfig::command_timeout`] (default
//!   [`DEFAULT_COMMAND_TIMEOUT`], 50 ms) marks Redis down: from then on calls skip the cache at once (cache-off
//!   speed, no wait) while a background probe tries a new connection at most once per
//!   [`RedisCacheConfig::reconnect_interval`] ([`RECONNECT_INTERVAL`]) and brings the cache back when Redis
//!   answers `PING`. One warning is logged when an outage starts and one line when Redis answers again.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime};

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

/// How to reach the shared cache, and how long to wait for it (the bundled server fills it from its settings).
#[non_exhaustive]
#[derive(Clone, PartialEq, Eq)]
pub struct RedisCacheConfig {
    /// `redis://[user:password@]HOST:PORT/DB` (or `rediss://` for TLS).
    pub url: String,
    /// The longest one cache command (a lookup's `MGET`, a store's `PSETEX`) may take; past it, as on any Redis
    /// error, the cache is bypassed until a background probe finds Redis back ([`DEFAULT_COMMAND_TIMEOUT`]).
    pub command_timeout: Duration,
    /// The shortest time between two probes (connection attempts) while Redis is down ([`RECONNECT_INTERVAL`]).
    pub reconnect_interval: Duration,
}

impl RedisCacheConfig {
    /// The cache at `url` (`redis://[user:password@]HOST:PORT/DB`; checked when the tier connects,
    /// [`RedisConfigError`]) with the default timeout and reconnect interval.
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            command_timeout: DEFAULT_COMMAND_TIMEOUT,
            reconnect_interval: RECONNECT_INTERVAL,
        }
    }

    /// With [`RedisCacheConfig::command_timeout`] set.
    #[must_use]
    pub fn with_command_timeout(mut self, command_timeout: Duration) -> Self {
        self.command_timeout = command_timeout;
        self
    }

    /// With [`RedisCacheConfig::reconnect_interval`] set.
    #[must_use]
    pub fn with_reconnect_interval(mut self, reconnect_interval: Duration) -> Self {
        self.reconnect_interval = reconnect_interval;
        self
    }

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
            .field("command_timeout", &self.command_timeout)
            .field("reconnect_interval", &self.reconnect_interval)
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
#[non_exhaustive]
#[derive(Debug, thiserror::Error)]
#[error("the RedisCacheConfig `url` is not a valid Redis URL ({url}): expected redis://HOST:PORT/DB")]
pub struct RedisConfigError {
    url: String,
}

/// Default of [`RedisCacheConfig::reconnect_interval`]: at most one connection attempt per second while Redis is
/// down.
pub const RECONNECT_INTERVAL: Duration = Duration::from_secs(1);
/// Default of [`RedisCacheConfig::command_timeout`]: 50 ms (a healthy Redis on the network answers in well under
/// a millisecond; a call without the cache costs an upstream fetch, tens of milliseconds).
pub const DEFAULT_COMMAND_TIMEOUT: Duration = Duration::from_millis(50);
/// Connecting (and the probe's `PING`) gives up after this long: 1 s. Only the first connection, made by the first
/// call, is waited for; later ones are made by the background probe.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(1);

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
    link: Mutex<Link>,
    /// Held by the first call while it makes the first connection (later calls never wait for a connection).
    first: tokio::sync::Mutex<()>,
    /// A background probe is running.
    probing: AtomicBool,
    command_timeout: Duration,
    reconnect_interval: Duration,
}

#[derive(Clone)]
enum Link {
    /// No connection tried yet.
    Unstarted,
    Ready(ConnectionManager),
    /// Redis failed: the cache is bypassed until the probe connects again.
    Down,
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
                link: Mutex::new(Link::Unstarted),
                first: tokio::sync::Mutex::new(()),
                probing: AtomicBool::new(false),
                command_timeout: config.command_timeout.max(Duration::from_millis(1)),
                reconnect_interval: config.reconnect_interval,
            }),
        })
    }

    fn link(&self) -> MutexGuard<'_, Link> {
        // Only a connection handle is swapped under the lock; a panic cannot leave it unsafe to use.
        self.state.link.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The connection to use, or `None` (at once) while Redis is down. Only the very first call waits, at most
    /// [`CONNECT_TIMEOUT`], for the first connection.
    async fn connection(&self) -> Option<ConnectionManager> {
        let link = self.link().clone();
        match link {
            Link::Ready(manager) => return Some(manager),
            Link::Down => return None,
            Link::Unstarted => {}
        }
        let _first = self.state.first.lock().await;
        let link = self.link().clone();
        match link {
            Link::Ready(manager) => Some(manager),
            Link::Down => None,
            Link::Unstarted => match self.connect().await {
                Ok(manager) => {
                    *self.link() = Link::Ready(manager.clone());
                    Some(manager)
                }
                Err(err) => {
                    self.failed(&err);
                    None
                }
            },
        }
    }

    /// A new connection that answers `PING`, within [`CONNECT_TIMEOUT`].
    async fn connect(&self) -> Result<ConnectionManager, String> {
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(CONNECT_TIMEOUT))
            .set_response_timeout(Some(self.state.command_timeout))
            .set_number_of_retries(0);
        let connecting = async {
            let mut manager = ConnectionManager::new_with_config(self.client.clone(), config)
                .await
                .map_err(|err| err.to_string())?;
            redis::cmd("PING")
                .query_async::<()>(&mut manager)
                .await
                .map_err(|err| err.to_string())?;
            Ok(manager)
        };
        tokio::time::timeout(CONNECT_TIMEOUT, connecting)
            .await
            .unwrap_or_else(|_| Err(format!("no answer within {} ms", CONNECT_TIMEOUT.as_millis())))
    }

    /// Runs one command, within the command timeout: its value, or `None` after marking Redis down.
    async fn run<T>(&self, command: impl Future<Output = redis::RedisResult<T>>) -> Option<T> {
        match tokio::time::timeout(self.state.command_timeout, command).await {
            Ok(Ok(value)) => Some(value),
            Ok(Err(err)) => {
                self.failed(&err.to_string());
                None
            }
            Err(_) => {
                self.failed(&format!(
                    "no answer within {} ms",
                    self.state.command_timeout.as_millis()
                ));
                None
            }
        }
    }

    /// Records a failure: the cache is bypassed from now on, the first failure of an outage is logged, and a
    /// background probe looks for Redis at most once per reconnect interval until it answers again.
    fn failed(&self, err: &str) {
        {
            // Under the lock, so that a probe finishing now either sees this failure or is followed by a new one.
            let mut link = self.link();
            *link = Link::Down;
            if self.state.probing.swap(true, Ordering::SeqCst) {
                return;
            }
        }
        tracing::warn!(
            target: "adapters_http",
            error = %err,
            "HTTP cache: Redis failed; calls go uncached (without waiting for Redis) until it answers again \
             (logged once per outage)"
        );
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let tier = self.clone();
        runtime.spawn(async move {
            loop {
                tokio::time::sleep(tier.state.reconnect_interval).await;
                if let Ok(manager) = tier.connect().await {
                    let mut link = tier.link();
                    *link = Link::Ready(manager);
                    tier.state.probing.store(false, Ordering::SeqCst);
                    drop(link);
                    tracing::info!(target: "adapters_http", "HTTP cache: Redis is reachable again");
                    return;
                }
            }
        });
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
        let read = if skip_entry {
            self.run(async { conn.get::<_, Option<u64>>(&generation_key).await.map(|g| (g, None)) })
                .await
        } else {
            let entry_key = Self::entry_key(vendor, partition, credential, url);
            self.run(conn.mget::<_, (Option<u64>, Option<String>)>(&[generation_key, entry_key]))
                .await
        };
        let Some((generation, entry)) = read else {
            return (None, none);
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
        match ttl {
            Some(ttl) => {
                let stored = Stored::new(response, fetched_at, fetched_at + ttl, generation);
                let Ok(json) = serde_json::to_string(&stored) else {
                    return;
                };
                let ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1);
                self.run(conn.pset_ex::<_, _, ()>(&key, json, ttl_ms)).await;
            }
            None => {
                self.run(conn.del::<_, ()>(&key)).await;
            }
        }
    }

    /// Invalidates every entry of `vendor` (all replicas) by moving to a new generation.
    pub async fn clear_vendor(&self, vendor: &str) {
        let Some(mut conn) = self.connection().await else {
            return;
        };
        self.run(conn.incr::<_, _, u64>(Self::generation_key(vendor), 1)).await;
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
        let config = RedisCacheConfig::new("redis://user:s3cr3t@cache:6379/2");
        let shown = format!("{config:?}");
        assert!(!shown.contains("s3cr3t") && shown.contains("***"), "{shown}");
        assert!(RedisTier::new(&RedisCacheConfig::new("http://x")).is_err());
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
