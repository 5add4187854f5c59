//! [`Atlassian`]: the Jira, Confluence and Bitbucket clients; [`ProductClient`]: one product's requests.

use adapters_http::{HttpClient, HttpConfig, HttpError, cache::CacheRequest, cache::HttpCache, decode::Payload};
use http::{HeaderMap, HeaderValue, Method, header};
use url::Url;

use crate::config::AtlassianConfig;
use crate::deployment::Deployment;
use crate::error::AtlassianError;
use crate::product::Product;
use crate::site::{SendAs, error_body, resolve};
use crate::{bitbucket, confluence, jira};

/// One request to a product.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// `GET`, `POST`, `PUT`, `PATCH` or `DELETE`.
    pub method: &'a Method,
    /// Path relative to the product's base (leading `/` optional; Confluence `/wiki` and Bitbucket `/2.0` handled
    /// by the product's rules), possibly with its own encoded query (`_links.next`), or an absolute URL on the
    /// base's origin (a Bitbucket `next`, a Jira `self`).
    pub path: &'a str,
    /// Query parameters, each name and value percent-encoded exactly once (page tokens keep `+ / =`).
    pub query: &'a [(String, String)],
    /// JSON body, sent with `Content-Type: application/json` (ignored for `GET`).
    pub body: Option<&'a serde_json::Value>,
    /// Cache partition for `GET`: the calling principal's name.
    pub partition: &'a str,
}

/// A successful answer: the status and the body as the vendor sent it.
#[derive(Debug, Clone, PartialEq)]
pub struct AtlassianResponse {
    /// The 2xx status.
    pub status: u16,
    /// The body: JSON with exact integers, of any depth; a text body (a Bitbucket diff) as a JSON string decoded per
    /// its charset; a `204` or an empty body as `{}`; a binary body (an image, an archive) as bytes with its media
    /// type (see [`adapters_http::decode::payload`]).
    pub body: Payload,
    /// The next page of a `GET` as an absolute URL, from the product's own forms (Jira's `nextPageToken`,
    /// `nextPage` and `startAt`; Confluence's `_links.next`; Bitbucket's `next` and Data Center's
    /// `nextPageStart`), `None` on the last page, for a body without paging, and for writes.
    pub next_link: Option<String>,
}

/// One product's client, or the reason it cannot be used (a missing or invalid setting), reported at call time.
/// Cheap to clone. `Debug` never shows a credential.
#[derive(Debug, Clone)]
pub struct ProductClient {
    product: Product,
    deployment: Deployment,
    http: Result<HttpClient, AtlassianError>,
}

impl ProductClient {
    /// Resolves `product`'s base and credential from `config` and builds its HTTP client (same-origin redirects,
    /// the product's `Accept`, `cache` for GETs). Sends nothing and never fails: a problem is kept and returned by
    /// every call.
    pub fn new(product: Product, config: &AtlassianConfig, cache: Option<HttpCache>) -> Self {
        let http = build(product, config).map(|http| match cache {
            Some(cache) => http.with_cache(cache),
            None => http,
        });
        Self {
            product,
            deployment: config.deployment(product),
            http,
        }
    }

    /// The product.
    pub fn product(&self) -> Product {
        self.product
    }

    /// Where the product runs (its paths and paging follow).
    pub fn deployment(&self) -> Deployment {
        self.deployment
    }

    /// The base URL in use, `None` when the product is not configured.
    pub fn base(&self) -> Option<&Url> {
        self.http.as_ref().ok().map(HttpClient::base)
    }

