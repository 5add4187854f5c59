//! The connection of the Redis task store: made on first use, every command bounded by the command timeout, and,
//! after a failure, no wait at all for the reconnect interval (commands fail at once, so a Redis that is down costs
//! calls nothing), then a new connection on the next command. One warning per outage, one line when Redis answers
//! again.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use super::config::RedisTaskStoreConfig;
use crate::tasks::TaskStoreError;

/// Connecting (with its `PING`) gives up after this long.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(1);

pub(super) struct Link {
    client: redis::Client,
    state: Mutex<State>,
    /// Held while one command connects, so that concurrent commands wait for that connection instead of opening
    /// their own.
    connecting: tokio::sync::Mutex<()>,
    /// An outage was logged and Redis has not answered since.
    down_logged: AtomicBool,
    command_timeout: Duration,
    reconnect_interval: Duration,
}

#[derive(Clone)]
enum State {
    /// No connection yet, or the last one failed long enough ago: the next command connects.
    Idle,
    Ready(ConnectionManager),
    /// Failed at this instant: commands fail at once until the reconnect interval has passed.
    Down(Instant),
}

impl Link {
    pub(super) fn new(client: redis::Client, config: &RedisTaskStoreConfig) -> Self {
        Link {
            client,
            state: Mutex::new(State::Idle),
            connecting: tokio::sync::Mutex::new(()),
            down_logged: AtomicBool::new(false),
            command_timeout: config.command_timeout.max(Duration::from_millis(1)),
            reconnect_interval: config.reconnect_interval,
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // Only a connection handle is swapped under the lock; a panic cannot leave it unsafe to use.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs one command on the connection, within the command timeout.
    ///
    /// # Errors
    /// [`TaskStoreError::Unreachable`]: no connection (now, or within the reconnect interval of a failure), or the
    /// command failed or timed out (which starts an outage).
    pub(super) async fn run<T, F, Fut>(&self, command: F) -> Result<T, TaskStoreError>
    where
        F: FnOnce(ConnectionManager) -> Fut,
        Fut: Future<Output = redis::RedisResult<T>>,
    {
        let connection = self.connection().await?;
        match tokio::time::timeout(self.command_timeout, command(connection)).await {
            Ok(Ok(value)) => {
                if self.down_logged.swap(false, Ordering::SeqCst) {
                    tracing::info!(target: "mcp_results", "task store: Redis answers again");
                }
                Ok(value)
            }
            Ok(Err(err)) => Err(self.failed(err.to_string())),
            Err(_) => Err(self.failed(format!("no answer within {} ms", self.command_timeout.as_millis()))),
        }
    }

    /// The connection, made now if there is none (only one command at a time connects).
    async fn connection(&self) -> Result<ConnectionManager, TaskStoreError> {
        if let Some(ready) = self.usable()? {
            return Ok(ready);
        }
        let _connecting = self.connecting.lock().await;
        if let Some(ready) = self.usable()? {
            return Ok(ready);
        }
        match self.connect().await {
            Ok(manager) => {
                *self.state() = State::Ready(manager.clone());
                Ok(manager)
            }
            Err(reason) => Err(self.failed(reason)),
        }
    }

    /// The connection when there is one; `None` when one must be made; an error while the last failure is recent.
    fn usable(&self) -> Result<Option<ConnectionManager>, TaskStoreError> {
        match self.state().clone() {
            State::Ready(manager) => Ok(Some(manager)),
            State::Down(at) if at.elapsed() < self.reconnect_interval => Err(TaskStoreError::unreachable(format!(
                "Redis failed {} ms ago; the next attempt is after {} ms",
                at.elapsed().as_millis(),
                self.reconnect_interval.as_millis()
            ))),
            State::Down(_) | State::Idle => Ok(None),
        }
    }

    /// A new connection that answers `PING`, within [`CONNECT_TIMEOUT`].
    async fn connect(&self) -> Result<ConnectionManager, String> {
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(CONNECT_TIMEOUT))
            .set_response_timeout(Some(self.command_timeout))
            .set_number_of_retries(0);
        let connecting = async {
            let mut manager = ConnectionManager::new_with_config(self.client.clone(), config)
                .await
                .map_err(|err| err.to_string())?;
            redis::cmd("PING")
                .query_async::<()>(&mut manager)
                .await
                .map_err(|err| err.to_string())?;
            Ok(manager)
        };
        tokio::time::timeout(CONNECT_TIMEOUT, connecting)
            .await
            .unwrap_or_else(|_| Err(format!("no connection within {} ms", CONNECT_TIMEOUT.as_millis())))
    }

    /// Starts (or continues) an outage: commands fail at once for the reconnect interval; the first failure of an
    /// outage is logged.
    fn failed(&self, reason: String) -> TaskStoreError {
        *self.state() = State::Down(Instant::now());
        if !self.down_logged.swap(true, Ordering::SeqCst) {
            tracing::warn!(
                target: "mcp_results",
                error = %reason,
                "task store: Redis failed; tasks cannot be created or read until it answers again (logged once per \
                 outage)"
            );
        }
        TaskStoreError::unreachable(reason)
    }
}
