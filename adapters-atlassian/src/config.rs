//! [`AtlassianConfig`]: the settings of the three Atlassian products, as read by the server.

use std::time::Duration;

use adapters_http::{DEFAULT_MAX_BODY_BYTES, DEFAULT_TIMEOUT, Secret, default_user_agent};

/// Setting: the Atlassian Cloud site's name, `your-domain` for `https://your-domain.atlassian.net`.
pub const ENV_SITE_NAME: &str = "ATLASSIAN_SITE_NAME";
/// Setting: Jira base URL, overriding the site (Data Center, tests), e.g. `https://jira.example.com`.
pub const ENV_JIRA_BASE_URL: &str = "JIRA_BASE_URL";
/// Setting: Confluence base URL, overriding the site, e.g. `https://your-domain.atlassian.net/wiki`.
pub const ENV_CONFLUENCE_BASE_URL: &str = "CONFLUENCE_BASE_URL";
/// Setting: Bitbucket API base URL (default [`DEFAULT_BITBUCKET_BASE_URL`]).
pub const ENV_BITBUCKET_BASE_URL: &str = "BITBUCKET_BASE_URL";
/// Setting: the Atlassian account e-mail, the Basic-auth user for Jira and Confluence (and Bitbucket by default).
pub const ENV_USER_EMAIL: &str = "ATLASSIAN_USER_EMAIL";
/// Setting (secret): the Atlassian API token, the Basic-auth password matching [`ENV_USER_EMAIL`].
pub const ENV_API_TOKEN: &str = "ATLASSIAN_API_TOKEN";
/// Setting: Bitbucket user name for an app password (used instead of the e-mail + token when set).
pub const ENV_BITBUCKET_USERNAME: &str = "ATLASSIAN_BITBUCKET_USERNAME";
/// Setting (secret): Bitbucket app password matching [`ENV_BITBUCKET_USERNAME`].
pub const ENV_BITBUCKET_APP_PASSWORD: &str = "ATLASSIAN_BITBUCKET_APP_PASSWORD";

/// Default Bitbucket Cloud API base URL.
pub const DEFAULT_BITBUCKET_BASE_URL: &str = "https://api.bitbucket.org";

/// Settings of [`crate::Atlassian`]. Every credential and base is optional here: what a product lacks makes its
/// calls fail with [`crate::AtlassianError::MissingSetting`]. `Debug` never shows a secret.
#[derive(Debug, Clone)]
pub struct AtlassianConfig {
    /// `ATLASSIAN_SITE_NAME`: Jira base `https://{site}.atlassian.net`, Confluence base
    /// `https://{site}.atlassian.net/wiki`. A full host (`your-domain.atlassian.net`) is accepted too.
    pub site_name: Option<String>,
    /// `JIRA_BASE_URL`: overrides the Jira base (absolute http(s), no query).
    pub jira_base_url: Option<String>,
    /// `CONFLUENCE_BASE_URL`: overrides the Confluence base (absolute http(s), no query; with or without `/wiki`).
    pub confluence_base_url: Option<String>,
    /// `BITBUCKET_BASE_URL`: the Bitbucket API base, default `https://api.bitbucket.org`.
    pub bitbucket_base_url: String,
    /// `ATLASSIAN_USER_EMAIL`: Basic-auth user.
    pub user_email: Option<String>,
    /// `ATLASSIAN_API_TOKEN`: Basic-auth password (secret).
    pub api_token: Option<Secret>,
    /// `ATLASSIAN_BITBUCKET_USERNAME`: Bitbucket Basic-auth user for an app password.
    pub bitbucket_username: Option<String>,
    /// `ATLASSIAN_BITBUCKET_APP_PASSWORD`: Bitbucket app password (secret).
    pub bitbucket_app_password: Option<Secret>,
    /// `User-Agent` header.
    pub user_agent: String,
    /// Timeout of one request (connect, send, read the body).
    pub timeout: Duration,
    /// Largest response body accepted, in bytes (setting `HTTP_MAX_BODY_BYTES`).
    pub max_body_bytes: u64,
}

impl Default for AtlassianConfig {
    /// Nothing set, Bitbucket at `https://api.bitbucket.org`, `mcp-devtools/<version>`, 30 s, 32 MiB.
    fn default() -> Self {
        Self {
            site_name: None,
            jira_base_url: None,
            confluence_base_url: None,
            bitbucket_base_url: DEFAULT_BITBUCKET_BASE_URL.to_owned(),
            user_email: None,
            api_token: None,
            bitbucket_username: None,
            bitbucket_app_password: None,
            user_agent: default_user_agent(),
            timeout: DEFAULT_TIMEOUT,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
        }
    }
}
