#![doc = include_str!("../README.md")]
//!
//! | module | concern |
//! |---|---|
//! | [`Responder`] | the result pipeline: permit, projection runner, depth, rendering off the async workers, seal, artifact put |
//! | [`Json`], [`Structured`] | the return type of a `#[tool]` method whose result went through the [`Responder`] ([`Responder::json`]); rmcp's `#[tool]` derives `outputSchema` from it |
//! | [`ListResult`] | a list read in pages (`allPages`) written into its result as the pages arrive, never held whole |
//! | [`ResponderBuilder`] | a [`Responder`] from a store, the rest defaulted; the [`Owner`] of a call's artifacts |
//! | [`Responder::artifact_read_route`], [`Responder::guard`] | `artifact_read` and the call policy on an rmcp `ToolRouter` |
//! | [`View`], [`ViewArgs`], [`WithView`] | the caller's `jq` and `outputFormat` |
//! | [`Args`] | a `#[tool]` method's arguments, refused as an `isError` result with `_meta.code` |
//! | [`resources`] | artifacts as MCP resources: the `resource_link` block, `resources/read` and `resources/templates/list` ([`Responder::read_resource`], [`Responder::resource_templates`], [`Responder::resource_capabilities`]) |
//! | [`artifact_read`] | the `artifact_read` tool: [`artifact_read::route`] for rmcp routers, [`artifact_read::call`] by hand |
//! | [`args`] | argument parsing with errors naming the argument, `maxLength` checks from the schema, digit-string integers |
//! | [`schema`] | the compact `inputSchema` of an argument struct |
//! | [`tasks`] | task state for the MCP Tasks extension: the [`tasks::TaskStore`] trait, in memory or (feature `redis`) in Redis |
//!
//! The rules it shares with the other crates (result shapes, limits, errors) are written down in the project's
//! contract, `docs/CONTRACT.md` in the repository.

pub mod args;
pub mod artifact_read;
mod builder;
mod extract;
mod list_result;
mod pipeline;
pub mod resources;
mod responder;
mod router;
pub mod schema;
pub mod splice;
mod structured;
pub mod tasks;
mod view;

pub use builder::{DEFAULT_OWNER, Owner, ResponderBuilder};
pub use extract::Args;
pub use list_result::ListResult;
pub use pipeline::{INLINE_RENDER_BYTES, MAX_RESULT_DEPTH};
pub use responder::{DEFAULT_PIPELINE_TIMEOUT, Responder, TextOutcome};
pub use structured::{Json, Structured};
pub use view::{ViewArgs, WithView};

// The front door (deliberate re-exports): what a server of its own needs besides rmcp, from this one
// crate. They are the same items as in the crates behind it (a second path on purpose: a reuser depends on this crate
// alone; a server that also depends on those crates gets the same types, not copies). Nothing else in this crate is
// reachable by two paths.
/// Deliberate re-export from `mcp-artifacts` (the front door: the same item, reachable from this crate).
pub use mcp_artifacts::{ArtifactStore, FsStore, MemoryStore, StoreConfig};
/// Deliberate re-export from `mcp-envelope` (the front door: the same item, reachable from this crate).
pub use mcp_envelope::{Envelope, ListAt, NoMeta, OutputFormat, PageMeta, SizeBound, TextSource, View};
/// Deliberate re-export from `mcp-policy` (the front door: the same item, reachable from this crate).
pub use mcp_policy::Policy;
/// Deliberate re-export from `mcp-projection` (the front door: the same item, reachable from this crate).
pub use mcp_projection::{InProcess, Isolated, IsolatedConfig, ProjectionRunner, WorkerProgram};

use rmcp::model::CallToolResult;

/// An error result: `isError: true`, this text only, no `structuredContent`.
pub fn error(text: impl Into<String>) -> CallToolResult {
    mcp_envelope::rmcp::error_result(text.into())
}

/// [`error`] with `_meta.code` = `code` alone, e.g. `invalid_argument`.
pub fn coded_error(text: impl Into<String>, code: &str) -> CallToolResult {
    error_with_meta(
        text,
        serde_json::Map::from_iter([("code".to_owned(), serde_json::Value::from(code))]),
    )
}

/// [`error`] with `meta` as the result's `_meta` keys (beside any it has): how a program tells failures apart
/// without reading the text, e.g. `{"code": "rate_limited", "retryAfterSeconds": 30}` (the bundled server's codes
/// are listed in docs/CONTRACT.md §7).
pub fn error_with_meta(text: impl Into<String>, meta: serde_json::Map<String, serde_json::Value>) -> CallToolResult {
    let mut result = error(text);
    result
        .meta
        .get_or_insert_with(rmcp::model::MetaObject::default)
        .0
        .extend(meta);
    result
}
