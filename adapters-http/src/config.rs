//! [`HttpConfig`]: everything one upstream client needs: a host's [`HttpOptions`] and what the adapter adds.

use http::HeaderMap;

use crate::auth::Auth;
use crate::login::LoginCheck;
use crate::options::{ClientOptions, HttpOptions};
use crate::retry::RetryPolicy;
use crate::secret::Secret;
use crate::vendor::Vendor;

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

/// Settings of one [`crate::HttpClient`]: the host's options (base, credential, [`ClientOptions`]) as the adapter
/// resolved them, and what the adapter adds (the vendor's name, how the credential is sent, headers, redirects, retry
/// and login rules). An adapter builds it with [`HttpConfig::from_options`]. `Debug` never shows a secret (see
/// [`crate::Secret`]).
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
    /// User agent, timeout, body cap, and the secrets to take out of answers besides [`HttpConfig::auth`]'s own,
    /// which is always taken out (named by `vendor.credential_setting`).
    pub client: ClientOptions,
    /// Headers sent with every request (e.g. `Accept`, `X-GitHub-Api-Version`).
    pub default_headers: HeaderMap,
    /// Which redirects are followed.
    pub redirects: RedirectPolicy,
    /// Picks the vendor's error message out of a JSON error body (default: its `message` string). Whatever it
    /// returns is kept verbatim, bounded to [`crate::status::MAX_MESSAGE_BYTES`].
    pub error_message: fn(&serde_json::Value) -> Option<String>,
    /// Which `GET`/`HEAD` answers are retried, how often and how waits are spent (see [`crate::RetryPolicy`]).
    pub retry: RetryPolicy,
    /// The vendor's rule for answers that say the login failed (see [`crate::LoginCheck`]); such an answer is
    /// [`crate::HttpError::LoginFailed`], never cached. The HTML-login-page rule applies to every vendor besides.
    /// Default: none.
    pub login_check: LoginCheck,
}

crate::setters!(HttpConfig {
    with_vendor(vendor: Vendor);
    with_api_base(api_base: impl Into<String>) via into;
    with_auth(auth: Auth);
    with_client(client: ClientOptions);
    with_default_headers(default_headers: HeaderMap);
    with_redirects(redirects: RedirectPolicy);
    with_error_message(error_message: fn(&serde_json::Value) -> Option<String>);
    with_retry(retry: RetryPolicy);
    with_login_check(login_check: LoginCheck);
});

impl HttpConfig {
    /// A configuration for `vendor` at `api_base` with defaults: no auth, [`ClientOptions::default`] (user agent
    /// [`crate::default_user_agent`], timeout 30 s, body cap 32 MiB, no further secrets to redact), no default
    /// headers, same-origin redirects, error message from the body's `message` string, the standard retry policy
    /// ([`RetryPolicy::default`]), no vendor login rule.
    pub fn new(vendor: Vendor, api_base: impl Into<String>) -> Self {
        Self {
            vendor,
            api_base: api_base.into(),
            auth: Auth::None,
            client: ClientOptions::default(),
            default_headers: HeaderMap::new(),
            redirects: RedirectPolicy::default(),
            error_message: message_field,
            retry: RetryPolicy::default(),
            login_check: LoginCheck::default(),
        }
    }

    /// The configuration of the upstream called `name` (e.g. `GitHub`) from a host's `options`: its base, its
    /// [`ClientOptions`], its setting names in [`HttpConfig::vendor`], and its credential sent as `send` makes it
    /// (e.g. `Auth::Bearer`; no credential: [`Auth::None`]); the other settings as [`HttpConfig::new`] has them.
    pub fn from_options(name: &'static str, options: HttpOptions, send: impl FnOnce(Secret) -> Auth) -> Self {
        Self {
            auth: options.credential.map_or(Auth::None, send),
            client: options.client,
            ..Self::new(Vendor::new(name, options.setting_names), options.api_base)
        }
    }
}

/// The `message` string of a JSON object body (GitHub, CircleCI and Bitbucket error bodies).
fn message_field(body: &serde_json::Value) -> Option<String> {
    body.get("message")?.as_str().map(str::to_owned)
}
