//! The call policy: ordered rules over principal, tool and vendor; the first rule that matches decides; no
//! matching rule (or no policy) means allow. The file format is in the crate documentation.

use std::path::{Path, PathBuf};

use globset::{Glob, GlobMatcher};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// What a rule does to a matching call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// The call runs.
    Allow,
    /// The call is refused (`_meta.code = "policy_denied"`).
    Deny,
    /// The call is refused until approved out of band (`_meta.code = "approval_required"`).
    ApprovalRequired,
}

/// The decision attached to a refusal as `_meta.decision`: `{rule, effect, reason, policyVersion}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Decision {
    /// The rule's `id`, or `rules[<index>]`.
    pub rule: String,
    /// The rule's effect.
    pub effect: Effect,
    /// The rule's reason (empty when it has none).
    pub reason: String,
    /// The policy file's `version`.
    pub policy_version: String,
}

/// Why the policy cannot be used; start-up stops with this message. It names the policy file when there is one
/// ([`Policy::load`], [`Policy::parse`]) and no file for text given alone ([`Policy::from_toml`]).
#[non_exhaustive]
#[derive(Debug, thiserror::Error)]
pub enum PolicyError {
    /// The file cannot be read.
    #[error("cannot read the policy file {path}: {source}")]
    Read {
        /// The policy file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The text is not TOML of the documented shape (the message names the key).
    #[error("{} is malformed: {message}", Origin(path.as_deref()))]
    Malformed {
        /// The policy file; `None` for text given with [`Policy::from_toml`].
        path: Option<PathBuf>,
        /// The TOML parser's message.
        message: String,
    },
    /// A glob does not compile.
    #[error("{}: rule {rule}: bad {field} glob: {message}", Origin(path.as_deref()))]
    BadGlob {
        /// The policy file; `None` for text given with [`Policy::from_toml`].
        path: Option<PathBuf>,
        /// The rule's id.
        rule: String,
        /// `principal`, `tool` or `arguments`.
        field: &'static str,
        /// globset's message.
        message: String,
    },
}

/// Where a policy came from, as its errors name it: `policy file <path>`, or `the policy` for text given alone.
struct Origin<'a>(Option<&'a Path>);

impl std::fmt::Display for Origin<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(path) => write!(f, "policy file {}", path.display()),
            None => f.write_str("the policy"),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, bound = "V: DeserializeOwned")]
struct PolicyFile<V> {
    version: String,
    #[serde(default = "Vec::new")]
    rules: Vec<RuleFile<V>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, bound = "V: DeserializeOwned")]
struct RuleFile<V> {
    id: Option<String>,
    principal: Option<String>,
    tool: Option<String>,
    vendor: Option<V>,
    #[serde(default)]
    arguments: std::collections::BTreeMap<String, String>,
    effect: Effect,
    #[serde(default)]
    reason: String,
}

#[derive(Debug)]
struct Rule<V> {
    id: String,
    principal: Option<GlobMatcher>,
    tool: Option<GlobMatcher>,
    vendor: Option<V>,
    /// Argument name -> glob over its value; every one must match.
    arguments: Vec<(String, GlobMatcher)>,
    effect: Effect,
    reason: String,
}

/// A loaded policy; `V` is the host's vendor type (what `vendor = "…"` in a rule deserializes to).
#[derive(Debug)]
pub struct Policy<V> {
    version: String,
    rules: Vec<Rule<V>>,
}

