//! Where connections are served ([`ConnectionThreads`]): on the caller's runtime, or each on one of several
//! single-threaded runtimes, one thread each (thread per core).
//!
//! On a multi-threaded runtime one call over streamable HTTP passes through several tasks (hyper's connection,
//! rmcp's session worker, its service loop, the handler's task) and each hand-off may wake another worker thread:
//! on an idle 2-core machine about five context switches and 100 µs of CPU per cached read (issue 46,
//! `BENCHMARKS.md`). On a single-threaded runtime a connection's tasks, and the session tasks rmcp spawns for it,
//! wake each other on one thread. The cost: no work stealing between the threads; CPU work (rendering large
//! results, `jq`) still runs on each runtime's blocking pool, in parallel.

use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::runtime::Handle;
use tokio_util::sync::CancellationToken;

/// How connections are spread over threads.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ConnectionThreads {
    /// Single-threaded runtimes the accepted connections are spread over, round-robin; `0` (the default): every
    /// connection is served on the runtime [`super::serve`] runs on.
    pub count: usize,
    /// Stack size of those threads and of their blocking pools' threads, bytes; `None`: tokio's default (2 MiB).
    pub stack_bytes: Option<usize>,
}

impl ConnectionThreads {
    /// `count` threads (e.g. one per CPU: `std::thread::available_parallelism`).
    #[must_use]
    pub fn with_count(mut self, count: usize) -> Self {
        self.count = count;
        self
    }

    /// Their stack size, bytes.
    #[must_use]
    pub fn with_stack_bytes(mut self, stack_bytes: Option<usize>) -> Self {
        self.stack_bytes = stack_bytes;
        self
    }
}

/// The running threads; dropping it ends them (tasks still on them are dropped).
pub(crate) struct Threads {
    handles: Vec<Handle>,
    next: AtomicUsize,
    stop: CancellationToken,
}

impl Threads {
    /// Starts `config.count` threads (none for `0`).
    ///
    /// # Errors
    /// A runtime or a thread cannot be started.
    pub(crate) fn start(config: ConnectionThreads) -> std::io::Result<Threads> {
        let stop = CancellationToken::new();
        let mut handles = Vec::with_capacity(config.count);
        for index in 0..config.count {
            let mut builder = tokio::runtime::Builder::new_current_thread();
            builder.enable_all().thread_name(format!("mcp-http-{index}"));
            let mut thread = std::thread::Builder::new().name(format!("mcp-http-{index}"));
            if let Some(bytes) = config.stack_bytes {
                builder.thread_stack_size(bytes);
                thread = thread.stack_size(bytes);
            }
            let runtime = builder.build()?;
            handles.push(runtime.handle().clone());
            let stop = stop.clone();
            thread.spawn(move || {
                runtime.block_on(stop.cancelled());
                // Dropped here, off any runtime: the tasks still on it are dropped without blocking anyone.
                drop(runtime);
            })?;
        }
        Ok(Threads {
            handles,
            next: AtomicUsize::new(0),
            stop,
        })
    }

    /// No threads: connections stay on the current runtime.
    pub(crate) fn is_empty(&self) -> bool {
        self.handles.is_empty()
    }

    /// Runs `future` on the next thread (on the current runtime when there are none).
    pub(crate) fn spawn<F>(&self, future: F)
    where
        F: Future<Output = ()> + Send + 'static,
    {
        if self.handles.is_empty() {
            tokio::spawn(future);
        } else {
            let at = self.next.fetch_add(1, Ordering::Relaxed) % self.handles.len();
            self.handles[at].spawn(future);
        }
    }
}

impl Drop for Threads {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}
