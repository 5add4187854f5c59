//! [`Isolated`]: projections in a pool of long-lived worker processes with memory, CPU and time limits (private
//! module: its items are re-exported at the crate root; the details are documented on [`Isolated`]).

mod process;

use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use serde_json::Value;

use self::process::{Failure, Worker};
use crate::protocol::{self, Request, Response};
use crate::runner::{ProjectionRunner, RunError, Unprojected};

const MIB: u64 = 1024 * 1024;

/// Default of [`IsolatedConfig::timeout`]: 10 s.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
/// Default of [`IsolatedConfig::max_memory_bytes`]: 2 GiB.
pub const DEFAULT_MAX_MEMORY_BYTES: u64 = 2048 * MIB;
/// Default of [`IsolatedConfig::max_output_bytes`]: 64 MiB.
pub const DEFAULT_MAX_OUTPUT_BYTES: u64 = 64 * MIB;
/// Default of [`IsolatedConfig::max_requests_per_worker`].
pub const DEFAULT_MAX_REQUESTS_PER_WORKER: u32 = 1_000;
/// Address space a worker may use beyond [`IsolatedConfig::max_memory_bytes`] and the projection stack
/// ([`mcp_envelope::PROJECTION_STACK_BYTES`]): the mapped binary, shared libraries and the main thread's
/// stack, bytes (256 MiB; an idle worker maps well under 64 MiB).
pub const BASE_ADDRESS_SPACE_BYTES: u64 = 256 * MIB;
/// CPU seconds a projection may use beyond [`IsolatedConfig::timeout`] (`RLIMIT_CPU`; the parent kills the worker at
/// the timeout, this only stops a worker whose parent is gone).
pub const CPU_GRACE_SECONDS: u64 = 2;
/// A worker that was sent or answered more than this many bytes in one request is retired afterwards (16 MiB).
pub const HEAVY_BYTES: usize = 16 * 1024 * 1024;

/// The executable started as a worker, as `PROGRAM --jq-worker ADDRESS_SPACE_BYTES CPU_SECONDS`.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum WorkerProgram {
    /// This process's own executable (`std::env::current_exe`), which must call
    /// [`crate::worker::run_if_requested`] first thing in its `main`.
    #[default]
    CurrentExe,
    /// A program that serves as a worker: the `mcp-jq-worker` binary of this crate (`cargo install mcp-projection`),
    /// or another program calling [`crate::worker::run_if_requested`].
    Path(PathBuf),
}

/// The worker program and the limits of [`Isolated`]. Every value is typed; the host decides where it comes from.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IsolatedConfig {
    /// The worker program (default [`WorkerProgram::CurrentExe`]).
    pub program: WorkerProgram,
    /// Wall-clock limit of one projection, from the request to the answer (a worker's start included when none is
    /// idle); the worker is killed then. Also the longest a caller waits for a free worker.
    pub timeout: Duration,
    /// Memory a projection may use for its data, bytes. The worker's address-space limit (`RLIMIT_AS`) is this plus
    /// the projection stack plus [`BASE_ADDRESS_SPACE_BYTES`] ([`IsolatedConfig::address_space_bytes`]).
    pub max_memory_bytes: u64,
    /// Most bytes of answer read from the worker (the projected value as JSON); a larger result is
    /// [`RunError::OutputTooLarge`].
    pub max_output_bytes: u64,
    /// Workers in the pool: projections run at once (default: the number of CPUs, at least 2). Their memory limits
    /// add up: the host's bound is this times [`IsolatedConfig::address_space_bytes`].
    pub workers: usize,
    /// Requests a worker serves before it is replaced (at least 1).
    pub max_requests_per_worker: u32,
}

impl IsolatedConfig {
    /// This config with [`IsolatedConfig::program`] set.
    #[must_use]
    pub fn with_program(mut self, program: WorkerProgram) -> Self {
        self.program = program;
        self
    }

    /// This config with [`IsolatedConfig::timeout`] set.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// This config with [`IsolatedConfig::max_memory_bytes`] set.
    #[must_use]
    pub fn with_max_memory_bytes(mut self, max_memory_bytes: u64) -> Self {
        self.max_memory_bytes = max_memory_bytes;
        self
    }

