//! [`AtlassianConfig`]: the settings of the three Atlassian products (typed; this crate reads no environment), and
//! [`SettingNames`]: what the host calls them in its error texts.

use adapters_http::{ClientOptions, Secret};

use crate::deployment::Deployment;
use crate::product::Product;

/// Default Bitbucket Cloud API base URL.
pub const DEFAULT_BITBUCKET_BASE_URL: &str = "https://api.bitbucket.org";

/// Settings of [`crate::Atlassian`]. Every credential and base is optional here: what a product lacks makes its
/// calls fail with [`crate::AtlassianError::MissingSetting`] (naming it by [`SettingNames`]). How calls are made
/// (user agent, timeout, body cap, redaction) is the shared [`ClientOptions`], for the three products. `Debug` never
/// shows a secret.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct AtlassianConfig {
    /// The Atlassian Cloud site's name (`your-domain`): Jira base `https://{site}.atlassian.net`, Confluence base
    /// `https://{site}.atlassian.net/wiki`. A full host (`your-domain.atlassian.net`) is accepted too.
    pub site_name: Option<String>,
    /// Overrides the Jira base (absolute http(s), no query).
    pub jira_base_url: Option<String>,
    /// Overrides the Confluence base (absolute http(s), no query; with or without `/wiki`).
    pub confluence_base_url: Option<String>,
    /// The Bitbucket API base, default `https://api.bitbucket.org`.
    pub bitbucket_base_url: String,
    /// The Atlassian account e-mail: the Basic-auth user (Jira, Confluence, and Bitbucket by default).
    pub user_email: Option<String>,
    /// The Atlassian API token: the Basic-auth password for `user_email` (secret).
    pub api_token: Option<Secret>,
    /// Bitbucket Basic-auth user for an app password (used instead of the e-mail and token when set).
    pub bitbucket_username: Option<String>,
    /// Bitbucket app password for `bitbucket_username` (secret).
    pub bitbucket_app_password: Option<Secret>,
    /// Where Jira runs (default Cloud); Data Center needs `jira_base_url` (see [`Deployment`]).
    pub jira_deployment: Deployment,
    /// Where Confluence runs (default Cloud); Data Center needs `confluence_base_url`.
    pub confluence_deployment: Deployment,
    /// Where Bitbucket runs (default Cloud); Data Center needs a `bitbucket_base_url` of its own.
    pub bitbucket_deployment: Deployment,
    /// A Jira Data Center personal access token, sent as `Authorization: Bearer` instead of the Basic pair
    /// (secret). Refused for Jira Cloud, which takes the e-mail and API token.
    pub jira_personal_token: Option<Secret>,
    /// A Confluence Data Center personal access token, sent as Bearer (secret); refused for Confluence Cloud.
    pub confluence_personal_token: Option<Secret>,
    /// A Bitbucket access token sent as Bearer instead of any Basic pair (secret): Data Center's HTTP access token
    /// or Cloud's repository, project or workspace access token.
    pub bitbucket_access_token: Option<Secret>,
    /// What the host calls each of these settings, for error texts and
    /// [`ProductClient::credential_label`](crate::ProductClient::credential_label) (default: the field names).
    pub setting_names: SettingNames,
    /// User agent, timeout of one call, body cap (named by [`SettingNames::max_body_bytes`] when a body is too
    /// large), and the secrets to take out of every answer besides the product's own credential.
    pub client: ClientOptions,
}

adapters_http::setters!(AtlassianConfig {
    with_site_name(site_name: Option<String>);
    with_jira_base_url(jira_base_url: Option<String>);
    with_confluence_base_url(confluence_base_url: Option<String>);
    with_bitbucket_base_url(bitbucket_base_url: impl Into<String>) via into;
    with_user_email(user_email: Option<String>);
    with_api_token(api_token: Option<Secret>);
    with_bitbucket_username(bitbucket_username: Option<String>);
    with_bitbucket_app_password(bitbucket_app_password: Option<Secret>);
    with_jira_deployment(jira_deployment: Deployment);
    with_confluence_deployment(confluence_deployment: Deployment);
    with_bitbucket_deployment(bitbucket_deployment: Deployment);
    with_jira_personal_token(jira_personal_token: Option<Secret>);
    with_confluence_personal_token(confluence_personal_token: Option<Secret>);
    with_bitbucket_access_token(bitbucket_access_token: Option<Secret>);
    with_client(client: ClientOptions);
    with_setting_names(setting_names: SettingNames);
});

