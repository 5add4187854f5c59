//! A response whose body holds a guard (a semaphore permit, a task-tracker token, a session's in-flight mark) until
//! the last byte has been polled or the body is dropped: what the fair-share, drain and session layers each need, so
//! that "in flight" lasts until the answer is delivered, not only until the handler returns. The guard also learns
//! whether the body was delivered in full ([`Guard::delivered`]) or dropped early (the client went away).

use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::response::Response;
use http_body::{Frame, SizeHint};

/// What a response body holds until it ends.
pub(crate) trait Guard: Send + Unpin + 'static {
    /// The body was delivered in full (its last frame polled, or nothing was left to send when it was dropped);
    /// called at most once, before the guard is dropped. Not called when the body is dropped early.
    fn delivered(&mut self) {}
}

impl Guard for tokio::sync::OwnedSemaphorePermit {}

impl Guard for tokio_util::task::task_tracker::TaskTrackerToken {}

/// `response` with `guard` held by its body until the body ends or is dropped.
pub(crate) fn hold<G: Guard>(response: Response, guard: G) -> Response {
    response.map(|inner| {
        Body::new(Guarded {
            inner,
            guard,
            delivered: false,
        })
    })
}

/// A response body holding `G` for its lifetime.
struct Guarded<G: Guard> {
    inner: Body,
    guard: G,
    delivered: bool,
}

impl<G: Guard> Guarded<G> {
    fn mark_delivered(&mut self) {
        if !self.delivered {
            self.delivered = true;
            self.guard.delivered();
        }
    }
}

impl<G: Guard> Drop for Guarded<G> {
    fn drop(&mut self) {
        if http_body::Body::is_end_stream(&self.inner) {
            self.mark_delivered();
        }
    }
}

impl<G: Guard> http_body::Body for Guarded<G> {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        if matches!(polled, Poll::Ready(None)) {
            self.mark_delivered();
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