    /// This config with [`IsolatedConfig::max_output_bytes`] set.
    #[must_use]
    pub fn with_max_output_bytes(mut self, max_output_bytes: u64) -> Self {
        self.max_output_bytes = max_output_bytes;
        self
    }

    /// This config with [`IsolatedConfig::workers`] set.
    #[must_use]
    pub fn with_workers(mut self, workers: usize) -> Self {
        self.workers = workers;
        self
    }

    /// This config with [`IsolatedConfig::max_requests_per_worker`] set.
    #[must_use]
    pub fn with_max_requests_per_worker(mut self, max_requests_per_worker: u32) -> Self {
        self.max_requests_per_worker = max_requests_per_worker;
        self
    }
}

impl Default for IsolatedConfig {
    fn default() -> Self {
        IsolatedConfig {
            program: WorkerProgram::CurrentExe,
            timeout: DEFAULT_TIMEOUT,
            max_memory_bytes: DEFAULT_MAX_MEMORY_BYTES,
            max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES,
            workers: std::thread::available_parallelism().map_or(2, |n| n.get().max(2)),
            max_requests_per_worker: DEFAULT_MAX_REQUESTS_PER_WORKER,
        }
    }
}

impl IsolatedConfig {
    /// A worker's address-space limit (`RLIMIT_AS`), bytes: [`IsolatedConfig::max_memory_bytes`] + the projection
    /// stack + [`BASE_ADDRESS_SPACE_BYTES`].
    pub fn address_space_bytes(&self) -> u64 {
        let stack = u64::try_from(mcp_envelope::PROJECTION_STACK_BYTES).unwrap_or(u64::MAX);
        self.max_memory_bytes
            .saturating_add(stack)
            .saturating_add(BASE_ADDRESS_SPACE_BYTES)
    }

    /// CPU time one projection may use (`RLIMIT_CPU` above what the worker used before it), seconds: the timeout
    /// rounded up plus [`CPU_GRACE_SECONDS`].
    pub fn cpu_seconds(&self) -> u64 {
        self.timeout_seconds() + CPU_GRACE_SECONDS
    }

    /// The timeout in whole seconds, rounded up.
    fn timeout_seconds(&self) -> u64 {
        self.timeout.as_secs() + u64::from(self.timeout.subsec_nanos() > 0)
    }
}

/// Runs each projection in a pooled, limited worker process (below). Cheap to clone: clones share the pool.
///
/// jaq has no step or memory budget: `last(range(1e15))` runs for ever, `[range(1e12)]` or `"x" * 1e10` grow memory
/// until the process is killed. So the program runs in a worker process ([`crate::worker`]): started with an empty
/// environment (no credential reaches it), stdin and stdout piped, stderr discarded; it limits its own address space
/// and CPU time per request (`setrlimit(2)`) and dies with its parent on Linux. The parent gives each projection at
/// most [`IsolatedConfig::timeout`] (wall clock), reads at most [`IsolatedConfig::max_output_bytes`] of answer, and
/// turns a crash, abort, limit or timeout into a [`RunError`] whose text says what to do.
///
/// Workers are long-lived: [`Isolated::prestart`] starts [`IsolatedConfig::workers`] of them, each serves many
/// projections over framed stdin/stdout ([`crate::protocol`]), so a call pays a pipe round trip, not a process start.
/// A worker is killed and replaced (in the background) when it times out, crashes, hits a limit or answers too much;
/// it is retired after [`IsolatedConfig::max_requests_per_worker`] requests or after a request or answer larger than
/// [`HEAVY_BYTES`] (so memory a large projection left behind is given back). At most
/// [`IsolatedConfig::workers`] projections run at once; more callers queue, each for at most
/// [`IsolatedConfig::timeout`].
///
/// The worker program is [`IsolatedConfig::program`]: the stand-alone `mcp-jq-worker` binary of this crate
/// ([`WorkerProgram::Path`]; works inside any host), or the host's own executable ([`WorkerProgram::CurrentExe`];
/// the host calls [`crate::worker::run_if_requested`] first thing in `main`, so it ships one binary). A program that
/// does not greet as a worker is an error saying which of the two to do.
///
/// An [`Isolated`] belongs to the tokio runtime it is first used on (its workers' pipes are registered there, and on
/// Linux a worker dies with the runtime thread that started it).
#[derive(Debug, Clone)]
pub struct Isolated {
    pool: Arc<Pool>,
}

