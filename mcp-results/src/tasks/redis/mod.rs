//! [`RedisTaskStore`]: tasks in Redis, so that any replica answers `tasks/get` and `tasks/cancel` for a task
//! another replica runs.
//!
//! - **Keys.** A task is the hash `<prefix>:<taskId>` ([`RedisTaskStoreConfig::key_prefix`]) with the fields
//!   `owner`, `created`, `updated` (RFC 3339), `ttl`, `poll` (milliseconds), and, once there, `progress` and
//!   `outcome` (JSON) and `cancel` (`1`). It is created with its fields and its expiry in one transaction
//!   (`HSET` + `PEXPIRE` `ttlMs`), so it is readable everywhere before the creating call answers, and Redis drops
//!   it `ttlMs` after its creation, result included.
//! - **Changes** are Lua scripts that check before they write, atomically: progress and settling touch only a task
//!   that exists and has no `outcome` yet (so nothing re-creates an expired key or overwrites a terminal state), and
//!   a cancel sets `cancel` only when `owner` matches.
//! - **Cancellation** is read by the replica running the task: `HMGET owner cancel` every
//!   [`RedisTaskStoreConfig::cancel_poll_interval`] (at most 500 ms).
//! - **Failures** ([`link`]): every command is bounded by [`RedisTaskStoreConfig::command_timeout`]; after a failure
//!   commands fail at once for [`RedisTaskStoreConfig::reconnect_interval`]. Errors are
//!   [`TaskStoreError::Unreachable`], never a wait.

mod config;
mod link;

pub use config::{
    DEFAULT_CANCEL_POLL_INTERVAL, DEFAULT_COMMAND_TIMEOUT, DEFAULT_KEY_PREFIX, DEFAULT_RECONNECT_INTERVAL,
    RedisTaskConfigError, RedisTaskStoreConfig,
};

use std::collections::HashMap;
use std::time::Duration;

use link::Link;

use super::record::now;
use super::{CancelSignal, Outcome, Progress, TaskId, TaskRecord, TaskStore, TaskStoreError};

/// Writes `progress` (ARGV 1) and `updated` (ARGV 2) to a task that exists and is not settled.
const REPORT: &str = r"
if redis.call('HEXISTS', KEYS[1], 'owner') == 1 and redis.call('HEXISTS', KEYS[1], 'outcome') == 0 then
  redis.call('HSET', KEYS[1], 'progress', ARGV[1], 'updated', ARGV[2])
  return 1
end
return 0";

/// Writes `outcome` (ARGV 1) and `updated` (ARGV 2) to a task that exists and is not settled: 1 when it did.
const SETTLE: &str = r"
if redis.call('HEXISTS', KEYS[1], 'owner') == 1 and redis.call('HEXISTS', KEYS[1], 'outcome') == 0 then
  redis.call('HSET', KEYS[1], 'outcome', ARGV[1], 'updated', ARGV[2])
  return 1
end
return 0";

/// Sets `cancel` on the task when its owner is ARGV 1: 1 when it did.
const CANCEL: &str = r"
if redis.call('HGET', KEYS[1], 'owner') == ARGV[1] then
  redis.call('HSET', KEYS[1], 'cancel', '1')
  return 1
end
return 0";

/// Tasks in Redis, shared by every replica that uses the same Redis and key prefix. Cheap to share (`Arc`); connects
/// on first use.
pub struct RedisTaskStore {
    link: Link,
    prefix: String,
    cancel_poll_interval: Duration,
}

impl RedisTaskStore {
    /// The store of `config`. Connects lazily: an unreachable Redis is not an error here.
    ///
    /// # Errors
    /// [`RedisTaskConfigError`]: the URL is not a Redis URL.
    pub fn new(config: &RedisTaskStoreConfig) -> Result<Self, RedisTaskConfigError> {
        let client = redis::Client::open(config.url.as_str()).map_err(|_| RedisTaskConfigError {
            url: config.masked_url(),
        })?;
        Ok(RedisTaskStore {
            link: Link::new(client, config),
            prefix: config.key_prefix.clone(),
            cancel_poll_interval: config
                .cancel_poll_interval
                .clamp(Duration::from_millis(1), config::MAX_CANCEL_POLL_INTERVAL),
        })
    }

    fn key(&self, id: &TaskId) -> String {
        format!("{}:{id}", self.prefix)
    }

    /// Runs the Lua `script` on the task `id` with `args`: its integer answer.
    async fn eval(&self, script: &'static str, id: &TaskId, args: &[&str]) -> Result<i64, TaskStoreError> {
        let key = self.key(id);
        self.link
            .run(|mut connection| async move {
                redis::cmd("EVAL")
                    .arg(script)
                    .arg(1)
                    .arg(key)
                    .arg(args)
                    .query_async::<i64>(&mut connection)
                    .await
            })
            .await
    }
}

#[async_trait::async_trait]
impl TaskStore for RedisTaskStore {
    async fn create(&self, record: &TaskRecord) -> Result<(), TaskStoreError> {
        let fields = fields(record)?;
        let key = self.key(&record.id);
        let ttl_ms = i64::try_from(record.ttl_ms).unwrap_or(i64::MAX);
        self.link
            .run(|mut connection| async move {
                redis::pipe()
                    .atomic()
                    .cmd("HSET")
                    .arg(&key)
                    .arg(&fields)
                    .ignore()
                    .cmd("PEXPIRE")
                    .arg(&key)
                    .arg(ttl_ms)
                    .ignore()
                    .query_async::<()>(&mut connection)
                    .await
            })
            .await
    }

