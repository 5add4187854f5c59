//! The public API as a host uses it: a policy file on disk, the host's own vendor type, and (with the `rmcp`
//! feature, on in the workspace build) the refusal a denied call gets.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use mcp_policy::{Effect, Policy, PolicyError};

/// A host whose tools talk to two upstreams, or none.
#[derive(Debug, PartialEq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
enum Upstream {
    None,
    Widgets,
    Billing,
}

const POLICY: &str = r#"version = "host-3"

[[rules]]
id = "bots-read-widgets"
principal = "bot:*"
tool = "widgets_{list,get}"
effect = "allow"

[[rules]]
id = "no-bot-writes"
principal = "bot:*"
effect = "deny"
reason = "bots only read"

[[rules]]
vendor = "billing"
effect = "approval_required"
"#;

fn load() -> Policy<Upstream> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("policy.toml");
    std::fs::write(&path, POLICY).unwrap();
    Policy::load(&path).unwrap()
}

#[test]
fn a_host_loads_a_policy_file_with_its_own_vendors() {
    let policy = load();
    let decide = |principal: &str, tool: &str, vendor: Upstream| {
        policy.decide(principal, tool, &vendor).map(|d| (d.rule, d.effect))
    };
    assert_eq!(
        decide("bot:7", "widgets_get", Upstream::Widgets),
        Some(("bots-read-widgets".into(), Effect::Allow))
    );
    assert_eq!(
        decide("bot:7", "widgets_delete", Upstream::Widgets),
        Some(("no-bot-writes".into(), Effect::Deny))
    );
    assert_eq!(
        decide("alice", "invoice_get", Upstream::Billing),
        Some(("rules[2]".into(), Effect::ApprovalRequired))
    );
    assert_eq!(decide("alice", "widgets_delete", Upstream::Widgets), None);
    assert_eq!(decide("alice", "artifact_read", Upstream::None), None);
}

#[test]
fn unusable_files_are_load_errors_naming_the_file() {
    let missing = Policy::<Upstream>::load(std::path::Path::new("/nonexistent/policy.toml")).unwrap_err();
    assert!(matches!(missing, PolicyError::Read { .. }), "{missing}");
    let path = std::path::Path::new("host.toml");
    let unknown_vendor = Policy::<Upstream>::parse(
        path,
        "version = \"1\"\n[[rules]]\nvendor = \"github\"\neffect = \"deny\"\n",
    )
    .unwrap_err();
    assert!(
        unknown_vendor
            .to_string()
            .starts_with("policy file host.toml is malformed"),
        "{unknown_vendor}"
    );
    let unknown_key =
        Policy::<Upstream>::parse(path, "version = \"1\"\n[[rules]]\nwho = \"x\"\neffect = \"deny\"\n").unwrap_err();
    assert!(unknown_key.to_string().contains("who"), "{unknown_key}");
}

#[cfg(feature = "rmcp")]
#[test]
fn refused_calls_are_is_error_results_with_the_decision() {
    let policy = load();
    assert!(policy.refuse("bot:7", "widgets_list", &Upstream::Widgets).is_none());
    assert!(policy.refuse("alice", "widgets_delete", &Upstream::Widgets).is_none());
    let denied = serde_json::to_value(policy.refuse("bot:7", "widgets_delete", &Upstream::Widgets).unwrap()).unwrap();
    assert_eq!(denied["isError"], true);
    assert_eq!(denied["_meta"][mcp_policy::META_CODE], "policy_denied");
    assert_eq!(
        denied["_meta"][mcp_policy::META_DECISION],
        serde_json::json!({"rule": "no-bot-writes", "effect": "deny", "reason": "bots only read", "policyVersion": "host-3"})
    );
    let text = denied["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("widgets_delete was refused by policy rule no-bot-writes"),
        "{text}"
    );
    let approval = serde_json::to_value(policy.refuse("alice", "invoice_pay", &Upstream::Billing).unwrap()).unwrap();
    assert_eq!(approval["_meta"]["code"], "approval_required");
    assert!(
        approval["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("no reason given")
    );
}
