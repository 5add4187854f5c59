//! One task as a store keeps it ([`TaskRecord`]): rmcp's `Task` fields, the owner, the progress, the terminal
//! [`Outcome`] and the cancel flag; and its wire forms (`CreateTaskResult`, `GetTaskResult`).

use std::time::Duration;

use rmcp::ErrorData;
use rmcp::model::{
    CallToolResult, CreateTaskResult, DetailedTask, GetTaskResult, JsonObject, MetaObject, Task, TaskPayload,
    TaskStatus,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::TaskId;

/// The `_meta` key of a working task's `tasks/get` answer that holds its [`Progress`] as numbers:
/// `{"progress": 3, "total": 7, "message": "..."}`.
pub(crate) const PROGRESS_META_KEY: &str = "progress";

/// What a working task has done so far: `progress` of `total` (e.g. jobs done of jobs seen) and the current state
/// in words, shown as the task's `statusMessage`.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// What is done so far.
    pub progress: u64,
    /// What there is to do, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// The current state, e.g. `"in_progress: 3 of 7 jobs done"`.
    pub message: String,
}

impl Progress {
    /// `progress` of `total`, with `message`.
    pub fn new(progress: u64, total: Option<u64>, message: impl Into<String>) -> Self {
        Progress {
            progress,
            total,
            message: message.into(),
        }
    }
}

/// How a task ended. A tool result with `isError: true` is [`Outcome::Completed`] (the extension's rule); only a
/// JSON-RPC error is [`Outcome::Failed`].
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The call's result (a `CallToolResult` as JSON): `status: "completed"` with it as `result`.
    Completed(JsonObject),
    /// The call's JSON-RPC error (`{code, message, data?}`): `status: "failed"` with it as `error`.
    Failed(JsonObject),
    /// The call was stopped by `tasks/cancel`: `status: "cancelled"`.
    Cancelled,
}

impl Outcome {
    /// [`Outcome::Completed`] with `result`.
    pub fn completed(result: &CallToolResult) -> Self {
        match serde_json::to_value(result) {
            Ok(Value::Object(object)) => Outcome::Completed(object),
            _ => Outcome::failed(&ErrorData::internal_error(
                "the tool's result could not be written as JSON",
                None,
            )),
        }
    }

    /// [`Outcome::Failed`] with `error`.
    pub fn failed(error: &ErrorData) -> Self {
        match serde_json::to_value(error) {
            Ok(Value::Object(object)) => Outcome::Failed(object),
            _ => {
                let mut object = JsonObject::new();
                object.insert("code".to_owned(), Value::from(error.code.0));
                object.insert("message".to_owned(), Value::from(error.message.to_string()));
                Outcome::Failed(object)
            }
        }
    }

    /// The terminal status it gives the task.
    pub fn status(&self) -> TaskStatus {
        match self {
            Outcome::Completed(_) => TaskStatus::Completed,
            Outcome::Failed(_) => TaskStatus::Failed,
            Outcome::Cancelled => TaskStatus::Cancelled,
        }
    }
}

/// One task: what `tasks/get` answers, its owner, and the cancel flag.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq)]
pub struct TaskRecord {
    /// Its id (`taskId`).
    pub id: TaskId,
    /// The principal that created it: the only one that finds it.
    pub owner: String,
    /// When it was created (`createdAt`): RFC 3339 in UTC with milliseconds, e.g. `2026-07-28T10:30:00.123Z`.
    pub created_at: String,
    /// When it last changed (`lastUpdatedAt`): progress or settling; same form.
    pub last_updated_at: String,
    /// How long it is kept after its creation (`ttlMs`), milliseconds.
    pub ttl_ms: u64,
    /// How often a client should poll it (`pollIntervalMs`), milliseconds.
    pub poll_interval_ms: u64,
    /// Its latest progress, if it reported any.
    pub progress: Option<Progress>,
    /// How it ended; `None` while it is `working`.
    pub outcome: Option<Outcome>,
    /// Whether `tasks/cancel` was received for it.
    pub cancel_requested: bool,
}

impl TaskRecord {
    /// A new `working` task of `owner` with a fresh [`TaskId`], created now, kept for `ttl` (`ttlMs`; at least 1 ms),
    /// polled every `poll_interval` (`pollIntervalMs`).
    pub fn new(owner: impl Into<String>, ttl: Duration, poll_interval: Duration) -> Self {
        let now = now();
        TaskRecord {
            id: TaskId::random(),
            owner: owner.into(),
            created_at: now.clone(),
            last_updated_at: now,
            ttl_ms: millis(ttl).max(1),
            poll_interval_ms: millis(poll_interval),
            progress: None,
            outcome: None,
            cancel_requested: false,
        }
    }

    /// Its status: `working` until it has an [`Outcome`].
    pub fn status(&self) -> TaskStatus {
        self.outcome.as_ref().map_or(TaskStatus::Working, Outcome::status)
    }

