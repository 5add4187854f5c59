//! The Atlassian module shared by the three products: [`Product`], base URLs and credentials, and the error-body
//! rule.
//!
//! - Bases: Jira `https://{site_name}.atlassian.net`, Confluence `https://{site_name}.atlassian.net/wiki`, each
//!   overridden by `jira_base_url` / `confluence_base_url`; Bitbucket `bitbucket_base_url` (default
//!   `https://api.bitbucket.org`). A Data Center product ([`Deployment::DataCenter`]) has no site: its base-URL
//!   setting is required.
//! - Auth: a product's Bearer token when set (a Data Center personal access token; a Bitbucket access token,
//!   <https://confluence.atlassian.com/bitbucketserver/http-access-tokens-939515499.html>), else HTTP Basic
//!   (RFC 7617) with `user_email` + `api_token`
//!   (<https://developer.atlassian.com/cloud/jira/platform/basic-auth-for-rest-apis/>; on Data Center the user name
//!   and password); Bitbucket uses `bitbucket_username` + `bitbucket_app_password` when either is set
//!   (<https://support.atlassian.com/bitbucket-cloud/docs/app-passwords/>).
//!
//! Errors name the settings by the host's [`SettingNames`](crate::config::SettingNames).

use adapters_http::{Auth, HttpOptions, Secret};
use url::Url;

use crate::config::AtlassianConfig;
use crate::deployment::Deployment;
use crate::error::AtlassianError;
use crate::product::Product;

/// Where a product's requests go and how they authenticate, resolved from the settings: the product's options, as
/// any vendor client's, and how its credential is sent.
#[derive(Debug, Clone)]
pub struct Resolved {
    /// The base URL (not yet parsed; [`adapters_http::HttpClient::new`] checks it); the credential (API token, app
    /// password, password or Bearer token); the settings in force by the host's names (base: the site name or the
    /// product's base-URL setting; the credential's setting; the body cap); and the config's
    /// [`adapters_http::ClientOptions`]. `Debug` never shows the credential.
    pub http: HttpOptions,
    /// How the credential is sent.
    pub send_as: SendAs,
}

/// How a product's credential is sent.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SendAs {
    /// HTTP Basic with this user: the account e-mail (Cloud), the user name (Data Center), or the Bitbucket user
    /// name of an app password.
    Basic {
        /// The Basic-auth user.
        user: String,
    },
    /// `Authorization: Bearer` (RFC 6750): a personal or HTTP access token.
    Bearer,
}

impl SendAs {
    /// The [`Auth`] that sends `secret` this way.
    pub fn auth(self, secret: Secret) -> Auth {
        match self {
            SendAs::Basic { user } => Auth::Basic { user, secret },
            SendAs::Bearer => Auth::Bearer(secret),
        }
    }
}

/// Resolves `product`'s base URL and credential from `config`.
///
/// Errors: [`AtlassianError::MissingSetting`] naming what to set (the base: the site name or the product's
/// base-URL setting; the credential pair); [`AtlassianError::Http`] with `InvalidSetting` for a site name that is
/// not a host label.
pub fn resolve(product: Product, config: &AtlassianConfig) -> Result<Resolved, AtlassianError> {
    let (base, base_setting) = base(product, config)?;
    let (send_as, secret, credential_setting) = match bearer(product, config)? {
        Some((secret, setting)) => (SendAs::Bearer, secret, setting),
        None => {
            let (user, secret, setting) = credential(product, config)?;
            (SendAs::Basic { user }, secret, setting)
        }
    };
    let names = adapters_http::SettingNames::default()
        .with_base(base_setting)
        .with_credential(credential_setting)
        .with_max_body(config.setting_names.max_body_bytes);
    let http = HttpOptions::new(base)
        .with_credential(Some(secret))
        .with_setting_names(names)
        .with_client(config.client.clone());
    Ok(Resolved { http, send_as })
}

/// `product`'s Bearer token and its setting's name, when set. Jira and Confluence Cloud take no personal access
/// token (their API tokens go with the e-mail as Basic), so one set for them is refused, naming the fix.
fn bearer(product: Product, config: &AtlassianConfig) -> Result<Option<(Secret, &'static str)>, AtlassianError> {
    let names = &config.setting_names;
    let Some(token) = config.bearer_token(product) else {
        return Ok(None);
    };
    let setting = names.bearer_token(product);
    if product != Product::Bitbucket && config.deployment(product) == Deployment::Cloud {
        return Err(AtlassianError::Http(adapters_http::HttpError::InvalidSetting {
            setting: setting.to_owned(),
            detail: format!(
                "is a {product} Data Center personal access token, but {deployment} is cloud: set {deployment} to \
                 data-center, or, for {product} Cloud, unset it and set {} and {}",
                names.user_email,
                names.api_token,
                deployment = names.deployment(product),
            ),
        }));
    }
    Ok(Some((token.clone(), setting)))
}

