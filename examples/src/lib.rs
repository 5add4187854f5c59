//! Shared pieces of the example programs (see the `code_mode` and `triage` binaries) and the generator of the
//! code-mode type declarations (the `gen_types` binary, `scripts/gen-types`).

pub mod harness;
pub mod types;

/// The Rust snippets of the repository's pages (`docs/`, the README), compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/library.md")]
#[doc = include_str!("../../docs/code-mode.md")]
#[doc = include_str!("../../docs/server.md")]
#[doc = include_str!("../../README.md")]
pub struct DocsPages;
