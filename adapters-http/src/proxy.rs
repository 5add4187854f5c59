//! [`ProxyOptions`]: which HTTP proxy carries an upstream's requests, and [`ProxyUrl`], one proxy whose password
//! never prints.
//!
//! The rules are curl's, as reqwest (through `hyper-util`'s proxy matcher) applies them: a request to an `https`
//! URL goes through the `https` proxy (a `CONNECT` tunnel: the proxy sees the host and port, never the request),
//! one to an `http` URL through the `http` proxy (the proxy forwards the request); a host listed in the no-proxy
//! list goes direct. Loopback hosts are **not** exempt by themselves: list them (`localhost,127.0.0.1`) to reach
//! them direct.

use std::fmt;

use percent_encoding::percent_decode_str;
use url::Url;

use crate::redact::RedactorBuilder;

/// One proxy: `http://[user:password@]host[:port]` (or `https://`: TLS to the proxy), and the host's name for the
/// setting that gave it (e.g. `HTTPS_PROXY`), named in error texts.
///
/// `Debug` and [`ProxyUrl::masked`] show the password as `***`; the user name, host and port are shown.
#[derive(Clone, PartialEq, Eq)]
pub struct ProxyUrl {
    url: Url,
    setting: &'static str,
}

/// Why a proxy URL was refused ([`ProxyUrl::parse`]). The texts never quote the value (it may hold a password).
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProxyUrlError {
    /// Not a URL.
    #[error("is not a proxy URL of the form http://[user:password@]host:port ({0})")]
    NotAUrl(String),
    /// A scheme other than `http` and `https` (`socks5`, …).
    #[error("has the scheme `{0}`: only http:// and https:// proxies are supported")]
    Scheme(String),
    /// No host.
    #[error("names no host: give http://[user:password@]host:port")]
    NoHost,
    /// A path, query or fragment, which a proxy URL does not have.
    #[error("must be http://[user:password@]host:port, without a path, query or fragment")]
    NotAnOrigin,
}

impl ProxyUrl {
    /// Parses `raw` (trimmed), the value of the host's setting `setting`. A value without a scheme is taken as
    /// `http://` (as curl takes it); the user and password, when present, are percent-decoded when sent
    /// (`Proxy-Authorization: Basic`, RFC 7617).
    ///
    /// Errors: [`ProxyUrlError`]: not a URL, a scheme other than http/https, no host, a path or query.
    pub fn parse(raw: &str, setting: &'static str) -> Result<Self, ProxyUrlError> {
        let raw = raw.trim();
        let with_scheme = if raw.contains("://") {
            raw.to_owned()
        } else {
            format!("http://{raw}")
        };
        // The parser's message never quotes the input.
        let url = Url::parse(&with_scheme).map_err(|err| ProxyUrlError::NotAUrl(err.to_string()))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(ProxyUrlError::Scheme(url.scheme().to_owned()));
        }
        if url.host_str().is_none_or(str::is_empty) {
            return Err(ProxyUrlError::NoHost);
        }
        if !matches!(url.path(), "" | "/") || url.query().is_some() || url.fragment().is_some() {
            return Err(ProxyUrlError::NotAnOrigin);
        }
        Ok(Self { url, setting })
    }

    /// The host's name for the setting that gave this proxy (e.g. `HTTPS_PROXY`).
    pub fn setting(&self) -> &'static str {
        self.setting
    }

    /// `scheme://[user:***@]host:port`: the proxy as texts may show it (the password masked).
    pub fn masked(&self) -> String {
        let mut shown = self.url.clone();
        if shown.password().is_some() {
            // Setting a password fails only for URLs that cannot have one, which this one does.
            let _ = shown.set_password(Some("***"));
        }
        shown.as_str().trim_end_matches('/').to_owned()
    }

    /// `scheme://host:port`, without the user or password.
    pub fn origin(&self) -> String {
        self.url.origin().ascii_serialization()
    }

    /// True when the URL carries a user name (the proxy is sent `Proxy-Authorization: Basic`).
    pub fn has_credentials(&self) -> bool {
        !self.url.username().is_empty() || self.url.password().is_some()
    }

    /// The URL as reqwest takes it (with the credentials).
    pub(crate) fn url(&self) -> &Url {
        &self.url
    }

    /// `redactor` with this proxy's password added (as is and in the `Basic` form of `user:password`), named by
    /// the setting: a proxy or upstream that echoes it back shows `[redacted HTTPS_PROXY]`.
    pub(crate) fn redact(&self, redactor: RedactorBuilder) -> RedactorBuilder {
        let Some(password) = self.url.password() else {
            return redactor;
        };
        let user = percent_decode_str(self.url.username()).decode_utf8_lossy();
        let password = percent_decode_str(password).decode_utf8_lossy();
        // The password in every form, and the base64 of `user:password` a `Proxy-Authorization: Basic` carries.
        redactor.basic(self.setting, &user, &password)
    }
}

