//! Who is calling: the subject a host program uses for artifact ownership, cache partitions and policy.

use std::fmt;

use rmcp::RoleServer;
use rmcp::service::RequestContext;

/// The authenticated caller. On stdio this is the local user (`local:<user>`); HTTP principals come from the
/// tokens table (`tokens`, feature `http`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Principal(String);

impl Principal {
    /// The local user running the server: `local:` + `$USER` (or `$USERNAME`), else `local:unknown`.
    pub fn local_user() -> Self {
        let user = std::env::var("USER")
            .or_else(|_| std::env::var("USERNAME"))
            .unwrap_or_else(|_| "unknown".into());
        Principal(format!("local:{user}"))
    }

    /// A principal with this exact name.
    pub fn named(name: impl Into<String>) -> Self {
        Principal(name.into())
    }

    /// The principal's name, used as the artifact owner.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Principal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The [`Principal`] the HTTP transport authenticated for the request being handled (rmcp passes the request's
/// `http::request::Parts` to the handler); `None` on stdio or outside this transport. Available without the `http`
/// feature, so a handler reads it the same way whatever serves it.
pub fn principal_of(context: &RequestContext<RoleServer>) -> Option<Principal> {
    context
        .extensions
        .get::<http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<Principal>().cloned())
}
