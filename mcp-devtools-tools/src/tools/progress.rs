//! Progress of a long call (the wait tools): `notifications/progress` on the request's `progressToken` (MCP
//! 2026-07-28, basic/utilities/progress), and, when the call runs as a task, the task's status (a
//! [`TaskProgress`] the task runner puts into the call's request extensions; `tasks/get` reports it).

use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::service::{Peer, RequestContext, RoleServer};

/// One progress report: `progress` of `total` (e.g. jobs done of jobs seen) and what is happening, in words.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ProgressUpdate {
    /// Monotonic: what is done so far.
    pub progress: u64,
    /// What there is to do, when known.
    pub total: Option<u64>,
    /// The current state, e.g. `"in_progress: 3 of 7 jobs done"`.
    pub message: String,
}

/// Where a task's progress goes (the task store).
pub(crate) trait ProgressSink: Send + Sync + 'static {
    /// Records `update` as the task's current progress. Must not block.
    fn report(&self, update: &ProgressUpdate);
}

/// The progress sink of a call that runs as a task, in the call's request extensions.
#[derive(Clone)]
pub(crate) struct TaskProgress(pub Arc<dyn ProgressSink>);

/// Sends a call's progress to whoever follows it: the client (when it gave a `progressToken`) and the task.
pub(crate) struct Reporter {
    token: Option<ProgressToken>,
    peer: Peer<RoleServer>,
    task: Option<TaskProgress>,
    /// The longest the call stays silent ([`crate::WaitConfig::heartbeat`]).
    heartbeat: Duration,
    last: Option<(Instant, ProgressUpdate)>,
    /// Progress must increase with every notification (the spec): a heartbeat repeating the same state adds a
    /// fraction below one.
    sent: f64,
}

impl Reporter {
    /// The reporter of the call `cx`, repeating the last update every `heartbeat` while nothing changes.
    pub(crate) fn new(cx: &RequestContext<RoleServer>, heartbeat: Duration) -> Self {
        Reporter {
            token: cx.meta.get_progress_token(),
            peer: cx.peer.clone(),
            task: cx.extensions.get::<TaskProgress>().cloned(),
            heartbeat,
            last: None,
            sent: -1.0,
        }
    }

    /// Reports `update` when it differs from the last one, or when the heartbeat has passed since the last report.
    pub(crate) async fn report(&mut self, update: ProgressUpdate) {
        let due = match &self.last {
            None => true,
            Some((at, last)) => *last != update || at.elapsed() >= self.heartbeat,
        };
        if !due {
            return;
        }
        if let Some(task) = &self.task {
            task.0.report(&update);
        }
        if let Some(token) = &self.token {
            let mut progress = update.progress as f64;
            if progress <= self.sent {
                progress = self.sent + (1.0 - (self.sent - self.sent.floor())) / 2.0;
            }
            self.sent = progress;
            let mut param =
                ProgressNotificationParam::new(token.clone(), progress).with_message(update.message.clone());
            if let Some(total) = update.total {
                param = param.with_total(total as f64);
            }
            if let Err(err) = self.peer.notify_progress(param).await {
                tracing::debug!(error = %err, "a progress notification was not sent");
            }
        }
        self.last = Some((Instant::now(), update));
    }

    /// How long until the next heartbeat is due.
    pub(crate) fn until_heartbeat(&self) -> Duration {
        match &self.last {
            None => Duration::ZERO,
            Some((at, _)) => self.heartbeat.saturating_sub(at.elapsed()),
        }
    }

    /// Sends the last update again when a heartbeat is due.
    pub(crate) async fn heartbeat(&mut self) {
        if let Some((_, last)) = &self.last
            && self.until_heartbeat().is_zero()
        {
            let last = last.clone();
            self.report(last).await;
        }
    }
}
