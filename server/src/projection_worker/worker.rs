//! The worker side: `mcp-devtools --jq-worker ADDRESS_SPACE_BYTES CPU_SECONDS` (a hidden mode, not in `--help`).
//!
//! Before reading anything it limits itself with `setrlimit(2)` (the `rlimit` crate): `RLIMIT_AS` =
//! `ADDRESS_SPACE_BYTES` (an allocation past it fails and aborts the process), `RLIMIT_CPU` = `CPU_SECONDS` (soft;
//! `SIGXCPU` ends it, `SIGKILL` one second later) and `RLIMIT_CORE` = 0 (no core file from a crash). A limit is never
//! raised above the one inherited. Then it reads one request from stdin, runs [`mcp_envelope::project()`] and writes
//! one response to stdout (protocol in [`super`]), exit status 0. The address-space limit is enforced on Linux only
//! (elsewhere a refused `RLIMIT_AS` is ignored); on other platforms than Unix no limit is set. The parent's timeout
//! applies everywhere.

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use serde_json::Value;

use super::{Request, Response};

/// The first argument that selects the worker mode.
pub const FLAG: &str = "--jq-worker";

/// Exit status for a malformed command line or request (a server defect: the parent reports it as a crash).
const BAD_INVOCATION: u8 = 2;

/// Serves one projection and returns the exit code if this process was started as a jq worker (first argument
/// [`FLAG`]); `None` otherwise. Call it first thing in `main`, before any runtime, settings or logging: the worker
/// needs none of them, and every thread would count against its address-space limit.
pub fn run_if_requested() -> Option<ExitCode> {
    let mut args = std::env::args_os().skip(1);
    if args.next()? != FLAG {
        return None;
    }
    Some(run(args.collect()))
}

fn run(args: Vec<OsString>) -> ExitCode {
    let Some((address_space, cpu_seconds)) = parse_limits(&args) else {
        eprintln!("mcp-devtools {FLAG}: expected ADDRESS_SPACE_BYTES CPU_SECONDS");
        return ExitCode::from(BAD_INVOCATION);
    };
    if !die_with_parent() {
        // The server is already gone: nobody will read the answer.
        return ExitCode::FAILURE;
    }
    let response = match limit_self(address_space, cpu_seconds) {
        Err(err) => Response::Internal(format!("the jq worker could not limit its resources: {err}")),
        Ok(()) => match read_request() {
            Err(err) => {
                eprintln!("mcp-devtools {FLAG}: unreadable request: {err}");
                return ExitCode::from(BAD_INVOCATION);
            }
            Ok(request) => match mcp_envelope::project(request.data, Some(&request.jq)) {
                Ok(value) => Response::Ok(value),
                Err(err) => Response::Error(err.to_string()),
            },
        },
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match serde_json::to_writer(&mut out, &response)
        .map_err(std::io::Error::from)
        .and_then(|()| out.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::FAILURE,
    }
}

fn parse_limits(args: &[OsString]) -> Option<(u64, u64)> {
    let [address_space, cpu_seconds] = args else {
        return None;
    };
    let number = |arg: &OsString| arg.to_str()?.parse::<u64>().ok();
    Some((number(address_space)?, number(cpu_seconds)?))
}

/// The request on stdin, of any nesting depth (CONTRACT §8: a body nested deeper than serde_json's default 128
/// levels is still projected).
fn read_request() -> serde_json::Result<Request<Value>> {
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes).map_err(serde_json::Error::io)?;
    adapters_http::decode::from_slice_any_depth(&bytes)
}

#[cfg(unix)]
fn limit_self(address_space: u64, cpu_seconds: u64) -> std::io::Result<()> {
    use rlimit::Resource;
    /// Sets `resource` to `soft`/`hard`, never above the inherited hard limit (which an unprivileged process
    /// cannot raise).
    fn lower(resource: Resource, soft: u64, hard: u64) -> std::io::Result<()> {
        let (_, inherited) = resource.get()?;
        let hard = hard.min(inherited);
        resource.set(soft.min(hard), hard)
    }
    lower(Resource::CORE, 0, 0)?;
    lower(Resource::CPU, cpu_seconds, cpu_seconds.saturating_add(1))?;
    let address = lower(Resource::AS, address_space, address_space);
    // Linux enforces RLIMIT_AS; elsewhere (e.g. macOS) it may be refused or ignored, and the timeout and CPU limit
    // remain.
    if cfg!(target_os = "linux") { address } else { Ok(()) }
}

#[cfg(not(unix))]
fn limit_self(_address_space: u64, _cpu_seconds: u64) -> std::io::Result<()> {
    Ok(())
}

/// Environment variable through which the server tells the worker its process id (the worker's environment is
/// otherwise empty).
pub const PARENT_PID_ENV: &str = "MCP_JQ_WORKER_PARENT_PID";

/// Linux: asks the kernel to `SIGKILL` this worker when its parent ends (`prctl(PR_SET_PDEATHSIG)` through
/// rustix), however the server ends, even by `SIGKILL`. Returns `false` when the parent named by
/// [`PARENT_PID_ENV`] is already gone (the worker was re-parented before the request took effect). The signal
/// follows the parent *thread* that started the worker: the server starts workers from its runtime's worker
/// threads, which live as long as the server.
#[cfg(target_os = "linux")]
fn die_with_parent() -> bool {
    use rustix::process::{Pid, Signal, getppid, set_parent_process_death_signal};
    if let Err(err) = set_parent_process_death_signal(Some(Signal::KILL)) {
        eprintln!("mcp-devtools {FLAG}: cannot set the parent-death signal: {err}");
    }
    let expected = std::env::var(PARENT_PID_ENV)
        .ok()
        .and_then(|pid| pid.parse::<i32>().ok());
    expected.is_none_or(|pid| Pid::as_raw(getppid()) == pid)
}

/// Elsewhere the server's timeout and the worker's CPU limit bound a worker whose server is gone.
#[cfg(not(target_os = "linux"))]
fn die_with_parent() -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_two_whole_numbers() {
        let args = |list: &[&str]| list.iter().map(OsString::from).collect::<Vec<_>>();
        assert_eq!(parse_limits(&args(&["1024", "12"])), Some((1024, 12)));
        assert_eq!(parse_limits(&args(&["1024"])), None);
        assert_eq!(parse_limits(&args(&["1024", "12", "3"])), None);
        assert_eq!(parse_limits(&args(&["-1", "12"])), None);
        assert_eq!(parse_limits(&args(&["lots", "12"])), None);
    }
}
