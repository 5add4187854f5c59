//! [`CircleciConfig`]: the shared [`HttpOptions`] (base URL, token, setting names, user agent, timeout, body cap,
//! redaction).

use adapters_http::HttpOptions;

/// Default API base URL.
pub const DEFAULT_API_BASE: &str = "https://circleci.com/api/v2";
/// Header the token is sent in.
pub const TOKEN_HEADER: &str = "circle-token";

/// The upstream's display name, in error texts and as the cache namespace.
pub const VENDOR_NAME: &str = "CircleCI";

/// Settings of a [`crate::CircleciClient`]. `Default`: [`HttpOptions::new`]`(`[`DEFAULT_API_BASE`]`)` (no token,
/// `mcp-devtools/<version>`, 30 s, 32 MiB, setting names `api_base`, `token`, `max_body_bytes`). `Debug` never
/// shows the token.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct CircleciConfig {
    /// Where the API is and how it is called:
    /// - `api_base`: the API v2 base URL (absolute http(s)), e.g. `https://circleci.com/api/v2`;
    /// - `credential`: a personal API token, sent as `Circle-Token`; `None` makes every call fail with
    ///   [`adapters_http::HttpError::MissingCredential`] without sending a request;
    /// - `client`: user agent, timeout of one call, body cap, and the secrets to take out of every answer.
    pub http: HttpOptions,
}

adapters_http::setters!(CircleciConfig {
    with_http(http: HttpOptions);
});

impl Default for CircleciConfig {
    fn default() -> Self {
        Self {
            http: HttpOptions::new(DEFAULT_API_BASE),
        }
    }
}
