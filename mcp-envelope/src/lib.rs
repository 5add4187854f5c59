//! Structured output for MCP tools: the `structuredContent` envelope, its
//! `outputSchema`, the size bound with oversized values kept whole, the `jq`
//! projection (jq via jaq, JMESPath fallback), TOON/JSON text rendering and
//! text truncation. Pure: no I/O, no async runtime.
//!
//! The rules this crate shares with the rest of the workspace (result shapes, limits, errors) are written down in
//! the project's contract, [docs/CONTRACT.md].
//!
//! [docs/CONTRACT.md]: https://github.com/mcp-devtools/mcp-devtools/blob/main/docs/CONTRACT.md
//!
//! The root is the one path to every item but the three modules below; what each concern offers:
//!
//! | concern | items |
//! |---|---|
//! | `{data, ...meta, incomplete?}` types | [`Envelope`], [`PagedEnvelope`], [`Incomplete`] |
//! | `outputSchema` generation and normalisation | [`output_schema_for`], [`input_schema_for`] |
//! | the structured-content size bound, clamped into its range | [`SizeBound`] |
//! | inline vs oversized, never clipped | [`seal()`], [`Sealed`] |
//! | `jq` / JMESPath projection with exact numbers | [`project()`], [`Projection`] |
//! | TOON / pretty JSON text | [`render()`], [`OutputFormat`] |
//! | head + tail text truncation | [`truncate_text`] |
//! | compact tool schemas for `tools/list` | [`compact_output_schema`] |
//! | how the caller asked to see a result: `jq`, text format, text from the envelope or `data` | [`View`], [`TextSource`] |
//! | the whole pipeline in one call: data, metadata, view, bound | [`prepare()`], [`prepare_text`] |
//! | the same for a list given in parts (pages), never held whole | [`ListWriter`], [`ListAt`] |
//! | depth of a value and freeing it, without recursion | module [`nesting`] |
//! | control characters and bidi overrides in text blocks shown as `\uXXXX` | module [`sanitize`] |
//! | `rmcp` (feature `rmcp`) | `Tool` / `CallToolResult` helpers (the async result path is the `mcp-results` crate) |

mod bound;
mod compact;
mod envelope;
mod error;
mod list_writer;
pub mod nesting;
mod prepare;
mod project;
mod render;
#[cfg(feature = "rmcp")]
pub mod rmcp;
pub mod sanitize;
mod schema;
mod seal;
mod truncate;
mod view;

pub use bound::{BoundWarning, CLIENT_MAX_MESSAGE_BYTES, DEFAULT_MAX_BYTES, MAX_MAX_BYTES, MIN_MAX_BYTES, SizeBound};
pub use compact::{compact_input_schema, compact_output_schema};
pub use envelope::{
    Envelope, Incomplete, IncompleteReason, LinkedPageMeta, NextLinkMeta, NoMeta, PageMeta, PagedEnvelope, flattened,
    paged_output_schema,
};
pub use error::EnvelopeError;
pub use list_writer::{ListAt, ListWriter};
pub use prepare::{INDENTED_MAX_DEPTH, Prepared, prepare, prepare_text};
pub use project::{
    Dialect, MAX_COUNTED_OUTPUTS, MAX_EXPRESSION_BYTES, MAX_RESULT_DEPTH, PROJECTION_STACK_BYTES, Projection,
    ProjectionError, project,
};
pub use render::{OutputFormat, RenderError, TooDeep, UnknownOutputFormat, render, render_serialize};
pub use schema::{ALLOWED_KEYWORDS, STANDARD_FORMATS, input_schema_for, output_schema_for, with_title};
pub use seal::{Oversized, PendingIncomplete, SealError, Sealed, seal};
pub use truncate::{Rest, TEXT_LIMIT_BYTES, TextEnds, truncate_text, truncate_text_noting};
pub use view::{TextSource, View};

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
