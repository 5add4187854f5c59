//! [`HttpConfig`]: everything one upstream client needs, and the body-size cap's bounds.

use std::time::Duration;

use http::HeaderMap;

use crate::auth::Auth;
use crate::login::LoginCheck;
use crate::redact::Redactor;
use crate::retry::RetryPolicy;
use crate::vendor::Vendor;

/// Default body cap: 32 MiB (33,554,432 bytes).
pub const DEFAULT_MAX_BODY_BYTES: u64 = 32 * 1024 * 1024;
/// Smallest body cap a host should accept: 1 KiB.
pub const MIN_MAX_BODY_BYTES: u64 = 1024;
/// Largest body cap a host should accept: 1 GiB.
pub const MAX_MAX_BODY_BYTES: u64 = 1024 * 1024 * 1024;
/// Default timeout of one call (every attempt's connect, send and body read, and the retry waits): 30 seconds.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// Which redirects a client follows. Decided here, once, for every vendor.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RedirectPolicy {
    /// Follow none: a 3xx is returned as is (and classified as [`crate::status::StatusClass::Redirect`]).
    None,
    /// Follow up to `max` redirects whose target has the same scheme, host and port as the original request;
    /// a redirect elsewhere is not followed (its 3xx is returned), so credentials never leave the host.
    SameOrigin {
        /// Most redirects followed for one request.
        max: usize,
    },
}

impl Default for RedirectPolicy {
    /// Same origin, at most 10 redirects.
    fn default() -> Self {
        RedirectPolicy::SameOrigin { max: 10 }
    }
}

/// Settings of one [`crate::HttpClient`]. `Debug` never shows a secret (see [`crate::Secret`]).
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct HttpConfig {
    /// Who the upstream is (error texts, cache namespace).
    pub vendor: Vendor,
    /// API base URL, absolute `http`/`https`, no query, fragment or embedded credentials; e.g.
    /// `https://circleci.com/api/v2`. Request paths are resolved under it.
    pub api_base: String,
    /// The credential sent with every request to the API base's origin.
    pub auth: Auth,
    /// `User-Agent` header.
    pub user_agent: String,
    /// Timeout of one call: every attempt (connect, send, read the whole body) and every retry wait. Each attempt
    /// gets the time left; see [`crate::RetryPolicy`].
    pub timeout: Duration,
    /// Headers sent with every request (e.g. `Accept`, `X-GitHub-Api-Version`).
    pub default_headers: HeaderMap,
    /// Largest response body accepted, in bytes; a larger one fails with [`crate::HttpError::BodyTooLarge`]
    /// without being buffered past the cap.
    pub max_body_bytes: u64,
    /// Which redirects are followed.
    pub redirects: RedirectPolicy,
    /// Picks the vendor's error message out of a JSON error body (default: its `message` string). Whatever it
    /// returns is kept verbatim, bounded to [`crate::status::MAX_MESSAGE_BYTES`].
    pub error_message: fn(&serde_json::Value) -> Option<String>,
    /// Which `GET`/`HEAD` answers are retried, how often and how waits are spent (see [`crate::RetryPolicy`]).
    pub retry: RetryPolicy,
    /// Secrets to take out of this upstream's answers besides [`HttpConfig::auth`]'s own, which is always taken
    /// out (named by `vendor.credential_setting`): a host gives every credential it holds (the other vendors'
    /// tokens, a store's keys), so none comes back through any vendor. Default: none.
    pub redact: Redactor,
    /// The vendor's rule for answers that say the login failed (see [`crate::LoginCheck`]); such an answer is
    /// [`crate::HttpError::LoginFailed`], never cached. The HTML-login-page rule applies to every vendor besides.
    /// Default: none.
    pub login_check: LoginCheck,
}

impl HttpConfig {
    /// This config with [`HttpConfig::vendor`] set.
    #[must_use]
    pub fn with_vendor(mut self, vendor: Vendor) -> Self {
        self.vendor = vendor;
        self
    }

    /// This config with [`HttpConfig::api_base`] set.
    #[must_use]
    pub fn with_api_base(mut self, api_base: impl Into<String>) -> Self {
        self.api_base = api_base.into();
        self
    }

    /// This config with [`HttpConfig::auth`] set.
    #[must_use]
    pub fn with_auth(mut self, auth: Auth) -> Self {
        self.auth = auth;
        self
    }

    /// This config with [`HttpConfig::user_agent`] set.
    #[must_use]
    pub fn with_user_agent(mut self, user_agent: impl Into<String>) -> Self {
        self.user_agent = user_agent.into();
        self
    }

    /// This config with [`HttpConfig::timeout`] set.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// This config with [`HttpConfig::default_headers`] set.
    #[must_use]
    pub fn with_default_headers(mut self, default_headers: HeaderMap) -> Self {
        self.default_headers = default_headers;
        self
    }

    /// This config with [`HttpConfig::max_body_bytes`] set.
    #[must_use]
    pub fn with_max_body_bytes(mut self, max_body_bytes: u64) -> Self {
        self.max_body_bytes = max_body_bytes;
        self
    }

    /// This config with [`HttpConfig::redirects`] set.
    #[must_use]
    pub fn with_redirects(mut self, redirects: RedirectPolicy) -> Self {
        self.redirects = redirects;
        self
    }

    /// This config with [`HttpConfig::error_message`] set.
    #[must_use]
    pub fn with_error_message(mut self, error_message: fn(&serde_json::Value) -> Option<String>) -> Self {
        self.error_message = error_message;
        self
    }

    /// This config with [`HttpConfig::retry`] set.
    #[must_use]
    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// This config with [`HttpConfig::redact`] set.
    #[must_use]
    pub fn with_redact(mut self, redact: Redactor) -> Self {
        self.redact = redact;
        self
    }

    /// This config with [`HttpConfig::login_check`] set.
    #[must_use]
    pub fn with_login_check(mut self, login_check: LoginCheck) -> Self {
        self.login_check = login_check;
        self
    }
}

impl HttpConfig {
    /// A configuration for `vendor` at `api_base` with defaults: no auth, user agent
    /// [`default_user_agent`], timeout 30 s, no default headers, body cap 32 MiB, same-origin redirects,
    /// error message from the body's `message` string, the standard retry policy ([`RetryPolicy::default`]), no
    /// further secrets to redact, no vendor login rule.
    pub fn new(vendor: Vendor, api_base: impl Into<String>) -> Self {
        Self {
            vendor,
            api_base: api_base.into(),
            auth: Auth::None,
            user_agent: default_user_agent(),
            timeout: DEFAULT_TIMEOUT,
            default_headers: HeaderMap::new(),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            redirects: RedirectPolicy::default(),
            error_message: message_field,
            retry: RetryPolicy::default(),
            redact: Redactor::default(),
            login_check: LoginCheck::default(),
        }
    }
}

/// `mcp-devtools/<version>`.
pub fn default_user_agent() -> String {
    format!("mcp-devtools/{}", env!("CARGO_PKG_VERSION"))
}

/// The `message` string of a JSON object body (GitHub, CircleCI and Bitbucket error bodies).
fn message_field(body: &serde_json::Value) -> Option<String> {
    body.get("message")?.as_str().map(str::to_owned)
}
