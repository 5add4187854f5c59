//! What a host sets for a vendor client, shared by every adapter: [`HttpOptions`] (one API: its base URL, the
//! credential, what the host calls them) around [`ClientOptions`] (how every call is made: user agent, timeout,
//! body cap, redaction), and the body cap's bounds.

use std::time::Duration;

use crate::proxy::ProxyOptions;
use crate::redact::Redactor;
use crate::secret::Secret;
use crate::tls::TlsOptions;
use crate::vendor::SettingNames;

/// Default body cap: 32 MiB (33,554,432 bytes).
pub const DEFAULT_MAX_BODY_BYTES: u64 = 32 * 1024 * 1024;
/// Smallest body cap a host should accept: 1 KiB.
pub const MIN_MAX_BODY_BYTES: u64 = 1024;
/// Largest body cap a host should accept: 1 GiB.
pub const MAX_MAX_BODY_BYTES: u64 = 1024 * 1024 * 1024;
/// Default timeout of one call (every attempt's connect, send and body read, and the retry waits): 30 seconds.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// `mcp-devtools/<version>`.
pub fn default_user_agent() -> String {
    format!("mcp-devtools/{}", env!("CARGO_PKG_VERSION"))
}

/// How every call of one client is made, whatever the upstream: embedded by [`HttpOptions`], by
/// [`crate::HttpConfig`] and by adapters whose base and credential take another shape (Atlassian's site and
/// products). A host typically builds one and gives it to every vendor.
///
/// [`Default`]: user agent [`default_user_agent`], timeout 30 s ([`DEFAULT_TIMEOUT`]), body cap 32 MiB
/// ([`DEFAULT_MAX_BODY_BYTES`]), no further secrets to redact, the system's CAs and no client certificate, the
/// proxies of the process environment ([`ProxyOptions::Environment`]). `Debug` never shows a secret.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct ClientOptions {
    /// `User-Agent` header of every request (GitHub rejects requests without one); a value that cannot be a header
    /// fails the client's construction with [`crate::HttpError::InvalidSetting`] naming `user_agent`.
    pub user_agent: String,
    /// Timeout of one call: every attempt (connect, send, read the whole body) and every retry wait. Each attempt
    /// gets the time left; see [`crate::RetryPolicy`].
    pub timeout: Duration,
    /// Largest response body accepted, in bytes (decoded size); a larger one fails with
    /// [`crate::HttpError::BodyTooLarge`] without being buffered past the cap. Hosts should keep it within
    /// [`MIN_MAX_BODY_BYTES`]`..=`[`MAX_MAX_BODY_BYTES`].
    pub max_body_bytes: u64,
    /// Secrets to take out of every answer besides the client's own credential, which is always taken out: a host
    /// gives every credential it holds (the other vendors' tokens, a store's keys), so none comes back through
    /// any vendor ([`Redactor`]). Default: none.
    pub redact: Redactor,
    /// The CAs trusted besides the system's and the client certificate presented (mutual TLS), with the host's
    /// names for them (named when a handshake fails). Default: the system's CAs, no client certificate.
    pub tls: TlsOptions,
    /// Which proxies carry the requests. Default: those of the process environment, read by reqwest
    /// ([`ProxyOptions::Environment`]); a host that knows them gives them ([`ProxyOptions::Explicit`]), so that their
    /// passwords are redacted and errors name the proxy.
    pub proxy: ProxyOptions,
}

crate::setters!(ClientOptions {
    with_user_agent(user_agent: impl Into<String>) via into;
    with_timeout(timeout: Duration);
    with_max_body_bytes(max_body_bytes: u64);
    with_redact(redact: Redactor);
    with_tls(tls: TlsOptions);
    with_proxy(proxy: ProxyOptions);
});

impl Default for ClientOptions {
    fn default() -> Self {
        Self {
            user_agent: default_user_agent(),
            timeout: DEFAULT_TIMEOUT,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            redact: Redactor::default(),
            tls: TlsOptions::default(),
            proxy: ProxyOptions::default(),
        }
    }
}

/// One upstream API as a host sets it: where it is, the credential, what the host calls those settings, and how
/// calls are made ([`ClientOptions`]). A vendor config embeds it (`GithubConfig { http, .. }`) beside its own
/// settings; the adapter decides how the credential is sent ([`crate::HttpConfig::from_options`]).
///
/// Built with [`HttpOptions::new`] and the `with_*` methods; `Debug` never shows the credential.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// API base URL: absolute `http`/`https`, no query, fragment or embedded credentials, trailing slash optional;
    /// e.g. `https://api.github.com`, `https://ghe.example.com/api/v3`, `https://circleci.com/api/v2`. Request
    /// paths are resolved under it; anything else fails the client's construction with
    /// [`crate::HttpError::InvalidSetting`] naming [`SettingNames::base`].
    pub api_base: String,
    /// The credential (an API token) sent with every request to the base's origin, in the vendor's form (GitHub
    /// `Authorization: Bearer`, CircleCI `Circle-Token`). `None`: every call that needs one fails with
    /// [`crate::HttpError::MissingCredential`] without sending anything
    /// ([`crate::HttpClient::require_credential`]). Default: `None`.
    pub credential: Option<Secret>,
    /// What the host calls the base URL, the credential and the body cap in error texts (default: `api_base`,
    /// `token`, `max_body_bytes`; the bundled server gives its setting names, `GITHUB_TOKEN`, …).
    pub setting_names: SettingNames,
    /// User agent, timeout, body cap and redaction.
    pub client: ClientOptions,
}

impl HttpOptions {
    /// The API at `api_base` (see [`HttpOptions::api_base`]), with no credential, the default setting names and
    /// [`ClientOptions::default`].
    pub fn new(api_base: impl Into<String>) -> Self {
        Self {
            api_base: api_base.into(),
            credential: None,
            setting_names: SettingNames::default(),
            client: ClientOptions::default(),
        }
    }
}

crate::setters!(HttpOptions {
    with_api_base(api_base: impl Into<String>) via into;
    with_credential(credential: Option<Secret>);
    with_setting_names(setting_names: SettingNames);
    with_client(client: ClientOptions);
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_debug() {
        let options = HttpOptions::new("https://api.example.com").with_credential(Some(Secret::new("tok-SECRET")));
        assert_eq!(options.api_base, "https://api.example.com");
        assert_eq!(options.setting_names, SettingNames::default());
        assert!(options.client.user_agent.starts_with("mcp-devtools/"));
        assert_eq!(options.client.timeout, Duration::from_secs(30));
        assert_eq!(options.client.max_body_bytes, 32 * 1024 * 1024);
        assert!(options.client.redact.is_empty());
        let debug = format!("{options:?}");
        assert!(!debug.contains("tok-SECRET") && debug.contains("***"), "{debug}");
    }
}
