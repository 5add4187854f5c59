//! The shared HTTP client's integration tests, one test binary: one module per area.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod client;
mod handoff;
mod redact_props;
mod redis_cache;
mod retry;
