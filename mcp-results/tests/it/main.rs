//! The crate through its public API, one test binary: the result path (`responder`) and the task stores
//! (`task_store`: the memory store, and the Redis store on a real `redis-server` when `scripts/services` runs one).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod responder;
mod task_store;
