//! `jq` projections in a short-lived child process (CONTRACT §4), so that a runaway or crashing program cannot hurt
//! the server.
//!
//! jaq has no step or memory budget: `last(range(1e15))` runs forever, `[range(1e12)]` or `"x" * 1e10` grow memory
//! until the process is killed. [`JqWorker::project`] therefore runs each projection in a fresh copy of this binary
//! started as `mcp-devtools --jq-worker ADDRESS_SPACE_BYTES CPU_SECONDS` ([`worker`]) with an empty environment (no
//! credential reaches it), stdin and stdout piped and stderr discarded. The worker first limits itself with
//! `setrlimit(2)` (address space, CPU time, no core file), then reads one request, runs
//! [`mcp_envelope::project()`] and writes one response. The parent waits at most [`JqWorker::timeout`] (wall clock),
//! then kills it; reads at most [`JqWorker::max_output_bytes`] from it; and turns any crash, abort, limit or kill
//! into a [`JqWorkerError`] whose text says what to do. Only calls with a non-blank `jq` pay for the process (a few
//! milliseconds to start it, plus encoding the data as JSON both ways).
//!
//! Protocol, JSON text (serde_json with `float_roundtrip`: integers up to 64 bits and every `f64` come back
//! bit-exact, key order is kept):
//! - stdin: `{"jq": "<expression>", "data": <value>}`, then end of file;
//! - stdout: `{"ok": <projected value>}`, `{"error": "<ProjectionError text>"}`, or `{"internal": "<why the
//!   worker refused to run>"}`; exit status 0. Anything else is a stopped or crashed worker.

pub mod worker;

use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, Command};

/// `MCP_JQ_TIMEOUT_SECONDS`: wall-clock time one `jq` projection may take, seconds (default 10, clamped 1..=60).
pub const ENV_TIMEOUT: &str = "MCP_JQ_TIMEOUT_SECONDS";
/// `MCP_JQ_MAX_MEMORY_MIB`: memory one `jq` projection may use for its data, MiB (default 2048, clamped
/// 64..=65536).
pub const ENV_MAX_MEMORY: &str = "MCP_JQ_MAX_MEMORY_MIB";

/// Default of [`ENV_TIMEOUT`], seconds.
pub const DEFAULT_TIMEOUT_SECONDS: u64 = 10;
/// Default of [`ENV_MAX_MEMORY`], MiB.
pub const DEFAULT_MAX_MEMORY_MIB: u64 = 2048;
/// Address space the worker may use beyond [`JqWorker::max_memory_bytes`] and the projection stack
/// ([`mcp_envelope::project::PROJECTION_STACK_BYTES`]): the mapped binary, shared libraries and the main thread's
/// stack, bytes (256 MiB; an idle worker maps well under 64 MiB).
pub const WORKER_BASE_ADDRESS_SPACE_BYTES: u64 = 256 * MIB;
/// Smallest cap on the worker's answer, bytes (64 MiB); see [`JqWorker::max_output_bytes`].
pub const MIN_OUTPUT_BYTES: u64 = 64 * MIB;
/// CPU seconds the worker may use beyond [`JqWorker::timeout`] (`RLIMIT_CPU`; the parent kills it at the timeout,
/// this only stops a worker whose parent is gone).
pub const CPU_GRACE_SECONDS: u64 = 2;

const MIB: u64 = 1024 * 1024;

/// `value` as compact JSON, serialized on a stack that grows on the heap as needed (`serde_stacker`), so data of any
/// nesting depth reaches the worker (CONTRACT §8).
fn encode_any_depth<T: Serialize>(value: &T) -> serde_json::Result<Vec<u8>> {
    let mut out = Vec::new();
    value.serialize(serde_stacker::Serializer::new(&mut serde_json::Serializer::new(
        &mut out,
    )))?;
    Ok(out)
}

