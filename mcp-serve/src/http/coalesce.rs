//! An event-stream answer to a `POST` that is complete at once goes out as one body of known length (private
//! module: layered in by [`super::router`], innermost, next to rmcp).
//!
//! rmcp answers every request of a session with `text/event-stream`: a priming event at once, the JSON-RPC answer
//! when the handler has it, then the end of the stream. Sent as it comes, that is a chunked response written in
//! at least two parts (head and priming event, then the answer and the last chunk): two socket writes, two
//! wake-ups of the client, for a call answered in microseconds (a cached read). Here the stream is read for at
//! most [`WINDOW`] before the head is sent: a stream that ends within it (and within [`MAX_HELD`] bytes) is sent
//! as one body with `Content-Length`, the same events byte for byte; any other is sent as it was, the bytes read
//! so far first. A client reads the same events either way (an event stream may be of known length).

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;
use bytes::{Bytes, BytesMut};
use http::{HeaderMap, Method};
use http_body::{Frame, SizeHint};
use http_body_util::BodyExt;

/// How long the stream is read before the head goes out regardless.
const WINDOW: Duration = Duration::from_millis(2);
/// The most bytes held back: a larger answer is streamed as it comes.
const MAX_HELD: usize = 64 * 1024;

/// Axum middleware: sends a `POST`'s event stream that ends within [`WINDOW`] as one body.
pub(crate) async fn coalesce(request: Request, next: Next) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let response = next.run(request).await;
    if !is_event_stream(response.headers()) {
        return response;
    }
    let (parts, mut body) = response.into_parts();
    let mut held = BytesMut::new();
    let window = tokio::time::sleep(WINDOW);
    tokio::pin!(window);
    let next_frame = loop {
        tokio::select! {
            biased;
            frame = body.frame() => match frame {
                None => return Response::from_parts(parts, Body::from(held.freeze())),
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(data) => {
                        held.extend_from_slice(&data);
                        if held.len() > MAX_HELD {
                            break None;
                        }
                    }
                    Err(frame) => break Some(Ok(frame)),
                },
                Some(Err(err)) => break Some(Err(err)),
            },
            () = &mut window => break None,
        }
    };
    let body = Prefixed {
        held: (!held.is_empty()).then(|| held.freeze()),
        next_frame,
        rest: body,
    };
    Response::from_parts(parts, Body::new(body))
}

/// Whether a response with `headers` is an event stream (`Content-Type: text/event-stream`, any parameters).
pub(crate) fn is_event_stream(headers: &HeaderMap) -> bool {
    super::accept::content_type_is(headers, "text/event-stream")
}

/// The bytes read during the window, then the frame that ended it (when it was not data), then the rest.
struct Prefixed {
    held: Option<Bytes>,
    next_frame: Option<Result<Frame<Bytes>, axum::Error>>,
    rest: Body,
}

impl http_body::Body for Prefixed {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        if let Some(held) = self.held.take() {
            return Poll::Ready(Some(Ok(Frame::data(held))));
        }
        if let Some(frame) = self.next_frame.take() {
            return Poll::Ready(Some(frame));
        }
        Pin::new(&mut self.rest).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.held.is_none() && self.next_frame.is_none() && self.rest.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        let mut hint = self.rest.size_hint();
        let held = self.held.as_ref().map_or(0, |held| held.len() as u64);
        hint.set_lower(hint.lower() + held);
        if let Some(upper) = hint.upper() {
            hint.set_upper(upper + held);
        }
        hint
    }
}
