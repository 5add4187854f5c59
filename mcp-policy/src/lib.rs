//! What a caller may call, for any MCP server: the call policy and the tool selection of the bundled `mcp-devtools`
//! server (see [docs/CONTRACT.md]), with the host's own tools and vendor type.
//!
//! [docs/CONTRACT.md]: https://github.com/mcp-devtools/mcp-devtools/blob/main/docs/CONTRACT.md
//!
//! - [`Policy`]: ordered rules over the caller (principal), the tool and the vendor (the upstream the tool talks
//!   to); the first rule that matches decides ([`Decision`]); no matching rule (or no policy) means allow.
//! - [`Selection`]: which tools are offered at all: only some toolsets (vendors), only read tools; a tool left out
//!   is neither listed nor callable, and [`LeftOut`] says why (the host names its own setting in the message).
//! - [`Principal`]: the caller the rules are about (its name is what `principal` globs match); shared by a transport
//!   that authenticates it (`mcp-serve` re-exports it) and the tools that use it. With the `rmcp` feature,
//!   [`principal_of`] reads the one an HTTP transport put in a request's context.
//! - With the `rmcp` feature, [`refusal`] (and [`Policy::refuse`]) is the `isError` result a refused call gets:
//!   `_meta.code` = `policy_denied` or `approval_required`, `_meta.decision` = the [`Decision`].
//!
//! The vendor type `V` is the host's: any `serde` enum (or `String`) naming its upstreams; an unknown vendor in the
//! file is a load error. The host decides where the file comes from (the bundled server has a setting for it).
//! The policy file:
//!
//! ```toml
//! version = "2025-11-30"
//!
//! [[rules]]
//! id = "interns-read-only-github"   # optional; default "rules[<index from 0>]"
//! principal = "intern-*"            # glob over the principal name; omitted = any
//! tool = "circleci_*"               # glob over the tool name; omitted = any
//! vendor = "circleci"               # one of the host's vendors (V); omitted = any
//! arguments = { method = "DELETE" }  # argument name -> glob over its value (Policy::decide_call); omitted = any
//! effect = "deny"                   # allow | deny | approval_required
//! reason = "Interns use GitHub only"
//! ```
//!
//! Globs are `globset` globs (`*`, `?`, `[abc]`, `{a,b}`); a pattern without them matches exactly.
//!
//! ```
//! use mcp_policy::{Effect, Policy};
//!
//! #[derive(Debug, Clone, Copy, PartialEq, serde::Deserialize)]
//! #[serde(rename_all = "lowercase")]
//! enum Vendor { Github, Jira }
//!
//! let text = "version = \"1\"\n[[rules]]\nprincipal = \"intern-*\"\nvendor = \"jira\"\neffect = \"deny\"\n";
//! let policy: Policy<Vendor> = Policy::from_toml(text)?; // a file: Policy::load(path)
//! let decision = policy.decide("intern-1", "jira_get", &Vendor::Jira).expect("a rule matches");
//! assert_eq!(decision.effect, Effect::Deny);
//! assert!(policy.decide("intern-1", "github_list_workflow_runs", &Vendor::Github).is_none());
//! # Ok::<(), mcp_policy::PolicyError>(())
//! ```

/// The README's example, compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

mod principal;
#[cfg(feature = "rmcp")]
mod refusal;
mod rules;
mod selection;

pub use principal::Principal;
#[cfg(feature = "rmcp")]
pub use principal::principal_of;
#[cfg(feature = "rmcp")]
pub use refusal::{META_CODE, META_DECISION, refusal};
pub use rules::{Decision, Effect, Policy, PolicyError};
pub use selection::{LeftOut, Selection, ToolFacts, UnknownToolset};
