//! [`CircleciConfig`]: base URL, token and limits.

use std::time::Duration;

use adapters_http::{DEFAULT_MAX_BODY_BYTES, DEFAULT_TIMEOUT, Redactor, Secret, SettingNames, default_user_agent};

/// Default API base URL.
pub const DEFAULT_API_BASE: &str = "https://circleci.com/api/v2";
/// Header the token is sent in.
pub const TOKEN_HEADER: &str = "circle-token";

/// The upstream's display name, in error texts and as the cache namespace.
pub const VENDOR_NAME: &str = "CircleCI";

/// Settings of a [`crate::CircleciClient`]. `Debug` never shows the token.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct CircleciConfig {
    /// API base URL (default `https://circleci.com/api/v2`); absolute http(s).
    pub api_base: String,
    /// Personal API token, sent as `Circle-Token`. `None` makes every call fail with
    /// [`crate::CircleciError::MissingToken`] without sending a request.
    pub token: Option<Secret>,
    /// `User-Agent` header.
    pub user_agent: String,
    /// Timeout of one request (connect, send, read the body).
    pub timeout: Duration,
    /// Largest response body accepted, in bytes.
    pub max_body_bytes: u64,
    /// What the host calls `api_base`, `token` and `max_body_bytes` in error texts (default: those field names).
    pub setting_names: SettingNames,
    /// Secrets to take out of every answer besides this client's own credential (always taken out): a host
    /// gives every credential it holds, so another vendor's token quoted in a body never comes back
    /// ([`adapters_http::Redactor`]). Default: none.
    pub redact: Redactor,
}

impl CircleciConfig {
    /// This config with [`CircleciConfig::api_base`] set.
    #[must_use]
    pub fn with_api_base(mut self, api_base: impl Into<String>) -> Self {
        self.api_base = api_base.into();
        self
    }

    /// This config with [`CircleciConfig::token`] set.
    #[must_use]
    pub fn with_token(mut self, token: Option<Secret>) -> Self {
        self.token = token;
        self
    }

    /// This config with [`CircleciConfig::user_agent`] set.
    #[must_use]
    pub fn with_user_agent(mut self, user_agent: impl Into<String>) -> Self {
        self.user_agent = user_agent.into();
        self
    }

    /// This config with [`CircleciConfig::timeout`] set.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// This config with [`CircleciConfig::max_body_bytes`] set.
    #[must_use]
    pub fn with_max_body_bytes(mut self, max_body_bytes: u64) -> Self {
        self.max_body_bytes = max_body_bytes;
        self
    }

    /// This config with [`CircleciConfig::setting_names`] set.
    #[must_use]
    pub fn with_setting_names(mut self, setting_names: SettingNames) -> Self {
        self.setting_names = setting_names;
        self
    }

    /// This config with [`CircleciConfig::redact`] set.
    #[must_use]
    pub fn with_redact(mut self, redact: Redactor) -> Self {
        self.redact = redact;
        self
    }
}

impl Default for CircleciConfig {
    /// `https://circleci.com/api/v2`, no token, `mcp-devtools/<version>`, 30 s, 32 MiB.
    fn default() -> Self {
        Self {
            api_base: DEFAULT_API_BASE.to_owned(),
            token: None,
            user_agent: default_user_agent(),
            timeout: DEFAULT_TIMEOUT,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            setting_names: SettingNames::default(),
            redact: Redactor::default(),
        }
    }
}
