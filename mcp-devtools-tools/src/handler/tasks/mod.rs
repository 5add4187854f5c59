//! The MCP Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) on [`DevtoolsServer`]: a call of a tool that
//! runs as a task (its vendor's `VendorEntry::tasks`), from a client that declared the extension, is written to the
//! task store ([`crate::App::tasks`]) and answered at once with a `CreateTaskResult`; the call runs on, detached
//! from its request, and its result (or error) is stored for `tasks/get`. `tasks/cancel` sets the task's cancel flag;
//! the replica running it sees the flag ([`mcp_results::tasks::TaskStore::cancellation`]), stops the call and
//! settles the task `cancelled`.
//!
//! The detached call takes the path of every call ([`DevtoolsServer::call_traced`]: policy, principal, `tool_call`
//! span, in-flight tracking) with a request context of its own: a fresh cancellation token (the request's ends with
//! the reply), the request's extensions (the HTTP request's parts, the principal) plus the progress sink
//! ([`TaskProgress`]) that writes the call's progress to the store, no `progressToken` (the extension sends no
//! progress notifications for tasks) and the in-process peer (nothing reaches the client but `tasks/get`).

use std::sync::Arc;
use std::time::Duration;

use mcp_results::tasks::{CancelSignal, Outcome, Progress, TaskId, TaskRecord, TaskStore};
use rmcp::ErrorData;
use rmcp::model::{CallToolRequestParams, CancelTaskParams, CreateTaskResult, GetTaskParams, GetTaskResult};
use rmcp::service::{RequestContext, RoleServer};
use tokio::sync::watch;
use tracing::Instrument;

use super::DevtoolsServer;
use crate::Principal;
use crate::tools::progress::{ProgressSink, ProgressUpdate, TaskProgress};

/// How often settling a finished task is tried while the store does not answer (one second apart).
const SETTLE_ATTEMPTS: u32 = 5;

/// The answer to `tasks/get` and `tasks/cancel` for an id that is unknown, expired or another principal's: the same
/// in all three cases (the extension's `-32602`).
const NOT_FOUND: &str = "Task not found: no task of yours has this id (unknown, or past its ttlMs)";

/// Whether the request declared the tasks extension (per-request `_meta` capabilities, or the session's).
pub(super) fn declared_tasks(context: &RequestContext<RoleServer>) -> bool {
    context
        .client_capabilities()
        .is_some_and(|capabilities| capabilities.supports_tasks())
}