impl<V: DeserializeOwned + PartialEq> Policy<V> {
    /// Reads the policy file at `path`.
    ///
    /// # Errors
    /// [`PolicyError`]: unreadable, malformed (unknown key, bad effect or vendor, missing `version`), or a glob
    /// that does not compile.
    pub fn load(path: &Path) -> Result<Policy<V>, PolicyError> {
        let text = std::fs::read_to_string(path).map_err(|source| PolicyError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Self::parse(path, &text)
    }

    /// Parses the text of the policy file at `path`; `path` is only used in errors.
    ///
    /// # Errors
    /// As [`Policy::load`], without the read error.
    pub fn parse(path: &Path, text: &str) -> Result<Policy<V>, PolicyError> {
        Self::parse_from(Some(path), text)
    }

    /// Parses policy text that comes from no file (a constant, a setting's value): the same format as
    /// [`Policy::load`]'s file.
    ///
    /// ```
    /// use mcp_policy::{Effect, Policy};
    ///
    /// let policy: Policy<String> =
    ///     Policy::from_toml("version = \"1\"\n[[rules]]\nprincipal = \"guest\"\neffect = \"deny\"\n")?;
    /// assert_eq!(policy.decide("guest", "list", &"widgets".to_owned()).map(|d| d.effect), Some(Effect::Deny));
    /// let err = Policy::<String>::from_toml("rules = []").unwrap_err();
    /// assert!(err.to_string().starts_with("the policy is malformed: "), "{err}");
    /// # Ok::<(), mcp_policy::PolicyError>(())
    /// ```
    ///
    /// # Errors
    /// [`PolicyError::Malformed`] or [`PolicyError::BadGlob`], with no file named (`path: None`; the message says
    /// `the policy`).
    pub fn from_toml(text: &str) -> Result<Policy<V>, PolicyError> {
        Self::parse_from(None, text)
    }

    /// Parses policy text; `path` (the file it came from, if any) is only used in errors.
    fn parse_from(path: Option<&Path>, text: &str) -> Result<Policy<V>, PolicyError> {
        let file: PolicyFile<V> = toml::from_str(text).map_err(|err| PolicyError::Malformed {
            path: path.map(Path::to_path_buf),
            message: err.to_string(),
        })?;
        let mut rules = Vec::with_capacity(file.rules.len());
        for (index, rule) in file.rules.into_iter().enumerate() {
            let id = rule.id.unwrap_or_else(|| format!("rules[{index}]"));
            let glob = |field: &'static str, pattern: Option<String>| {
                pattern
                    .map(|p| Glob::new(&p).map(|g| g.compile_matcher()))
                    .transpose()
                    .map_err(|err| PolicyError::BadGlob {
                        path: path.map(Path::to_path_buf),
                        rule: id.clone(),
                        field,
                        message: err.kind().to_string(),
                    })
            };
            let mut arguments = Vec::with_capacity(rule.arguments.len());
            for (name, pattern) in rule.arguments {
                if let Some(matcher) = glob("arguments", Some(pattern))? {
                    arguments.push((name, matcher));
                }
            }
            rules.push(Rule {
                principal: glob("principal", rule.principal)?,
                tool: glob("tool", rule.tool)?,
                arguments,
                id: id.clone(),
                vendor: rule.vendor,
                effect: rule.effect,
                reason: rule.reason,
            });
        }
        Ok(Policy {
            version: file.version,
            rules,
        })
    }

    /// The decision of the first rule matching a call of `tool` (which talks to `vendor`) by `principal` (the
    /// caller's name); `None` when no rule matches (the call is allowed). A rule with `arguments` needs them, so it
    /// never matches here: use [`Policy::decide_call`].
    pub fn decide(&self, principal: &str, tool: &str, vendor: &V) -> Option<Decision> {
        self.decide_call(principal, tool, vendor, None)
    }

    /// Each rule's id and `tool` glob as written, in order (rules without one are left out): for a host to check
    /// the globs against its tools, e.g. to refuse a rule naming a tool it no longer has.
    pub fn tool_patterns(&self) -> impl Iterator<Item = (&str, &str)> {
        self.rules
            .iter()
            .filter_map(|rule| rule.tool.as_ref().map(|tool| (rule.id.as_str(), tool.glob().glob())))
    }

