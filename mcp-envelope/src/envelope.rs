//! The `structuredContent` envelope: `data` plus tool metadata plus an optional
//! `incomplete` marker (CONTRACT §2, §3, §5).
//!
//! Wire names are camelCase. Field order on the wire is `data`, then the
//! metadata fields, then `incomplete` (serde_json is built with
//! `preserve_order`, so this order is stable).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The top-level `structuredContent` object of a schema tool (CONTRACT §2).
///
/// Wire shape: `{"data": <any JSON>, ...meta fields..., "incomplete"?: {...}}`.
///
/// - `data` is the upstream body after the optional `jq` projection (§4); any
///   JSON value, `null` included. It is `null` in the oversized form (§5).
/// - `meta` is flattened beside `data`: [`PageMeta`] adds `nextPage`,
///   [`CacheMeta`] adds `cache`, [`NoMeta`] adds nothing.
/// - `incomplete` is present only when `data` is not the whole result (§5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Envelope<M> {
    /// The (projected) upstream body. Any JSON value, `null` included; `null`
    /// when the value was too large and `incomplete` is present.
    pub data: Value,
    /// Tool metadata, flattened beside `data`.
    #[serde(flatten)]
    pub meta: M,
    /// Present only when `data` is not the whole result (never `null`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Incomplete")]
    pub incomplete: Option<Incomplete>,
}

impl<M> Envelope<M> {
    /// A complete envelope (`incomplete` absent) holding `data` and `meta`.
    pub fn new(data: Value, meta: M) -> Self {
        Self {
            data,
            meta,
            incomplete: None,
        }
    }

    /// True when `incomplete` is present, i.e. `data` is not the whole result.
    pub fn is_incomplete(&self) -> bool {
        self.incomplete.is_some()
    }
}

impl<M: Serialize> Envelope<M> {
    /// The envelope as a JSON value (the `structuredContent` value), cloning
    /// `data`. Prefer [`Envelope::into_value`] when the envelope is not needed
    /// afterwards: it moves `data` instead of copying it.
    ///
    /// # Errors
    /// Only if `M`'s `Serialize` impl fails or does not produce an object
    /// (never for [`PageMeta`], [`CacheMeta`] or [`NoMeta`]).
    pub fn to_value(&self) -> Result<Value, serde_json::Error> {
        serde_json::to_value(self)
    }

    /// The envelope as a JSON value (the `structuredContent` value), moving
    /// `data` into it without a copy. The result is identical, key order
    /// included, to [`Envelope::to_value`].
    ///
    /// # Errors
    /// Only if `M`'s `Serialize` impl fails or does not produce an object
    /// (never for [`PageMeta`], [`CacheMeta`] or [`NoMeta`]).
    pub fn into_value(self) -> Result<Value, serde_json::Error> {
        let Envelope { data, meta, incomplete } = self;
        // Serialize the small skeleton (data = null), then put the real data
        // in its slot: IndexMap keeps the key's original position.
        let skeleton = Envelope {
            data: Value::Null,
            meta,
            incomplete,
        };
        let mut value = serde_json::to_value(&skeleton)?;
        if let Value::Object(map) = &mut value {
            map.insert("data".to_owned(), data);
        }
        Ok(value)
    }
}

/// Metadata of the paged GitHub tools (CONTRACT §3): wire `"nextPage"`,
/// an integer >= 1 or `null`, always present.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PageMeta {
    /// The page to request next (pass it as `page`), or `null` when upstream
    /// advertised no next page. Taken from the upstream headers, never from
    /// the projected data.
    #[schemars(range(min = 1))]
    #[serde(deserialize_with = "flattened::optional_u64")]
    pub next_page: Option<u64>,
}

impl PageMeta {
    /// Metadata with the given next page (`None` = no next page).
    pub fn new(next_page: Option<u64>) -> Self {
        Self { next_page }
    }
}

/// Metadata of `circleci_get` (CONTRACT §3): wire `"cache": {hit, ageMs, fetchedAt}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CacheMeta {
    /// Whether the body came from the server's HTTP cache, and how old it is.
    pub cache: CacheInfo,
}

/// HTTP cache information of a `circleci_get` result (CONTRACT §3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CacheInfo {
    /// True when the body was served from the server's cache.
    pub hit: bool,
    /// Milliseconds since the entry was stored; 0 when fetched now.
    #[serde(deserialize_with = "flattened::u64")]
    pub age_ms: u64,
    /// When the body was read from upstream: RFC 3339 UTC with milliseconds,
    /// e.g. `2026-10-07T16:20:11.402Z`. Unchanged on cache hits.
    pub fetched_at: String,
}

/// No tool metadata: the Atlassian reads (`jira_get`, `conf_get`, `bb_get`),
/// whose envelope is `{data, incomplete?}` (CONTRACT §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
pub struct NoMeta {}

/// Why `data` is not the whole result (CONTRACT §5, §8).
///
/// Wire: `{"reason", "bytes", "limitBytes", "artifactId", "mimeType"?}`;
/// `artifactId` is always present and `null` only when saving the artifact
/// failed; `mimeType` is present only for `reason: "binary"`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Incomplete {
    /// Why the value is missing.
    pub reason: IncompleteReason,
    /// Length in bytes of the compact serialization of the full value
    /// (0 for `unavailable`).
    pub bytes: u64,
    /// The bound in force, in bytes (0 for `unavailable`).
    pub limit_bytes: u64,
    /// Id to pass to `artifact_read` to get the full value; `null` only if
    /// saving the artifact failed.
    pub artifact_id: Option<String>,
    /// The upstream media type of a binary body (e.g. `image/png`), the
    /// artifact's type; present only for `reason: "binary"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
}