/// How `jq` projections run: the worker program and its limits. Part of [`crate::Settings`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JqWorker {
    /// The executable started as the worker, with `--jq-worker`; `None`: this process's own executable
    /// (`std::env::current_exe`). A program embedding this crate must either call
    /// [`worker::run_if_requested`] first thing in its `main` or set this to the `mcp-devtools` binary.
    pub program: Option<PathBuf>,
    /// Wall-clock limit of one projection, from start to answer ([`ENV_TIMEOUT`]); the worker is killed then.
    pub timeout: Duration,
    /// Memory the projection may use for its data, bytes ([`ENV_MAX_MEMORY`]). The worker's address-space limit
    /// (`RLIMIT_AS`) is this plus the projection stack plus [`WORKER_BASE_ADDRESS_SPACE_BYTES`].
    pub max_memory_bytes: u64,
    /// Most bytes read from the worker's answer: the larger of [`MIN_OUTPUT_BYTES`] and twice the largest upstream
    /// body (`HTTP_MAX_BODY_BYTES`). A larger result is an error.
    pub max_output_bytes: u64,
}

impl Default for JqWorker {
    fn default() -> Self {
        JqWorker {
            program: None,
            timeout: Duration::from_secs(DEFAULT_TIMEOUT_SECONDS),
            max_memory_bytes: DEFAULT_MAX_MEMORY_MIB * MIB,
            max_output_bytes: MIN_OUTPUT_BYTES,
        }
    }
}

/// Why a projection gave no value. `Display` is the text of the `isError` result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JqWorkerError {
    /// The expression failed to compile or run, or gave zero or several outputs: the
    /// [`mcp_envelope::ProjectionError`] text.
    #[error("The jq expression failed: {0}")]
    Projection(String),
    /// The worker ran past [`JqWorker::timeout`] and was killed.
    #[error(
        "the jq program was stopped: it ran longer than {seconds} s. Simplify it (e.g. a smaller range, no endless \
         repeat/recurse) or select less data"
    )]
    TimedOut {
        /// The limit, seconds.
        seconds: u64,
    },
    /// The worker ended without an answer: over its memory or CPU limit, or crashed.
    #[error(
        "the jq program was stopped: it used more than {mib} MiB of memory or {cpu_seconds} s of CPU, or crashed \
         ({how}). Simplify it (e.g. do not build very large arrays or strings) or select less data"
    )]
    Stopped {
        /// The memory limit, MiB ([`JqWorker::max_memory_bytes`]).
        mib: u64,
        /// The CPU-time limit, seconds.
        cpu_seconds: u64,
        /// How the process ended (e.g. `signal: 6 (SIGABRT)`).
        how: String,
    },
    /// The projected value is larger than [`JqWorker::max_output_bytes`] as JSON.
    #[error("the jq program's result is larger than {mib} MiB as JSON. Select less data")]
    OutputTooLarge {
        /// The cap, MiB.
        mib: u64,
    },
    /// The worker could not be started or fed, or gave an unreadable answer (a server defect or a broken install).
    #[error("Internal error while running the jq projection: {0}")]
    Internal(String),
}

/// A projection that gave no value: why, and the data it was given, unchanged.
#[derive(Debug)]
pub struct Unprojected {
    /// Why.
    pub error: JqWorkerError,
    /// The input, as passed to [`JqWorker::project`].
    pub data: Value,
}

/// The request on the worker's stdin.
#[derive(Debug, Serialize, Deserialize)]
struct Request<D> {
    jq: String,
    data: D,
}

/// The answer on the worker's stdout.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Response {
    Ok(Value),
    Error(String),
    Internal(String),
}

impl JqWorker {
    /// Reads [`ENV_TIMEOUT`] and [`ENV_MAX_MEMORY`] through `lookup` (the configuration cascade); `max_body_bytes`
    /// is the effective `HTTP_MAX_BODY_BYTES`. A malformed value gives the default and an out-of-range one is
    /// clamped, each with one warning pushed to `warnings`.
    pub fn from_lookup(
        lookup: &impl Fn(&str) -> Option<String>,
        max_body_bytes: u64,
        warnings: &mut Vec<String>,
    ) -> JqWorker {
        let seconds = whole(lookup, ENV_TIMEOUT, DEFAULT_TIMEOUT_SECONDS, 1..=60, warnings);
        let mib = whole(lookup, ENV_MAX_MEMORY, DEFAULT_MAX_MEMORY_MIB, 64..=65_536, warnings);
        JqWorker {
            program: None,
            timeout: Duration::from_secs(seconds),
            max_memory_bytes: mib * MIB,
            max_output_bytes: max_body_bytes.saturating_mul(2).max(MIN_OUTPUT_BYTES),
        }
    }

