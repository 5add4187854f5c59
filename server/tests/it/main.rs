//! The whole-chain and in-process tests of the server, one test binary (linked once): one module per area, the
//! shared helpers in `../common`. Three suites keep their own binary: `faults` and `http_soak` measure latency
//! medians and p99s that other tests running in the same process would skew, and `secret_props` installs a
//! process-wide `trace` subscriber that would capture (and slow) every other in-process test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../common/mod.rs"]
mod common;

mod bad_arguments;
mod codemode_harness;
mod deployment;
mod fault_matrix;
mod http_limits;
mod http_oauth;
mod jq_isolation;
mod peer_reports;
mod protocol_stdio;
mod replicas;
mod sdk_clients;
mod toolsets;
mod upstream_bodies;
mod upstream_trust;
mod wire_snapshots;
