//! Client configuration: API base URL, token, user agent and timeout.

use std::fmt;
use std::time::Duration;

use adapters_http::{DEFAULT_MAX_BODY_BYTES, Redactor, RetryTimer, Secret, SettingNames, default_user_agent};

/// Default GitHub REST API base URL (github.com). GitHub Enterprise Server uses
/// `https://<host>/api/v3`.
pub const DEFAULT_API_BASE: &str = "https://api.github.com";

/// REST API version sent in the `X-GitHub-Api-Version` header on every request.
///
/// See <https://docs.github.com/rest/about-the-rest-api/api-versions>.
pub const API_VERSION: &str = "2022-11-28";

/// The upstream's display name, in error texts.
pub const VENDOR_NAME: &str = "GitHub";

/// Default request timeout: 30 seconds.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// A GitHub token (personal access token, fine-grained token or app installation token).
///
/// A secret: its `Debug` output is `Token(***)`, it has no `Display`, and it never appears in
/// errors or logs. Create one with [`Token::new`]; read it with [`Token::expose`] only to hand it
/// to an HTTP client.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(Secret);

impl Token {
    /// Wraps a token string. The value is kept as given (no trimming).
    pub fn new(token: String) -> Self {
        Self(Secret::new(token))
    }

    /// Returns the secret itself. Use it only to build the `Authorization` header; never log it,
    /// put it in an error, or include it in a cache key without hashing it.
    pub fn expose(&self) -> &str {
        self.0.expose()
    }

    /// The token as the shared HTTP layer's [`Secret`].
    pub fn into_secret(self) -> Secret {
        self.0
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(***)")
    }
}

/// Settings for [`crate::GithubClient`].
///
/// `Default` gives: `api_base` [`DEFAULT_API_BASE`], no token, `user_agent`
/// `mcp-devtools/<crate version>`, `timeout` 30 s ([`DEFAULT_TIMEOUT`]), `max_body_bytes` 32 MiB, tokio's
/// retry timer.
/// `Debug` output never shows the token (see [`Token`]).
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct GithubConfig {
    /// REST API base URL, e.g. `https://api.github.com` or
    /// `https://ghe.example.com/api/v3`. Must be an absolute `http` or `https` URL; a trailing
    /// slash is optional.
    pub api_base: String,
    /// Token sent as `Authorization: Bearer <token>`. `None` makes
    /// every call fail with [`crate::GithubError::MissingToken`] without sending a request.
    pub token: Option<Token>,
    /// `User-Agent` header value (GitHub rejects requests without one).
    pub user_agent: String,
    /// Timeout of a whole call: every attempt (connect, send, read the body) and every retry wait.
    pub timeout: Duration,
    /// Largest response body accepted, in bytes (default 32 MiB); a larger body
    /// fails with [`crate::GithubError::BodyTooLarge`] without being buffered past the cap.
    pub max_body_bytes: u64,
    /// How retry waits are spent: [`RetryTimer::tokio`] (default), or [`RetryTimer::simulated`] in tests.
    pub retry_timer: RetryTimer,
    /// What the host calls `api_base`, `token` and `max_body_bytes` in error texts (default: those field names;
    /// the bundled server gives its setting names).
    pub setting_names: SettingNames,
    /// Secrets to take out of every answer besides this client's own credential (always taken out): a host
    /// gives every credential it holds, so another vendor's token quoted in a body never comes back
    /// ([`adapters_http::Redactor`]). Default: none.
    pub redact: Redactor,
}

impl GithubConfig {
    /// This config with [`GithubConfig::api_base`] set.
    #[must_use]
    pub fn with_api_base(mut self, api_base: impl Into<String>) -> Self {
        self.api_base = api_base.into();
        self
    }

    /// This config with [`GithubConfig::token`] set.
    #[must_use]
    pub fn with_token(mut self, token: Option<Token>) -> Self {
        self.token = token;
        self
    }

    /// This config with [`GithubConfig::user_agent`] set.
    #[must_use]
    pub fn with_user_agent(mut self, user_agent: impl Into<String>) -> Self {
        self.user_agent = user_agent.into();
        self
    }

    /// This config with [`GithubConfig::timeout`] set.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// This config with [`GithubConfig::max_body_bytes`] set.
    #[must_use]
    pub fn with_max_body_bytes(mut self, max_body_bytes: u64) -> Self {
        self.max_body_bytes = max_body_bytes;
        self
    }

    /// This config with [`GithubConfig::retry_timer`] set.
    #[must_use]
    pub fn with_retry_timer(mut self, retry_timer: RetryTimer) -> Self {
        self.retry_timer = retry_timer;
        self
    }

    /// This config with [`GithubConfig::setting_names`] set.
    #[must_use]
    pub fn with_setting_names(mut self, setting_names: SettingNames) -> Self {
        self.setting_names = setting_names;
        self
    }

    /// This config with [`GithubConfig::redact`] set.
    #[must_use]
    pub fn with_redact(mut self, redact: Redactor) -> Self {
        self.redact = redact;
        self
    }
}

impl Default for GithubConfig {
    fn default() -> Self {
        Self {
            api_base: DEFAULT_API_BASE.to_owned(),
            token: None,
            user_agent: default_user_agent(),
            timeout: DEFAULT_TIMEOUT,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            retry_timer: RetryTimer::tokio(),
            setting_names: SettingNames::default(),
            redact: Redactor::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_debug_is_redacted() {
        let token = Token::new("ghp_supersecret".to_owned());
        assert_eq!(format!("{token:?}"), "Token(***)");
        let config = GithubConfig {
            token: Some(token),
            ..GithubConfig::default()
        };
        let debug = format!("{config:?}");
        assert!(!debug.contains("supersecret"), "{debug}");
        assert!(debug.contains("Token(***)"));
    }

    #[test]
    fn defaults() {
        let config = GithubConfig::default();
        assert_eq!(config.api_base, "https://api.github.com");
        assert!(config.token.is_none());
        assert!(config.user_agent.starts_with("mcp-devtools/"));
        assert_eq!(config.timeout, Duration::from_secs(30));
    }
}