#[derive(Debug)]
struct Pool {
    config: IsolatedConfig,
    /// Workers waiting for a request.
    idle: Mutex<Vec<Worker>>,
    /// One permit per worker that may run at once.
    slots: tokio::sync::Semaphore,
}

impl Isolated {
    /// A runner with `config`; no worker starts until [`Isolated::prestart`] or the first projection.
    pub fn new(config: IsolatedConfig) -> Isolated {
        let workers = config.workers.max(1);
        Isolated {
            pool: Arc::new(Pool {
                config,
                idle: Mutex::new(Vec::with_capacity(workers)),
                slots: tokio::sync::Semaphore::new(workers),
            }),
        }
    }

    /// The configuration it runs with.
    pub fn config(&self) -> &IsolatedConfig {
        &self.pool.config
    }

    /// Starts workers until [`IsolatedConfig::workers`] are idle, so the first projections pay no process start.
    /// Call it inside the tokio runtime that will run the projections.
    ///
    /// # Errors
    /// The worker program could not be started or did not greet as a worker ([`RunError::Internal`], saying what to
    /// do); projections would fail the same way.
    pub async fn prestart(&self) -> Result<(), RunError> {
        while self.pool.idle_count() < self.pool.config.workers.max(1) {
            let worker = Worker::start(&self.pool.config)
                .await
                .map_err(|failure| match failure {
                    Failure::NotAWorker(why) => RunError::Internal(why),
                    other => RunError::Internal(format!("a jq worker did not start: {other:?}")),
                })?;
            self.pool.put_back(worker);
        }
        Ok(())
    }

    /// Runs one request (JSON bytes) in a worker and gives the decoded answer.
    async fn run(&self, request: Vec<u8>) -> Result<Value, RunError> {
        let config = &self.pool.config;
        let Ok(_slot) = tokio::time::timeout(config.timeout, self.pool.slots.acquire()).await else {
            return Err(RunError::Busy {
                seconds: config.timeout_seconds(),
            });
        };
        let mut worker = None;
        let outcome = tokio::time::timeout(config.timeout, self.serve(&mut worker, &request)).await;
        let sent = request.len();
        drop(request);
        let answer = match (outcome, worker) {
            (Ok(Ok(answer)), Some(mut worker)) => {
                worker.served += 1;
                if worker.served >= config.max_requests_per_worker || sent > HEAVY_BYTES || answer.len() > HEAVY_BYTES {
                    worker.retire();
                    self.replace();
                } else {
                    self.pool.put_back(worker);
                }
                answer
            }
            (Err(_elapsed), None) => {
                // Still starting: the program never greeted in time.
                self.replace();
                return Err(RunError::Internal(format!(
                    "no jq worker started within {} s (the machine is overloaded, or the worker program does not \
                     answer as one)",
                    config.timeout_seconds()
                )));
            }
            (Err(_elapsed), Some(worker)) => {
                worker.kill().await;
                self.replace();
                return Err(RunError::TimedOut {
                    seconds: config.timeout_seconds(),
                });
            }
            (Ok(Err(Failure::NotAWorker(why))), _) => return Err(RunError::Internal(why)),
            (Ok(Err(Failure::TooLarge)), worker) => {
                if let Some(worker) = worker {
                    worker.kill().await;
                }
                self.replace();
                return Err(RunError::OutputTooLarge {
                    mib: config.max_output_bytes / MIB,
                });
            }
            (Ok(Err(Failure::Died)), worker) => {
                let how = match worker {
                    Some(worker) => worker.ended().await,
                    None => "it ended before its first request".to_owned(),
                };
                self.replace();
                return Err(self.stopped(how));
            }
            (Ok(Ok(_)), None) => return Err(RunError::Internal("a jq worker was lost".to_owned())),
        };
        let decoded = if answer.len() > 64 * 1024 {
            // Parsing tens of MiB takes a while: not on an async worker thread.
            tokio::task::spawn_blocking(move || protocol::decode::<Response>(&answer))
                .await
                .map_err(|join| RunError::Internal(format!("reading the answer failed: {join}")))?
        } else {
            protocol::decode::<Response>(&answer)
        };
        match decoded {
            Ok(Response::Ok(value)) => Ok(value),
            Ok(Response::Error(message)) => Err(RunError::Projection(message)),
            Ok(Response::Internal(message)) => Err(RunError::Internal(message)),
            Err(err) => Err(RunError::Internal(format!(
                "the jq worker's answer is unreadable: {err}"
            ))),
        }
    }

