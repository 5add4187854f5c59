//! `mcp-jq-worker`: the stand-alone jq worker program started by `mcp_projection::Isolated` with
//! `WorkerProgram::Path` (see `mcp_projection::worker`). Not meant to be run by hand.

use std::process::ExitCode;

fn main() -> ExitCode {
    mcp_projection::worker::run_if_requested().unwrap_or_else(|| {
        eprintln!(
            "mcp-jq-worker: the jq worker of mcp-projection, started by its isolated runner as `mcp-jq-worker {} \
             ADDRESS_SPACE_BYTES CPU_SECONDS`; not meant to be run by hand",
            mcp_projection::worker::FLAG
        );
        ExitCode::from(2)
    })
}
