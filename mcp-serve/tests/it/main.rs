//! The HTTP transport's integration tests, one test binary: one module per area. `sessions`, `messages` and
//! `origin` drive `router()` in-process; `dormant` and `limits` need real sockets (timeouts, connection caps, slow
//! clients, worker lifetimes).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod answers;
mod dormant;
mod limits;
mod messages;
mod origin;
mod sessions;
mod support;
