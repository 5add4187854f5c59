//! Dormant sessions: an idle streamable-HTTP session keeps only its client's `initialize` parameters, not a live
//! rmcp session.
//!
//! A live rmcp session is a worker task, the served handler's task and about eight tokio channels, each allocating
//! 32 message slots up front (messages are hundreds of bytes): about 110 KB of heap (60 KiB resident) per session,
//! whatever the channel capacity. [`DormantSessions`] wraps rmcp's [`LocalSessionManager`]: [`DormantSessions::sleep`]
//! ends a session's worker but keeps its [`SessionState`] (the `initialize` parameters, stored by rmcp after the
//! handshake into [`SessionStates`], rmcp's session store); the next request naming the session finds no worker and
//! rmcp restores one from the store, replaying the handshake (a fresh handler from the service's factory). The
//! session layer ([`super::SessionLimits`]) decides when a session sleeps and when it ends for good.
//!
//! What a dormant session loses: the replay cache of its completed response streams (the session layer therefore
//! waits [`super::RESUME_WINDOW`] after an answer that was not delivered in full), and server
//! messages sent while no stream is open (there is no worker to cache them). A handler's own per-session state
//! starts afresh after a restore.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use std::pin::Pin;
use std::task::{Context, Poll};

use futures_util::Stream;
use rmcp::model::{ClientJsonRpcMessage, RequestId, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionHandle, LocalSessionManager, LocalSessionManagerError, SessionConfig, SessionError,
};
use rmcp::transport::streamable_http_server::session::{
    ServerSseMessage, SessionState, SessionStore, SessionStoreError,
};
use rmcp::transport::streamable_http_server::{RestoreOutcome, SessionId, SessionManager};

/// The `initialize` parameters of every live or dormant session: rmcp's session store, in memory.
#[derive(Debug, Default)]
pub struct SessionStates(Mutex<HashMap<String, SessionState>>);

impl SessionStates {
    fn map(&self) -> MutexGuard<'_, HashMap<String, SessionState>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Forgets a session for good (it can no longer be restored).
    pub fn forget(&self, session: &str) {
        self.map().remove(session);
    }
}

#[async_trait::async_trait]
impl SessionStore for SessionStates {
    async fn load(&self, session_id: &str) -> Result<Option<SessionState>, SessionStoreError> {
        Ok(self.map().get(session_id).cloned())
    }

    async fn store(&self, session_id: &str, state: &SessionState) -> Result<(), SessionStoreError> {
        self.map().insert(session_id.to_string(), state.clone());
        Ok(())
    }

    async fn delete(&self, session_id: &str) -> Result<(), SessionStoreError> {
        self.forget(session_id);
        Ok(())
    }
}

/// rmcp's [`LocalSessionManager`], whose sessions can be put to sleep ([`DormantSessions::sleep`]).
///
/// When a session's worker ends, rmcp's task serving it closes the session by its id. After a sleep that close
/// comes late, possibly after the session was restored under the same id; it is recognized (counted per session
/// when the worker is put to sleep) and ignored, so it cannot end the restored worker.
#[derive(Debug)]
pub struct DormantSessions {
    inner: LocalSessionManager,
    /// Closes still to come from workers put to sleep, per session id.
    stale_closes: Mutex<HashMap<SessionId, usize>>,
}

impl DormantSessions {
    /// A manager whose live sessions use `config` (idle expiry, channel sizes).
    pub fn new(config: SessionConfig) -> Self {
        let mut inner = LocalSessionManager::default();
        inner.session_config = config;
        DormantSessions {
            inner,
            stale_closes: Mutex::default(),
        }
    }

    fn stale_closes(&self) -> MutexGuard<'_, HashMap<SessionId, usize>> {
        self.stale_closes.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Ends `session`'s worker, keeping it restorable (its [`SessionState`] stays in the store). `false`: it had no
    /// live worker.
    pub async fn sleep(&self, session: &str) -> bool {
        let handle = {
            let mut sessions = self.inner.sessions.write().await;
            let handle = sessions.remove(session);
            if let Some(handle) = &handle {
                *self.stale_closes().entry(handle.id().clone()).or_insert(0) += 1;
            }
            handle
        };
        match handle {
            Some(handle) => {
                // An error: the worker had already ended; its close is still to come either way.
                let _ = handle.close().await;
                true
            }
            None => false,
        }
    }
}

