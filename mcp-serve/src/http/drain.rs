//! Requests in flight until their response is sent in full, for graceful shutdown over HTTP.
//!
//! A streamable-HTTP tool call is a `POST` whose response is an event stream that ends after the result message.
//! Waiting for the tool handler alone is not enough: the result must also reach the client before the session is
//! closed. [`track_posts`] holds a [`TaskTracker`] token from the moment a `POST` arrives until the last byte of its
//! response body has been polled, so `TaskTracker::wait` returns only when every answer has been delivered.

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use http::Method;
use tokio_util::task::TaskTracker;

/// Axum middleware: tracks every `POST` in `tracker` until its response body ends (or is dropped).
pub async fn track_posts(State(tracker): State<TaskTracker>, request: Request, next: Next) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let token = tracker.token();
    super::guarded::hold(next.run(request).await, token)
}
