//! [`MemoryTaskStore`]: tasks in this process.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use tokio::sync::watch;

use super::record::now;
use super::{CancelSignal, Outcome, Progress, TaskId, TaskRecord, TaskStore, TaskStoreError};

/// Tasks in this process's memory: right for one replica (stdio, or a single HTTP server); another replica does not
/// see them, and they are lost when the process ends. Each task is forgotten `ttlMs` after its creation (expired
/// tasks are dropped whenever a task is created). A cancel request wakes [`TaskStore::cancellation`] at once.
/// Never fails.
#[derive(Default)]
pub struct MemoryTaskStore {
    tasks: Mutex<HashMap<TaskId, Entry>>,
}

struct Entry {
    record: TaskRecord,
    expires: Instant,
    /// The cancel flag, watched by the task's runner; dropped with the entry (the runner then sees
    /// [`CancelSignal::Gone`]).
    cancel: watch::Sender<bool>,
}

impl Entry {
    fn live(&self) -> bool {
        Instant::now() < self.expires
    }
}

impl MemoryTaskStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    fn tasks(&self) -> MutexGuard<'_, HashMap<TaskId, Entry>> {
        // Every change under the lock is a single assignment or insertion: a panic cannot leave an entry half-done.
        self.tasks.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The live entry `id` of `owner`, through `f`.
    fn with_owned<T>(&self, owner: &str, id: &str, f: impl FnOnce(&mut Entry) -> T) -> Option<T> {
        let id = TaskId::parse(id)?;
        let mut tasks = self.tasks();
        let entry = tasks
            .get_mut(&id)
            .filter(|entry| entry.live() && entry.record.owner == owner)?;
        Some(f(entry))
    }

    /// The live, working entry `id`, through `f`.
    fn with_working<T>(&self, id: &TaskId, f: impl FnOnce(&mut Entry) -> T) -> Option<T> {
        let mut tasks = self.tasks();
        let entry = tasks
            .get_mut(id)
            .filter(|entry| entry.live() && entry.record.outcome.is_none())?;
        Some(f(entry))
    }
}

#[async_trait::async_trait]
impl TaskStore for MemoryTaskStore {
    async fn create(&self, record: &TaskRecord) -> Result<(), TaskStoreError> {
        let entry = Entry {
            record: record.clone(),
            expires: Instant::now() + Duration::from_millis(record.ttl_ms),
            cancel: watch::Sender::new(record.cancel_requested),
        };
        let mut tasks = self.tasks();
        tasks.retain(|_, entry| entry.live());
        tasks.insert(record.id.clone(), entry);
        Ok(())
    }

    async fn get(&self, owner: &str, id: &str) -> Result<Option<TaskRecord>, TaskStoreError> {
        Ok(self.with_owned(owner, id, |entry| entry.record.clone()))
    }

    async fn report(&self, id: &TaskId, progress: &Progress) -> Result<(), TaskStoreError> {
        self.with_working(id, |entry| {
            entry.record.progress = Some(progress.clone());
            entry.record.last_updated_at = now();
        });
        Ok(())
    }

    async fn settle(&self, id: &TaskId, outcome: &Outcome) -> Result<bool, TaskStoreError> {
        Ok(self
            .with_working(id, |entry| {
                entry.record.outcome = Some(outcome.clone());
                entry.record.last_updated_at = now();
            })
            .is_some())
    }

    async fn cancel(&self, owner: &str, id: &str) -> Result<bool, TaskStoreError> {
        Ok(self
            .with_owned(owner, id, |entry| {
                entry.record.cancel_requested = true;
                entry.cancel.send_replace(true);
            })
            .is_some())
    }

    async fn cancellation(&self, id: &TaskId) -> CancelSignal {
        let watched = self
            .tasks()
            .get(id)
            .filter(|entry| entry.live())
            .map(|entry| (entry.cancel.subscribe(), entry.expires));
        let Some((mut flag, expires)) = watched else {
            return CancelSignal::Gone;
        };
        let requested = flag.wait_for(|requested| *requested);
        tokio::select! {
            requested = requested => match requested {
                Ok(_) => CancelSignal::Requested,
                Err(_) => CancelSignal::Gone,
            },
            () = tokio::time::sleep_until(expires.into()) => CancelSignal::Gone,
        }
    }
}
