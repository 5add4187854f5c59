//! The checks of [`crate::incoming`] for streamable HTTP: every `POST` body is read (at most
//! [`super::HttpConfig::max_request_bytes`]) and checked before rmcp sees it.
//!
//! rmcp 3.11 answers a body that is not a JSON-RPC message with `415 Unsupported Media Type` and a plain-text
//! reason, an over-long body with `413` and a different wording than stdio, and every batch with `415`. Here a
//! faulty body gets `400 Bad Request` (`413 Payload Too Large` when over the limit) whose body is a JSON-RPC error
//! response, the same text as on stdio, carrying the body's `id` when it can still be read
//! ([`incoming::readable_id`]: a body too deep or malformed after its `id`), else `id: null` (MCP "Streamable
//! HTTP": the body MAY be a JSON-RPC error without id). A batch is answered per the session's protocol revision (the `MCP-Protocol-Version` header, absent
//! meaning `2025-03-26` as the specification says): at `2025-03-26` each message is passed to rmcp in turn and
//! the responses come back as one `application/json` array (`202 Accepted` when it holds no request); at later
//! revisions, which removed batches, one `-32600` error.

use std::convert::Infallible;
use std::sync::Arc;

use super::dormant::DormantSessions;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use http::{HeaderValue, Method, StatusCode, header};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use rmcp::transport::streamable_http_server::StreamableHttpService;
use serde_json::Value;

use rmcp::ServerHandler;

use crate::incoming::{self, BATCH_REVISION, Kind, Rejection};

/// The `MCP-Protocol-Version` header.
const VERSION_HEADER: &str = "mcp-protocol-version";

/// The rmcp service the checked messages go to (batches call it once per message).
pub type McpService<S> = StreamableHttpService<S, DormantSessions>;

/// What [`check_posts`] needs: the size limit and the rmcp service (for batches).
pub struct Framing<S> {
    /// The request-size limit, bytes.
    pub limit: usize,
    /// rmcp's service, for the messages of a batch.
    pub service: Arc<McpService<S>>,
}

impl<S> Clone for Framing<S> {
    fn clone(&self) -> Self {
        Framing {
            limit: self.limit,
            service: self.service.clone(),
        }
    }
}

/// Axum middleware (innermost, after authentication and session ownership): checks a `POST` body, answers a
/// faulty one itself, splits a `2025-03-26` batch, passes any other body on unchanged.
pub async fn check_posts<S>(State(framing): State<Framing<S>>, request: Request, next: Next) -> Response
where
    S: ServerHandler + Send + 'static,
{
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let bytes = match Limited::new(body, framing.limit).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(err) if err.downcast_ref::<LengthLimitError>().is_some() => {
            return rejected(
                StatusCode::PAYLOAD_TOO_LARGE,
                &Rejection::TooLarge { limit: framing.limit },
            );
        }
        Err(err) if timed_out(err.as_ref()) => {
            tracing::info!("the request body stalled past the body-read timeout");
            return (
                StatusCode::REQUEST_TIMEOUT,
                "Request Timeout: the request body stalled; send it without pauses",
            )
                .into_response();
        }
        Err(err) => {
            tracing::info!(error = %err, "the request body could not be read");
            return (StatusCode::BAD_REQUEST, "the request body could not be read").into_response();
        }
    };
    let parsed = incoming::parse(&bytes, framing.limit);
    // An OAuth token's scopes: a tools/call (alone or in a batch) it does not cover gets 403 before anything runs.
    if let (Ok(message), Some(granted)) = (&parsed, parts.extensions.get::<crate::oauth::Granted>())
        && let Some(refusal) = granted.refuse(message)
    {
        return refusal;
    }
    match parsed {
        Err(rejection) => {
            tracing::warn!(code = rejection.code(), reason = %rejection, "answered an unusable message with an error");
            json_response(
                StatusCode::BAD_REQUEST,
                &rejection.response(incoming::readable_id(&bytes)),
            )
        }
        Ok(Value::Array(items)) => batch(&framing, parts, items).await,
        Ok(message) => {
            // rmcp reads the message itself (parsing it here too cost a tenth of a cached call's CPU, issue 46);
            // its `415` for a JSON body is a message it could not read, answered here in its place.
            let id = match incoming::kind(&message) {
                Some(Kind::Request { id, .. }) => id,
                _ => Value::Null,
            };
            drop(message);
            // With a JSON `Content-Type` (the test rmcp applies before reading a `POST`), rmcp 3.11's only `415` is
            // a body it cannot read as a client message (`expect_json` in its `server_side_http`), whose text
            // (serde's, which may quote the body) is not passed on.
            let json = super::accept::content_type_is(&parts.headers, "application/json");
            let response = next.run(Request::from_parts(parts, Body::from(bytes))).await;
            if json && response.status() == StatusCode::UNSUPPORTED_MEDIA_TYPE {
                tracing::warn!("answered an unusable message with an error");
                return json_response(StatusCode::BAD_REQUEST, &Rejection::Unrecognized.response(id));
            }
            response
        }
    }
}

