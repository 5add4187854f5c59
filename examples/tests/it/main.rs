//! The examples run as a user runs them, one test binary: one module per example group.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod gen_types;
mod in_process;
mod semver;
mod triage;
