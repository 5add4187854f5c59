//! Client configuration: the shared [`HttpOptions`] (API base URL, token, setting names, user agent, timeout, body
//! cap, redaction) and GitHub's own settings.

use adapters_http::{HttpOptions, RetryTimer};

/// Default GitHub REST API base URL (github.com). GitHub Enterprise Server uses
/// `https://<host>/api/v3`.
pub const DEFAULT_API_BASE: &str = "https://api.github.com";

/// REST API version sent in the `X-GitHub-Api-Version` header on every request.
///
/// See <https://docs.github.com/rest/about-the-rest-api/api-versions>.
pub const API_VERSION: &str = "2022-11-28";

/// The upstream's display name, in error texts.
pub const VENDOR_NAME: &str = "GitHub";

/// Settings for [`crate::GithubClient`].
///
/// `Default` gives: [`HttpOptions::new`]`(`[`DEFAULT_API_BASE`]`)` (no token, user agent `mcp-devtools/<crate
/// version>`, timeout 30 s, body cap 32 MiB, setting names `api_base`, `token`, `max_body_bytes`), tokio's retry
/// timer. `Debug` output never shows the token.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct GithubConfig {
    /// Where the API is and how it is called:
    /// - `api_base`: the REST API base URL, e.g. `https://api.github.com` or `https://ghe.example.com/api/v3`;
    /// - `credential`: a GitHub token (personal access token, fine-grained token or app installation token), sent as
    ///   `Authorization: Bearer <token>`; `None` makes every call fail with
    ///   [`adapters_http::HttpError::MissingCredential`] without sending a request;
    /// - `client`: user agent (GitHub rejects requests without one), timeout of a whole call (every attempt and
    ///   retry wait), body cap (a larger body fails with [`crate::GithubError::BodyTooLarge`] without being buffered
    ///   past the cap), and the secrets to take out of every answer.
    pub http: HttpOptions,
    /// How retry waits are spent: [`RetryTimer::tokio`] (default), or [`RetryTimer::simulated`] in tests.
    pub retry_timer: RetryTimer,
}

adapters_http::setters!(GithubConfig {
    with_http(http: HttpOptions);
    with_retry_timer(retry_timer: RetryTimer);
});

impl Default for GithubConfig {
    fn default() -> Self {
        Self {
            http: HttpOptions::new(DEFAULT_API_BASE),
            retry_timer: RetryTimer::tokio(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use adapters_http::Secret;

    use super::*;

    #[test]
    fn token_debug_is_redacted() {
        let config = GithubConfig::default()
            .with_http(HttpOptions::new(DEFAULT_API_BASE).with_credential(Some(Secret::new("ghp_supersecret"))));
        let debug = format!("{config:?}");
        assert!(!debug.contains("supersecret"), "{debug}");
        assert!(debug.contains("***"));
    }

    #[test]
    fn defaults() {
        let config = GithubConfig::default();
        assert_eq!(config.http.api_base, "https://api.github.com");
        assert!(config.http.credential.is_none());
        assert!(config.http.client.user_agent.starts_with("mcp-devtools/"));
        assert_eq!(config.http.client.timeout, Duration::from_secs(30));
    }
}
