//! The HTTP transport's integration tests, one test binary: one module per area.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod dormant;
mod limits;
