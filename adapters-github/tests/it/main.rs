//! The GitHub adapter's integration tests, one test binary: one module per area, the shared fixtures in
//! `../support`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../support/mod.rs"]
mod support;

mod client;
mod retry;
