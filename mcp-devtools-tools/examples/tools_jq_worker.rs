//! The smallest `jq` worker of the tools: a program whose `main` starts with
//! `mcp_projection::worker::run_if_requested()`, as a host's own `main` does when it runs the tools with
//! `WorkerProgram::CurrentExe` (the default). This crate's tests (`tests/it`) run the tools inside the test program,
//! which cannot serve as a worker itself, so they name this example's binary (built by `cargo test` beside them) with
//! `WorkerProgram::Path`.

use std::process::ExitCode;

fn main() -> ExitCode {
    mcp_projection::worker::run_if_requested().unwrap_or_else(|| {
        eprintln!(
            "tools_jq_worker: a jq worker of the mcp-devtools tools, started by the tools themselves with `{}`",
            mcp_projection::worker::FLAG
        );
        ExitCode::from(2)
    })
}
