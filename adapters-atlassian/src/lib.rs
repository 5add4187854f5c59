//! Atlassian adapter for `mcp-devtools`: send any Jira, Confluence or Bitbucket Cloud REST request and get the
//! response body back as JSON data (exact integers), on the shared HTTP layer ([`adapters_http`]). It knows nothing
//! about MCP.
//!
//! The rules this crate shares with the rest of the workspace (result shapes, limits, errors) are written down in
//! the project's contract, [docs/CONTRACT.md].
//!
//! [docs/CONTRACT.md]: https://github.com/mcp-devtools/mcp-devtools/blob/main/docs/CONTRACT.md
//!
//! | item or module | concern |
//! |---|---|
//! | [`AtlassianConfig`], [`SettingNames`] | the setting names, site, base-URL overrides, credentials, and the shared [`adapters_http::ClientOptions`] (user agent, timeout, body cap) |
//! | [`site`] | the one Atlassian module for base URLs and Basic auth, shared by the three products |
//! | [`jira`], [`confluence`], [`bitbucket`] | each product's path rules and identity |
//! | [`Atlassian`], [`ProductClient`] | the three product clients; `get`, `send` |
//! | [`AtlassianError`] | everything this crate reports |
//!
//! Vendor references: Jira Cloud REST v3 <https://developer.atlassian.com/cloud/jira/platform/rest/v3/>,
//! Confluence Cloud REST v2 <https://developer.atlassian.com/cloud/confluence/rest/v2/>, Bitbucket Cloud 2.0
//! <https://developer.atlassian.com/cloud/bitbucket/rest/>; Basic auth with an API token
//! <https://developer.atlassian.com/cloud/jira/platform/basic-auth-for-rest-apis/>.
//!
//! Rules: a missing setting fails only the product that needs it, at call time, naming the setting,
//! with nothing sent. Continuation stays inside the body (Jira's `nextPageToken`, Confluence's `_links.next`,
//! Bitbucket's `next`); those links work as `path`. Redirects are followed on the same origin only; an absolute URL
//! on another host is refused before anything (credentials included) is sent. A non-JSON body (a Bitbucket diff)
//! becomes a JSON string, a `204` or empty body `{}`. Error bodies are kept verbatim in the error text. Secrets never
//! appear in errors, `Debug` output or logs. This crate does not retry.

pub mod bitbucket;
mod client;
mod config;
pub mod confluence;
mod deployment;
mod error;
pub mod jira;
pub mod login;
mod product;
pub mod site;

pub use client::{Atlassian, AtlassianResponse, ProductClient, Request};
pub use config::{AtlassianConfig, DEFAULT_BITBUCKET_BASE_URL, SettingNames};
pub use deployment::{Deployment, UnknownDeployment};
pub use error::AtlassianError;
pub use product::Product;

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
