//! Task state for the MCP Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663, MCP 2026-07-28): where a
//! server keeps the tasks it answered a `tools/call` with, so that `tasks/get` and `tasks/cancel` find them, on this
//! replica or (with a shared backend) on any other.
//!
//! | item | concern |
//! |---|---|
//! | [`TaskStore`] | the backend trait: create, get, progress, settle, cancel, and the runner's cancellation signal |
//! | [`TaskRecord`], [`Progress`], [`Outcome`] | one task: rmcp's [`rmcp::model::Task`] fields, its owner, its progress, its terminal payload, the cancel flag |
//! | [`TaskId`] | an unguessable id: 128 random bits as 32 lowercase hex digits |
//! | [`MemoryTaskStore`] | tasks in this process |
//! | `RedisTaskStore` (feature `redis`) | tasks in Redis, shared by replicas |
//! | [`TaskStoreError`] | why a backend could not answer |
//!
//! The rules every backend keeps:
//!
//! - **Owners.** A task belongs to the owner (the principal) that created it: for any other owner it is *not found*,
//!   the same answer as an unknown or expired id, so no caller learns that another's task exists.
//! - **Expiry.** A task is kept for `ttlMs` after its creation (its result too), then forgotten.
//! - **Durable before the reply.** [`TaskStore::create`] returns once a [`TaskStore::get`] anywhere would find the
//!   task: a server returns its `CreateTaskResult` only then (the extension's rule).
//! - **One terminal state.** [`TaskStore::settle`] moves a `working` task to `completed`, `failed` or `cancelled`
//!   once; a later settle, or progress after it, changes nothing.
//! - **Cooperative cancellation.** [`TaskStore::cancel`] only sets a flag; the replica running the task learns it
//!   from [`TaskStore::cancellation`], stops the work and settles the task `cancelled`.
//!
//! ```
//! use std::time::Duration;
//! use mcp_results::tasks::{MemoryTaskStore, Outcome, Progress, TaskRecord, TaskStore};
//! use rmcp::model::{CallToolResult, TaskStatus};
//!
//! # tokio::runtime::Runtime::new()?.block_on(async {
//! let store = MemoryTaskStore::new();
//! // ttlMs 1 hour, pollIntervalMs 5000.
//! let record = TaskRecord::new("alice", Duration::from_secs(3600), Duration::from_millis(5000));
//! store.create(&record).await?;
//! let created = record.to_create_result(); // the `tools/call` answer: resultType "task"
//!
//! store.report(&record.id, &Progress::new(3, Some(7), "3 of 7 jobs done")).await?;
//! let seen = store.get("alice", &created.task.task_id).await?.expect("alice's task");
//! assert_eq!(seen.to_get_result().task.task.status_message.as_deref(), Some("3 of 7 jobs done"));
//! assert!(store.get("bob", record.id.as_str()).await?.is_none(), "not bob's");
//!
//! store.settle(&record.id, &Outcome::completed(&CallToolResult::success(vec![]))).await?;
//! let done = store.get("alice", record.id.as_str()).await?.expect("kept for ttlMs");
//! assert_eq!(done.status(), TaskStatus::Completed);
//! # Ok::<(), mcp_results::tasks::TaskStoreError>(())
//! # })?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod error;
mod id;
mod memory;
mod record;
#[cfg(feature = "redis")]
mod redis;

pub use error::TaskStoreError;
pub use id::TaskId;
pub use memory::MemoryTaskStore;
pub use record::{Outcome, Progress, TaskRecord};
#[cfg(feature = "redis")]
pub use redis::{
    DEFAULT_CANCEL_POLL_INTERVAL, DEFAULT_COMMAND_TIMEOUT, DEFAULT_KEY_PREFIX, DEFAULT_RECONNECT_INTERVAL,
    RedisTaskConfigError, RedisTaskStore, RedisTaskStoreConfig,
};

/// Why [`TaskStore::cancellation`] resolved: the running task must stop either way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CancelSignal {
    /// `tasks/cancel` was received for the task (on any replica).
    Requested,
    /// The task is no longer in the store (its `ttlMs` passed): nobody can read its result any more.
    Gone,
}

/// Where tasks live. Implementations: [`MemoryTaskStore`] (this process) and, with the feature `redis`,
/// `RedisTaskStore` (shared by replicas). Object-safe: a server holds an `Arc<dyn TaskStore>`.
///
/// Ids from a client (`get`, `cancel`) are taken as text: one that is not a [`TaskId`] is simply not found.
#[async_trait::async_trait]
pub trait TaskStore: Send + Sync + 'static {
    /// Stores a new task; it is kept for [`TaskRecord::ttl_ms`] from now. Returns once [`TaskStore::get`] would find
    /// it, on any replica sharing the store.
    ///
    /// # Errors
    /// [`TaskStoreError::Unreachable`]: the backend did not store it (a server then answers the call without a task).
    async fn create(&self, record: &TaskRecord) -> Result<(), TaskStoreError>;

    /// The task `id` of `owner`: `None` when it is unknown, expired, or another owner's (all three look the same).
    ///
    /// # Errors
    /// [`TaskStoreError::Unreachable`] when the backend did not answer; [`TaskStoreError::Corrupt`] for a stored
    /// record that does not decode.
    async fn get(&self, owner: &str, id: &str) -> Result<Option<TaskRecord>, TaskStoreError>;

    /// Records `progress` as the current progress of the working task `id` (its `statusMessage`); nothing happens
    /// when the task is gone or already settled.
    ///
    /// # Errors
    /// [`TaskStoreError::Unreachable`].
    async fn report(&self, id: &TaskId, progress: &Progress) -> Result<(), TaskStoreError>;

    /// Settles the working task `id` with `outcome`: `true` when it did, `false` when the task was already settled
    /// or is gone (then nothing changes).
    ///
    /// # Errors
    /// [`TaskStoreError::Unreachable`].
    async fn settle(&self, id: &TaskId, outcome: &Outcome) -> Result<bool, TaskStoreError>;

    /// Asks the task `id` of `owner` to stop (`tasks/cancel`): `true` when the task was found (settled or not),
    /// `false` when it is unknown, expired or another owner's. The replica running it learns it through
    /// [`TaskStore::cancellation`].
    ///
    /// # Errors
    /// [`TaskStoreError::Unreachable`].
    async fn cancel(&self, owner: &str, id: &str) -> Result<bool, TaskStoreError>;

    /// Resolves when the task `id` must stop: cancellation was requested, or the task is gone. The memory store
    /// wakes at once; a shared store looks at the flag at least every half second while Redis answers (while it
    /// does not, the task keeps running).
    async fn cancellation(&self, id: &TaskId) -> CancelSignal;
}