impl fmt::Debug for ProxyUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.masked(), self.setting)
    }
}

/// The proxies of a client: for `http` URLs, for `https` URLs, and the hosts reached direct.
#[non_exhaustive]
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Proxies {
    /// The proxy of `http://` upstreams (forwarded requests), e.g. from `HTTP_PROXY`; `None`: direct.
    pub http: Option<ProxyUrl>,
    /// The proxy of `https://` upstreams (`CONNECT` tunnels), e.g. from `HTTPS_PROXY`; `None`: direct.
    pub https: Option<ProxyUrl>,
    /// Hosts reached direct, comma-separated in curl's `NO_PROXY` form: a domain matches itself and its
    /// subdomains (`example.com`, `.example.com`), an IP address or CIDR block (`10.0.0.0/8`, `::1`) matches those
    /// addresses, `*` matches every host; ports are not compared. Empty: every host through the proxy.
    pub no_proxy: String,
    /// The host's name for the no-proxy setting (e.g. `NO_PROXY`), named in error texts.
    pub no_proxy_setting: &'static str,
}

crate::setters!(Proxies {
    with_http(http: Option<ProxyUrl>);
    with_https(https: Option<ProxyUrl>);
    with_no_proxy(no_proxy: impl Into<String>) via into;
    with_no_proxy_setting(no_proxy_setting: &'static str);
});

impl Proxies {
    /// True when no proxy is set (every request goes direct).
    pub fn is_direct(&self) -> bool {
        self.http.is_none() && self.https.is_none()
    }

    /// The matcher reqwest uses for these proxies, for telling which proxy (if any) a URL goes through.
    fn matcher(&self) -> hyper_util::client::proxy::matcher::Matcher {
        let url = |proxy: &Option<ProxyUrl>| proxy.as_ref().map(|p| p.url.to_string()).unwrap_or_default();
        hyper_util::client::proxy::matcher::Matcher::builder()
            .http(url(&self.http))
            .https(url(&self.https))
            .no(self.no_proxy.clone())
            .build()
    }
}

/// Which proxies carry a client's requests (every request of [`crate::HttpClient`]: the API's, and the handoffs to
/// other hosts).
#[non_exhaustive]
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[expect(clippy::large_enum_variant, reason = "one per client, read when it is built")]
pub enum ProxyOptions {
    /// reqwest's own reading of the process environment when the client is built, curl's variables:
    /// `HTTPS_PROXY`/`https_proxy`, `HTTP_PROXY`/`http_proxy`, `ALL_PROXY`/`all_proxy` (for both schemes) and
    /// `NO_PROXY`/`no_proxy` (none of them when `REQUEST_METHOD` is set, as under CGI). The default, for embedders;
    /// the proxies' passwords are then unknown to the [`crate::Redactor`] and errors do not name the proxy.
    #[default]
    Environment,
    /// Exactly these proxies (a host that reads the environment itself, as the bundled server does): their
    /// passwords are redacted from every answer, and errors of a proxied request name the proxy and its setting.
    Explicit(Proxies),
}

impl ProxyOptions {
    /// `builder` with these proxies.
    ///
    /// Errors: reqwest's, for a proxy URL it cannot use (not expected after [`ProxyUrl::parse`]).
    pub(crate) fn apply(&self, builder: reqwest::ClientBuilder) -> reqwest::Result<reqwest::ClientBuilder> {
        let Self::Explicit(proxies) = self else {
            return Ok(builder);
        };
        let no_proxy = || reqwest::NoProxy::from_string(&proxies.no_proxy);
        let mut builder = builder.no_proxy();
        if let Some(http) = &proxies.http {
            builder = builder.proxy(reqwest::Proxy::http(http.url().as_str())?.no_proxy(no_proxy()));
        }
        if let Some(https) = &proxies.https {
            builder = builder.proxy(reqwest::Proxy::https(https.url().as_str())?.no_proxy(no_proxy()));
        }
        Ok(builder)
    }

    /// `redactor` with every proxy password added.
    pub(crate) fn redact(&self, mut redactor: RedactorBuilder) -> RedactorBuilder {
        if let Self::Explicit(proxies) = self {
            for proxy in [&proxies.http, &proxies.https].into_iter().flatten() {
                redactor = proxy.redact(redactor);
            }
        }
        redactor
    }

    /// What tells which proxy a URL goes through (only for [`ProxyOptions::Explicit`]).
    pub(crate) fn route(&self) -> Option<ProxyRoute> {
        match self {
            Self::Explicit(proxies) if !proxies.is_direct() => Some(ProxyRoute {
                matcher: std::sync::Arc::new(proxies.matcher()),
                proxies: proxies.clone(),
            }),
            _ => None,
        }
    }
}

/// Which configured proxy a URL goes through: the same rules reqwest applies, asked again for error texts.
#[derive(Clone)]
pub(crate) struct ProxyRoute {
    matcher: std::sync::Arc<hyper_util::client::proxy::matcher::Matcher>,
    proxies: Proxies,
}

impl ProxyRoute {
    /// The proxy that carries a request to `url`, or `None` when it goes direct.
    pub(crate) fn proxy_for(&self, url: &Url) -> Option<&ProxyUrl> {
        let uri: http::Uri = url.as_str().parse().ok()?;
        self.matcher.intercept(&uri)?;
        match url.scheme() {
            "https" => self.proxies.https.as_ref(),
            "http" => self.proxies.http.as_ref(),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_masks_and_refuses() {
        let proxy = ProxyUrl::parse(" http://mia:pa%40ss-word-123@proxy.example:3128 ", "HTTPS_PROXY").unwrap();
        assert_eq!(proxy.masked(), "http://mia:***@proxy.example:3128");
        assert_eq!(proxy.origin(), "http://proxy.example:3128");
        assert_eq!(format!("{proxy:?}"), "http://mia:***@proxy.example:3128 (HTTPS_PROXY)");
        assert!(proxy.has_credentials());
        let bare = ProxyUrl::parse("proxy.example:3128", "HTTP_PROXY").unwrap();
        assert_eq!(bare.masked(), "http://proxy.example:3128");
        assert!(!bare.has_credentials());
        for (raw, want) in [
            ("socks5://u:secret-pw@proxy:1080", "scheme `socks5`"),
            ("http://u:secret-pw@proxy:3128/path", "without a path"),
            ("http://:secret-pw@[", "is not a proxy URL"),
        ] {
            let err = ProxyUrl::parse(raw, "ALL_PROXY").unwrap_err().to_string();
            assert!(err.contains(want) && !err.contains("secret-pw"), "{raw}: {err}");
        }
    }

    #[test]
    fn routes_by_scheme_and_no_proxy() {
        let proxies = Proxies::default()
            .with_http(Some(ProxyUrl::parse("http://127.0.0.1:1", "HTTP_PROXY").unwrap()))
            .with_https(Some(ProxyUrl::parse("http://127.0.0.1:2", "HTTPS_PROXY").unwrap()))
            .with_no_proxy("localhost, .internal.example, 10.0.0.0/8");
        let route = ProxyOptions::Explicit(proxies).route().unwrap();
        let via = |url: &str| route.proxy_for(&Url::parse(url).unwrap()).map(ProxyUrl::setting);
        assert_eq!(via("https://api.github.com/x"), Some("HTTPS_PROXY"));
        assert_eq!(
            via("http://127.0.0.1:9/x"),
            Some("HTTP_PROXY"),
            "loopback is not exempt by itself"
        );
        assert_eq!(via("http://localhost:9/x"), None);
        assert_eq!(via("https://ci.internal.example/x"), None);
        assert_eq!(via("http://10.1.2.3/x"), None);
        assert!(ProxyOptions::Explicit(Proxies::default()).route().is_none());
        assert!(ProxyOptions::Environment.route().is_none());
    }

    #[test]
    fn passwords_are_redacted_in_both_forms() {
        let proxy = ProxyUrl::parse("http://mia:proxy-pass-0001@proxy:3128", "HTTPS_PROXY").unwrap();
        let options = ProxyOptions::Explicit(Proxies::default().with_https(Some(proxy)));
        let redactor = options.redact(crate::Redactor::builder()).build();
        let basic = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, "mia:proxy-pass-0001");
        let text = format!("echo proxy-pass-0001 and Basic {basic}");
        let redacted = redactor.redact(&text);
        assert!(
            !redacted.contains("proxy-pass-0001") && !redacted.contains(&basic),
            "{redacted}"
        );
        assert!(redacted.contains("[redacted HTTPS_PROXY]"), "{redacted}");
    }
}
