//! The `mcp-devtools` tools as a library: GitHub Actions, CircleCI, Jira, Confluence and Bitbucket tools with
//! structured output, `jq` and `artifact_read`, served by one rmcp [`ServerHandler`](rmcp::ServerHandler)
//! ([`DevtoolsServer`]) with the call policy, enterprise `_meta`, the argument and result limits and one `tool_call`
//! span per call. Built from typed configuration only ([`ToolsConfig`]): no environment, flags or files are read
//! here, and no transport is started (serve [`DevtoolsServer`] with rmcp or `mcp-serve`, or call it in-process
//! with [`DevtoolsServer::call_tool_as`]). The bundled `mcp-devtools` binary (crate `mcp-devtools-server`) fills the
//! configuration from its settings.
//!
//! The rules this crate shares with the rest of the workspace (result shapes, limits, errors) are written down in
//! the project's contract, [docs/CONTRACT.md].
//!
//! [docs/CONTRACT.md]: https://github.com/mcp-devtools/mcp-devtools/blob/main/docs/CONTRACT.md
//!
//! - [`ToolsConfig`]: what everything is built from.
//! - [`App`]: the store, vendor clients, policy, result path and task store built from it.
//! - [`DevtoolsServer`]: the `ServerHandler` and the in-process call.
//! - [`logs`]: CI job logs as data, filtered as they stream in (`github_get_job_logs`, `circleci_get_job_logs`).
//! - [`vendors`]: one folder per vendor, its tools as `#[tool]` methods, and the registry; [`tools`]: what they
//!   share and the catalogue; [`args`]: argument limits; [`toolsets`]: the selection;
//!   [`gate`]: enterprise `_meta`; [`Vendor`]: the policy's vendor type.
//!
//! The root is the one path to the items of its private modules; [`Principal`] is `mcp_policy::Principal` (also
//! `mcp_serve::Principal`; this crate does not depend on the transport), re-exported on purpose because
//! [`DevtoolsServer::call_tool_as`] takes it, and [`args`] re-exports the argument
//! helpers of `mcp_results::args` on purpose beside this crate's own limits.

mod app;
pub mod args;
mod config;
pub mod gate;
mod handler;
pub mod logs;
pub mod tools;
pub mod toolsets;
mod vendor;
pub mod vendors;

pub use app::{App, AppError};
pub use config::{ArtifactBackend, DEFAULT_TASK_POLL_INTERVAL, DEFAULT_TASK_TTL, TasksConfig, ToolsConfig, WaitConfig};
pub use handler::{Catalog, DevtoolsServer};
/// Deliberate re-export: the caller type of [`DevtoolsServer::call_tool_as`] (`mcp_policy::Principal`, which
/// `mcp_serve` re-exports too).
pub use mcp_policy::Principal;
pub use vendor::Vendor;

/// The README's example, compiled as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