    /// rmcp's [`Task`]: the base fields, with `statusMessage` the progress message while working, the error's
    /// message when failed, and a word on cancellation when cancelled.
    pub fn task(&self) -> Task {
        let task = Task::new(
            self.id.as_str(),
            self.status(),
            self.created_at.as_str(),
            self.last_updated_at.as_str(),
        )
        .with_ttl_ms(self.ttl_ms)
        .with_poll_interval_ms(self.poll_interval_ms);
        let message = match &self.outcome {
            None => self.progress.as_ref().map(|progress| progress.message.clone()),
            Some(Outcome::Failed(error)) => error.get("message").and_then(Value::as_str).map(str::to_owned),
            Some(Outcome::Cancelled) => Some("Cancelled by tasks/cancel".to_owned()),
            Some(Outcome::Completed(_)) => None,
        };
        match message {
            Some(message) => task.with_status_message(message),
            None => task,
        }
    }

    /// The `tools/call` answer that hands out this task (`resultType: "task"`).
    pub fn to_create_result(&self) -> CreateTaskResult {
        CreateTaskResult::new(self.task())
    }

    /// The `tasks/get` answer: the task with its `result` (completed) or `error` (failed) inlined, and, while it is
    /// working, its progress as numbers in `_meta.progress`.
    pub fn to_get_result(&self) -> GetTaskResult {
        let payload = match &self.outcome {
            None => TaskPayload::Working,
            Some(Outcome::Completed(result)) => TaskPayload::Completed { result: result.clone() },
            Some(Outcome::Failed(error)) => TaskPayload::Failed { error: error.clone() },
            Some(Outcome::Cancelled) => TaskPayload::Cancelled,
        };
        let mut answer = GetTaskResult::new(DetailedTask::new(self.task(), payload));
        if let (None, Some(progress)) = (&self.outcome, &self.progress)
            && let Ok(value) = serde_json::to_value(progress)
        {
            let mut meta = MetaObject::default();
            meta.0.insert(PROGRESS_META_KEY.to_owned(), value);
            answer.meta = Some(meta);
        }
        answer
    }
}

/// Now, RFC 3339 in UTC with milliseconds (`2026-07-28T10:30:00.123Z`).
pub(crate) fn now() -> String {
    format!("{:.3}", jiff::Timestamp::now())
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    #[test]
    fn timestamps_are_rfc3339_utc_with_milliseconds() {
        let at = now();
        assert_eq!(at.len(), 24, "{at}");
        assert!(at.ends_with('Z') && at.as_bytes()[19] == b'.', "{at}");
        assert!(at.parse::<jiff::Timestamp>().is_ok(), "{at}");
    }

    #[test]
    fn the_wire_forms_follow_the_status() {
        let mut record = TaskRecord::new("alice", Duration::from_secs(60), Duration::from_millis(250));
        let created = serde_json::to_value(record.to_create_result()).unwrap();
        assert_eq!(created["resultType"], "task");
        assert_eq!(created["status"], "working");
        assert_eq!(created["taskId"], record.id.as_str());
        assert_eq!(
            (created["ttlMs"].clone(), created["pollIntervalMs"].clone()),
            (json!(60000), json!(250))
        );
        assert!(created.get("statusMessage").is_none(), "{created}");

        record.progress = Some(Progress::new(3, Some(7), "in_progress: 3 of 7 jobs done"));
        let working = serde_json::to_value(record.to_get_result()).unwrap();
        assert_eq!(working["resultType"], "complete");
        assert_eq!(working["statusMessage"], "in_progress: 3 of 7 jobs done");
        assert_eq!(
            working["_meta"]["progress"],
            json!({"progress": 3, "total": 7, "message": "in_progress: 3 of 7 jobs done"})
        );

        let mut result = CallToolResult::success(vec![]);
        result.is_error = Some(true);
        record.outcome = Some(Outcome::completed(&result));
        let completed = serde_json::to_value(record.to_get_result()).unwrap();
        assert_eq!(completed["status"], "completed", "isError is completed");
        assert_eq!(completed["result"]["isError"], true);
        assert!(
            completed.get("_meta").is_none() && completed.get("statusMessage").is_none(),
            "{completed}"
        );

        record.outcome = Some(Outcome::failed(&ErrorData::internal_error(
            "the tool call panicked",
            None,
        )));
        let failed = serde_json::to_value(record.to_get_result()).unwrap();
        assert_eq!(failed["status"], "failed");
        assert_eq!(failed["error"]["code"], -32603);
        assert_eq!(failed["statusMessage"], "the tool call panicked");

        record.outcome = Some(Outcome::Cancelled);
        let cancelled = serde_json::to_value(record.to_get_result()).unwrap();
        assert_eq!(cancelled["status"], "cancelled");
        assert!(cancelled.get("result").is_none() && cancelled.get("error").is_none());
    }

    #[test]
    fn outcomes_round_trip_as_json() {
        for outcome in [
            Outcome::completed(&CallToolResult::success(vec![])),
            Outcome::failed(&ErrorData::invalid_params("no", None)),
            Outcome::Cancelled,
        ] {
            let text = serde_json::to_string(&outcome).unwrap();
            assert_eq!(serde_json::from_str::<Outcome>(&text).unwrap(), outcome, "{text}");
        }
    }
}
