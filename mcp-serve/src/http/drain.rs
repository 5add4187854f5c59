//! Requests in flight until their response is sent in full, for graceful shutdown over HTTP.
//!
//! A streamable-HTTP tool call is a `POST` whose response is an event stream that ends after the result message.
//! Waiting for the tool handler alone is not enough: the result must also reach the client before the session is
//! closed. [`track_posts`] holds a [`TaskTracker`] token from the moment a `POST` arrives until the last byte of its
//! response body has been polled, so `TaskTracker::wait` returns only when every answer has been delivered.

use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use http::Method;
use http_body::{Frame, SizeHint};
use tokio_util::task::TaskTracker;
use tokio_util::task::task_tracker::TaskTrackerToken;

/// Axum middleware: tracks every `POST` in `tracker` until its response body ends (or is dropped).
pub async fn track_posts(State(tracker): State<TaskTracker>, request: Request, next: Next) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let token = tracker.token();
    next.run(request)
        .await
        .map(|inner| Body::new(TrackedBody { inner, _token: token }))
}

/// A response body that keeps its tracker token alive until it is finished or dropped.
struct TrackedBody {
    inner: Body,
    _token: TaskTrackerToken,
}

impl http_body::Body for TrackedBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