    /// The worker's address-space limit (`RLIMIT_AS`), bytes: [`JqWorker::max_memory_bytes`] + the projection
    /// stack + [`WORKER_BASE_ADDRESS_SPACE_BYTES`].
    pub fn address_space_bytes(&self) -> u64 {
        let stack = u64::try_from(mcp_envelope::project::PROJECTION_STACK_BYTES).unwrap_or(u64::MAX);
        self.max_memory_bytes
            .saturating_add(stack)
            .saturating_add(WORKER_BASE_ADDRESS_SPACE_BYTES)
    }

    /// The worker's CPU-time limit (`RLIMIT_CPU`), seconds: the timeout rounded up plus [`CPU_GRACE_SECONDS`].
    pub fn cpu_seconds(&self) -> u64 {
        self.timeout_seconds() + CPU_GRACE_SECONDS
    }

    fn timeout_seconds(&self) -> u64 {
        self.timeout.as_secs() + u64::from(self.timeout.subsec_nanos() > 0)
    }

    /// Applies `jq` to `data` in a worker process: `None` or a blank expression returns `data` unchanged without
    /// starting one. The caller should bound how many run at once (each may use
    /// [`JqWorker::address_space_bytes`]); the server holds a pipeline permit around it.
    ///
    /// # Errors
    /// An [`Unprojected`] holding `data` and the [`JqWorkerError`]: the projection failed, ran past the timeout,
    /// hit a limit or crashed, answered too much, or the worker could not be run.
    pub async fn project(&self, data: Value, jq: Option<&str>) -> Result<Value, Unprojected> {
        let Some(jq) = jq.filter(|jq| !jq.trim().is_empty()) else {
            return Ok(data);
        };
        let data = Arc::new(data);
        let result = self.run(data.clone(), jq).await;
        let data = Arc::try_unwrap(data).unwrap_or_else(|shared| (*shared).clone());
        match result {
            Ok(projected) => {
                // The input may nest deeper than a recursive drop can go (CONTRACT §8).
                mcp_envelope::nesting::drop_flat(data);
                Ok(projected)
            }
            Err(error) => Err(Unprojected { error, data }),
        }
    }

    async fn run(&self, data: Arc<Value>, jq: &str) -> Result<Value, JqWorkerError> {
        let jq = jq.to_owned();
        // Encoding a body of tens of MiB takes a while: not on an async worker thread.
        let request = tokio::task::spawn_blocking(move || encode_any_depth(&Request { jq, data: &*data }))
            .await
            .map_err(|join| JqWorkerError::Internal(format!("encoding the request failed: {join}")))?
            .map_err(|err| JqWorkerError::Internal(format!("encoding the request failed: {err}")))?;
        let mut child = self
            .command()?
            .spawn()
            .map_err(|err| JqWorkerError::Internal(format!("the worker process could not be started: {err}")))?;
        let exchanged = tokio::time::timeout(self.timeout, exchange(&mut child, request, self.max_output_bytes)).await;
        let (output, status) = match exchanged {
            Err(_elapsed) => {
                stop(&mut child).await;
                return Err(JqWorkerError::TimedOut {
                    seconds: self.timeout_seconds(),
                });
            }
            Ok(Err(Exchange::TooLarge)) => {
                stop(&mut child).await;
                return Err(JqWorkerError::OutputTooLarge {
                    mib: self.max_output_bytes / MIB,
                });
            }
            Ok(Err(Exchange::Io(err))) => {
                stop(&mut child).await;
                return Err(JqWorkerError::Internal(format!("talking to the worker failed: {err}")));
            }
            Ok(Ok(done)) => done,
        };
        if !status.success() {
            return Err(self.stopped(status));
        }
        let response =
            tokio::task::spawn_blocking(move || adapters_http::decode::from_slice_any_depth::<Response>(&output))
                .await
                .map_err(|join| JqWorkerError::Internal(format!("reading the answer failed: {join}")))?;
        match response {
            Ok(Response::Ok(value)) => Ok(value),
            Ok(Response::Error(message)) => Err(JqWorkerError::Projection(message)),
            Ok(Response::Internal(message)) => Err(JqWorkerError::Internal(message)),
            // A worker that exits 0 without a whole answer was cut short (e.g. out of memory while writing).
            Err(err) => Err(self.stopped_with(format!("an incomplete answer: {err}"))),
        }
    }

