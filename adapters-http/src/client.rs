//! [`HttpClient`]: one `reqwest::Client` per upstream, with its base URL, credential, limits and optional cache.

use std::fmt;
use std::time::Duration;

use http::{HeaderMap, HeaderName, HeaderValue, Method};
use reqwest::redirect;
use url::Url;

use crate::body::read_capped;
use crate::cache::{CacheRequest, CacheStatus, HttpCache};
use crate::config::{HttpConfig, RedirectPolicy};
use crate::error::HttpError;
use crate::login::{LoginCheck, html_login_page};
use crate::proxy::ProxyRoute;
use crate::redact::Redactor;
use crate::response::RawResponse;
use crate::retry::{RetryPolicy, with_retries};
use crate::status::StatusError;
use crate::target::{parse_base, resolve, same_origin};
use crate::tls::TlsOptions;
use crate::vendor::Vendor;

mod handoff;

pub use handoff::Download;

/// A body from [`HttpClient::get_cached`] and where it came from.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// The response (any status; only 2xx is ever served from the cache).
    pub response: RawResponse,
    /// Hit or fresh fetch, age, and when the body was read upstream.
    pub cache: CacheStatus,
}

/// The HTTP client of one upstream. Cheap to clone (connection pool and cache are shared). `Debug` never shows
/// the credential.
///
/// Every request goes to the API base's origin only (anything else is refused before sending), carries the
/// configured credential, default headers and user agent, is bounded by the timeout, and has its body read under
/// the cap. Reads (`GET`, `HEAD`) are retried by the [`crate::RetryPolicy`] policy, all attempts and waits inside the
/// timeout.
#[derive(Clone)]
pub struct HttpClient {
    http: reqwest::Client,
    /// The client for writes (every method but GET and HEAD): same settings, but a 301/302/303 is never followed
    /// (see [`write_redirect_policy`]).
    http_write: reqwest::Client,
    /// The client for other hosts ([`HttpClient::get_handoff`], [`HttpClient::get_elsewhere`],
    /// [`HttpClient::get_vouched`]): no credential (a vouched host's request adds it), no default headers, no client
    /// certificate, same redirect rule, CAs and proxies.
    http_plain: reqwest::Client,
    vendor: Vendor,
    base: Url,
    auth: Option<(HeaderName, HeaderValue)>,
    credential: Option<[u8; 32]>,
    timeout: Duration,
    max_body_bytes: u64,
    error_message: fn(&serde_json::Value) -> Option<String>,
    cache: Option<HttpCache>,
    retry: RetryPolicy,
    /// Every configured secret and the credentials of signed URLs: what every answer passes through.
    redactor: Redactor,
    /// The configured secrets alone, for [`HttpClient::send_keeping_signed_urls`].
    secrets: Redactor,
    login_check: LoginCheck,
    /// The default `Accept` sent, for [`html_login_page`].
    accept: String,
    /// The CAs and client certificate in force, and their settings' names (for [`HttpClient::transport_error`]).
    tls: TlsOptions,
    /// Which configured proxy a URL goes through (host-given proxies only), for error texts.
    proxy_route: Option<ProxyRoute>,
}

impl fmt::Debug for HttpClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpClient")
            .field("vendor", &self.vendor.name)
            .field("base", &self.base.as_str())
            .field("credential", &if self.auth.is_some() { "***" } else { "<none>" })
            .field("cached", &self.cache.is_some())
            .finish()
    }
}

