//! [`HttpError`]: everything the HTTP layer reports. Texts name the vendor and what to do; never a secret, never
//! the request URL's query.

use std::fmt::Write as _;
use std::time::Duration;

use crate::status::StatusError;
use crate::tls::TlsProblem;
use crate::vendor::Vendor;

/// A failure of one upstream exchange, or of building it.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HttpError {
    /// A setting (base URL, credential, user agent) is unusable; nothing was sent. `detail` never holds a secret.
    #[error("invalid {setting}: {detail}")]
    InvalidSetting {
        /// The setting's name as the host calls it ([`crate::SettingNames`]), e.g. `api_base`.
        setting: String,
        /// What is wrong.
        detail: String,
    },

    /// A call needs the credential and none is set ([`crate::HttpOptions::credential`]); nothing was sent. Raised by
    /// [`crate::HttpClient::require_credential`].
    #[error("{setting} is not set: set it to {expected}")]
    MissingCredential {
        /// The credential setting, by the host's name ([`crate::SettingNames::credential`]), e.g. `GITHUB_TOKEN`.
        setting: &'static str,
        /// What to set it to, as the vendor says it, e.g. ``a GitHub token with `actions:read` (or `repo`) scope``.
        expected: &'static str,
    },

    /// The request path cannot be used; nothing was sent.
    #[error("invalid path `{path}`: {detail}")]
    InvalidPath {
        /// The path as given (trimmed).
        path: String,
        /// What is wrong.
        detail: String,
    },

    /// An absolute URL on another origin than the API base: refused before sending, so no credential leaves.
    #[error(
        "refused to call `{host}`: only the {} API host set by {} is called (give a path relative to the API base)",
        .vendor.name,
        .vendor.base_setting
    )]
    ForeignHost {
        /// The upstream.
        vendor: Vendor,
        /// The host that was asked for.
        host: String,
    },

    /// The upstream answered with a non-2xx status (boxed: the vendor's message and field errors make it the
    /// largest variant).
    #[error("{0}")]
    Status(Box<StatusError>),

    /// A write (any method but `GET`/`HEAD`) answered by a 301, 302 or 303 redirect. It was not
    /// followed: following it would re-send the request as a `GET`. Nothing was re-sent.
    #[error(
        "the {} API answered the {method} with {status} {}{}: the redirect was not followed and nothing was re-sent \
         (following a {status} turns a write into a GET). The upstream may or may not have applied the write: check \
         before repeating it, and send it to the new location if that is where it belongs",
        .vendor.name,
        http::StatusCode::from_u16(*.status).ok().and_then(|s| s.canonical_reason()).unwrap_or("Redirect"),
        .location.as_deref().map(|l| format!(" to Location `{l}`")).unwrap_or_else(|| " without a Location".to_owned())
    )]
    WriteRedirected {
        /// The upstream.
        vendor: Vendor,
        /// The request method, e.g. `POST`.
        method: String,
        /// The redirect status: 301, 302 or 303.
        status: u16,
        /// The `Location` header as sent (relative or absolute), when present.
        location: Option<String>,
    },

    /// A handed-out URL (a redirect to another host, or a URL from a body) that is not fetched: not `https`
    /// (outside loopback), userinfo in it, or an unreadable `Location`. Nothing was sent to it. `target` is its
    /// origin only (the path and query may hold a signature).
    #[error(
        "the {} API handed the download to `{target}`, which was not fetched: {detail}",
        .vendor.name
    )]
    RefusedHandoff {
        /// The upstream.
        vendor: Vendor,
        /// `scheme://host[:port]` of the refused URL.
        target: String,
        /// Why it was refused.
        detail: String,
    },

    /// The upstream answered, but the answer says the login failed (whatever its status): a vendor's header (Jira's
    /// `X-Seraph-LoginReason: AUTHENTICATED_FAILED`, GitHub's `X-GitHub-SSO: required`) or an HTML login page where
    /// JSON was asked for (see [`crate::LoginCheck`]). Nothing was cached.
    #[error("the {} API did not accept the login: {cause}", .vendor.name)]
    LoginFailed {
        /// The upstream.
        vendor: Vendor,
        /// HTTP status of the answer (often 200: the upstream answered anonymously).
        status: u16,
        /// Why, and which setting to fix.
        cause: String,
    },

    /// A 2xx body that is not the JSON it should be.
    #[error("{} API {status} returned a body that is not valid JSON: {detail}", .vendor.name)]
    InvalidJson {
        /// The upstream.
        vendor: Vendor,
        /// HTTP status code.
        status: u16,
        /// The parser's error (line and column).
        detail: String,
    },

    /// The body is larger than the cap; reading stopped at the cap (or before reading, from `Content-Length`).
    #[error(
        "the {} API response is larger than {limit_bytes} bytes (setting {}): ask for less (fewer items per page, a narrower path) or raise {}",
        .vendor.name,
        .vendor.max_body_setting,
        .vendor.max_body_setting
    )]
    BodyTooLarge {
        /// The upstream.
        vendor: Vendor,
        /// The cap in force, in bytes.
        limit_bytes: u64,
    },

    /// The TLS handshake with the upstream failed in a way one of the host's settings fixes: the server's
    /// certificate is not trusted (a private CA: set the CA bundle), is not for that host, or the server asked for
    /// a client certificate (mutual TLS) or refused the one presented. Never retried. See [`TlsProblem`].
    #[error("could not reach the {} API at `{host}`: {problem}", .vendor.name)]
    Tls {
        /// The upstream.
        vendor: Vendor,
        /// The host (and port) whose handshake failed, e.g. `ghe.example.com` or `localhost:8443`.
        host: String,
        /// What failed, naming the setting that fixes it (boxed: it makes the variant the largest).
        problem: Box<TlsProblem>,
    },

    /// The proxy that carries the request refused it: it asks for credentials, or refused those in its URL
    /// (`407 Proxy Authentication Required`). Never retried. Only for proxies the host gave
    /// ([`crate::ProxyOptions::Explicit`]).
    #[error(
        "could not reach the {} API: the proxy {proxy} of {setting} {}",
        .vendor.name,
        if *.credentials_given {
            "refused the user and password in it (407 Proxy Authentication Required): check them (percent-encoded \
             in the URL: http://USER:PASSWORD@HOST:PORT)"
        } else {
            "asks for credentials (407 Proxy Authentication Required): give them in its URL, \
             http://USER:PASSWORD@HOST:PORT (percent-encoded)"
        }
    )]
    Proxy {
        /// The upstream.
        vendor: Vendor,
        /// The proxy, its password masked ([`crate::ProxyUrl::masked`]).
        proxy: String,
        /// The host's name for the setting that gave the proxy, e.g. `HTTPS_PROXY`.
        setting: &'static str,
        /// Whether the proxy's URL carries a user and password (then the proxy refused them).
        credentials_given: bool,
    },

    /// The request could not be sent or the response not read (DNS, connect, TLS, timeout, reset). `detail`
    /// never holds the URL or a credential (a URL's `user:password@` is masked).
    #[error(
        "could not reach the {} API: {detail} — check {} and the network, then try again",
        .vendor.name,
        .vendor.base_setting
    )]
    Transport {
        /// The upstream.
        vendor: Vendor,
        /// What failed, e.g. `the request timed out after 200 ms` or `could not connect: …`.
        detail: String,
    },
}

