//! Which scope a tool call needs, and the check made on every `POST` before rmcp sees it: a `tools/call` (alone or
//! in a batch) whose tool needs a scope the token lacks is answered `403` with `WWW-Authenticate: Bearer
//! error="insufficient_scope", scope="<the scope needed>"` (MCP authorization, "Scope Challenge Handling"), and
//! nothing runs. Other methods (`initialize`, `tools/list`, ...) need a valid token only.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use axum::response::Response;
use serde_json::Value;

use super::ResourceServer;
use super::metadata;

/// The scope each tool needs: one per tool, [`ToolScopes::default_scope`] for tools not listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolScopes {
    default_scope: String,
    tools: BTreeMap<String, String>,
}

impl ToolScopes {
    /// Every tool needs `default_scope` until [`ToolScopes::with_tool`] says otherwise.
    pub fn new(default_scope: impl Into<String>) -> Self {
        ToolScopes {
            default_scope: default_scope.into(),
            tools: BTreeMap::new(),
        }
    }

    /// `tool` needs `scope`.
    #[must_use]
    pub fn with_tool(mut self, tool: impl Into<String>, scope: impl Into<String>) -> Self {
        self.tools.insert(tool.into(), scope.into());
        self
    }

    /// The scope of tools not listed (also of unknown tool names, which the server then refuses itself).
    pub fn default_scope(&self) -> &str {
        &self.default_scope
    }

    /// The scope `tool` needs.
    pub fn required(&self, tool: &str) -> &str {
        self.tools.get(tool).unwrap_or(&self.default_scope)
    }

    /// Every scope some tool needs, sorted: the metadata's `scopes_supported` and the `scope` of a `401` challenge.
    pub fn supported(&self) -> Vec<String> {
        let mut all: BTreeSet<&String> = self.tools.values().collect();
        all.insert(&self.default_scope);
        all.into_iter().cloned().collect()
    }
}

/// What the caller's access token grants, put in the request's extensions beside its
/// [`Principal`](crate::Principal) by the authentication middleware. Principals of the tokens file carry none and
/// may call every tool.
#[derive(Debug, Clone)]
pub struct Granted {
    /// The token's scopes.
    pub scopes: Arc<BTreeSet<String>>,
    pub(crate) server: Arc<ResourceServer>,
}

impl Granted {
    /// The first scope `message` (one JSON-RPC message or a batch) needs that the token lacks.
    pub fn missing(&self, message: &Value) -> Option<&str> {
        let scopes = &self.server.config.scopes;
        let calls: Vec<&Value> = match message {
            Value::Array(items) => items.iter().collect(),
            single => vec![single],
        };
        calls
            .into_iter()
            .filter(|item| item.get("method").and_then(Value::as_str) == Some("tools/call"))
            .map(|item| {
                let tool = item.pointer("/params/name").and_then(Value::as_str).unwrap_or_default();
                scopes.required(tool)
            })
            .find(|scope| !self.scopes.contains(*scope))
    }

    /// `403` refusing `message` when it needs a scope the token lacks; `None` when it may pass.
    pub fn refuse(&self, message: &Value) -> Option<Response> {
        let scope = self.missing(message)?;
        tracing::info!(scope, "refused a call: the access token lacks the scope it needs");
        Some(metadata::insufficient_scope(&self.server, scope))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tools_need_their_scope_and_others_the_default() {
        let scopes = ToolScopes::new("devtools:read").with_tool("jira_write", "devtools:write");
        assert_eq!(scopes.required("jira_write"), "devtools:write");
        assert_eq!(scopes.required("github_list_workflow_runs"), "devtools:read");
        assert_eq!(scopes.required("no_such_tool"), "devtools:read");
        assert_eq!(scopes.supported(), ["devtools:read", "devtools:write"]);
    }
}