fn base(product: Product, config: &AtlassianConfig) -> Result<(String, &'static str), AtlassianError> {
    let names = &config.setting_names;
    let override_url = match product {
        Product::Jira => config.jira_base_url.as_deref(),
        Product::Confluence => config.confluence_base_url.as_deref(),
        Product::Bitbucket => Some(config.bitbucket_base_url.as_str()),
    };
    let data_center = config.deployment(product) == Deployment::DataCenter;
    let cloud_default = product == Product::Bitbucket
        && override_url.is_some_and(|u| u.trim().trim_end_matches('/') == crate::config::DEFAULT_BITBUCKET_BASE_URL);
    if let Some(url) = override_url.map(str::trim).filter(|u| !u.is_empty())
        && !(data_center && cloud_default)
    {
        return Ok((url.to_owned(), names.base_url(product)));
    }
    if data_center {
        return Err(AtlassianError::MissingSetting {
            product,
            settings: vec![names.base_url(product)],
            help: format!(
                "{} is data-center, which has no site: set {} to your {product} server's base URL with its \
                 context path, if any (e.g. https://{}.example.com)",
                names.deployment(product),
                names.base_url(product),
                product.name().to_ascii_lowercase()
            ),
        });
    }
    let Some(site) = config.site_name.as_deref().map(str::trim).filter(|s| !s.is_empty()) else {
        return Err(AtlassianError::MissingSetting {
            product,
            settings: vec![names.site_name],
            help: format!(
                "set {} to your site's name (`your-domain` for https://your-domain.atlassian.net), or {} to the \
                 {product} base URL",
                names.site_name,
                names.base_url(product)
            ),
        });
    };
    let host = site_host(site, names.site_name)?;
    let base = match product {
        Product::Confluence => format!("https://{host}/wiki"),
        _ => format!("https://{host}"),
    };
    Ok((base, names.site_name))
}

/// `your-domain` or `your-domain.atlassian.net` (a scheme and trailing `/` are tolerated) →
/// `your-domain.atlassian.net`.
fn site_host(site: &str, setting: &str) -> Result<String, AtlassianError> {
    let name = site.trim_start_matches("https://").trim_end_matches('/');
    let name = name.strip_suffix(".atlassian.net").unwrap_or(name);
    let valid =
        !name.is_empty() && !name.starts_with('-') && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    if !valid {
        return Err(AtlassianError::Http(adapters_http::HttpError::InvalidSetting {
            setting: setting.to_owned(),
            detail: format!(
                "`{site}` is not a site name: give the part before .atlassian.net (letters, digits, `-`), or set a \
                 base-URL setting instead"
            ),
        }));
    }
    Ok(format!("{}.atlassian.net", name.to_ascii_lowercase()))
}

/// The Basic pair of `product` and the name of its secret's setting: `(user, secret, setting)`.
fn credential(product: Product, config: &AtlassianConfig) -> Result<(String, Secret, &'static str), AtlassianError> {
    let names = &config.setting_names;
    let user = config.user_email.as_deref().map(str::trim).filter(|u| !u.is_empty());
    let token = config.api_token.as_ref().filter(|t| !t.expose().is_empty());
    if product == Product::Bitbucket {
        let bb_user = config
            .bitbucket_username
            .as_deref()
            .map(str::trim)
            .filter(|u| !u.is_empty());
        let bb_password = config
            .bitbucket_app_password
            .as_ref()
            .filter(|p| !p.expose().is_empty());
        match (bb_user, bb_password) {
            (Some(user), Some(password)) => {
                return Ok((user.to_owned(), password.clone(), names.bitbucket_app_password));
            }
            (Some(_), None) | (None, Some(_)) => {
                let missing = if bb_user.is_none() {
                    names.bitbucket_username
                } else {
                    names.bitbucket_app_password
                };
                return Err(AtlassianError::MissingSetting {
                    product,
                    settings: vec![missing],
                    help: format!(
                        "{} and {} go together (a Bitbucket user name and app password)",
                        names.bitbucket_username, names.bitbucket_app_password
                    ),
                });
            }
            (None, None) => {}
        }
    }
    match (user, token) {
        (Some(user), Some(token)) => Ok((user.to_owned(), token.clone(), names.api_token)),
        _ => {
            let mut settings = Vec::new();
            if user.is_none() {
                settings.push(names.user_email);
            }
            if token.is_none() {
                settings.push(names.api_token);
            }
            let mut help = if config.deployment(product) == Deployment::DataCenter {
                format!(
                    "set {} to a personal access token (sent as Bearer), or {} and {} to a user name and password",
                    names.bearer_token(product),
                    names.user_email,
                    names.api_token
                )
            } else {
                format!(
                    "set {} to your Atlassian account e-mail and {} to an API token \
                     (https://id.atlassian.com/manage-profile/security/api-tokens)",
                    names.user_email, names.api_token
                )
            };
            if product == Product::Bitbucket && config.deployment(product) == Deployment::Cloud {
                help.push_str(&format!(
                    ", or {} and {} to a Bitbucket app password",
                    names.bitbucket_username, names.bitbucket_app_password
                ));
            }
            Err(AtlassianError::MissingSetting {
                product,
                settings,
                help,
            })
        }
    }
}