    /// [`Policy::decide`] for a call with its `arguments` (the `tools/call` arguments object). A rule's
    /// `arguments` (argument name -> glob) match when the call has each named argument and its value matches: a
    /// string as it is, a number or boolean as its JSON text; a missing argument, `null`, an array or an object
    /// never matches. So `arguments = { method = "DELETE" }` on `tool = "jira_write"` is about deletes only.
    pub fn decide_call(
        &self,
        principal: &str,
        tool: &str,
        vendor: &V,
        arguments: Option<&serde_json::Map<String, serde_json::Value>>,
    ) -> Option<Decision> {
        self.rules
            .iter()
            .find(|rule| {
                rule.principal.as_ref().is_none_or(|g| g.is_match(principal))
                    && rule.tool.as_ref().is_none_or(|g| g.is_match(tool))
                    && rule.vendor.as_ref().is_none_or(|v| v == vendor)
                    && rule.arguments.iter().all(|(name, glob)| {
                        arguments
                            .and_then(|arguments| arguments.get(name))
                            .and_then(argument_text)
                            .is_some_and(|text| glob.is_match(text.as_ref()))
                    })
            })
            .map(|rule| Decision {
                rule: rule.id.clone(),
                effect: rule.effect,
                reason: rule.reason.clone(),
                policy_version: self.version.clone(),
            })
    }
}

