//! The whole-chain tests of the server, one test binary (linked once): one module per area, the shared helpers in
//! `../common`. They test what the binary adds to the tools: the process, its settings and flags, the transports
//! (stdio framing, streamable HTTP, OAuth, sessions), the SDK clients, replicas, faults and the wire snapshots. What
//! a tool answers is tested in-process next to the tools (`mcp-devtools-tools/tests/it`).
//!
//! `faults` and `http_soak` measure latency medians and p99s that other tests running in the same process would
//! skew: nextest (`scripts/test`) runs every test in a process of its own; under plain `cargo test`, run them without
//! the other modules (`cargo test -p mcp-devtools-server --test it faults::`, `... http_soak::`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../common/mod.rs"]
mod common;

mod artifact_resources;
mod atlassian_deployments;
mod bad_arguments;
mod codemode_harness;
mod deployment;
mod fault_matrix;
mod faults;
mod http_limits;
mod http_oauth;
mod http_soak;
mod jq_isolation;
mod peer_reports;
mod protocol_stdio;
mod replica_tasks;
mod replicas;
mod sdk_clients;
mod sdk_waits;
mod toolsets;
mod upstream_bodies;
mod upstream_proxy;
mod upstream_tls;
mod upstream_trust;
mod wire_snapshots;
