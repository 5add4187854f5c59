//! [`RedisTaskStoreConfig`]: where the Redis task store is and how long to wait for it.

use std::time::Duration;

/// Default of [`RedisTaskStoreConfig::command_timeout`]: 1 s (a task is created, read or settled once per call or
/// poll, not on a hot path; a loaded Redis on the network may pause for tens of milliseconds).
pub const DEFAULT_COMMAND_TIMEOUT: Duration = Duration::from_secs(1);
/// Default of [`RedisTaskStoreConfig::reconnect_interval`]: after a failure, commands fail at once for 1 s, then
/// the next one connects again.
pub const DEFAULT_RECONNECT_INTERVAL: Duration = Duration::from_secs(1);
/// Default of [`RedisTaskStoreConfig::cancel_poll_interval`]: a running task looks at its cancel flag every 250 ms.
pub const DEFAULT_CANCEL_POLL_INTERVAL: Duration = Duration::from_millis(250);
/// The longest [`RedisTaskStoreConfig::cancel_poll_interval`]: 500 ms.
pub(super) const MAX_CANCEL_POLL_INTERVAL: Duration = Duration::from_millis(500);
/// Default of [`RedisTaskStoreConfig::key_prefix`].
pub const DEFAULT_KEY_PREFIX: &str = "mcp-results:tasks:v1";

/// How to reach the Redis task store.
#[non_exhaustive]
#[derive(Clone, PartialEq, Eq)]
pub struct RedisTaskStoreConfig {
    /// `redis://[user:password@]HOST:PORT/DB` (or `rediss://` for TLS, when the `redis` crate is built with it).
    pub url: String,
    /// The longest one command may take ([`DEFAULT_COMMAND_TIMEOUT`]); past it the command fails as unreachable.
    pub command_timeout: Duration,
    /// After a failure, commands fail at once for this long before one connects again
    /// ([`DEFAULT_RECONNECT_INTERVAL`]), so that a Redis that is down costs calls no wait.
    pub reconnect_interval: Duration,
    /// How often a running task reads its cancel flag ([`DEFAULT_CANCEL_POLL_INTERVAL`]; at most 500 ms, longer
    /// values are taken as 500 ms).
    pub cancel_poll_interval: Duration,
    /// The prefix of every key: a task is the hash `<prefix>:<taskId>` ([`DEFAULT_KEY_PREFIX`]).
    pub key_prefix: String,
}

impl RedisTaskStoreConfig {
    /// The store at `url` (checked by [`super::RedisTaskStore::new`]) with the defaults.
    pub fn new(url: impl Into<String>) -> Self {
        RedisTaskStoreConfig {
            url: url.into(),
            command_timeout: DEFAULT_COMMAND_TIMEOUT,
            reconnect_interval: DEFAULT_RECONNECT_INTERVAL,
            cancel_poll_interval: DEFAULT_CANCEL_POLL_INTERVAL,
            key_prefix: DEFAULT_KEY_PREFIX.to_owned(),
        }
    }

    /// With [`RedisTaskStoreConfig::command_timeout`] set.
    #[must_use]
    pub fn with_command_timeout(mut self, command_timeout: Duration) -> Self {
        self.command_timeout = command_timeout;
        self
    }

    /// With [`RedisTaskStoreConfig::reconnect_interval`] set.
    #[must_use]
    pub fn with_reconnect_interval(mut self, reconnect_interval: Duration) -> Self {
        self.reconnect_interval = reconnect_interval;
        self
    }

    /// With [`RedisTaskStoreConfig::cancel_poll_interval`] set.
    #[must_use]
    pub fn with_cancel_poll_interval(mut self, cancel_poll_interval: Duration) -> Self {
        self.cancel_poll_interval = cancel_poll_interval;
        self
    }

    /// With [`RedisTaskStoreConfig::key_prefix`] set.
    #[must_use]
    pub fn with_key_prefix(mut self, key_prefix: impl Into<String>) -> Self {
        self.key_prefix = key_prefix.into();
        self
    }

    /// The password in [`RedisTaskStoreConfig::url`] (percent-decoded), if any: for a host's log redactor.
    pub fn password(&self) -> Option<String> {
        let url = url::Url::parse(&self.url).ok()?;
        let password = url.password()?;
        Some(
            percent_encoding::percent_decode_str(password)
                .decode_utf8_lossy()
                .into_owned(),
        )
    }

    /// [`RedisTaskStoreConfig::url`] with its password (if any) replaced by `***`; `<invalid URL>` when it does not
    /// parse. For logs and `--print-config`.
    pub fn masked_url(&self) -> String {
        match url::Url::parse(&self.url) {
            Ok(mut parsed) => {
                if parsed.password().is_some() {
                    let _ = parsed.set_password(Some("***"));
                }
                parsed.to_string()
            }
            Err(_) => "<invalid URL>".to_owned(),
        }
    }
}

impl std::fmt::Debug for RedisTaskStoreConfig {
    /// Shows the URL with any password replaced by `***`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisTaskStoreConfig")
            .field("url", &self.masked_url())
            .field("command_timeout", &self.command_timeout)
            .field("reconnect_interval", &self.reconnect_interval)
            .field("cancel_poll_interval", &self.cancel_poll_interval)
            .field("key_prefix", &self.key_prefix)
            .finish()
    }
}

/// A [`RedisTaskStoreConfig`] whose URL is not a Redis URL; the text never holds the password.
#[non_exhaustive]
#[derive(Debug, thiserror::Error)]
#[error("the task store's Redis URL is not valid ({url}): expected redis://HOST:PORT/DB")]
pub struct RedisTaskConfigError {
    /// The URL, password masked.
    pub url: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_masked_and_read_back_decoded() {
        let config = RedisTaskStoreConfig::new("redis://user:s3cr%2Ft@tasks:6379/2");
        let shown = format!("{config:?}");
        assert!(!shown.contains("s3cr") && shown.contains("***"), "{shown}");
        assert_eq!(config.password().as_deref(), Some("s3cr/t"));
        assert_eq!(RedisTaskStoreConfig::new("redis://tasks:6379/0").password(), None);
        assert_eq!(RedisTaskStoreConfig::new("not a url").masked_url(), "<invalid URL>");
    }
}