/// The text an `arguments` glob matches: a string as it is, a number or boolean as its JSON text.
fn argument_text(value: &serde_json::Value) -> Option<std::borrow::Cow<'_, str>> {
    match value {
        serde_json::Value::String(text) => Some(std::borrow::Cow::Borrowed(text)),
        serde_json::Value::Number(number) => Some(std::borrow::Cow::Owned(number.to_string())),
        serde_json::Value::Bool(flag) => Some(std::borrow::Cow::Owned(flag.to_string())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
    #[serde(rename_all = "lowercase")]
    enum Vendor {
        None,
        Github,
    }

    const POLICY: &str = r#"
version = "v7"

[[rules]]
id = "root-ok"
principal = "root"
effect = "allow"

[[rules]]
principal = "intern-*"
vendor = "github"
effect = "deny"
reason = "Interns cannot read CI"

[[rules]]
id = "jobs-need-approval"
tool = "github_list_workflow_*"
effect = "approval_required"
reason = "Ask the lead"
"#;

    fn policy() -> Policy<Vendor> {
        Policy::parse(Path::new("p.toml"), POLICY).unwrap()
    }

    #[test]
    fn argument_globs_match_only_calls_with_that_argument() {
        let text = "version = \"1\"\n[[rules]]\nid = \"no-deletes\"\ntool = \"jira_write\"\narguments = { method = \"DELETE\", path = \"/rest/api/3/issue/*\" }\neffect = \"deny\"\n";
        let policy: Policy<Vendor> = Policy::from_toml(text).unwrap();
        let call = |arguments: serde_json::Value| {
            policy
                .decide_call("bot", "jira_write", &Vendor::None, arguments.as_object())
                .map(|d| d.rule)
        };
        let delete = serde_json::json!({"method": "DELETE", "path": "/rest/api/3/issue/EX-1"});
        assert_eq!(call(delete).as_deref(), Some("no-deletes"));
        assert_eq!(
            call(serde_json::json!({"method": "POST", "path": "/rest/api/3/issue/EX-1"})),
            None
        );
        assert_eq!(
            call(serde_json::json!({"method": "DELETE"})),
            None,
            "a missing argument never matches"
        );
        assert_eq!(
            call(serde_json::json!({"method": ["DELETE"], "path": "/rest/api/3/issue/x"})),
            None
        );
        assert_eq!(
            policy.decide("bot", "jira_write", &Vendor::None),
            None,
            "decide has no arguments"
        );
        assert_eq!(
            policy.tool_patterns().collect::<Vec<_>>(),
            [("no-deletes", "jira_write")]
        );
        let numbers: Policy<Vendor> =
            Policy::from_toml("version = \"1\"\n[[rules]]\narguments = { runId = \"4*\" }\neffect = \"deny\"\n")
                .unwrap();
        let decided = numbers.decide_call("bot", "t", &Vendor::None, serde_json::json!({"runId": 42}).as_object());
        assert!(decided.is_some(), "a number matches as its JSON text");
        let bad = Policy::<Vendor>::from_toml(
            "version = \"1\"\n[[rules]]\narguments = { method = \"[\" }\neffect = \"deny\"\n",
        );
        assert!(bad.unwrap_err().to_string().contains("bad arguments glob"));
    }

    #[test]
    fn first_matching_rule_wins() {
        let p = policy();
        let root = p.decide("root", "github_list_workflow_runs", &Vendor::Github);
        assert_eq!(root.map(|d| d.effect), Some(Effect::Allow));
        let intern = p
            .decide("intern-3", "github_list_workflow_runs", &Vendor::Github)
            .unwrap();
        assert_eq!(intern.rule, "rules[1]");
        assert_eq!(intern.effect, Effect::Deny);
        assert_eq!(intern.policy_version, "v7");
        let bob = p.decide("bob", "github_list_workflow_jobs", &Vendor::Github).unwrap();
        assert_eq!(
            (bob.rule.as_str(), bob.effect),
            ("jobs-need-approval", Effect::ApprovalRequired)
        );
    }

    #[test]
    fn no_match_means_allow() {
        assert_eq!(policy().decide("intern-3", "artifact_read", &Vendor::None), None);
    }

    #[test]
    fn decision_serializes_as_the_contract_says() {
        let d = policy().decide("intern-1", "x", &Vendor::Github).unwrap();
        assert_eq!(
            serde_json::to_value(d).unwrap(),
            serde_json::json!({"rule": "rules[1]", "effect": "deny", "reason": "Interns cannot read CI", "policyVersion": "v7"})
        );
    }

    #[test]
    fn malformed_policies_are_refused() {
        let path = Path::new("p.toml");
        let err = Policy::<Vendor>::parse(path, "version = \"1\"\n[[rules]]\neffect = \"maybe\"\n").unwrap_err();
        assert!(err.to_string().contains("p.toml"), "{err}");
        assert!(Policy::<Vendor>::parse(path, "[[rules]]\neffect = \"deny\"\n").is_err());
        let err =
            Policy::<Vendor>::parse(path, "version = \"1\"\n[[rules]]\ntool = \"[\"\neffect = \"deny\"\n").unwrap_err();
        assert!(matches!(err, PolicyError::BadGlob { field: "tool", .. }), "{err}");
    }

    #[test]
    fn text_alone_parses_as_the_file_does_and_its_errors_name_no_file() {
        let from_text = Policy::<Vendor>::from_toml(POLICY).unwrap();
        for (who, tool, vendor) in [
            ("root", "github_list_workflow_runs", Vendor::Github),
            ("intern-3", "github_list_workflow_runs", Vendor::Github),
            ("bob", "github_list_workflow_jobs", Vendor::None),
            ("bob", "artifact_read", Vendor::None),
        ] {
            assert_eq!(
                from_text.decide(who, tool, &vendor),
                policy().decide(who, tool, &vendor)
            );
        }
        let err = Policy::<Vendor>::from_toml("version = \"1\"\n[[rules]]\neffect = \"maybe\"\n").unwrap_err();
        assert!(matches!(err, PolicyError::Malformed { path: None, .. }), "{err:?}");
        assert!(err.to_string().starts_with("the policy is malformed: "), "{err}");
        let err = Policy::<Vendor>::from_toml(
            "version = \"1\"\n[[rules]]\nid = \"r\"\nprincipal = \"[\"\neffect = \"deny\"\n",
        )
        .unwrap_err();
        assert!(
            matches!(
                err,
                PolicyError::BadGlob {
                    path: None,
                    field: "principal",
                    ..
                }
            ),
            "{err:?}"
        );
        assert!(
            err.to_string().starts_with("the policy: rule r: bad principal glob: "),
            "{err}"
        );
        let err = Policy::<Vendor>::parse(
            Path::new("p.toml"),
            "version = \"1\"\n[[rules]]\nprincipal = \"[\"\neffect = \"deny\"\n",
        )
        .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("policy file p.toml: rule rules[0]: bad principal glob: "),
            "{err}"
        );
    }
}
