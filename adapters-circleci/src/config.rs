//! [`CircleciConfig`]: base URL, token and limits.

use std::time::Duration;

use adapters_http::{DEFAULT_MAX_BODY_BYTES, DEFAULT_TIMEOUT, Secret, Vendor, default_user_agent};

/// Default API base URL.
pub const DEFAULT_API_BASE: &str = "https://circleci.com/api/v2";
/// Name of the setting that overrides the API base URL.
pub const ENV_API_BASE: &str = "CIRCLECI_API_BASE";
/// Name of the setting that holds the personal API token.
pub const ENV_TOKEN: &str = "CIRCLECI_TOKEN";
/// Header the token is sent in.
pub const TOKEN_HEADER: &str = "circle-token";

/// CircleCI as an upstream, for error texts and the cache namespace.
pub const VENDOR: Vendor = Vendor {
    name: "CircleCI",
    base_setting: ENV_API_BASE,
    credential_setting: ENV_TOKEN,
    max_body_setting: adapters_http::ENV_MAX_BODY_BYTES,
};

/// Settings of a [`crate::CircleciClient`]. `Debug` never shows the token.
#[derive(Debug, Clone)]
pub struct CircleciConfig {
    /// API base URL (setting `CIRCLECI_API_BASE`, default `https://circleci.com/api/v2`); absolute http(s).
    pub api_base: String,
    /// Personal API token (setting `CIRCLECI_TOKEN`), sent as `Circle-Token`. `None` makes every call fail with
    /// [`crate::CircleciError::MissingToken`] without sending a request.
    pub token: Option<Secret>,
    /// `User-Agent` header.
    pub user_agent: String,
    /// Timeout of one request (connect, send, read the body).
    pub timeout: Duration,
    /// Largest response body accepted, in bytes (setting `HTTP_MAX_BODY_BYTES`).
    pub max_body_bytes: u64,
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
        }
    }
}