    /// Takes an idle worker (or starts one) into `slot` and exchanges `request` with it.
    async fn serve(&self, slot: &mut Option<Worker>, request: &[u8]) -> Result<Vec<u8>, Failure> {
        let worker = match self.pool.take_idle() {
            Some(worker) => slot.insert(worker),
            None => slot.insert(Worker::start(&self.pool.config).await?),
        };
        worker.exchange(request, self.pool.config.max_output_bytes).await
    }

    /// Starts a worker in the background to take the place of one that was discarded.
    fn replace(&self) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let pool = self.pool.clone();
        runtime.spawn(async move {
            if pool.idle_count() >= pool.config.workers.max(1) {
                return;
            }
            match Worker::start(&pool.config).await {
                Ok(worker) => pool.put_back(worker),
                Err(failure) => tracing::debug!(?failure, "a replacement jq worker did not start"),
            }
        });
    }

    fn stopped(&self, how: String) -> RunError {
        RunError::Stopped {
            mib: self.pool.config.max_memory_bytes / MIB,
            cpu_seconds: self.pool.config.cpu_seconds(),
            how,
        }
    }
}

impl Pool {
    fn idle_count(&self) -> usize {
        self.idle.lock().unwrap_or_else(PoisonError::into_inner).len()
    }

    /// An idle worker still alive, if any (dead ones are dropped).
    fn take_idle(&self) -> Option<Worker> {
        let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        while let Some(mut worker) = idle.pop() {
            if !worker.has_exited() {
                return Some(worker);
            }
        }
        None
    }

    /// Keeps `worker` for the next request, unless the pool is full.
    fn put_back(&self, worker: Worker) {
        let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        if idle.len() < self.config.workers.max(1) {
            idle.push(worker);
        } else {
            drop(idle);
            worker.retire();
        }
    }
}

#[async_trait::async_trait]
impl ProjectionRunner for Isolated {
    async fn project(&self, data: Value, jq: &str) -> Result<Value, Unprojected> {
        if jq.trim().is_empty() {
            return Ok(data);
        }
        let jq = jq.to_owned();
        // Encoding a body of tens of MiB takes a while: not on an async worker thread.
        let encoded = tokio::task::spawn_blocking(move || {
            let request = protocol::encode(&Request { jq, data: &data });
            (request, data)
        })
        .await;
        let (request, data) = match encoded {
            Ok((Ok(request), data)) => (request, data),
            Ok((Err(err), data)) => {
                return Err(Unprojected {
                    error: RunError::Internal(format!("encoding the request failed: {err}")),
                    data,
                });
            }
            Err(join) => {
                return Err(Unprojected {
                    error: RunError::Internal(format!("encoding the request failed: {join}")),
                    data: Value::Null,
                });
            }
        };
        match self.run(request).await {
            Ok(projected) => {
                // The input may nest deeper than a recursive drop can go.
                mcp_envelope::nesting::drop_flat(data);
                Ok(projected)
            }
            Err(error) => Err(Unprojected { error, data }),
        }
    }
}

#[cfg(all(test, unix))]
mod tests;
