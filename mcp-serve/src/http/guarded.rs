//! A response whose body holds a guard (a semaphore permit, a task-tracker token, a session's in-flight mark) until
//! the last byte has been polled or the body is dropped: what the fair-share, drain and session layers each need, so
//! that "in flight" lasts until the answer is delivered, not only until the handler returns.

use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::response::Response;
use http_body::{Frame, SizeHint};

/// `response` with `guard` held by its body until the body ends or is dropped.
pub(crate) fn hold<G: Send + Unpin + 'static>(response: Response, guard: G) -> Response {
    response.map(|inner| Body::new(Guarded { inner, _guard: guard }))
}

/// A response body holding `G` for its lifetime.
struct Guarded<G> {
    inner: Body,
    _guard: G,
}

impl<G: Unpin> http_body::Body for Guarded<G> {
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
