//! The refusal a call the policy does not allow gets, as an rmcp `CallToolResult`:
//! `isError: true`, a text that explains it and what to do, `_meta.code` and `_meta.decision`. It lives in `_meta`,
//! never in `structuredContent`, so it reads the same whether the server advertises output schemas or not.

use rmcp::model::{CallToolResult, ContentBlock, MetaObject};
use serde_json::Value;

use serde::de::DeserializeOwned;

use crate::{Decision, Effect, Policy};

/// The `_meta` key of the refusal's code: `policy_denied` or `approval_required`.
pub const META_CODE: &str = "code";
/// The `_meta` key of the [`Decision`]: `{rule, effect, reason, policyVersion}`.
pub const META_DECISION: &str = "decision";

/// The refusal of a call of `tool` that `decision` does not allow; `None` when it allows the call.
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
    let mut result = CallToolResult::error(vec![ContentBlock::text(text)]);
    let meta = result.meta.get_or_insert_with(MetaObject::default);
    meta.0.insert(META_CODE.into(), Value::from(code));
    meta.0.insert(
        META_DECISION.into(),
        serde_json::to_value(decision).unwrap_or(Value::Null),
    );
    Some(result)
}

impl<V: DeserializeOwned + PartialEq> Policy<V> {
    /// The refusal of a call of `tool` (talking to `vendor`) by `principal`: [`Policy::decide`] then [`refusal`].
    /// `None` when the call may run (no rule matches, or the first matching rule allows it).
    pub fn refuse(&self, principal: &str, tool: &str, vendor: &V) -> Option<CallToolResult> {
        self.decide(principal, tool, vendor)
            .and_then(|decision| refusal(tool, &decision))
    }
}

fn reason(decision: &Decision) -> &str {
    if decision.reason.is_empty() {
        "no reason given"
    } else {
        &decision.reason
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
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
}
