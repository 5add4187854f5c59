#![doc = include_str!("../README.md")]
//!
//! | module | concern |
//! |---|---|
//! | [`Responder`] | the result pipeline: permit, projection runner, depth, rendering off the async workers, seal, artifact put |
//! | [`view`] | [`View`], [`ViewArgs`], [`WithView`]: the caller's `jq` and `outputFormat` |
//! | [`artifact_read`] | the `artifact_read` tool: [`artifact_read::route`] for rmcp routers, [`artifact_read::call`] by hand |
//! | [`args`] | argument parsing with errors naming the argument, `maxLength` checks from the schema, digit-string integers |
//! | [`schema`] | the compact `inputSchema` of an argument struct |
//!
//! Contract sections cited in the docs are those of the repository's `docs/CONTRACT.md`.

pub mod args;
pub mod artifact_read;
mod pipeline;
mod responder;
pub mod schema;
pub mod view;

pub use pipeline::MAX_RESULT_DEPTH;
pub use responder::{DEFAULT_PIPELINE_TIMEOUT, Responder, TextOutcome};
pub use view::{View, ViewArgs, WithView};

use rmcp::model::CallToolResult;

/// An error result: `isError: true`, this text only, no `structuredContent` (CONTRACT §7).
pub fn error(text: impl Into<String>) -> CallToolResult {
    mcp_envelope::rmcp::error_result(text.into())
}
