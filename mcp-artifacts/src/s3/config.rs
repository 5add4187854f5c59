//! [`S3Config`]: where the S3 store keeps its objects and how it signs in.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use object_store::aws::{AmazonS3, AmazonS3Builder};
use object_store::path::Path;
use object_store::{BackoffConfig, ClientOptions, RetryConfig};

/// How to reach the bucket (typed: this crate reads no environment; the bundled server fills it from its settings).
/// `Debug` never shows the secret key or the session token.
#[non_exhaustive]
#[derive(Clone, Default, PartialEq, Eq)]
pub struct S3Config {
    /// `s3://BUCKET` or `s3://BUCKET/PREFIX`: objects are kept under `PREFIX/` (the bucket's root without one).
    pub url: String,
    /// An S3-compatible endpoint (MinIO, a local test server, ...); `None` for AWS S3 itself.
    pub endpoint: Option<String>,
    /// The region (`us-east-1` when `None`).
    pub region: Option<String>,
    /// Access key id; `None` with `secret_access_key` `None` uses the instance's role credentials.
    pub access_key_id: Option<String>,
    /// Secret access key.
    pub secret_access_key: Option<String>,
    /// Session token of temporary credentials.
    pub session_token: Option<String>,
    /// Allow a plain `http://` endpoint (a local server); `false` requires TLS.
    pub allow_http: bool,
}

impl S3Config {
    /// This config with [`S3Config::url`] set.
    #[must_use]
    pub fn with_url(mut self, url: impl Into<String>) -> Self {
        self.url = url.into();
        self
    }

    /// This config with [`S3Config::endpoint`] set.
    #[must_use]
    pub fn with_endpoint(mut self, endpoint: Option<String>) -> Self {
        self.endpoint = endpoint;
        self
    }

    /// This config with [`S3Config::region`] set.
    #[must_use]
    pub fn with_region(mut self, region: Option<String>) -> Self {
        self.region = region;
        self
    }

    /// This config with [`S3Config::access_key_id`] set.
    #[must_use]
    pub fn with_access_key_id(mut self, access_key_id: Option<String>) -> Self {
        self.access_key_id = access_key_id;
        self
    }

    /// This config with [`S3Config::secret_access_key`] set.
    #[must_use]
    pub fn with_secret_access_key(mut self, secret_access_key: Option<String>) -> Self {
        self.secret_access_key = secret_access_key;
        self
    }

    /// This config with [`S3Config::session_token`] set.
    #[must_use]
    pub fn with_session_token(mut self, session_token: Option<String>) -> Self {
        self.session_token = session_token;
        self
    }

    /// This config with [`S3Config::allow_http`] set.
    #[must_use]
    pub fn with_allow_http(mut self, allow_http: bool) -> Self {
        self.allow_http = allow_http;
        self
    }
}

impl fmt::Debug for S3Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let masked = |s: &Option<String>| s.as_ref().map(|_| "***");
        f.debug_struct("S3Config")
            .field("url", &self.url)
            .field("endpoint", &self.endpoint)
            .field("region", &self.region)
            .field("access_key_id", &self.access_key_id)
            .field("secret_access_key", &masked(&self.secret_access_key))
            .field("session_token", &masked(&self.session_token))
            .field("allow_http", &self.allow_http)
            .finish()
    }
}

/// A bad [`S3Config`]; the text names the field and never contains a secret.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum S3ConfigError {
    /// `url` is not `s3://BUCKET[/PREFIX]`.
    #[error("the S3Config `url` must look like s3://BUCKET or s3://BUCKET/PREFIX (got {0:?})")]
    BadUrl(String),
    /// The client could not be built from the settings (the text is the S3 client's, without secrets).
    #[error("cannot configure the S3 artifact store: {0}")]
    Client(String),
}

/// Each S3 request is retried at most this many times (object_store's exponential backoff).
const MAX_RETRIES: usize = 3;
/// All attempts of one S3 request end within this time.
const RETRY_TIMEOUT: Duration = Duration::from_secs(15);
/// One attempt's connect timeout.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// One attempt's whole-request timeout.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

impl S3Config {
    /// The bucket name and the key prefix of `url`.
    ///
    /// Errors: [`S3ConfigError::BadUrl`].
    pub fn bucket_and_prefix(&self) -> Result<(String, Path), S3ConfigError> {
        let bad = || S3ConfigError::BadUrl(self.url.clone());
        let rest = self.url.strip_prefix("s3://").ok_or_else(bad)?;
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        if bucket.is_empty() || bucket.contains(['?', '#', '@']) {
            return Err(bad());
        }
        let prefix = Path::parse(prefix.trim_end_matches('/')).map_err(|_| bad())?;
        Ok((bucket.to_owned(), prefix))
    }

    /// The object_store client for this bucket, and the prefix. Sends nothing.
    ///
    /// Errors: [`S3ConfigError`].
    pub(super) fn build(&self) -> Result<(Arc<AmazonS3>, Path), S3ConfigError> {
        let (bucket, prefix) = self.bucket_and_prefix()?;
        let mut builder = AmazonS3Builder::new()
            .with_bucket_name(bucket)
            .with_region(self.region.clone().unwrap_or_else(|| "us-east-1".to_owned()))
            .with_allow_http(self.allow_http)
            .with_retry(RetryConfig {
                backoff: BackoffConfig::default(),
                max_retries: MAX_RETRIES,
                retry_timeout: RETRY_TIMEOUT,
            })
            .with_client_options(
                ClientOptions::new()
                    .with_connect_timeout(CONNECT_TIMEOUT)
                    .with_timeout(REQUEST_TIMEOUT)
                    .with_allow_http(self.allow_http),
            );
        if let Some(endpoint) = &self.endpoint {
            builder = builder.with_endpoint(endpoint);
        }
        if let Some(key) = &self.access_key_id {
            builder = builder.with_access_key_id(key);
        }
        if let Some(secret) = &self.secret_access_key {
            builder = builder.with_secret_access_key(secret);
        }
        if let Some(token) = &self.session_token {
            builder = builder.with_token(token);
        }
        let store = builder.build().map_err(|e| S3ConfigError::Client(e.to_string()))?;
        Ok((Arc::new(store), prefix))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(url: &str) -> S3Config {
        S3Config {
            url: url.into(),
            ..S3Config::default()
        }
    }

    #[test]
    fn urls() {
        let (bucket, prefix) = url("s3://b/some/prefix/").bucket_and_prefix().expect("ok");
        assert_eq!((bucket.as_str(), prefix.as_ref()), ("b", "some/prefix"));
        let (bucket, prefix) = url("s3://b").bucket_and_prefix().expect("ok");
        assert_eq!((bucket.as_str(), prefix.as_ref()), ("b", ""));
        for bad in ["", "b/p", "http://b/p", "s3://", "s3:///p"] {
            assert!(url(bad).bucket_and_prefix().is_err(), "{bad}");
        }
    }

    #[test]
    fn debug_masks_secrets() {
        let config = S3Config {
            secret_access_key: Some("wJalrXUtnFEMI".into()),
            session_token: Some("tok3n".into()),
            ..url("s3://b")
        };
        let shown = format!("{config:?}");
        assert!(!shown.contains("wJalrXUtnFEMI") && !shown.contains("tok3n"), "{shown}");
    }
}
