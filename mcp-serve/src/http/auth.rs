//! Who may call over HTTP (private module: re-exported by [`crate::http`]; the details are on [`Auth`]).

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::{StatusCode, header};

use crate::oauth::{Granted, ResourceServer, metadata};
use crate::principal::Principal;
use crate::tokens::TokenTable;

/// Who may call over HTTP.
///
/// Who may call over HTTP: bearer tokens mapped to principals ([`crate::tokens`]), OAuth access tokens
/// ([`crate::oauth`], with the tokens file beside it for machine clients), or an open loopback server.
///
/// With a tokens file alone, every request must carry `Authorization: Bearer <token>` of the table; otherwise the
/// answer is `401` with an empty body and `WWW-Authenticate: Bearer` (RFC 6750 §3), whatever was wrong. With OAuth,
/// a token of the table is accepted as before and any other is checked as an access token; refusals carry the
/// challenges of [`crate::oauth::metadata`] (`resource_metadata`, `scope`, `error`), and an access token in the
/// query string is refused with `400`. The authenticated [`Principal`] is put in the request's extensions (a handler
/// reads it with [`crate::principal_of`]), with the token's [`Granted`] scopes for an OAuth principal, and the
/// `Authorization` header is removed before rmcp sees the request, so no later log can contain the token.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub enum Auth {
    /// Bearer tokens of this table.
    Tokens(Arc<TokenTable>),
    /// No authentication: every call is this principal. Build it with [`Auth::open`] (loopback only).
    Open(Principal),
    /// OAuth access tokens checked by this resource server, and the bearer tokens of `tokens` (machine clients)
    /// beside them.
    OAuth {
        /// The resource server ([`ResourceServer::discover`]).
        server: Arc<ResourceServer>,
        /// A tokens file accepted as well.
        tokens: Option<Arc<TokenTable>>,
    },
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

    /// The principal of a request with these headers, if any, for the open server and the tokens file (an OAuth
    /// access token needs [`ResourceServer::verify`]: this answers only for a token of its tokens file).
    pub fn principal(&self, headers: &http::HeaderMap) -> Option<Principal> {
        match self {
            Auth::Open(principal) => Some(principal.clone()),
            Auth::Tokens(table) => bearer_token(headers).and_then(|token| table.authenticate(token)),
            Auth::OAuth { tokens, .. } => {
                let table = tokens.as_ref()?;
                bearer_token(headers).and_then(|token| table.authenticate(token))
            }
        }
    }

    /// The OAuth resource server, when there is one.
    pub fn resource_server(&self) -> Option<&Arc<ResourceServer>> {
        match self {
            Auth::OAuth { server, .. } => Some(server),
            _ => None,
        }
    }
}

/// Axum middleware: sets the [`Principal`] extension (and [`Granted`] for an OAuth token) and strips
/// `Authorization`, or answers the refusal: `401` with an empty body for a missing, malformed or unknown token of
/// the tokens file; with OAuth, the challenges of [`metadata`].
pub async fn authenticate(State(auth): State<Arc<Auth>>, mut request: Request, next: Next) -> Response {
    let Auth::OAuth { server, tokens } = &*auth else {
        let principal = auth.principal(request.headers());
        request.headers_mut().remove(header::AUTHORIZATION);
        return match principal {
            Some(principal) => {
                request.extensions_mut().insert(principal);
                next.run(request).await
            }
            None => (StatusCode::UNAUTHORIZED, [(header::WWW_AUTHENTICATE, "Bearer")]).into_response(),
        };
    };
    if token_in_query(request.uri()) {
        return metadata::token_in_query(server);
    }
    let token = bearer_token(request.headers()).map(str::to_owned);
    request.headers_mut().remove(header::AUTHORIZATION);
    let Some(token) = token else {
        return metadata::missing_token(server);
    };
    if let Some(principal) = tokens.as_ref().and_then(|table| table.authenticate(&token)) {
        request.extensions_mut().insert(principal);
        return next.run(request).await;
    }
    match server.verify(&token).await {
        Ok(verified) => {
            request.extensions_mut().insert(verified.principal);
            request.extensions_mut().insert(Granted {
                scopes: Arc::new(verified.scopes),
                server: server.clone(),
            });
            next.run(request).await
        }
        Err(refusal) => {
            tracing::info!(reason = %refusal, "refused an access token");
            metadata::invalid_token(server, &refusal)
        }
    }
}

/// Whether the query string carries an `access_token` parameter (RFC 6750 §2.3, which MCP forbids).
fn token_in_query(uri: &http::Uri) -> bool {
    uri.query().is_some_and(|query| {
        query.split('&').any(|pair| {
            pair.split('=')
                .next()
                .is_some_and(|name| name.eq_ignore_ascii_case("access_token"))
        })
    })
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
    fn access_token_in_the_query_is_seen() {
        assert!(token_in_query(&"/mcp?access_token=abc".parse().unwrap()));
        assert!(token_in_query(&"/mcp?a=1&ACCESS_TOKEN".parse().unwrap()));
        assert!(!token_in_query(&"/mcp?token_hint=1".parse().unwrap()));
        assert!(!token_in_query(&"/mcp".parse().unwrap()));
    }

    #[test]
    fn open_only_on_loopback() {
        let me = Principal::named("me");
        assert!(Auth::open("127.0.0.1:1".parse().unwrap(), me.clone()).is_ok());
        assert!(Auth::open("[::1]:1".parse().unwrap(), me.clone()).is_ok());
        assert!(Auth::open("0.0.0.0:1".parse().unwrap(), me).is_err());
    }
}
