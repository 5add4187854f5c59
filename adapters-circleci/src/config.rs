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
    /// ([`adapters_http::redact`]). Default: none.
    pub redact: Redactor,
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
