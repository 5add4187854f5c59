//! What wraps every tool call in enterprise mode: `_meta["mcp-devtools/upstream"]` naming the upstream
//! identity, the same with the structured switch on or off (it lives in `_meta`, never in `structuredContent`). The
//! policy refusal is [`mcp_policy::refusal`].

use rmcp::model::{CallToolResult, MetaObject};
use serde_json::{Value, json};

use crate::app::App;
use crate::vendor::Vendor;

/// The `_meta` key of the upstream identity in enterprise mode.
pub const UPSTREAM_META_KEY: &str = "mcp-devtools/upstream";

/// The upstream identity a call of `vendor` acts as: `{vendor, credentialLabel, authority}` — the name of the
/// credential setting (the adapter config's `http.setting_names.credential`, never its value; `null` when unset or no
/// upstream) and the upstream `host[:port]`.
pub fn upstream_identity(app: &App, vendor: Vendor) -> Value {
    // GitHub and CircleCI: the shared options of the adapter config.
    let of = |http: &adapters_http::HttpOptions| {
        let credential = http.credential.as_ref().map(|_| http.setting_names.credential);
        (credential, authority(&http.api_base))
    };
    let (credential, authority) = match vendor {
        Vendor::Github => of(&app.config.github.http),
        Vendor::Circleci => of(&app.config.circleci.http),
        Vendor::Jira | Vendor::Confluence | Vendor::Bitbucket => {
            let product = match vendor {
                Vendor::Jira => adapters_atlassian::Product::Jira,
                Vendor::Confluence => adapters_atlassian::Product::Confluence,
                _ => adapters_atlassian::Product::Bitbucket,
            };
            let client = app.atlassian.product(product);
            (
                client.credential_label(),
                client.base().and_then(|b| authority(b.as_str())),
            )
        }
        Vendor::None => (None, None),
    };
    json!({"vendor": vendor.as_str(), "credentialLabel": credential, "authority": authority})
}

/// Adds `_meta["mcp-devtools/upstream"] = identity` to `result` (success or error alike).
pub fn attach_upstream(result: &mut CallToolResult, identity: Value) {
    result
        .meta
        .get_or_insert_with(MetaObject::default)
        .0
        .insert(UPSTREAM_META_KEY.into(), identity);
}

/// `host[:port]` of a base URL; `None` when it does not parse.
fn authority(base: &str) -> Option<String> {
    let url = url::Url::parse(base).ok()?;
    let host = url.host_str()?;
    Some(match url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn authority_is_host_and_port() {
        assert_eq!(authority("https://api.github.com").as_deref(), Some("api.github.com"));
        assert_eq!(
            authority("http://127.0.0.1:8080/api/v3").as_deref(),
            Some("127.0.0.1:8080")
        );
        assert_eq!(authority("not a url"), None);
    }
}