impl HttpClient {
    /// Builds the client. Sends nothing.
    ///
    /// The three reqwest clients (reads, writes, other hosts) share the TLS settings ([`crate::ClientOptions::tls`]:
    /// the CA bundle for all three, the client certificate for the API's host only) and the proxies
    /// ([`crate::ClientOptions::proxy`]).
    ///
    /// Errors: [`HttpError::InvalidSetting`] naming the base-URL setting (not an absolute http(s) URL, has a query,
    /// fragment or credentials), the credential setting (a value that cannot be an HTTP header; never echoed), or
    /// `user_agent`; [`HttpError::Transport`] when the TLS backend cannot start or refuses a proxy.
    pub fn new(config: HttpConfig) -> Result<Self, HttpError> {
        let vendor = config.vendor;
        let base = parse_base(vendor, &config.api_base)?;
        let auth = config.auth.header().map_err(|()| HttpError::InvalidSetting {
            setting: vendor.credential_setting.to_owned(),
            detail: "contains characters not allowed in an HTTP header (check for a stray newline)".to_owned(),
        })?;
        let client = &config.client;
        let user_agent = HeaderValue::from_str(&client.user_agent).map_err(|_| HttpError::InvalidSetting {
            setting: "user_agent".to_owned(),
            detail: "contains characters not allowed in an HTTP header".to_owned(),
        })?;
        let build_with = |headers: http::HeaderMap, policy: redirect::Policy, identity: bool| {
            let builder = reqwest::Client::builder()
                .default_headers(headers)
                .user_agent(user_agent.clone())
                .timeout(client.timeout)
                .redirect(policy);
            let builder = client.tls.apply(builder, identity);
            client
                .proxy
                .apply(builder)
                .and_then(reqwest::ClientBuilder::build)
                .map_err(|e| HttpError::transport(vendor, e, client.timeout))
        };
        let build = |policy: redirect::Policy| build_with(config.default_headers.clone(), policy, true);
        let http = build(redirect_policy(config.redirects))?;
        let http_write = build(write_redirect_policy(config.redirects))?;
        let http_plain = build_with(http::HeaderMap::new(), redirect_policy(config.redirects), false)?;
        // Every configured secret: the credential, the host's other secrets and the proxies' passwords.
        let secrets = || {
            let builder = Redactor::builder()
                .auth(vendor.credential_setting, &config.auth)
                .redactor(&client.redact);
            client.proxy.redact(builder)
        };
        Ok(Self {
            http,
            http_write,
            http_plain,
            vendor,
            base,
            auth,
            credential: config.auth.fingerprint(),
            timeout: client.timeout,
            max_body_bytes: client.max_body_bytes,
            error_message: config.error_message,
            cache: None,
            retry: config.retry,
            redactor: secrets().signed_urls().build(),
            secrets: secrets().build(),
            login_check: config.login_check,
            accept: config
                .default_headers
                .get(http::header::ACCEPT)
                .and_then(|accept| accept.to_str().ok())
                .unwrap_or_default()
                .to_owned(),
            tls: client.tls.clone(),
            proxy_route: client.proxy.route(),
        })
    }

    /// The error of a request to `url` that could not be sent or answered: [`HttpError::Tls`] when a TLS setting
    /// fixes it (`api_host`: the request went to the API's host, which is presented the client certificate; on
    /// another host a client-certificate failure is not the settings' to fix), [`HttpError::Proxy`] when the proxy
    /// asked for credentials, else [`HttpError::Transport`] (saying which proxy carried the request, if one did).
    /// No text holds a configured secret.
    pub(crate) fn transport_error(&self, err: reqwest::Error, url: &Url, api_host: bool) -> HttpError {
        let host = match (url.host_str(), url.port()) {
            (Some(host), Some(port)) => format!("{host}:{port}"),
            (host, _) => host.unwrap_or_default().to_owned(),
        };
        let identity_sent = api_host.then_some(self.tls.identity.is_some());
        if let Some(problem) = self.tls.problem(&err, identity_sent) {
            return HttpError::Tls {
                vendor: self.vendor,
                host,
                problem: Box::new(problem),
            };
        }
        let proxy = self.proxy_route.as_ref().and_then(|route| route.proxy_for(url));
        let mut detail = self
            .secrets
            .redact(&crate::error::transport_detail(&err, self.timeout))
            .into_owned();
        if let Some(proxy) = proxy {
            if detail.contains("proxy authorization required") {
                return self.proxy_refused(proxy);
            }
            detail.push_str(&format!(
                " (through the proxy {} of {})",
                proxy.masked(),
                proxy.setting()
            ));
        }
        HttpError::Transport {
            vendor: self.vendor,
            detail,
        }
    }

    /// [`HttpError::Proxy`] for a `407 Proxy Authentication Required` from `proxy`.
    fn proxy_refused(&self, proxy: &crate::ProxyUrl) -> HttpError {
        HttpError::Proxy {
            vendor: self.vendor,
            proxy: proxy.masked(),
            setting: proxy.setting(),
            credentials_given: proxy.has_credentials(),
        }
    }

    /// This client with `cache` attached: [`HttpClient::get_cached`] uses it (when enabled) and non-GET requests
    /// clear this vendor's entries in it.
    pub fn with_cache(mut self, cache: HttpCache) -> Self {
        self.cache = Some(cache);
        self
    }

    /// The upstream.
    pub fn vendor(&self) -> Vendor {
        self.vendor
    }

    /// The API base URL (with a trailing slash when it has no path).
    pub fn base(&self) -> &Url {
        &self.base
    }

