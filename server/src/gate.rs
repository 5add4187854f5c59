//! What wraps every tool call (CONTRACT §7): the policy refusal result, and the enterprise-mode
//! `_meta["mcp-devtools/upstream"]` naming the upstream identity. Both are the same with the structured switch on or
//! off: they live in `_meta`, never in `structuredContent`.

use rmcp::model::{CallToolResult, MetaObject};
use serde_json::{Value, json};

use crate::app::App;
use crate::config::{CIRCLECI_TOKEN, GITHUB_TOKEN};
use crate::policy::{Decision, Effect};
use crate::vendor::Vendor;

/// The `_meta` key of the upstream identity in enterprise mode.
pub const UPSTREAM_META_KEY: &str = "mcp-devtools/upstream";

/// The refusal of a call the policy does not allow: `isError: true`, a text that explains it and what to do,
/// `_meta.code` (`policy_denied` or `approval_required`) and `_meta.decision` (`{rule, effect, reason,
/// policyVersion}`). `None` when `decision` allows the call.
pub fn refusal(tool: &str, decision: &Decision) -> Option<CallToolResult> {
    let (code, text) = match decision.effect {
        Effect::Allow => return None,
        Effect::Deny => (
            "policy_denied",
            format!(
                "{tool} was refused by policy rule {} (policy version {}): {}. Nothing was sent upstream; ask the \
                 server's operator if you need this tool.",
                decision.rule,
                decision.policy_version,
                reason(decision)
            ),
        ),
        Effect::ApprovalRequired => (
            "approval_required",
            format!(
                "{tool} needs approval under policy rule {} (policy version {}): {}. Nothing was sent upstream; get \
                 the call approved by the server's operator, then retry.",
                decision.rule,
                decision.policy_version,
                reason(decision)
            ),
        ),
    };
    let mut result = mcp_results::error(text);
    let meta = result.meta.get_or_insert_with(MetaObject::default);
    meta.0.insert("code".into(), Value::from(code));
    meta.0
        .insert("decision".into(), serde_json::to_value(decision).unwrap_or(Value::Null));
    Some(result)
}

fn reason(decision: &Decision) -> &str {
    if decision.reason.is_empty() {
        "no reason given"
    } else {
        &decision.reason
    }
}

/// The upstream identity a call of `vendor` acts as: `{vendor, credentialLabel, authority}` — the name of the
/// credential setting (never its value; `null` when unset or no upstream) and the upstream `host[:port]`.
pub fn upstream_identity(app: &App, vendor: Vendor) -> Value {
    let (credential, authority) = match vendor {
        Vendor::Github => (
            app.settings.github.token.as_ref().map(|_| GITHUB_TOKEN),
            authority(&app.settings.github.api_base),
        ),
        Vendor::Circleci => (
            app.settings.circleci.token.as_ref().map(|_| CIRCLECI_TOKEN),
            authority(&app.settings.circleci.api_base),
        ),
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

    fn decision(effect: Effect) -> Decision {
        Decision {
            rule: "r1".into(),
            effect,
            reason: "because".into(),
            policy_version: "v1".into(),
        }
    }

    #[test]
    fn refusals_carry_code_and_decision() {
        assert!(refusal("t", &decision(Effect::Allow)).is_none());
        let denied = serde_json::to_value(refusal("t", &decision(Effect::Deny)).unwrap()).unwrap();
        assert_eq!(denied["isError"], true);
        assert_eq!(denied["_meta"]["code"], "policy_denied");
        assert_eq!(denied["_meta"]["decision"]["policyVersion"], "v1");
        assert!(denied.get("structuredContent").is_none());
        let approval = serde_json::to_value(refusal("t", &decision(Effect::ApprovalRequired)).unwrap()).unwrap();
        assert_eq!(approval["_meta"]["code"], "approval_required");
        assert!(approval["content"][0]["text"].as_str().unwrap().contains("because"));
    }

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