impl SessionManager for DormantSessions {
    type Error = LocalSessionManagerError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        self.inner.create_session().await
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.inner.initialize_session(id, message).await
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        self.inner.has_session(id).await
    }

    /// Closes `id`'s worker, unless this is the late close of a worker put to sleep.
    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        let handle = {
            let mut sessions = self.inner.sessions.write().await;
            let mut stale = self.stale_closes();
            if let Some(count) = stale.get_mut(id) {
                *count -= 1;
                if *count == 0 {
                    stale.remove(id);
                }
                return Ok(());
            }
            sessions.remove(id)
        };
        if let Some(handle) = handle {
            match handle.close().await {
                Ok(()) | Err(SessionError::SessionServiceTerminated) => {}
                Err(error) => return Err(error.into()),
            }
        }
        Ok(())
    }

    /// The request's response stream; dropped before the answer came (the client closed the connection), it
    /// cancels the request (`CancelOnDrop`).
    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let request = match &message {
            ClientJsonRpcMessage::Request(request) => Some(request.id.clone()),
            _ => None,
        };
        let handle = self.inner.sessions.read().await.get(id).cloned();
        let stream = self.inner.create_stream(id, message).await?;
        Ok(CancelOnDrop {
            inner: Box::pin(stream),
            pending: request.zip(handle).map(|(request, handle)| (handle, request)),
        })
    }

    async fn accept_message(&self, id: &SessionId, message: ClientJsonRpcMessage) -> Result<(), Self::Error> {
        self.inner.accept_message(id, message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.inner.create_standalone_stream(id).await
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.inner.resume(id, last_event_id).await
    }

    async fn restore_session(&self, id: SessionId) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        self.inner.restore_session(id).await
    }
}

/// A request's response stream that, dropped before it carried the request's answer (the client closed the
/// connection, or the response body was dropped for any other reason), sends the session a
/// `notifications/cancelled` for the request: rmcp then cancels the handler's call exactly as when the client sends
/// that notification itself, so its upstream call, projection and artifact save stop and its permits are freed.
///
/// MCP (2025-06-18, "Streamable HTTP") says a server SHOULD NOT read a disconnection as a cancellation, as a client
/// may resume the stream; this server does, because an abandoned call otherwise holds result pipelines and upstream
/// connections that the caller's next calls need (a client that resumes after a disconnect gets no answer for a
/// call that was still running, and retries it).
struct CancelOnDrop {
    inner: Pin<Box<dyn Stream<Item = ServerSseMessage> + Send + Sync>>,
    /// The session and the request still waiting for its answer; `None` once it came or the stream ended.
    pending: Option<(LocalSessionHandle, RequestId)>,
}

impl Stream for CancelOnDrop {
    type Item = ServerSseMessage;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<ServerSseMessage>> {
        let polled = self.inner.as_mut().poll_next(cx);
        match &polled {
            Poll::Ready(None) => self.pending = None,
            Poll::Ready(Some(event)) => {
                let answered = event.message.as_deref().and_then(|message| match message {
                    ServerJsonRpcMessage::Response(response) => Some(&response.id),
                    ServerJsonRpcMessage::Error(error) => error.id.as_ref(),
                    _ => None,
                });
                if answered.is_some() && answered == self.pending.as_ref().map(|(_, id)| id) {
                    self.pending = None;
                }
            }
            Poll::Pending => {}
        }
        polled
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        let Some((handle, request)) = self.pending.take() else {
            return;
        };
        let notification = serde_json::json!({
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": request, "reason": "the client closed the connection"},
        });
        let Ok(cancel) = serde_json::from_value::<ClientJsonRpcMessage>(notification) else {
            return;
        };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        tracing::debug!(request = %request, "response stream dropped before its answer; cancelling the request");
        runtime.spawn(async move {
            // An error: the session's worker has ended, and the request with it.
            let _ = handle.push_message(cancel, None).await;
        });
    }
}