impl HttpError {
    /// The upstream status when it answered ([`HttpError::Status`], [`HttpError::WriteRedirected`],
    /// [`HttpError::InvalidJson`], [`HttpError::LoginFailed`]), else `None`.
    pub fn status(&self) -> Option<u16> {
        match self {
            Self::Status(err) => Some(err.status),
            Self::WriteRedirected { status, .. } => Some(*status),
            Self::InvalidJson { status, .. } => Some(*status),
            Self::LoginFailed { status, .. } => Some(*status),
            Self::Proxy { .. } => Some(407),
            _ => None,
        }
    }

    /// A [`HttpError::Transport`] from a reqwest error, without its URL; a timeout names `timeout` in ms.
    pub(crate) fn transport(vendor: Vendor, err: reqwest::Error, timeout: Duration) -> Self {
        Self::Transport {
            vendor,
            detail: transport_detail(&err, timeout),
        }
    }
}

/// What went wrong with a request, from a reqwest error, without its URL: `the request timed out after N ms`,
/// or a kind (`could not connect`, `could not read the response body`, …) followed by the chain of causes, any
/// `scheme://user:password@` in them masked as `scheme://***@` (a proxy's URL).
pub fn transport_detail(err: &reqwest::Error, timeout: Duration) -> String {
    if err.is_timeout() {
        return format!("the request timed out after {} ms", timeout.as_millis());
    }
    let kind = if err.is_connect() {
        "could not connect"
    } else if err.is_body() || err.is_decode() {
        "could not read the response body"
    } else if err.is_builder() {
        "could not build the request"
    } else {
        "the request failed"
    };
    let mut detail = String::from(kind);
    let mut source: Option<&dyn std::error::Error> = std::error::Error::source(err);
    while let Some(cause) = source {
        // The causes below reqwest's error never print the URL (only reqwest's own Display does).
        let _ = write!(detail, ": {cause}");
        source = cause.source();
    }
    mask_userinfo(&detail)
}

/// `text` with the user information of every URL in it (`://user:password@`) replaced by `***`.
fn mask_userinfo(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("://") {
        let (head, tail) = rest.split_at(at + 3);
        out.push_str(head);
        let authority_end = tail
            .find(|c: char| c == '/' || c == '?' || c == '#' || c.is_whitespace() || c == ')' || c == '"')
            .unwrap_or(tail.len());
        match tail[..authority_end].rfind('@') {
            Some(userinfo_end) => {
                out.push_str("***");
                rest = &tail[userinfo_end..];
            }
            None => rest = tail,
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn userinfo_is_masked() {
        assert_eq!(
            mask_userinfo("proxy http://mia:pa55-word@proxy:3128/ failed; see https://docs.example/x@y"),
            "proxy http://***@proxy:3128/ failed; see https://docs.example/x@y"
        );
        assert_eq!(mask_userinfo("no url here"), "no url here");
        assert_eq!(mask_userinfo("a://b@c and d://e"), "a://***@c and d://e");
    }
}
