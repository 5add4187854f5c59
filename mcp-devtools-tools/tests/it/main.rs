//! What the tools answer, tested next to them: one test binary (linked once), one module per area, the shared
//! helpers in `common`. Every test drives the tools in this process from a typed `ToolsConfig` — an rmcp client
//! over an in-memory pipe to `DevtoolsServer` (the whole MCP session: `tools/list`, `tools/call`, JSON-RPC errors),
//! or `DevtoolsServer::call_tool_as` — against `recorded-upstream` (wiremock serving `fixtures/`). Nothing spawns the
//! server binary: the process, its settings and flags, the transports (stdio framing, streamable HTTP, OAuth,
//! sessions), the SDK clients, replicas, faults and the wire snapshots are tested in `server/tests`.
//!
//! `jq` runs in worker processes of the `tools_jq_worker` example (built by `cargo test` and nextest with these
//! tests; see `common::jq_worker`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

mod all_pages;
mod artifact_quota;
mod atlassian_data_center;
mod atlassian_tools;
mod bad_arguments;
mod ci_status;
mod ci_tools;
mod circleci_tool;
mod embedding;
mod error_codes;
mod free_paths;
mod ghes;
mod github_get;
mod github_tools;
mod header_forms;
mod job_logs;
mod jq_semantics;
mod next_links;
mod oversized;
mod redaction;
mod secret_props;
mod tasks;
mod toolsets;
mod upstream_bodies;
mod wait_tools;
