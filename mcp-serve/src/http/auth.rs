//! Who may call over HTTP: bearer tokens mapped to principals ([`crate::tokens`]), or an open loopback server.
//!
//! Every request must carry `Authorization: Bearer <token>` of the table; otherwise the answer is `401` with an
//! empty body and `WWW-Authenticate: Bearer` (RFC 6750 §3), whatever was wrong. The authenticated [`Principal`] is
//! put in the request's extensions (a handler reads it with [`crate::principal_of`]) and the `Authorization` header is
//! removed before rmcp sees the request, so no later log can contain the token.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::{StatusCode, header};

use crate::principal::Principal;
use crate::tokens::TokenTable;

/// Who may call over HTTP.
#[derive(Debug, Clone)]
pub enum Auth {
    /// Bearer tokens of this table.
    Tokens(Arc<TokenTable>),
    /// No authentication: every call is this principal. Build it with [`Auth::open`] (loopback only).
    Open(Principal),
}

/// An open (unauthenticated) server was asked for on an address other hosts can reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("serving without authentication is only allowed on a loopback address, not {0}")]
pub struct OpenOffLoopback(pub SocketAddr);

impl Auth {
    /// No authentication on `addr`, every call being `principal`.
    ///
    /// # Errors
    /// [`OpenOffLoopback`]: `addr` is not a loopback address.
    pub fn open(addr: SocketAddr, principal: Principal) -> Result<Auth, OpenOffLoopback> {
        if addr.ip().is_loopback() {
            Ok(Auth::Open(principal))
        } else {
            Err(OpenOffLoopback(addr))
        }
    }

    /// The principal of a request with these headers, if any.
    pub fn principal(&self, headers: &http::HeaderMap) -> Option<Principal> {
        match self {
            Auth::Open(principal) => Some(principal.clone()),
            Auth::Tokens(table) => bearer_token(headers).and_then(|token| table.authenticate(token)),
        }
    }
}

/// Axum middleware: sets the [`Principal`] extension and strips `Authorization`, or answers `401` with an empty
/// body for a missing, malformed or unknown token.
pub async fn authenticate(State(auth): State<Arc<Auth>>, mut request: Request, next: Next) -> Response {
    let principal = auth.principal(request.headers());
    request.headers_mut().remove(header::AUTHORIZATION);
    match principal {
        Some(principal) => {
            request.extensions_mut().insert(principal);
            next.run(request).await
        }
        None => (StatusCode::UNAUTHORIZED, [(header::WWW_AUTHENTICATE, "Bearer")]).into_response(),
    }
}

/// The token of `Authorization: Bearer <token>` (scheme case-insensitive, RFC 6750 §2.1); `None` when absent,
/// not UTF-8, of another scheme or empty.
fn bearer_token(headers: &http::HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(value: &str) -> http::HeaderMap {
        let mut map = http::HeaderMap::new();
        map.insert(header::AUTHORIZATION, value.parse().unwrap());
        map
    }

    #[test]
    fn bearer_token_parsing() {
        assert_eq!(bearer_token(&headers("Bearer abc")), Some("abc"));
        assert_eq!(bearer_token(&headers("bearer  abc ")), Some("abc"));
        assert_eq!(bearer_token(&headers("Basic abc")), None);
        assert_eq!(bearer_token(&headers("Bearer ")), None);
        assert_eq!(bearer_token(&headers("Bearerabc")), None);
        assert_eq!(bearer_token(&http::HeaderMap::new()), None);
    }

    #[test]
    fn open_only_on_loopback() {
        let me = Principal::named("me");
        assert!(Auth::open("127.0.0.1:1".parse().unwrap(), me.clone()).is_ok());
        assert!(Auth::open("[::1]:1".parse().unwrap(), me.clone()).is_ok());
        assert!(Auth::open("0.0.0.0:1".parse().unwrap(), me).is_err());
    }
}
