//! Reading a response body under a byte cap, as a stream.
//!
//! `Content-Length` over the cap fails before any byte is read; otherwise the body is collected through
//! [`http_body_util::Limited`], which fails as soon as the next frame would pass the cap, so at most the cap is
//! ever buffered.

use bytes::Bytes;
use http_body_util::{BodyExt, LengthLimitError, Limited};

use crate::error::HttpError;
use crate::vendor::Vendor;

/// Reads the whole body of `response`, at most `max_bytes` bytes.
///
/// Errors: [`HttpError::BodyTooLarge`] past the cap; [`HttpError::Transport`] when reading fails or times out
/// (`timeout` is named in the text).
pub async fn read_capped(
    vendor: Vendor,
    response: reqwest::Response,
    max_bytes: u64,
    timeout: std::time::Duration,
) -> Result<Bytes, HttpError> {
    let too_large = || HttpError::BodyTooLarge {
        vendor,
        limit_bytes: max_bytes,
    };
    if response.content_length().is_some_and(|len| len > max_bytes) {
        return Err(too_large());
    }
    let limit = usize::try_from(max_bytes).unwrap_or(usize::MAX);
    let body = http::Response::from(response).into_body();
    match Limited::new(body, limit).collect().await {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(err) if err.is::<LengthLimitError>() => Err(too_large()),
        Err(err) => match err.downcast::<reqwest::Error>() {
            Ok(err) => Err(HttpError::transport(vendor, *err, timeout)),
            Err(other) => Err(HttpError::Transport {
                vendor,
                detail: format!("could not read the response body: {other}"),
            }),
        },
    }
}
