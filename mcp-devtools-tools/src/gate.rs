//! What wraps every tool call in enterprise mode: `_meta["mcp-devtools/upstream"]` naming the upstream
//! identity, the same with the structured switch on or off (it lives in `_meta`, never in `structuredContent`). The
//! policy refusal is [`mcp_policy::refusal`].

use rmcp::model::{CallToolResult, MetaObject};
use serde_json::{Value, json};

use crate::vendor::Vendor;

/// The `_meta` key of the upstream identity in enterprise mode.
pub const UPSTREAM_META_KEY: &str = "mcp-devtools/upstream";

/// The upstream identity a call of `vendor` acts as: `{vendor, credentialLabel, authority}` — the name of the
/// credential setting (the adapter config's `http.setting_names.credential`, never its value; `null` when unset or no
/// upstream) and the upstream `host[:port]`.
pub fn upstream_identity(vendor: Vendor, credential_label: Option<&str>, authority: Option<String>) -> Value {
    json!({"vendor": vendor.as_str(), "credentialLabel": credential_label, "authority": authority})
}

/// Adds `_meta["mcp-devtools/upstream"] = identity` to `result` (success or error alike).
pub fn attach_upstream(result: &mut CallToolResult, identity: Value) {
    result
        .meta
        .get_or_insert_with(MetaObject::default)
        .0
        .insert(UPSTREAM_META_KEY.into(), identity);
}

#[cfg(test)]
mod tests {
    use crate::vendors::authority;

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
