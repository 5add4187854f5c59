//! [`CircleciConfig`]: the shared [`HttpOptions`] (base URL, token, setting names, user agent, timeout, body cap,
//! redaction).

use adapters_http::HttpOptions;

/// Default API base URL.
pub const DEFAULT_API_BASE: &str = "https://circleci.com/api/v2";
/// Header the token is sent in.
pub const TOKEN_HEADER: &str = "circle-token";

/// The upstream's display name, in error texts and as the cache namespace.
pub const VENDOR_NAME: &str = "CircleCI";

/// CircleCI's artifact host: a job artifact's `url` is on it (`https://output.circle-artifacts.com/output/job/…`)
/// or on one of its project subdomains (`https://<n>-<id>-gh.circle-artifacts.com/…`, older jobs). It and every
/// subdomain get the token ([`crate::CircleciClient::artifact`]), which a private project's artifacts need: CircleCI
/// downloads them with `Circle-Token` sent to these URLs ("Storing build artifacts", "Downloading all artifacts
/// for a build on CircleCI": `wget --header "Circle-Token: $CIRCLE_TOKEN"`,
/// <https://circleci.com/docs/artifacts/>; API v1.1 "Download an artifact file": `curl -L -H "Circle-Token: …"`,
/// <https://circleci.com/docs/api/v1/#download-an-artifact-file>).
pub const ARTIFACTS_DOMAIN: &str = "circle-artifacts.com";

/// Settings of a [`crate::CircleciClient`]. `Default`: [`HttpOptions::new`]`(`[`DEFAULT_API_BASE`]`)` (no token,
/// `mcp-devtools/<version>`, 30 s, 32 MiB, setting names `api_base`, `token`, `max_body_bytes`), no further
/// artifact hosts (setting name `artifact_hosts`). `Debug` never shows the token.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct CircleciConfig {
    /// Where the API is and how it is called:
    /// - `api_base`: the API v2 base URL (absolute http(s)), e.g. `https://circleci.com/api/v2`;
    /// - `credential`: a personal API token, sent as `Circle-Token`; `None` makes every call fail with
    ///   [`adapters_http::HttpError::MissingCredential`] without sending a request;
    /// - `client`: user agent, timeout of one call, body cap, and the secrets to take out of every answer.
    pub http: HttpOptions,
    /// Host names (no scheme, port or path: `artifacts.example.com`, `127.0.0.1`) whose job-artifact URLs get the
    /// token, besides [`ARTIFACTS_DOMAIN`] with its subdomains and the API base's origin: a CircleCI server install
    /// whose artifacts live elsewhere, or a test's local host. Any other host is sent no token. A value that is not
    /// a host name fails [`crate::CircleciClient::new`] naming [`CircleciConfig::artifact_hosts_setting`].
    /// Default: none.
    pub artifact_hosts: Vec<String>,
    /// What the host calls [`CircleciConfig::artifact_hosts`] in error texts (the bundled server:
    /// `CIRCLECI_ARTIFACT_HOSTS`). Default: `artifact_hosts`.
    pub artifact_hosts_setting: &'static str,
}

adapters_http::setters!(CircleciConfig {
    with_http(http: HttpOptions);
    with_artifact_hosts(artifact_hosts: Vec<String>);
    with_artifact_hosts_setting(artifact_hosts_setting: &'static str);
});

impl Default for CircleciConfig {
    fn default() -> Self {
        Self {
            http: HttpOptions::new(DEFAULT_API_BASE),
            artifact_hosts: Vec::new(),
            artifact_hosts_setting: "artifact_hosts",
        }
    }
}
