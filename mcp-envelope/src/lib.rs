//! Structured output for MCP tools: the `structuredContent` envelope, its
//! `outputSchema`, the size bound with oversized values kept whole, the `jq`
//! projection (jq via jaq, JMESPath fallback), TOON/JSON text rendering and
//! text truncation. Pure: no I/O, no async runtime.
//!
//! Section references such as "CONTRACT §5" are to the project's contract, [docs/CONTRACT.md], kept in
//! the repository.
//!
//! [docs/CONTRACT.md]: https://github.com/mcp-devtools/mcp-devtools/blob/main/docs/CONTRACT.md
//!
//! Follows `CONTRACT.md` §1 (the bound setting), §2 (result shape and
//! schemas), §4 (projection), §5 (oversized values) and §6 (text truncation).
//!
//! | module | concern |
//! |---|---|
//! | [`envelope`] | `{data, ...meta, incomplete?}` types |
//! | [`schema`] | `outputSchema` generation and normalisation |
//! | [`bound`] | [`SizeBound`]: the structured-content size bound, clamped into its range |
//! | [`nesting`] | depth of a value and freeing it, without recursion |
//! | [`seal`](mod@seal) | inline vs oversized, never clipped |
//! | [`project`](mod@project) | `jq` / JMESPath projection with exact numbers |
//! | [`render`](mod@render) | TOON / pretty JSON text |
//! | [`truncate`] | head + tail text truncation |
//! | [`sanitize`] | control characters and bidi overrides in text blocks shown as `\uXXXX` |
//! | [`compact`] | compact tool schemas for `tools/list` |
//! | [`prepare`](mod@prepare) | the whole pipeline in one call |
//! | `rmcp` (feature `rmcp`) | `Tool` / `CallToolResult` helpers (the async result path is the `mcp-results` crate) |

pub mod bound;
pub mod compact;
pub mod envelope;
pub mod error;
pub mod nesting;
pub mod prepare;
pub mod project;
pub mod render;
#[cfg(feature = "rmcp")]
pub mod rmcp;
pub mod sanitize;
pub mod schema;
pub mod seal;
pub mod truncate;

pub use bound::{BoundWarning, DEFAULT_MAX_BYTES, MAX_MAX_BYTES, MIN_MAX_BYTES, SizeBound};
pub use compact::{compact_input_schema, compact_output_schema};
pub use envelope::{Envelope, Incomplete, IncompleteReason, NoMeta, PageMeta, PagedEnvelope, paged_output_schema};
pub use error::EnvelopeError;
pub use prepare::{INDENTED_MAX_DEPTH, Prepared, TextSource, prepare, prepare_text};
pub use project::{Dialect, Projection, ProjectionError, project};
pub use render::{OutputFormat, RenderError, UnknownOutputFormat, render, render_serialize};
pub use schema::{input_schema_for, output_schema_for, with_title};
pub use seal::{Oversized, PendingIncomplete, SealError, Sealed, seal};
pub use truncate::{Rest, TEXT_LIMIT_BYTES, TextEnds, truncate_text, truncate_text_noting};

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