    /// True when a credential is configured.
    pub fn has_credential(&self) -> bool {
        self.auth.is_some()
    }

    /// The check before a call that needs the credential: `Ok` when one is configured, else
    /// [`HttpError::MissingCredential`] naming the credential setting and `expected`, what to set it to (e.g.
    /// `a CircleCI personal API token`). Sends nothing.
    pub fn require_credential(&self, expected: &'static str) -> Result<(), HttpError> {
        if self.has_credential() {
            Ok(())
        } else {
            Err(HttpError::MissingCredential {
                setting: self.vendor.credential_setting,
                expected,
            })
        }
    }

    /// The body cap in force, in bytes.
    pub fn max_body_bytes(&self) -> u64 {
        self.max_body_bytes
    }

    /// Resolves `path` (relative to the base, leading `/` optional) with `query` appended, each value
    /// percent-encoded once. See [`crate::target::resolve`] for the rules and errors.
    pub fn url<K: AsRef<str>, V: AsRef<str>>(&self, path: &str, query: &[(K, V)]) -> Result<Url, HttpError> {
        resolve(self.vendor, &self.base, path, query)
    }

    /// One call: sends `method` to `url` with the credential (and `body` as JSON when given), reads the body under
    /// the cap, and returns the response whatever its status. A `GET` or `HEAD` whose answer the retry policy's
    /// classifier retries (429, 502, 503 by default) is sent again, at most 3 attempts in all, after the wait the
    /// upstream asked for (at least 1 s), as long as the wait fits in the timeout; the last answer is returned
    /// (see [`crate::RetryPolicy`]). Other methods are sent once. After any method other than GET or HEAD, this
    /// vendor's cache entries are cleared (whether or not it succeeded).
    ///
    /// Writes never turn into reads: a 301, 302 or 303 answering any method other than GET or HEAD is
    /// not followed (following it would re-send the request as a GET and report the GET's body as the write's
    /// answer); a 307 or 308 on the same origin is followed with the same method and body, as RFC 9110 §15.4
    /// requires.
    ///
    /// Errors: [`HttpError::LoginFailed`] when the answer says the login failed (the vendor's
    /// [`crate::HttpConfig::login_check`], or an HTML login page where JSON was asked for; never retried);
    /// [`HttpError::ForeignHost`] when `url` is not on the base's origin (nothing sent);
    /// [`HttpError::WriteRedirected`] for a write answered by 301/302/303 (nothing re-sent);
    /// [`HttpError::BodyTooLarge`]; [`HttpError::Transport`] (connect, TLS, timeout, reset; never retried).
    pub async fn send(
        &self,
        method: Method,
        url: Url,
        body: Option<&serde_json::Value>,
    ) -> Result<RawResponse, HttpError> {
        self.send_with(method, url, body, &HeaderMap::new()).await
    }

    /// [`HttpClient::send`] with `headers` added to this one request; each replaces the default header of the same
    /// name (e.g. an `Accept` asking for another media type). The credential is still the configured one: `headers`
    /// are not meant to carry one.
    ///
    /// Errors: as [`HttpClient::send`].
    pub async fn send_with(
        &self,
        method: Method,
        url: Url,
        body: Option<&serde_json::Value>,
        headers: &HeaderMap,
    ) -> Result<RawResponse, HttpError> {
        self.send_redacted(method, url, body, headers, &self.redactor).await
    }

    /// [`HttpClient::send`] for an answer that hands out signed URLs the caller will fetch with
    /// [`HttpClient::get_elsewhere`] (CircleCI's v1.1 job details and their `output_url`s): the configured secrets
    /// are taken out, the signed URLs' credentials are not. Such a body must not be passed on as it is: keep the
    /// URLs apart and pass the rest through [`Redactor::redact_value_except`] of [`HttpClient::redactor`].
    ///
    /// Errors: as [`HttpClient::send`].
    pub async fn send_keeping_signed_urls(&self, method: Method, url: Url) -> Result<RawResponse, HttpError> {
        self.send_redacted(method, url, None, &HeaderMap::new(), &self.secrets)
            .await
    }