impl Incomplete {
    /// The `unavailable` marker (`bytes: 0, limitBytes: 0, artifactId: null`):
    /// a server defect, a schema tool had no value to report (CONTRACT §5).
    pub fn unavailable() -> Self {
        Self {
            reason: IncompleteReason::Unavailable,
            bytes: 0,
            limit_bytes: 0,
            artifact_id: None,
            mime_type: None,
        }
    }

    /// The `binary` marker (CONTRACT §8): the upstream body of `bytes` bytes
    /// is not text, so it was saved byte for byte as an artifact of type
    /// `mime_type` instead of being turned into a string; `limit_bytes` is
    /// the structured bound in force. `artifact_id` is `None` only when saving
    /// failed.
    pub fn binary(bytes: u64, limit_bytes: u64, artifact_id: Option<String>, mime_type: String) -> Self {
        Self {
            reason: IncompleteReason::Binary,
            bytes,
            limit_bytes,
            artifact_id,
            mime_type: Some(mime_type),
        }
    }
}

/// Reason carried by [`Incomplete`]. Wire: `"size"`, `"binary"` or `"unavailable"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum IncompleteReason {
    /// The value was larger than `MCP_STRUCTURED_MAX_BYTES`; it is saved as an artifact.
    Size,
    /// The upstream body is not text (an image, an archive, text invalid in
    /// its charset): it is saved byte for byte as an artifact with its media
    /// type (CONTRACT §8).
    Binary,
    /// Server defect: a tool that advertised a schema had no value.
    Unavailable,
}

/// Integers of the metadata flattened beside `data`. serde reads a flattened
/// field from a buffer in which serde_json (with `arbitrary_precision`, so that
/// upstream numbers keep their digits) keeps numbers as its private number
/// map; reading them through [`serde_json::Number`] accepts both forms.
mod flattened {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer};

    fn to_u64<E: Error>(n: &serde_json::Number) -> Result<u64, E> {
        n.as_u64()
            .ok_or_else(|| E::custom(format_args!("expected a whole number >= 0, got {n}")))
    }

    pub(super) fn u64<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
        to_u64(&serde_json::Number::deserialize(deserializer)?)
    }

    pub(super) fn optional_u64<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u64>, D::Error> {
        Option::<serde_json::Number>::deserialize(deserializer)?
            .as_ref()
            .map(to_u64)
            .transpose()
    }
}

/// Envelope of `github_list_workflow_runs` / `github_list_workflow_jobs`:
/// `{data, nextPage, incomplete?}`.
pub type PagedEnvelope = Envelope<PageMeta>;
/// Envelope of `circleci_get`: `{data, cache, incomplete?}`.
pub type CircleCiEnvelope = Envelope<CacheMeta>;
/// Envelope of `jira_get`, `conf_get`, `bb_get`: `{data, incomplete?}`.
pub type AtlassianEnvelope = Envelope<NoMeta>;

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    #[test]
    fn wire_shapes() {
        let paged = PagedEnvelope::new(json!([1]), PageMeta::new(None));
        assert_eq!(paged.to_value().unwrap(), json!({"data": [1], "nextPage": null}));
        let cc = CircleCiEnvelope::new(
            json!(null),
            CacheMeta {
                cache: CacheInfo {
                    hit: true,
                    age_ms: 5,
                    fetched_at: "2026-10-07T16:20:11.402Z".into(),
                },
            },
        );
        assert_eq!(
            serde_json::to_string(&cc).unwrap(),
            r#"{"data":null,"cache":{"hit":true,"ageMs":5,"fetchedAt":"2026-10-07T16:20:11.402Z"}}"#
        );
        let mut at = AtlassianEnvelope::new(json!({}), NoMeta {});
        assert_eq!(serde_json::to_string(&at).unwrap(), r#"{"data":{}}"#);
        at.incomplete = Some(Incomplete::unavailable());
        assert_eq!(
            serde_json::to_string(&at).unwrap(),
            r#"{"data":{},"incomplete":{"reason":"unavailable","bytes":0,"limitBytes":0,"artifactId":null}}"#
        );
    }

    #[test]
    fn into_value_equals_to_value() {
        let mut env = PagedEnvelope::new(json!({"a": [1, 2]}), PageMeta::new(Some(2)));
        env.incomplete = Some(Incomplete {
            reason: IncompleteReason::Size,
            bytes: 10,
            limit_bytes: 5,
            artifact_id: Some("x".into()),
            mime_type: None,
        });
        let a = env.to_value().unwrap();
        let b = env.clone().into_value().unwrap();
        assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
        assert_eq!(serde_json::to_vec(&env).unwrap(), serde_json::to_vec(&b).unwrap());
    }

    #[test]
    fn round_trips_through_serde() {
        let env = CircleCiEnvelope::new(
            json!({"items": []}),
            CacheMeta {
                cache: CacheInfo {
                    hit: false,
                    age_ms: 0,
                    fetched_at: "2026-10-07T16:20:11.402Z".into(),
                },
            },
        );
        let text = serde_json::to_string(&env).unwrap();
        let back: CircleCiEnvelope = serde_json::from_str(&text).unwrap();
        assert_eq!(back, env);
    }
}