    async fn get(&self, owner: &str, id: &str) -> Result<Option<TaskRecord>, TaskStoreError> {
        let Some(id) = TaskId::parse(id) else {
            return Ok(None);
        };
        let key = self.key(&id);
        let stored: HashMap<String, String> = self
            .link
            .run(|mut connection| async move {
                redis::cmd("HGETALL")
                    .arg(key)
                    .query_async::<HashMap<String, String>>(&mut connection)
                    .await
            })
            .await?;
        if stored.get("owner").map(String::as_str) != Some(owner) {
            return Ok(None);
        }
        record(id, stored).map(Some)
    }

    async fn report(&self, id: &TaskId, progress: &Progress) -> Result<(), TaskStoreError> {
        let progress = json(id, progress)?;
        self.eval(REPORT, id, &[&progress, &now()]).await.map(|_| ())
    }

    async fn settle(&self, id: &TaskId, outcome: &Outcome) -> Result<bool, TaskStoreError> {
        let outcome = json(id, outcome)?;
        Ok(self.eval(SETTLE, id, &[&outcome, &now()]).await? == 1)
    }

    async fn cancel(&self, owner: &str, id: &str) -> Result<bool, TaskStoreError> {
        let Some(id) = TaskId::parse(id) else {
            return Ok(false);
        };
        Ok(self.eval(CANCEL, &id, &[owner]).await? == 1)
    }

    async fn cancellation(&self, id: &TaskId) -> CancelSignal {
        loop {
            let key = self.key(id);
            let read = self
                .link
                .run(|mut connection| async move {
                    redis::cmd("HMGET")
                        .arg(key)
                        .arg(&["owner", "cancel"])
                        .query_async::<(Option<String>, Option<String>)>(&mut connection)
                        .await
                })
                .await;
            match read {
                Ok((None, _)) => return CancelSignal::Gone,
                Ok((Some(_), Some(_))) => return CancelSignal::Requested,
                // Not requested; or Redis failed (logged by the link): the task keeps running.
                Ok((Some(_), None)) | Err(_) => {}
            }
            tokio::time::sleep(self.cancel_poll_interval).await;
        }
    }
}

/// The hash fields of `record`.
fn fields(record: &TaskRecord) -> Result<Vec<(&'static str, String)>, TaskStoreError> {
    let mut fields = vec![
        ("owner", record.owner.clone()),
        ("created", record.created_at.clone()),
        ("updated", record.last_updated_at.clone()),
        ("ttl", record.ttl_ms.to_string()),
        ("poll", record.poll_interval_ms.to_string()),
    ];
    if let Some(progress) = &record.progress {
        fields.push(("progress", json(&record.id, progress)?));
    }
    if let Some(outcome) = &record.outcome {
        fields.push(("outcome", json(&record.id, outcome)?));
    }
    if record.cancel_requested {
        fields.push(("cancel", "1".to_owned()));
    }
    Ok(fields)
}

/// The record `id` from its hash fields.
fn record(id: TaskId, mut stored: HashMap<String, String>) -> Result<TaskRecord, TaskStoreError> {
    let corrupt = |reason: String| TaskStoreError::Corrupt {
        id: id.to_string(),
        reason,
    };
    let mut take = |field: &str| stored.remove(field);
    let number = |field: &str, text: Option<String>| {
        text.as_deref()
            .and_then(|text| text.parse::<u64>().ok())
            .ok_or_else(|| corrupt(format!("`{field}` is not a number")))
    };
    let owner = take("owner").unwrap_or_default();
    let created_at = take("created").ok_or_else(|| corrupt("`created` is missing".to_owned()))?;
    let last_updated_at = take("updated").unwrap_or_else(|| created_at.clone());
    let ttl_ms = number("ttl", take("ttl"))?;
    let poll_interval_ms = number("poll", take("poll"))?;
    let progress = take("progress")
        .map(|text| serde_json::from_str::<Progress>(&text))
        .transpose()
        .map_err(|err| corrupt(format!("`progress`: {err}")))?;
    let outcome = take("outcome")
        .map(|text| serde_json::from_str::<Outcome>(&text))
        .transpose()
        .map_err(|err| corrupt(format!("`outcome`: {err}")))?;
    let cancel_requested = take("cancel").is_some();
    Ok(TaskRecord {
        id,
        owner,
        created_at,
        last_updated_at,
        ttl_ms,
        poll_interval_ms,
        progress,
        outcome,
        cancel_requested,
    })
}

/// `value` as JSON text.
fn json(id: &TaskId, value: &impl serde::Serialize) -> Result<String, TaskStoreError> {
    serde_json::to_string(value).map_err(|err| TaskStoreError::Corrupt {
        id: id.to_string(),
        reason: err.to_string(),
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_record_round_trips_through_its_fields() {
        let mut task = TaskRecord::new("alice", Duration::from_secs(60), Duration::from_millis(300));
        task.progress = Some(Progress::new(2, None, "waiting"));
        task.outcome = Some(Outcome::Cancelled);
        task.cancel_requested = true;
        let stored = fields(&task)
            .unwrap()
            .into_iter()
            .map(|(name, value)| (name.to_owned(), value))
            .collect();
        assert_eq!(record(task.id.clone(), stored).unwrap(), task);
        let broken = HashMap::from([("owner".to_owned(), "alice".to_owned())]);
        assert!(matches!(
            record(task.id.clone(), broken),
            Err(TaskStoreError::Corrupt { .. })
        ));
        assert!(RedisTaskStore::new(&RedisTaskStoreConfig::new("http://x")).is_err());
    }
}