    async fn send_redacted(
        &self,
        method: Method,
        url: Url,
        body: Option<&serde_json::Value>,
        headers: &HeaderMap,
        redactor: &Redactor,
    ) -> Result<RawResponse, HttpError> {
        if !same_origin(&url, &self.base) {
            return Err(HttpError::ForeignHost {
                vendor: self.vendor,
                host: url.host_str().unwrap_or_default().to_owned(),
            });
        }
        if method == Method::GET || method == Method::HEAD {
            return with_retries(&self.retry, self.vendor, self.timeout, |left| {
                self.exchange(method.clone(), url.clone(), body, headers, left, redactor)
            })
            .await;
        }
        let result = self
            .exchange(method.clone(), url, body, headers, self.timeout, redactor)
            .await;
        if let Some(cache) = &self.cache {
            cache.clear_vendor(self.vendor.name).await;
        }
        let response = result?;
        if is_method_changing_redirect(response.status.as_u16()) {
            let location = response
                .headers
                .get(http::header::LOCATION)
                .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned());
            return Err(HttpError::WriteRedirected {
                vendor: self.vendor,
                method: method.to_string(),
                status: response.status.as_u16(),
                location,
            });
        }
        Ok(response)
    }

    /// The first hop of a handoff ([`HttpClient::get_handoff_with`]): a `GET` of `url` on the API origin, sent and
    /// retried as [`HttpClient::send`] sends one, except that a 301, 302 or 303 is returned rather than followed, even
    /// to the API's own origin, so that the caller streams the download it hands out wherever it is. The answer passes
    /// through the configured secrets only (the `Location` is a signed URL to follow).
    ///
    /// Errors: as [`HttpClient::send`].
    pub(crate) async fn send_first_hop(&self, url: Url, headers: &HeaderMap) -> Result<RawResponse, HttpError> {
        if !same_origin(&url, &self.base) {
            return Err(HttpError::ForeignHost {
                vendor: self.vendor,
                host: url.host_str().unwrap_or_default().to_owned(),
            });
        }
        with_retries(&self.retry, self.vendor, self.timeout, |left| {
            // The write client's rule: 301/302/303 stop, a same-origin 307/308 is followed.
            self.exchange_on(
                &self.http_write,
                Method::GET,
                url.clone(),
                None,
                headers,
                left,
                &self.secrets,
            )
        })
        .await
    }

    /// One attempt, bounded by `timeout` (connect, send and the whole body): the time left in the call. A timeout
    /// is reported as the call's (`self.timeout`), which it has then used up.
    async fn exchange(
        &self,
        method: Method,
        url: Url,
        body: Option<&serde_json::Value>,
        headers: &HeaderMap,
        timeout: Duration,
        redactor: &Redactor,
    ) -> Result<RawResponse, HttpError> {
        let client = if method == Method::GET || method == Method::HEAD {
            &self.http
        } else {
            &self.http_write
        };
        self.exchange_on(client, method, url, body, headers, timeout, redactor)
            .await
    }

    /// [`HttpClient::exchange`] through `client` (one of the API's: the credential, default headers and client
    /// certificate are the same; their redirect rules differ).
    #[allow(clippy::too_many_arguments)]
    async fn exchange_on(
        &self,
        client: &reqwest::Client,
        method: Method,
        url: Url,
        body: Option<&serde_json::Value>,
        headers: &HeaderMap,
        timeout: Duration,
        redactor: &Redactor,
    ) -> Result<RawResponse, HttpError> {
        let path = url.path().to_owned();
        tracing::debug!(target: "adapters_http", vendor = self.vendor.name, %method, %path, "upstream request");
        let mut request = client
            .request(method, url.clone())
            .timeout(timeout)
            .headers(headers.clone());
        if let Some((name, value)) = &self.auth {
            request = request.header(name, value.clone());
        }
        if let Some(body) = body {
            request = request.json(body);
        }
        let response = request
            .send()
            .await
            // An attempt gets what is left of the call's budget, so when it times out the whole budget is spent: report it.
            .map_err(|e| self.transport_error(e, &url, true))?;
        let status = response.status();
        // Only a forwarding proxy answers 407 (RFC 9110 §15.5.8): an `http` upstream reached through one.
        if status == http::StatusCode::PROXY_AUTHENTICATION_REQUIRED
            && let Some(proxy) = self.proxy_route.as_ref().and_then(|route| route.proxy_for(&url))
        {
            return Err(self.proxy_refused(proxy));
        }
        let headers = response.headers().clone();
        let url = response.url().clone();
        let body = read_capped(self.vendor, response, self.max_body_bytes, self.timeout).await?;
        // Before anything reads the answer (errors, decoding, the cache): no secret comes back in any form.
        let body = redactor.redact_body(body);
        let headers = redactor.redact_headers(headers);
        tracing::debug!(
            target: "adapters_http",
            vendor = self.vendor.name,
            %path,
            status = status.as_u16(),
            bytes = body.len(),
            "upstream response"
        );
        let response = RawResponse {
            status,
            headers,
            body,
            url,
        };
        // An answer that says the login failed is an error whatever its status, and is never retried or cached.
        let failed = self
            .login_check
            .failure(&response)
            .or_else(|| html_login_page(self.vendor, &self.accept, &response));
        if let Some(cause) = failed {
            tracing::debug!(target: "adapters_http", vendor = self.vendor.name, %path, "upstream login failed");
            return Err(HttpError::LoginFailed {
                vendor: self.vendor,
                status: response.status.as_u16(),
                cause,
            });
        }
        Ok(response)
    }

    /// What this client takes out of every answer (its own credential, [`crate::ClientOptions::redact`]'s secrets
    /// and the credentials of signed URLs), for texts a vendor adapter builds from anything else the upstream sent.
    pub fn redactor(&self) -> &Redactor {
        &self.redactor
    }

    /// A GET through the cache: a fresh entry is served as a hit; otherwise the body is fetched, and stored when
    /// it is storable (see [`crate::cache`]). Without a cache, with the cache disabled, or when
    /// `request.cacheable` is false, this is a plain fetch (`hit: false`, age 0). `request.fresh` skips the lookup
    /// and replaces the entry.
    ///
    /// Errors: as [`HttpClient::send`]. A non-2xx response is returned (never stored), not an error: see
    /// [`HttpClient::check_status`].
    pub async fn get_cached(&self, url: Url, request: CacheRequest<'_>) -> Result<Fetched, HttpError> {
        let cache = self.cache.as_ref().filter(|c| c.config().enabled && request.cacheable);
        let Some(cache) = cache else {
            let response = self.send(Method::GET, url, None).await?;
            let now = self
                .cache
                .as_ref()
                .map_or_else(std::time::SystemTime::now, HttpCache::now);
            return Ok(Fetched {
                response,
                cache: CacheStatus::fetched(now),
            });
        };
        let mut lookup = cache.lookup(self.vendor.name, &request, self.credential, &url).await;
        if let Some((response, status)) = lookup.hit.take() {
            tracing::debug!(target: "adapters_http", vendor = self.vendor.name, age_ms = status.age_ms(), "cache hit");
            return Ok(Fetched {
                response,
                cache: status,
            });
        }
        let response = self.send(Method::GET, url.clone(), None).await?;
        let fetched_at = cache.now();
        cache
            .store(
                &lookup,
                self.vendor.name,
                &request,
                self.credential,
                &url,
                &response,
                fetched_at,
            )
            .await;
        Ok(Fetched {
            response,
            cache: CacheStatus::fetched(fetched_at),
        })
    }

    /// `Ok(response)` for a 2xx, else [`HttpError::Status`] with the class and the vendor's message (picked by the
    /// configured extractor, verbatim and bounded) and `Retry-After`.
    pub fn check_status(&self, response: RawResponse) -> Result<RawResponse, HttpError> {
        if response.status.is_success() {
            return Ok(response);
        }
        Err(HttpError::Status(Box::new(StatusError::from_parts(
            self.vendor,
            response.status.as_u16(),
            &response.headers,
            &response.body,
            self.error_message,
        ))))
    }
}