/// The names a host gives the settings of [`AtlassianConfig`], used in error texts ("`api_token` not set") and as
/// the credential label. [`Default`]: the field names of [`AtlassianConfig`]; the bundled server gives its
/// environment-variable names (`ATLASSIAN_API_TOKEN`, …).
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SettingNames {
    /// Name of [`AtlassianConfig::site_name`].
    pub site_name: &'static str,
    /// Name of [`AtlassianConfig::jira_base_url`].
    pub jira_base_url: &'static str,
    /// Name of [`AtlassianConfig::confluence_base_url`].
    pub confluence_base_url: &'static str,
    /// Name of [`AtlassianConfig::bitbucket_base_url`].
    pub bitbucket_base_url: &'static str,
    /// Name of [`AtlassianConfig::user_email`].
    pub user_email: &'static str,
    /// Name of [`AtlassianConfig::api_token`].
    pub api_token: &'static str,
    /// Name of [`AtlassianConfig::bitbucket_username`].
    pub bitbucket_username: &'static str,
    /// Name of [`AtlassianConfig::bitbucket_app_password`].
    pub bitbucket_app_password: &'static str,
    /// Name of [`AtlassianConfig::jira_deployment`].
    pub jira_deployment: &'static str,
    /// Name of [`AtlassianConfig::confluence_deployment`].
    pub confluence_deployment: &'static str,
    /// Name of [`AtlassianConfig::bitbucket_deployment`].
    pub bitbucket_deployment: &'static str,
    /// Name of [`AtlassianConfig::jira_personal_token`].
    pub jira_personal_token: &'static str,
    /// Name of [`AtlassianConfig::confluence_personal_token`].
    pub confluence_personal_token: &'static str,
    /// Name of [`AtlassianConfig::bitbucket_access_token`].
    pub bitbucket_access_token: &'static str,
    /// Name of [`ClientOptions::max_body_bytes`] (in [`AtlassianConfig::client`]).
    pub max_body_bytes: &'static str,
}

adapters_http::setters!(SettingNames {
    with_site_name(site_name: &'static str);
    with_jira_base_url(jira_base_url: &'static str);
    with_confluence_base_url(confluence_base_url: &'static str);
    with_bitbucket_base_url(bitbucket_base_url: &'static str);
    with_user_email(user_email: &'static str);
    with_api_token(api_token: &'static str);
    with_bitbucket_username(bitbucket_username: &'static str);
    with_bitbucket_app_password(bitbucket_app_password: &'static str);
    with_jira_deployment(jira_deployment: &'static str);
    with_confluence_deployment(confluence_deployment: &'static str);
    with_bitbucket_deployment(bitbucket_deployment: &'static str);
    with_jira_personal_token(jira_personal_token: &'static str);
    with_confluence_personal_token(confluence_personal_token: &'static str);
    with_bitbucket_access_token(bitbucket_access_token: &'static str);
    with_max_body_bytes(max_body_bytes: &'static str);
});

impl Default for SettingNames {
    fn default() -> Self {
        SettingNames {
            site_name: "site_name",
            jira_base_url: "jira_base_url",
            confluence_base_url: "confluence_base_url",
            bitbucket_base_url: "bitbucket_base_url",
            user_email: "user_email",
            api_token: "api_token",
            bitbucket_username: "bitbucket_username",
            bitbucket_app_password: "bitbucket_app_password",
            jira_deployment: "jira_deployment",
            confluence_deployment: "confluence_deployment",
            bitbucket_deployment: "bitbucket_deployment",
            jira_personal_token: "jira_personal_token",
            confluence_personal_token: "confluence_personal_token",
            bitbucket_access_token: "bitbucket_access_token",
            max_body_bytes: "max_body_bytes",
        }
    }
}

impl SettingNames {
    /// The name of the setting that overrides `product`'s base URL.
    pub fn base_url(&self, product: Product) -> &'static str {
        match product {
            Product::Jira => self.jira_base_url,
            Product::Confluence => self.confluence_base_url,
            Product::Bitbucket => self.bitbucket_base_url,
        }
    }

    /// The name of `product`'s deployment setting.
    pub fn deployment(&self, product: Product) -> &'static str {
        match product {
            Product::Jira => self.jira_deployment,
            Product::Confluence => self.confluence_deployment,
            Product::Bitbucket => self.bitbucket_deployment,
        }
    }

    /// The name of `product`'s Bearer token setting.
    pub fn bearer_token(&self, product: Product) -> &'static str {
        match product {
            Product::Jira => self.jira_personal_token,
            Product::Confluence => self.confluence_personal_token,
            Product::Bitbucket => self.bitbucket_access_token,
        }
    }
}

impl AtlassianConfig {
    /// Where `product` runs.
    pub fn deployment(&self, product: Product) -> Deployment {
        match product {
            Product::Jira => self.jira_deployment,
            Product::Confluence => self.confluence_deployment,
            Product::Bitbucket => self.bitbucket_deployment,
        }
    }

    /// `product`'s Bearer token (a Data Center personal access token, a Bitbucket access token), when set and not
    /// empty.
    pub fn bearer_token(&self, product: Product) -> Option<&Secret> {
        let token = match product {
            Product::Jira => self.jira_personal_token.as_ref(),
            Product::Confluence => self.confluence_personal_token.as_ref(),
            Product::Bitbucket => self.bitbucket_access_token.as_ref(),
        };
        token.filter(|t| !t.expose().trim().is_empty())
    }
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
            jira_deployment: Deployment::Cloud,
            confluence_deployment: Deployment::Cloud,
            bitbucket_deployment: Deployment::Cloud,
            jira_personal_token: None,
            confluence_personal_token: None,
            bitbucket_access_token: None,
            client: ClientOptions::default(),
            setting_names: SettingNames::default(),
        }
    }
}
