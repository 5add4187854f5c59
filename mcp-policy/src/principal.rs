//! Who is calling ([`Principal`]): the subject a host program uses for artifact ownership, cache partitions and the
//! policy's `principal` globs. It lives here, beside the policy that decides over it, so that a transport
//! (`mcp-serve`, which authenticates it) and the tools (which use it) share it without depending on each other.

use std::fmt;

/// The authenticated caller, by name: on stdio the local user (`local:<user>`, [`Principal::local_user`]); over
/// HTTP the name the transport's tokens table or OAuth claims give (`mcp-serve`). Its name ([`Principal::as_str`])
/// is what a [`crate::Policy`]'s `principal` globs match and what owns the caller's artifacts.
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

    /// The principal's name, used as the artifact owner and matched by the policy's `principal` globs.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Principal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The [`Principal`] an HTTP transport authenticated for the request being handled: rmcp passes the request's
/// `http::request::Parts` to the handler in the context's extensions, and the transport (`mcp-serve`'s
/// authentication) put the principal in the extensions of those parts. `None` on stdio or when no transport put
/// one there. Feature `rmcp`; a handler reads it the same way whatever serves it.
#[cfg(feature = "rmcp")]
pub fn principal_of(context: &rmcp::service::RequestContext<rmcp::RoleServer>) -> Option<Principal> {
    context
        .extensions
        .get::<http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<Principal>().cloned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_and_displayed_as_given() {
        let alice = Principal::named("oauth:alice");
        assert_eq!(
            (alice.as_str(), alice.to_string().as_str()),
            ("oauth:alice", "oauth:alice")
        );
        assert!(Principal::local_user().as_str().starts_with("local:"));
    }
}
