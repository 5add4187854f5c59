//! CircleCI API v2 adapter for `mcp-devtools`: `GET` any API path and get its JSON body back, with exact
//! integers, through the shared HTTP cache ([`adapters_http::cache::HttpCache`]). It knows nothing about MCP.
//!
//! The rules this crate shares with the rest of the workspace (result shapes, limits, errors) are written down in
//! the project's contract, [docs/CONTRACT.md].
//!
//! [docs/CONTRACT.md]: https://github.com/mcp-devtools/mcp-devtools/blob/main/docs/CONTRACT.md
//!
//! - API reference: <https://circleci.com/docs/api/v2/> (base `https://circleci.com/api/v2`).
//! - Authentication: the personal API token in the `Circle-Token` header
//!   (<https://circleci.com/docs/api-developers-guide/#add-an-api-token>).
//! - Job logs: [`CircleciClient::job_details`] (API v1.1, the steps' `output_url`s) and
//!   [`CircleciClient::step_log`] (an `output_url`, fetched without the token, https only, as text).
//! - Job artifacts: [`CircleciClient::artifact`] (an artifact's `url`, streamed; the token goes with it to
//!   CircleCI's artifact hosts only, [`ARTIFACTS_DOMAIN`] and [`CircleciConfig::artifact_hosts`]).
//! - Pagination stays in the body: `next_page_token`, passed back as the `page-token` query parameter
//!   (<https://circleci.com/docs/api-developers-guide/#pagination>).
//! - Caching: paths with a `pipeline`, `workflow` or `job` segment are never cached, since their
//!   status changes ([`is_cacheable_path`]).
//!
//! The token never appears in errors, `Debug` output or logs. Reads are retried by the shared HTTP layer's policy
//! ([`adapters_http::RetryPolicy`]: 429/502/503, at most 3 attempts inside the timeout).

mod artifacts;
mod client;
mod config;
mod error;
mod logs;
mod path;

pub use client::{CircleciClient, CircleciResponse, GetRequest};
pub use config::{ARTIFACTS_DOMAIN, CircleciConfig, DEFAULT_API_BASE, TOKEN_HEADER, VENDOR_NAME};
pub use error::CircleciError;
pub use path::{API_PREFIX, NEVER_CACHED_SEGMENTS, is_cacheable_path, strip_api_prefix};

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