    /// The name of the credential setting in use (the host's name for `api_token` or `bitbucket_app_password`,
    /// [`crate::config::SettingNames`]), never its value; `None` when the product is not configured.
    pub fn credential_label(&self) -> Option<&'static str> {
        self.http.as_ref().ok().map(|http| http.vendor().credential_setting)
    }

    /// Why calls fail before sending, when they do.
    pub fn config_error(&self) -> Option<&AtlassianError> {
        self.http.as_ref().err()
    }

    /// Sends `request` and returns the body as data. A `GET` goes through the HTTP cache (when one is attached and
    /// enabled; the upstream's `Cache-Control` is honoured); any other method clears this product's cache entries.
    ///
    /// Errors: [`AtlassianError::MissingSetting`] / [`HttpError::InvalidSetting`] (nothing sent);
    /// [`HttpError::InvalidPath`] and [`HttpError::ForeignHost`] (nothing sent, so no credential leaves);
    /// [`HttpError::Status`] with the vendor's error body verbatim (also for a redirect to another host, which is
    /// not followed); [`HttpError::WriteRedirected`] for a write answered by 301/302/303 (not followed, nothing
    /// re-sent); [`HttpError::InvalidJson`], [`HttpError::BodyTooLarge`], [`HttpError::Transport`].
    pub async fn send(&self, request: &Request<'_>) -> Result<AtlassianResponse, AtlassianError> {
        let http = self.http.as_ref().map_err(Clone::clone)?;
        if request.path.trim().is_empty() {
            return Err(HttpError::InvalidPath {
                path: String::new(),
                detail: "must not be empty".to_owned(),
            }
            .into());
        }
        let path = match self.product {
            Product::Jira => jira::request_path(http.base(), request.path),
            Product::Confluence => confluence::request_path(http.base(), request.path, self.deployment),
            Product::Bitbucket => bitbucket::request_path(http.base(), request.path, self.deployment),
        };
        let url = http.url(&path, request.query)?;
        if self.product == Product::Jira {
            jira::check_prefix(http.base(), &url, request.path)?;
        }
        let response = if *request.method == Method::GET {
            let cache = CacheRequest {
                partition: request.partition,
                fresh: false,
                cacheable: true,
            };
            http.get_cached(url.clone(), cache).await?.response
        } else {
            http.send(request.method.clone(), url.clone(), request.body).await?
        };
        let response = http.check_status(response)?;
        let body = response.parse_payload(http.vendor()).await?;
        let next_link = match (body.as_data(), *request.method == Method::GET) {
            (Some(data), true) => match self.product {
                Product::Jira => jira::next_link(&url, data),
                Product::Confluence => confluence::next_link(&url, data, self.deployment, http.base()),
                Product::Bitbucket => bitbucket::next_link(&url, data),
            },
            _ => None,
        };
        Ok(AtlassianResponse {
            status: response.status.as_u16(),
            body,
            next_link,
        })
    }
}

fn build(product: Product, config: &AtlassianConfig) -> Result<HttpClient, AtlassianError> {
    let resolved = resolve(product, config)?;
    let accept = match product {
        Product::Jira => jira::ACCEPT,
        Product::Confluence => confluence::ACCEPT,
        Product::Bitbucket => bitbucket::ACCEPT,
    };
    let mut default_headers = HeaderMap::new();
    default_headers.insert(header::ACCEPT, HeaderValue::from_static(accept));
    let names = &config.setting_names;
    let credential = resolved.http.setting_names.credential;
    let user_setting = match &resolved.send_as {
        SendAs::Bearer => None,
        SendAs::Basic { .. } if credential == names.bitbucket_app_password => Some(names.bitbucket_username),
        SendAs::Basic { .. } => Some(names.user_email),
    };
    let send_as = resolved.send_as;
    let http = HttpClient::new(
        HttpConfig::from_options(product.name(), resolved.http, |secret| send_as.auth(secret))
            .with_default_headers(default_headers)
            .with_error_message(error_body)
            .with_login_check(crate::login::login_check(product, user_setting, credential)),
    )?;
    Ok(http)
}

/// The three Atlassian product clients, sharing one HTTP cache. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Atlassian {
    /// Jira.
    pub jira: ProductClient,
    /// Confluence.
    pub confluence: ProductClient,
    /// Bitbucket.
    pub bitbucket: ProductClient,
}

impl Atlassian {
    /// Builds the three clients from `config` (see [`ProductClient::new`]); never fails, sends nothing.
    pub fn new(config: &AtlassianConfig, cache: Option<HttpCache>) -> Self {
        Self {
            jira: ProductClient::new(Product::Jira, config, cache.clone()),
            confluence: ProductClient::new(Product::Confluence, config, cache.clone()),
            bitbucket: ProductClient::new(Product::Bitbucket, config, cache),
        }
    }

    /// The client of `product`.
    pub fn product(&self, product: Product) -> &ProductClient {
        match product {
            Product::Jira => &self.jira,
            Product::Confluence => &self.confluence,
            Product::Bitbucket => &self.bitbucket,
        }
    }
}
