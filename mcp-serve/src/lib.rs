//! Serve any rmcp server over stdio or streamable HTTP with the protections a public deployment needs.
//!
//! - [`stdio`]: one session over stdin/stdout; every line framed and checked first ([`stdio_framing`],
//!   [`incoming`]); graceful drain on SIGINT/SIGTERM.
//! - [`http`]: streamable HTTP at `/mcp` with bearer tokens ([`tokens`]) mapped to a [`Principal`], `Host`/`Origin`
//!   validation, sessions owned by their principal and capped, checked `POST` bodies, a connection cap and client
//!   timeouts, a fair share per principal, `TCP_NODELAY`, graceful drain; or as an OAuth 2.1 resource server
//!   ([`oauth`]: protected-resource metadata, JWT or introspected access tokens, scopes per tool).
//!
//! Configuration is typed ([`http::HttpConfig`]); this crate reads no environment variables: the host program maps
//! its own settings onto these types.
//!
//! ```no_run
//! # use rmcp::ServerHandler;
//! # #[derive(Clone, Default)] struct MyServer;
//! # impl ServerHandler for MyServer {}
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use mcp_serve::http::{self, Auth, Drain, HttpConfig};
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! let auth = Auth::open(listener.local_addr()?, mcp_serve::Principal::local_user())?;
//! http::serve(MyServer::default, listener, auth, &HttpConfig::default(), Drain::default(), mcp_serve::shutdown_signal())
//!     .await?;
//! # Ok(()) }
//! ```

#[cfg(feature = "http")]
pub mod http;
pub mod incoming;
#[cfg(feature = "http")]
pub mod oauth;
mod principal;
mod shutdown;
pub mod stdin;
pub mod stdio;
#[cfg(unix)]
mod stdio_fds;
pub mod stdio_framing;
pub mod stdout;
#[cfg(feature = "http")]
pub mod tokens;

/// Deliberate re-export from `mcp-policy` (where the caller type lives, shared with the tools): the same items.
pub use principal::{Principal, principal_of};
pub use shutdown::shutdown_signal;
