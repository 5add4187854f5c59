//! The artifact stores' integration tests, one test binary: one module per store (and the sweeper).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod fs;
mod fs_kill;
mod memory;
mod s3;
mod sweeper;
