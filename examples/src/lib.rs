//! Shared pieces of the example programs (see the `code_mode` and `triage` binaries).

pub mod harness;