    /// The worker command: this executable (or [`JqWorker::program`]) `--jq-worker AS CPU`, empty environment
    /// (but [`worker::PARENT_PID_ENV`]), stdin/stdout piped, stderr discarded, killed when dropped (a cancelled call
    /// drops it); on Linux it also dies with the server ([`worker`]'s parent-death signal).
    fn command(&self) -> Result<Command, JqWorkerError> {
        let program = match &self.program {
            Some(program) => program.clone(),
            None => std::env::current_exe().map_err(|err| {
                JqWorkerError::Internal(format!("the server's own executable could not be found: {err}"))
            })?,
        };
        let mut command = Command::new(program);
        command
            .arg(worker::FLAG)
            .arg(self.address_space_bytes().to_string())
            .arg(self.cpu_seconds().to_string())
            .env_clear()
            .env(worker::PARENT_PID_ENV, std::process::id().to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true);
        Ok(command)
    }

    fn stopped(&self, status: ExitStatus) -> JqWorkerError {
        self.stopped_with(status.to_string())
    }

    fn stopped_with(&self, how: String) -> JqWorkerError {
        JqWorkerError::Stopped {
            mib: self.max_memory_bytes / MIB,
            cpu_seconds: self.cpu_seconds(),
            how,
        }
    }
}

/// Why an exchange with the worker ended early.
enum Exchange {
    /// The answer is over the cap.
    TooLarge,
    /// Reading the answer or waiting for the process failed.
    Io(std::io::Error),
}

/// Writes `request` to the worker's stdin (then closes it) while reading its stdout, at most `cap` bytes, then
/// waits for it to exit. A failed write (the worker died early) is left to the exit status.
async fn exchange(child: &mut Child, request: Vec<u8>, cap: u64) -> Result<(Vec<u8>, ExitStatus), Exchange> {
    let missing = || Exchange::Io(std::io::Error::other("the worker's pipes are missing"));
    let mut stdin = child.stdin.take().ok_or_else(missing)?;
    let stdout = child.stdout.take().ok_or_else(missing)?;
    let write = async move {
        // Dropping `stdin` at the end closes it: the worker reads to end of file.
        if let Err(err) = stdin.write_all(&request).await {
            tracing::debug!(error = %err, "the jq worker did not take its whole request");
        }
    };
    let read = async move {
        let mut output = Vec::new();
        stdout
            .take(cap.saturating_add(1))
            .read_to_end(&mut output)
            .await
            .map(|_| output)
    };
    let ((), output) = tokio::join!(write, read);
    let output = output.map_err(Exchange::Io)?;
    if u64::try_from(output.len()).unwrap_or(u64::MAX) > cap {
        return Err(Exchange::TooLarge);
    }
    let status = child.wait().await.map_err(Exchange::Io)?;
    Ok((output, status))
}

/// Kills the worker and reaps it (no zombie left behind).
async fn stop(child: &mut Child) {
    if let Err(err) = child.kill().await {
        tracing::warn!(error = %err, "killing the jq worker failed");
    }
}

/// A whole number from setting `name`, `default` when unset or malformed, clamped to `range`; one warning per
/// malformed or clamped value.
fn whole(
    lookup: &impl Fn(&str) -> Option<String>,
    name: &str,
    default: u64,
    range: std::ops::RangeInclusive<u64>,
    warnings: &mut Vec<String>,
) -> u64 {
    let Some(raw) = lookup(name).filter(|raw| !raw.trim().is_empty()) else {
        return default;
    };
    match raw.trim().parse::<u64>() {
        Ok(value) if range.contains(&value) => value,
        Ok(value) => {
            let used = value.clamp(*range.start(), *range.end());
            warnings.push(format!(
                "{name}={value} is outside {}..={}; using {used}",
                range.start(),
                range.end()
            ));
            used
        }
        Err(_) => {
            warnings.push(format!("{name}={raw:?} is not a whole number; using {default}"));
            default
        }
    }
}

#[cfg(test)]
mod tests;
