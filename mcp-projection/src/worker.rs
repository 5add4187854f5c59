//! The worker side: a process started as `PROGRAM --jq-worker ADDRESS_SPACE_BYTES CPU_SECONDS` by
//! [`crate::Isolated`].
//!
//! `PROGRAM` is either the stand-alone `mcp-jq-worker` binary of this crate, or the host's own executable when the
//! host calls [`run_if_requested`] first thing in its `main` (as the bundled `mcp-devtools` server does: one binary
//! to ship). A host that does neither gets a clear error from the runner (the program did not greet as a worker),
//! never a silently wrong result.
//!
//! Before reading anything the worker limits itself with `setrlimit(2)` (the `rlimit` crate): `RLIMIT_AS` =
//! `ADDRESS_SPACE_BYTES` (an allocation past it fails and aborts the process), `RLIMIT_CORE` = 0 (no core file from a
//! crash), and `RLIMIT_CPU`, whose soft limit is set before each request to the CPU time used so far plus
//! `CPU_SECONDS` (`SIGXCPU` ends the worker; the hard limit is left as inherited). A limit is never raised above the
//! one inherited. On Linux it asks for `SIGKILL` when its parent ends (`PR_SET_PDEATHSIG`, through rustix). Then it
//! serves framed requests ([`crate::protocol`]) with [`mcp_envelope::project()`] until its stdin ends. The
//! address-space limit is enforced on Linux only (elsewhere a refused `RLIMIT_AS` is ignored); on platforms other
//! than Unix no limit is set. The parent's wall-clock timeout applies everywhere.

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use serde_json::Value;

use crate::protocol::{self, Request, Response};

/// The first argument that selects the worker mode.
pub const FLAG: &str = "--jq-worker";

/// Environment variable through which the parent tells the worker its process id (the worker's environment is
/// otherwise empty): a worker whose parent is already gone exits at once.
pub const PARENT_PID_ENV: &str = "MCP_JQ_WORKER_PARENT_PID";

/// Exit status for a malformed command line or request (a defect in the parent: it reports a crash).
const BAD_INVOCATION: u8 = 2;

/// Serves projections until stdin ends and returns the exit code, if this process was started as a jq worker (first
/// argument [`FLAG`]); `None` otherwise.
///
/// A host that ships one binary and runs [`crate::Isolated`] with [`crate::WorkerProgram::CurrentExe`] calls it
/// first thing in `main`, before any runtime, settings or logging: the worker needs none of them, and every thread
/// would count against its address-space limit.
///
/// ```no_run
/// fn main() -> std::process::ExitCode {
///     if let Some(code) = mcp_projection::worker::run_if_requested() {
///         return code;
///     }
///     // ... the host program itself
///     std::process::ExitCode::SUCCESS
/// }
/// ```
pub fn run_if_requested() -> Option<ExitCode> {
    let mut args = std::env::args_os().skip(1);
    if args.next()? != FLAG {
        return None;
    }
    Some(run(args.collect()))
}

fn run(args: Vec<OsString>) -> ExitCode {
    let Some((address_space, cpu_seconds)) = parse_limits(&args) else {
        eprintln!("{FLAG}: expected ADDRESS_SPACE_BYTES CPU_SECONDS");
        return ExitCode::from(BAD_INVOCATION);
    };
    if !die_with_parent() {
        // The parent is already gone: nobody will read the answers.
        return ExitCode::FAILURE;
    }
    let limited = limit_self(address_space);
    let mut input = std::io::stdin().lock();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if out.write_all(protocol::GREETING).and_then(|()| out.flush()).is_err() {
        return ExitCode::FAILURE;
    }
    loop {
        let frame = match protocol::read_frame(&mut input) {
            Ok(Some(frame)) => frame,
            Ok(None) => return ExitCode::SUCCESS,
            Err(err) => {
                eprintln!("{FLAG}: unreadable request: {err}");
                return ExitCode::from(BAD_INVOCATION);
            }
        };
        let cpu = limit_cpu(cpu_seconds);
        let response = match (&limited, &cpu) {
            (Err(err), _) | (_, Err(err)) => {
                Response::Internal(format!("the jq worker could not limit its resources: {err}"))
            }
            (Ok(()), Ok(())) => match protocol::decode::<Request<Value>>(&frame) {
                Err(err) => {
                    eprintln!("{FLAG}: unreadable request: {err}");
                    return ExitCode::from(BAD_INVOCATION);
                }
                Ok(request) => {
                    drop(frame);
                    match mcp_envelope::project(request.data, Some(&request.jq)) {
                        Ok(value) => Response::Ok(value),
                        Err(err) => Response::Error(err.to_string()),
                    }
                }
            },
        };
        let written = protocol::encode(&response).map_err(std::io::Error::from);
        let Ok(()) = written.and_then(|bytes| protocol::write_frame(&mut out, &bytes)) else {
            return ExitCode::FAILURE;
        };
    }
}