/// Whether `err` or one of its sources is the body-read timeout ([`super::connections`]).
fn timed_out(err: &(dyn std::error::Error + 'static)) -> bool {
    let mut current = Some(err);
    while let Some(err) = current {
        if err.is::<tower_http::timeout::TimeoutError>() {
            return true;
        }
        current = err.source();
    }
    false
}

/// A JSON-RPC error response with `id: null` under `status`.
fn rejected(status: StatusCode, rejection: &Rejection) -> Response {
    tracing::warn!(code = rejection.code(), reason = %rejection, "answered an unusable message with an error");
    json_response(status, &rejection.response(Value::Null))
}

fn json_response(status: StatusCode, value: &Value) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))],
        serde_json::to_vec(value).unwrap_or_default(),
    )
        .into_response()
}

async fn batch<S>(framing: &Framing<S>, parts: http::request::Parts, items: Vec<Value>) -> Response
where
    S: ServerHandler + Send + 'static,
{
    let revision = parts
        .headers
        .get(VERSION_HEADER)
        .and_then(|value| value.to_str().ok())
        .unwrap_or(BATCH_REVISION);
    if revision != BATCH_REVISION {
        let rejection = Rejection::BatchUnsupported {
            revision: revision.to_string(),
        };
        return rejected(StatusCode::BAD_REQUEST, &rejection);
    }
    if items.is_empty() {
        return rejected(StatusCode::BAD_REQUEST, &Rejection::EmptyBatch);
    }
    let mut responses = Vec::new();
    for item in items {
        let id = match incoming::kind(&item) {
            None => {
                responses.push(Rejection::NotAMessage.response(Value::Null));
                continue;
            }
            Some(Kind::Request { id, .. }) => Some(id),
            Some(_) => None,
        };
        let mut request = http::Request::builder()
            .method(Method::POST)
            .uri(parts.uri.clone())
            .body(Body::from(serde_json::to_vec(&item).unwrap_or_default()))
            .unwrap_or_default();
        *request.headers_mut() = parts.headers.clone();
        request.headers_mut().remove(header::CONTENT_LENGTH);
        *request.extensions_mut() = parts.extensions.clone();
        let response = framing.service.handle(request).await;
        if let Some(id) = id {
            responses.push(answer_of(response, &id).await);
        }
    }
    if responses.is_empty() {
        return StatusCode::ACCEPTED.into_response();
    }
    json_response(StatusCode::OK, &Value::Array(responses))
}

/// The JSON-RPC response to request `id` in one of rmcp's answers: an event stream (its `data:` message with that
/// id), a JSON body, or an HTTP error turned into a JSON-RPC error.
async fn answer_of(
    response: http::Response<http_body_util::combinators::BoxBody<Bytes, Infallible>>,
    id: &Value,
) -> Value {
    let status = response.status();
    let is_stream = super::coalesce::is_event_stream(response.headers());
    let mut body = response.into_body();
    let mut text = Vec::new();
    while let Some(frame) = body.frame().await {
        let Ok(frame) = frame;
        if let Ok(data) = frame.into_data() {
            text.extend_from_slice(&data);
        }
        if is_stream && let Some(found) = find_in_events(&text, id) {
            return found;
        }
    }
    if !is_stream
        && status.is_success()
        && let Ok(value) = serde_json::from_slice::<Value>(&text)
    {
        return value;
    }
    let reason = String::from_utf8_lossy(&text);
    let rejection_text = format!("Invalid Request: {} {}", status.as_u16(), reason.trim());
    serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": incoming::INVALID_REQUEST, "message": rejection_text}})
}

/// The message answering `id` among the server-sent events in `text`, if complete.
fn find_in_events(text: &[u8], id: &Value) -> Option<Value> {
    let text = std::str::from_utf8(text).ok()?;
    text.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .filter_map(|data| serde_json::from_str::<Value>(data.trim_start()).ok())
        .find(|message| message.get("id") == Some(id) && message.get("method").is_none())
}
