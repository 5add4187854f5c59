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

    /// [`RawResponse::json_or_text`] from async code (large bodies parsed on tokio's blocking pool).
    pub async fn parse_json_or_text(&self, vendor: Vendor) -> Result<serde_json::Value, HttpError> {
        self.parse_off_runtime(vendor, move |response| response.json_or_text(vendor))
            .await
    }

    async fn parse_off_runtime(
        &self,
        vendor: Vendor,
        parse: impl FnOnce(&RawResponse) -> Result<serde_json::Value, HttpError> + Send + 'static,
    ) -> Result<serde_json::Value, HttpError> {
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

    /// The body as a JSON value, for pass-through tools that hand any answer back as data (CONTRACT §3,
    /// Atlassian):
    ///
    /// - an empty or white-space-only body (a `204 No Content`, or a `200`/`201` without content) is `{}`;
    /// - a JSON media type ([`RawResponse::is_json`]) is parsed like [`RawResponse::json`] (exact integers);
    /// - no `Content-Type`: parsed when it is valid JSON, else as text (below);
    /// - any other media type (`text/plain` diffs, raw files, HTML) is a JSON string holding the body, decoded as
    ///   UTF-8 (invalid sequences become U+FFFD), so `jq: "length"` counts its characters.
    ///
    /// Errors: [`HttpError::InvalidJson`] when a JSON media type carries a body that does not parse.
    pub fn json_or_text(&self, vendor: Vendor) -> Result<serde_json::Value, HttpError> {
        if self.body.iter().all(u8::is_ascii_whitespace) {
            return Ok(serde_json::Value::Object(serde_json::Map::new()));
        }
        if self.is_json() {
            return self.json(vendor);
        }
        if self.content_type().is_none()
            && let Ok(value) = serde_json::from_slice(&self.body)
        {
            return Ok(value);
        }
        Ok(serde_json::Value::String(
            String::from_utf8_lossy(&self.body).into_owned(),
        ))
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
        assert_eq!(small.parse_json_or_text(V).await.unwrap(), serde_json::json!("hello"));
    }

    #[test]
    fn json_or_text_forms() {
        let empty = serde_json::json!({});
        assert_eq!(response(204, None, "").json_or_text(V).unwrap(), empty);
        assert_eq!(
            response(200, Some("application/json"), " \n").json_or_text(V).unwrap(),
            empty
        );
        let big = response(
            200,
            Some("application/json;charset=UTF-8"),
            r#"{"id":18446744073709551615}"#,
        );
        assert_eq!(big.json_or_text(V).unwrap()["id"].as_u64(), Some(u64::MAX));
        let diff = "diff --git a/x b/x\n+{\"a\":1}\n";
        let text = response(200, Some("text/plain; charset=utf-8"), diff)
            .json_or_text(V)
            .unwrap();
        assert_eq!(text, serde_json::Value::String(diff.to_owned()));
        let plain_json = response(200, Some("text/plain"), "[1]").json_or_text(V).unwrap();
        assert_eq!(
            plain_json,
            serde_json::json!("[1]"),
            "the media type decides, not the look of the body"
        );
        assert_eq!(
            response(200, None, "[1, 2]").json_or_text(V).unwrap(),
            serde_json::json!([1, 2])
        );
        assert_eq!(
            response(200, None, "hello").json_or_text(V).unwrap(),
            serde_json::json!("hello")
        );
        assert!(matches!(
            response(200, Some("application/json"), "{oops").json_or_text(V),
            Err(HttpError::InvalidJson { status: 200, .. })
        ));
    }
}