/// `path` relative to `base` with the product's leading `prefix` segment (`wiki`, `2.0`) present exactly once in
/// the resulting URL: dropped from `path` when the base path already ends with it; added when `add` is true and
/// neither has it. Absolute URLs (`scheme://…`) are returned unchanged (the HTTP layer checks their origin).
pub fn with_prefix_once(base: &Url, path: &str, prefix: &str, add: bool) -> String {
    let path = path.trim();
    if path.contains("://") {
        return path.to_owned();
    }
    let relative = path.trim_start_matches('/');
    let has_prefix = relative == prefix
        || relative
            .strip_prefix(prefix)
            .is_some_and(|rest| rest.starts_with(['/', '?']));
    let base_has_prefix = base
        .path()
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .is_some_and(|last| last == prefix);
    match (has_prefix, base_has_prefix) {
        (true, true) => format!("/{}", relative[prefix.len()..].trim_start_matches('/')),
        (false, false) if add => format!("/{prefix}/{relative}"),
        _ => format!("/{relative}"),
    }
}

/// The vendor message of an Atlassian error body: the whole JSON body, compact, keys in received order — Jira's
/// `{"errorMessages":[…],"errors":{…}}`, Confluence v2's `{"errors":[{status,code,title,detail}]}`, Bitbucket's
/// `{"type":"error","error":{…}}` are all kept verbatim. A non-JSON body is kept as text by the HTTP layer.
pub fn error_body(body: &serde_json::Value) -> Option<String> {
    serde_json::to_string(body).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SettingNames;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn prefix_once() {
        let wiki = url("https://x.atlassian.net/wiki");
        let root = url("https://x.atlassian.net");
        let next = "/wiki/api/v2/pages?cursor=abc%3D%3D&limit=3";
        assert_eq!(
            with_prefix_once(&wiki, next, "wiki", false),
            "/api/v2/pages?cursor=abc%3D%3D&limit=3"
        );
        assert_eq!(with_prefix_once(&root, next, "wiki", false), next);
        assert_eq!(with_prefix_once(&wiki, "api/v2/pages", "wiki", false), "/api/v2/pages");
        assert_eq!(with_prefix_once(&root, "/api/v2/pages", "wiki", false), "/api/v2/pages");
        assert_eq!(with_prefix_once(&wiki, "/wikipedia", "wiki", false), "/wikipedia");
        let bb = url("https://api.bitbucket.org");
        assert_eq!(
            with_prefix_once(&bb, "/repositories/o", "2.0", true),
            "/2.0/repositories/o"
        );
        assert_eq!(
            with_prefix_once(&bb, "2.0/repositories/o", "2.0", true),
            "/2.0/repositories/o"
        );
        assert_eq!(with_prefix_once(&bb, "/2.0?x=1", "2.0", true), "/2.0?x=1");
        assert_eq!(with_prefix_once(&bb, "/2.00/x", "2.0", true), "/2.0/2.00/x");
        let bb20 = url("https://api.bitbucket.org/2.0/");
        assert_eq!(with_prefix_once(&bb20, "/2.0/user", "2.0", true), "/user");
        assert_eq!(with_prefix_once(&bb20, "/user", "2.0", true), "/user");
        let abs = "https://api.bitbucket.org/2.0/repositories/o?page=2";
        assert_eq!(with_prefix_once(&bb, abs, "2.0", true), abs);
    }

    /// A host's names for the settings (the bundled server's).
    const NAMES: SettingNames = SettingNames {
        site_name: "ATLASSIAN_SITE_NAME",
        jira_base_url: "JIRA_BASE_URL",
        confluence_base_url: "CONFLUENCE_BASE_URL",
        bitbucket_base_url: "BITBUCKET_BASE_URL",
        user_email: "ATLASSIAN_USER_EMAIL",
        api_token: "ATLASSIAN_API_TOKEN",
        bitbucket_username: "ATLASSIAN_BITBUCKET_USERNAME",
        bitbucket_app_password: "ATLASSIAN_BITBUCKET_APP_PASSWORD",
        jira_deployment: "JIRA_DEPLOYMENT",
        confluence_deployment: "CONFLUENCE_DEPLOYMENT",
        bitbucket_deployment: "BITBUCKET_DEPLOYMENT",
        jira_personal_token: "JIRA_PERSONAL_TOKEN",
        confluence_personal_token: "CONFLUENCE_PERSONAL_TOKEN",
        bitbucket_access_token: "BITBUCKET_ACCESS_TOKEN",
        max_body_bytes: "HTTP_MAX_BODY_BYTES",
    };
    const ENV_SITE_NAME: &str = NAMES.site_name;
    const ENV_JIRA_BASE_URL: &str = NAMES.jira_base_url;
    const ENV_USER_EMAIL: &str = NAMES.user_email;
    const ENV_API_TOKEN: &str = NAMES.api_token;
    const ENV_BITBUCKET_APP_PASSWORD: &str = NAMES.bitbucket_app_password;

    #[test]
    fn data_center_needs_its_base_and_sends_a_personal_token_as_bearer() {
        let dc = AtlassianConfig {
            site_name: Some("your-domain".into()),
            jira_deployment: Deployment::DataCenter,
            bitbucket_deployment: Deployment::DataCenter,
            jira_personal_token: Some(Secret::new("pat-1")),
            bitbucket_access_token: Some(Secret::new("bbat-1")),
            setting_names: NAMES,
            ..AtlassianConfig::default()
        };
        for product in [Product::Jira, Product::Bitbucket] {
            let err = resolve(product, &dc).unwrap_err().to_string();
            let (setting, deployment) = (NAMES.base_url(product), NAMES.deployment(product));
            assert!(
                err.contains(&format!("{setting} not set"))
                    && err.contains(&format!("{deployment} is data-center, which has no site")),
                "{err}"
            );
        }
        let dc = dc
            .with_jira_base_url(Some("https://jira.example.com/jira".into()))
            .with_bitbucket_base_url("https://git.example.com");
        let jira = resolve(Product::Jira, &dc).unwrap();
        assert_eq!(jira.send_as, SendAs::Bearer);
        assert_eq!(jira.http.api_base, "https://jira.example.com/jira");
        assert_eq!(jira.http.setting_names.credential, "JIRA_PERSONAL_TOKEN");
        let bitbucket = resolve(Product::Bitbucket, &dc).unwrap();
        assert_eq!(bitbucket.send_as, SendAs::Bearer);
        assert_eq!(bitbucket.http.setting_names.credential, "BITBUCKET_ACCESS_TOKEN");
        // No token: Basic with the user name and password, and the error names the token first.
        let basic = dc.clone().with_jira_personal_token(None);
        let err = resolve(Product::Jira, &basic).unwrap_err().to_string();
        assert!(
            err.contains("set JIRA_PERSONAL_TOKEN to a personal access token"),
            "{err}"
        );
        let basic = basic
            .with_user_email(Some("jsmith".into()))
            .with_api_token(Some(Secret::new("pw")));
        assert_eq!(
            resolve(Product::Jira, &basic).unwrap().send_as,
            SendAs::Basic { user: "jsmith".into() }
        );
    }

    #[test]
    fn a_personal_token_for_jira_or_confluence_cloud_is_refused_naming_the_fix() {
        let cloud = AtlassianConfig {
            site_name: Some("your-domain".into()),
            confluence_personal_token: Some(Secret::new("pat-2")),
            bitbucket_access_token: Some(Secret::new("bbat-2")),
            setting_names: NAMES,
            ..AtlassianConfig::default()
        };
        let err = resolve(Product::Confluence, &cloud).unwrap_err().to_string();
        assert!(
            err.contains("CONFLUENCE_PERSONAL_TOKEN")
                && err.contains("set CONFLUENCE_DEPLOYMENT to data-center")
                && !err.contains("pat-2"),
            "{err}"
        );
        // Bitbucket Cloud's access tokens are Bearer tokens too.
        assert_eq!(resolve(Product::Bitbucket, &cloud).unwrap().send_as, SendAs::Bearer);
    }

    #[test]
    fn errors_name_the_fields_by_default() {
        let err = credential(Product::Jira, &AtlassianConfig::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains("user_email and api_token not set"), "{err}");
        let err = base(Product::Jira, &AtlassianConfig::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains("site_name") && err.contains("jira_base_url"), "{err}");
    }

    #[test]
    fn bases_and_missing_settings() {
        let mut config = AtlassianConfig {
            site_name: Some("Your-Domain".into()),
            setting_names: NAMES,
            ..AtlassianConfig::default()
        };
        assert_eq!(
            base(Product::Jira, &config).unwrap().0,
            "https://your-domain.atlassian.net"
        );
        assert_eq!(
            base(Product::Confluence, &config).unwrap().0,
            "https://your-domain.atlassian.net/wiki"
        );
        assert_eq!(
            base(Product::Bitbucket, &config).unwrap().0,
            "https://api.bitbucket.org"
        );
        config.site_name = Some("https://your-domain.atlassian.net/".into());
        assert_eq!(
            base(Product::Jira, &config).unwrap(),
            ("https://your-domain.atlassian.net".into(), ENV_SITE_NAME)
        );
        config.jira_base_url = Some(" http://127.0.0.1:9 ".into());
        assert_eq!(
            base(Product::Jira, &config).unwrap(),
            ("http://127.0.0.1:9".into(), ENV_JIRA_BASE_URL)
        );
        config.site_name = Some("evil.example/x".into());
        assert!(matches!(
            base(Product::Confluence, &config),
            Err(AtlassianError::Http(_))
        ));
        config.site_name = None;
        let err = base(Product::Confluence, &config).unwrap_err().to_string();
        assert!(
            err.contains("ATLASSIAN_SITE_NAME") && err.contains("CONFLUENCE_BASE_URL"),
            "{err}"
        );
    }

    #[test]
    fn credentials() {
        let mut config = AtlassianConfig {
            setting_names: NAMES,
            ..AtlassianConfig::default()
        };
        let err = credential(Product::Jira, &config).unwrap_err();
        assert!(matches!(&err, AtlassianError::MissingSetting { settings, .. }
            if settings == &vec![ENV_USER_EMAIL, ENV_API_TOKEN]));
        config.user_email = Some("mia@example.com".into());
        let err = credential(Product::Bitbucket, &config).unwrap_err().to_string();
        assert!(
            err.contains("ATLASSIAN_API_TOKEN not set") && err.contains(ENV_BITBUCKET_APP_PASSWORD),
            "{err}"
        );
        config.api_token = Some(Secret::new("tok-SECRET"));
        assert_eq!(credential(Product::Bitbucket, &config).unwrap().2, ENV_API_TOKEN);
        config.bitbucket_username = Some("octocat".into());
        let err = credential(Product::Bitbucket, &config).unwrap_err().to_string();
        assert!(err.contains("ATLASSIAN_BITBUCKET_APP_PASSWORD not set"), "{err}");
        config.bitbucket_app_password = Some(Secret::new("app-SECRET"));
        let (user, secret, label) = credential(Product::Bitbucket, &config).unwrap();
        assert_eq!(
            (user.as_str(), secret.expose(), label),
            ("octocat", "app-SECRET", ENV_BITBUCKET_APP_PASSWORD)
        );
        assert_eq!(credential(Product::Jira, &config).unwrap().2, ENV_API_TOKEN);
        let resolved = resolve(Product::Bitbucket, &config).unwrap();
        assert_eq!(resolved.send_as, SendAs::Basic { user: "octocat".into() });
        assert_eq!(resolved.http.api_base, "https://api.bitbucket.org");
        let names = resolved.http.setting_names;
        assert_eq!(
            (names.base, names.credential, names.max_body),
            ("BITBUCKET_BASE_URL", ENV_BITBUCKET_APP_PASSWORD, "HTTP_MAX_BODY_BYTES")
        );
        assert!(!format!("{config:?}").contains("SECRET"));
    }
}
