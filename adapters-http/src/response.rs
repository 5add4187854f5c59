//! [`RawResponse`]: one upstream answer as data.

use bytes::Bytes;
use http::{HeaderMap, StatusCode, header};
use url::Url;

use crate::error::HttpError;
use crate::vendor::Vendor;

/// One upstream answer: status, headers, the whole body (at most the configured cap) and the final URL.
/// Cheap to clone (the body is reference-counted).
#[derive(Debug, Clone)]
pub struct RawResponse {
    /// HTTP status.
    pub status: StatusCode,
    /// Response headers as received.
    pub headers: HeaderMap,
    /// The body bytes (not decoded).
    pub body: Bytes,
    /// The URL that answered (after same-origin redirects).
    pub url: Url,
}

impl RawResponse {
    /// The `Content-Type` header value, if present and text.
    pub fn content_type(&self) -> Option<&str> {
        self.headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok())
    }

    /// True when the media type is JSON (`application/json` or any `+json` type); false without a content type.
    pub fn is_json(&self) -> bool {
        self.content_type()
            .and_then(|ct| ct.split(';').next())
            .map(|media| {
                let media = media.trim().to_ascii_lowercase();
                media == "application/json" || media.ends_with("+json")
            })
            .unwrap_or(false)
    }

    /// The body parsed as JSON with `serde_json`: integers stay exact (`u64`/`i64`, so ids above 2^53 keep every
    /// digit) and object keys keep their order.
    ///
    /// Errors: [`HttpError::InvalidJson`] naming `vendor` and the status.
    pub fn json(&self, vendor: Vendor) -> Result<serde_json::Value, HttpError> {
        serde_json::from_slice(&self.body).map_err(|e| HttpError::InvalidJson {
            vendor,
            status: self.status.as_u16(),
            detail: e.to_string(),
        })
    }

    /// Approximate memory held by this response, in bytes: body, header names and values, URL.
    pub fn weight_bytes(&self) -> u64 {
        let headers: usize = self
            .headers
            .iter()
            .map(|(name, value)| name.as_str().len() + value.len())
            .sum();
        u64::try_from(self.body.len() + headers + self.url.as_str().len()).unwrap_or(u64::MAX)
    }
}