impl DevtoolsServer {
    /// Starts `request` of `principal` as a task: writes it to the task store (so that `tasks/get` finds it on any
    /// replica before the reply), then runs the call detached from `context` (see the module docs) and settles the
    /// task with its outcome.
    ///
    /// # Errors
    /// The request back when the store did not take the task (unreachable): the caller answers it as an ordinary
    /// call.
    pub(super) async fn start_task(
        &self,
        principal: &Principal,
        request: CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<CreateTaskResult, Box<CallToolRequestParams>> {
        let settings = &self.app.config.tasks;
        let record = TaskRecord::new(principal.as_str(), settings.ttl, settings.poll_interval);
        let store = self.app.tasks.clone();
        if let Err(err) = store.create(&record).await {
            tracing::warn!(
                tool = %request.name,
                error = %err,
                "the task store did not take the task; the call is answered without one (blocking)"
            );
            return Err(Box::new(request));
        }
        let (progress, latest) = watch::channel(None);
        let mut detached = RequestContext::new(context.id.clone(), self.in_process_peer().clone());
        detached.extensions = context.extensions.clone();
        detached
            .extensions
            .insert(TaskProgress(Arc::new(StoreProgress(progress))));
        let span = tracing::info_span!("task", task_id = %record.id, tool = %request.name);
        tracing::info!(parent: &span, principal = %principal, ttl_ms = record.ttl_ms, "task created");
        let runner = run(
            self.clone(),
            principal.clone(),
            request,
            detached,
            record.id.clone(),
            store,
            latest,
        )
        .instrument(span);
        match &self.in_flight {
            Some(tracker) => tracker.spawn(runner),
            None => tokio::spawn(runner),
        };
        Ok(record.to_create_result())
    }

    /// `tasks/get`: the task of the caller, as stored.
    ///
    /// # Errors
    /// Invalid params for an unknown, expired or another principal's id (one text for all three); internal error
    /// when the task store is unreachable or the caller unknown.
    pub(super) async fn task_get(
        &self,
        request: GetTaskParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        let principal = self.task_caller(context)?;
        match self.app.tasks.get(principal.as_str(), &request.task_id).await {
            Ok(Some(record)) => Ok(record.to_get_result()),
            Ok(None) => Err(ErrorData::invalid_params(NOT_FOUND, None)),
            Err(err) => Err(unreachable(&err)),
        }
    }

    /// `tasks/cancel`: sets the caller's task's cancel flag; the replica running it stops it.
    ///
    /// # Errors
    /// As [`DevtoolsServer::task_get`].
    pub(super) async fn task_cancel(
        &self,
        request: CancelTaskParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let principal = self.task_caller(context)?;
        match self.app.tasks.cancel(principal.as_str(), &request.task_id).await {
            Ok(true) => {
                tracing::info!(task_id = %request.task_id, principal = %principal, "task cancel requested");
                Ok(())
            }
            Ok(false) => Err(ErrorData::invalid_params(NOT_FOUND, None)),
            Err(err) => Err(unreachable(&err)),
        }
    }

    /// The principal of a `tasks/*` request.
    fn task_caller(&self, context: &RequestContext<RoleServer>) -> Result<Principal, ErrorData> {
        self.principal_for(context).ok_or_else(|| {
            tracing::error!("a tasks request arrived without an authenticated principal");
            ErrorData::internal_error("the caller is not authenticated; reconnect with a token", None)
        })
    }
}

/// The internal error of a `tasks/*` request the store could not answer (logged).
fn unreachable(err: &mcp_results::tasks::TaskStoreError) -> ErrorData {
    tracing::warn!(error = %err, "a tasks request failed: the task store did not answer");
    ErrorData::internal_error(err.to_string(), None)
}

/// A task's progress sink ([`TaskProgress`]): keeps the latest update for the writer (`write_progress`), so that a
/// tool reporting never waits for the store.
struct StoreProgress(watch::Sender<Option<Progress>>);

impl ProgressSink for StoreProgress {
    fn report(&self, update: &ProgressUpdate) {
        self.0.send_replace(Some(Progress::new(
            update.progress,
            update.total,
            update.message.clone(),
        )));
    }
}

/// Runs the task's call and settles the task: `completed` with the call's result (an `isError` result included),
/// `failed` with its JSON-RPC error or when it panicked, `cancelled` when `tasks/cancel` stopped it.
async fn run(
    server: DevtoolsServer,
    principal: Principal,
    request: CallToolRequestParams,
    context: RequestContext<RoleServer>,
    id: TaskId,
    store: Arc<dyn TaskStore>,
    latest: watch::Receiver<Option<Progress>>,
) {
    let cancel = context.ct.clone();
    let writer = tokio::spawn(write_progress(store.clone(), id.clone(), latest).in_current_span());
    let watcher = {
        let (store, id, cancel) = (store.clone(), id.clone(), cancel.clone());
        tokio::spawn(
            async move {
                let signal = store.cancellation(&id).await;
                match signal {
                    CancelSignal::Requested => tracing::info!("task cancelled by tasks/cancel: stopping its call"),
                    CancelSignal::Gone => tracing::info!("task expired (past its ttlMs): stopping its call"),
                }
                cancel.cancel();
            }
            .in_current_span(),
        )
    };
    let call = tokio::spawn(async move { server.call_traced(&principal, request, context).await }.in_current_span());
    let joined = call.await;
    watcher.abort();
    let outcome = match joined {
        _ if cancel.is_cancelled() => Outcome::Cancelled,
        Ok(Ok(result)) => Outcome::completed(&result),
        Ok(Err(error)) => Outcome::failed(&error),
        Err(err) => {
            tracing::error!(error = %err, "the task's call panicked");
            Outcome::failed(&ErrorData::internal_error(
                "Internal error: the tool failed unexpectedly",
                None,
            ))
        }
    };
    // The progress writer ends when the call's sink is dropped; a last write after settling changes nothing.
    drop(writer);
    settle(store.as_ref(), &id, &outcome).await;
}

/// Writes each new progress of task `id` to the store, the latest only when updates come faster than the store
/// answers; ends when the task's sink is dropped.
async fn write_progress(store: Arc<dyn TaskStore>, id: TaskId, mut latest: watch::Receiver<Option<Progress>>) {
    while latest.changed().await.is_ok() {
        let progress = latest.borrow_and_update().clone();
        if let Some(progress) = progress
            && let Err(err) = store.report(&id, &progress).await
        {
            tracing::debug!(error = %err, "a task's progress was not stored");
        }
    }
}

/// Stores the task's outcome, trying [`SETTLE_ATTEMPTS`] times while the store does not answer.
async fn settle(store: &dyn TaskStore, id: &TaskId, outcome: &Outcome) {
    for attempt in 1..=SETTLE_ATTEMPTS {
        match store.settle(id, outcome).await {
            Ok(settled) => {
                tracing::info!(status = ?outcome.status(), settled, "task finished");
                return;
            }
            Err(err) if attempt < SETTLE_ATTEMPTS => {
                tracing::debug!(error = %err, attempt, "the task's outcome was not stored yet; trying again");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            Err(err) => tracing::warn!(
                error = %err,
                status = ?outcome.status(),
                "the task's outcome could not be stored; tasks/get keeps answering working until its ttlMs"
            ),
        }
    }
}

#[cfg(test)]
mod tests;