fn parse_limits(args: &[OsString]) -> Option<(u64, u64)> {
    let [address_space, cpu_seconds] = args else {
        return None;
    };
    let number = |arg: &OsString| arg.to_str()?.parse::<u64>().ok();
    Some((number(address_space)?, number(cpu_seconds)?))
}

/// Sets `resource` to `soft`/`hard`, never above the inherited hard limit (which an unprivileged process cannot
/// raise).
#[cfg(unix)]
fn lower(resource: rlimit::Resource, soft: u64, hard: u64) -> std::io::Result<()> {
    let (_, inherited) = resource.get()?;
    let hard = hard.min(inherited);
    resource.set(soft.min(hard), hard)
}

#[cfg(unix)]
fn limit_self(address_space: u64) -> std::io::Result<()> {
    use rlimit::Resource;
    lower(Resource::CORE, 0, 0)?;
    let address = lower(Resource::AS, address_space, address_space);
    // Linux enforces RLIMIT_AS; elsewhere (e.g. macOS) it may be refused or ignored, and the timeout and CPU limit
    // remain.
    if cfg!(target_os = "linux") { address } else { Ok(()) }
}

/// Lets the next request use `cpu_seconds` of CPU: the soft `RLIMIT_CPU` becomes the CPU time used so far (rounded
/// up) plus `cpu_seconds`; the hard limit stays as inherited.
#[cfg(unix)]
fn limit_cpu(cpu_seconds: u64) -> std::io::Result<()> {
    use rlimit::Resource;
    let used = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    let used = u64::try_from(used.tv_sec).unwrap_or(0) + 1;
    let (_, hard) = Resource::CPU.get()?;
    Resource::CPU.set(used.saturating_add(cpu_seconds).min(hard), hard)
}

#[cfg(not(unix))]
fn limit_self(_address_space: u64) -> std::io::Result<()> {
    Ok(())
}

#[cfg(not(unix))]
fn limit_cpu(_cpu_seconds: u64) -> std::io::Result<()> {
    Ok(())
}

/// Linux: asks the kernel to `SIGKILL` this worker when its parent ends (`prctl(PR_SET_PDEATHSIG)` through rustix),
/// however the parent ends, even by `SIGKILL`. Returns `false` when the parent named by [`PARENT_PID_ENV`] is already
/// gone (the worker was re-parented before the request took effect). The signal follows the parent *thread* that
/// started the worker: [`crate::Isolated`] starts workers from threads that live as long as the host's runtime.
#[cfg(target_os = "linux")]
fn die_with_parent() -> bool {
    use rustix::process::{Pid, Signal, getppid, set_parent_process_death_signal};
    if let Err(err) = set_parent_process_death_signal(Some(Signal::KILL)) {
        eprintln!("{FLAG}: cannot set the parent-death signal: {err}");
    }
    let expected = std::env::var(PARENT_PID_ENV)
        .ok()
        .and_then(|pid| pid.parse::<i32>().ok());
    expected.is_none_or(|pid| Pid::as_raw(getppid()) == pid)
}

/// Elsewhere the parent's timeout and the worker's CPU limit bound a worker whose parent is gone; an idle worker
/// ends when its stdin closes with the parent.
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
