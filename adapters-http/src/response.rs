//! [`RawResponse`]: one upstream answer as data.

use bytes::Bytes;
use http::{HeaderMap, StatusCode, header};
use url::Url;

use crate::decode::{self, Payload};
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

/// Bodies longer than this many bytes are parsed on a blocking thread ([`RawResponse::parse_json`]), so a
/// multi-megabyte page does not hold up an async worker for the time it takes to parse.
pub const BLOCKING_PARSE_BYTES: usize = 256 * 1024;

impl RawResponse {
    /// [`RawResponse::json`] from async code: bodies over [`BLOCKING_PARSE_BYTES`] are parsed on tokio's blocking
    /// pool. Same result and errors as [`RawResponse::json`].
    pub async fn parse_json(&self, vendor: Vendor) -> Result<serde_json::Value, HttpError> {
        self.parse_off_runtime(vendor, move |response| response.json(vendor))
            .await
    }

    /// [`RawResponse::payload`] from async code (large bodies decoded on tokio's blocking pool).
    pub async fn parse_payload(&self, vendor: Vendor) -> Result<Payload, HttpError> {
        self.parse_off_runtime(vendor, move |response| response.payload(vendor))
            .await
    }

    async fn parse_off_runtime<T: Send + 'static>(
        &self,
        vendor: Vendor,
        parse: impl FnOnce(&RawResponse) -> Result<T, HttpError> + Send + 'static,
    ) -> Result<T, HttpError> {
        if self.body.len() <= BLOCKING_PARSE_BYTES {
            return parse(self);
        }
        let response = self.clone();
        tokio::task::spawn_blocking(move || parse(&response))
            .await
            .map_err(|join| HttpError::InvalidJson {
                vendor,
                status: self.status.as_u16(),
                detail: format!("parsing was interrupted: {join}"),
            })?
    }

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

    /// The body parsed as JSON (UTF-8, any nesting depth: see [`decode::parse_json`]): integers stay exact
    /// (ids above 2^53 keep every digit) and object keys keep their order.
    ///
    /// Errors: [`HttpError::InvalidJson`] naming `vendor` and the status.
    pub fn json(&self, vendor: Vendor) -> Result<serde_json::Value, HttpError> {
        decode::parse_json(&self.body).map_err(|e| HttpError::InvalidJson {
            vendor,
            status: self.status.as_u16(),
            detail: e.to_string(),
        })
    }

    /// The body as the upstream sent it, for tools that hand any answer back: JSON as a value,
    /// text decoded per its charset as a JSON string, anything else as [`Payload::Binary`] with its media type.
    /// See [`decode::payload`] for the rules.
    ///
    /// Errors: [`HttpError::InvalidJson`] when a JSON media type carries a body that does not parse.
    pub fn payload(&self, vendor: Vendor) -> Result<Payload, HttpError> {
        decode::payload(self.content_type(), &self.body).map_err(|e| HttpError::InvalidJson {
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

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    const V: Vendor = Vendor {
        name: "Test",
        base_setting: "TEST_API_BASE",
        credential_setting: "TEST_TOKEN",
        max_body_setting: "TEST_MAX_BODY_BYTES",
    };

    fn response(status: u16, content_type: Option<&'static str>, body: &'static str) -> RawResponse {
        let mut headers = HeaderMap::new();
        if let Some(ct) = content_type {
            headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(ct));
        }
        RawResponse {
            status: StatusCode::from_u16(status).unwrap(),
            headers,
            body: Bytes::from_static(body.as_bytes()),
            url: Url::parse("https://h.example/x").unwrap(),
        }
    }

    #[tokio::test]
    async fn large_bodies_parse_off_the_runtime_with_the_same_result() {
        let items: Vec<String> = (0..40_000u64)
            .map(|i| format!("{{\"id\":{}}}", 9_007_199_254_740_993u64 + i))
            .collect();
        let body: &'static str = Box::leak(format!("[{}]", items.join(",")).into_boxed_str());
        assert!(body.len() > BLOCKING_PARSE_BYTES);
        let large = response(200, Some("application/json"), body);
        assert_eq!(large.parse_json(V).await.unwrap(), large.json(V).unwrap());
        assert_eq!(
            large.parse_json(V).await.unwrap()[0]["id"].as_u64(),
            Some(9_007_199_254_740_993)
        );
        let broken = response(200, Some("application/json"), &body[..body.len() - 1]);
        assert!(matches!(broken.parse_json(V).await, Err(HttpError::InvalidJson { .. })));
        let small = response(200, Some("text/plain"), "hello");
        assert_eq!(
            small.parse_payload(V).await.unwrap(),
            Payload::Data(serde_json::json!("hello"))
        );
    }

    #[test]
    fn payload_forms() {
        let data = |r: RawResponse| match r.payload(V).unwrap() {
            Payload::Data(value) => value,
            Payload::Binary(binary) => panic!("binary {binary:?}"),
        };
        let empty = serde_json::json!({});
        assert_eq!(data(response(204, None, "")), empty);
        assert_eq!(data(response(200, Some("application/json"), " \n")), empty);
        let big = response(
            200,
            Some("application/json;charset=UTF-8"),
            r#"{"id":18446744073709551615}"#,
        );
        assert_eq!(data(big)["id"].as_u64(), Some(u64::MAX));
        let diff = "diff --git a/x b/x\n+{\"a\":1}\n";
        assert_eq!(
            data(response(200, Some("text/plain; charset=utf-8"), diff)),
            serde_json::Value::String(diff.to_owned())
        );
        assert_eq!(
            data(response(200, Some("text/plain"), "[1]")),
            serde_json::json!("[1]"),
            "the media type decides, not the look of the body"
        );
        assert_eq!(data(response(200, None, "[1, 2]")), serde_json::json!([1, 2]));
        assert_eq!(data(response(200, None, "hello")), serde_json::json!("hello"));
        assert!(matches!(
            response(200, Some("application/json"), "{oops").payload(V),
            Err(HttpError::InvalidJson { status: 200, .. })
        ));
    }
}
