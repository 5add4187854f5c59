//! [`CircleciClient`]: `GET` any API v2 path.

use adapters_http::next_link;
use adapters_http::{
    Auth, HttpClient, HttpConfig, VouchedHosts, cache::CacheRequest, cache::CacheStatus, cache::HttpCache,
    decode::Payload,
};
use http::{HeaderMap, HeaderName, HeaderValue, header};

use crate::config::{ARTIFACTS_DOMAIN, CircleciConfig, TOKEN_HEADER, VENDOR_NAME};
use crate::error::CircleciError;
use crate::path::{is_cacheable_path, strip_api_prefix};

/// What the token setting must hold, in the text of a missing token.
const TOKEN_EXPECTED: &str = "a CircleCI personal API token (User Settings → Personal API Tokens)";

/// One `GET`: [`GetRequest::new`], then the `with_*` methods.
#[non_exhaustive]
#[derive(Debug, Clone, Copy)]
pub struct GetRequest<'a> {
    /// Path relative to the API base, with or without the `/api/v2` prefix and the leading `/`, e.g.
    /// `/project/gh/CircleCI-Public/api-preview-docs/pipeline` or `/api/v2/me`. It may carry its own query.
    pub path: &'a str,
    /// Query parameters, each name and value percent-encoded exactly once (a `page-token` with `+ / =` survives).
    pub query: &'a [(String, String)],
    /// Skip the cache lookup and replace the entry.
    pub fresh: bool,
    /// Cache partition: the calling principal's name.
    pub partition: &'a str,
}

impl<'a> GetRequest<'a> {
    /// A `GET` of `path` (see [`GetRequest::path`]) without query, cached in the calling principal's `partition`.
    pub fn new(path: &'a str, partition: &'a str) -> Self {
        Self {
            path,
            query: &[],
            fresh: false,
            partition,
        }
    }

    /// With [`GetRequest::path`] set.
    #[must_use]
    pub fn with_path(mut self, path: &'a str) -> Self {
        self.path = path;
        self
    }

    /// With [`GetRequest::query`] set.
    #[must_use]
    pub fn with_query(mut self, query: &'a [(String, String)]) -> Self {
        self.query = query;
        self
    }

    /// With [`GetRequest::fresh`] set.
    #[must_use]
    pub fn with_fresh(mut self, fresh: bool) -> Self {
        self.fresh = fresh;
        self
    }

    /// With [`GetRequest::partition`] set.
    #[must_use]
    pub fn with_partition(mut self, partition: &'a str) -> Self {
        self.partition = partition;
        self
    }
}

/// A successful `GET`: the body and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct CircleciResponse {
    /// The body: JSON (exact integers, key order kept, any depth; CircleCI's own continuation `next_page_token`
    /// stays inside it), a text body as a JSON string decoded per its charset, or a binary body as bytes with its
    /// media type (see [`adapters_http::decode::payload`]).
    pub body: Payload,
    /// Cache hit or fresh fetch, age, and when the body was read upstream.
    pub cache: CacheStatus,
    /// The next page as an absolute URL (the request's, with `page-token` set to the body's `next_page_token`),
    /// `None` on the last page or for a body without one; see [`adapters_http::next_link`].
    pub next_link: Option<String>,
}

/// A CircleCI API v2 client. Cheap to clone. `Debug` never shows the token.
#[derive(Debug, Clone)]
pub struct CircleciClient {
    pub(crate) http: HttpClient,
    /// Where a job artifact's URL gets the token: [`ARTIFACTS_DOMAIN`] and its subdomains, and the configured
    /// hosts (the API base's origin always does).
    pub(crate) artifact_hosts: VouchedHosts,
    /// The name of [`CircleciConfig::artifact_hosts`], for error texts.
    pub(crate) artifact_hosts_setting: &'static str,
}

impl CircleciClient {
    /// Builds the client, with `cache` used for cacheable GETs when given. Sends nothing.
    ///
    /// Errors: [`CircleciError::Http`] with an invalid `api_base`, a token that cannot be sent in a
    /// header (never echoed), or an entry of `artifact_hosts` that is not a host name (named). A missing token is
    /// not an error here: calls then fail with [`adapters_http::HttpError::MissingCredential`].
    pub fn new(config: CircleciConfig, cache: Option<HttpCache>) -> Result<Self, CircleciError> {
        let mut artifact_hosts = VouchedHosts::new().with_domain(ARTIFACTS_DOMAIN);
        for host in &config.artifact_hosts {
            artifact_hosts = artifact_hosts.with_host(host, config.artifact_hosts_setting)?;
        }
        let mut default_headers = HeaderMap::new();
        default_headers.insert(header::ACCEPT, HeaderValue::from_static("application/json"));
        let send = |value| Auth::Header {
            name: HeaderName::from_static(TOKEN_HEADER),
            value,
        };
        let http = HttpClient::new(
            HttpConfig::from_options(VENDOR_NAME, config.http, send).with_default_headers(default_headers),
        )?;
        let http = match cache {
            Some(cache) => http.with_cache(cache),
            None => http,
        };
        Ok(Self {
            http,
            artifact_hosts,
            artifact_hosts_setting: config.artifact_hosts_setting,
        })
    }

    /// The API base URL in use.
    pub fn api_base(&self) -> &str {
        self.http.base().as_str()
    }

    /// [`HttpClient::require_credential`] with what CircleCI's token must be.
    pub(crate) fn require_token(&self) -> Result<(), CircleciError> {
        Ok(self.http.require_credential(TOKEN_EXPECTED)?)
    }

    /// `GET <base><path>?<query>`: the JSON body, through the cache unless the path has a `pipeline`, `workflow`
    /// or `job` segment.
    ///
    /// Errors: [`CircleciError::Http`] with [`adapters_http::HttpError::MissingCredential`] (nothing sent),
    /// [`adapters_http::HttpError::InvalidPath`] / `ForeignHost` (nothing sent), `Status` (CircleCI's `message`
    /// kept; 404 is `Project not found` and the like; never cached), `InvalidJson`, `BodyTooLarge`, `Transport`.
    pub async fn get(&self, request: &GetRequest<'_>) -> Result<CircleciResponse, CircleciError> {
        self.require_token()?;
        let path = strip_api_prefix(request.path);
        let path = if path.is_empty() || path == "/" { "/" } else { path };
        let url = self.http.url(path, request.query)?;
        let below_base = url.path().strip_prefix(self.http.base().path()).unwrap_or(url.path());
        let cache = CacheRequest {
            partition: request.partition,
            fresh: request.fresh,
            cacheable: is_cacheable_path(below_base),
        };
        let fetched = self.http.get_cached(url.clone(), cache).await?;
        let response = self.http.check_status(fetched.response)?;
        let body = response.parse_payload(self.http.vendor()).await?;
        let next_link = body
            .as_data()
            .and_then(|data| next_link::token(&url, data, "next_page_token", "page-token", None));
        Ok(CircleciResponse {
            body,
            cache: fetched.cache,
            next_link,
        })
    }
}