/// True for the redirects after which a client may (and reqwest does) re-send a write as a `GET`: 301, 302 and 303
/// (RFC 9110 §15.4.2-4).
fn is_method_changing_redirect(status: u16) -> bool {
    matches!(status, 301..=303)
}

/// The reqwest redirect policy of the write client: as [`redirect_policy`], except that a 301, 302 or 303 is never
/// followed (it is returned, and [`HttpClient::send`] reports it), so a write is never re-sent as a read.
fn write_redirect_policy(policy: RedirectPolicy) -> redirect::Policy {
    let reads = redirect_policy(policy);
    redirect::Policy::custom(move |attempt| {
        if is_method_changing_redirect(attempt.status().as_u16()) {
            attempt.stop()
        } else {
            reads.redirect(attempt)
        }
    })
}

/// The reqwest redirect policy for a [`RedirectPolicy`].
fn redirect_policy(policy: RedirectPolicy) -> redirect::Policy {
    match policy {
        RedirectPolicy::None => redirect::Policy::none(),
        RedirectPolicy::SameOrigin { max } => redirect::Policy::custom(move |attempt| {
            let same = attempt
                .previous()
                .first()
                .is_some_and(|first| same_origin(first, attempt.url()));
            if same && attempt.previous().len() <= max {
                attempt.follow()
            } else {
                attempt.stop()
            }
        }),
    }
}
