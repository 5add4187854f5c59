//! The `structuredContent` envelope: `data` plus tool metadata plus an optional
//! `incomplete` marker.
//!
//! Wire names are camelCase. Field order on the wire is `data`, then the
//! metadata fields, then `incomplete` (serde_json is built with
//! `preserve_order`, so this order is stable).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The top-level `structuredContent` object of a schema tool.
///
/// Wire shape: `{"data": <T>, ...meta fields..., "incomplete"?: {...}}`.
///
/// - `data` (`T`, by default any JSON value) is the tool's result after the
///   optional `jq` projection (§4). In the oversized and binary forms (§5, §8)
///   it is `null` on the wire: [`crate::seal()`] and
///   [`crate::PendingIncomplete::finish`] give an `Envelope<Value, M>` then.
/// - `meta` (`M`) is flattened beside `data`: [`PageMeta`] adds `nextPage`,
///   [`NoMeta`] adds nothing; a tool defines its own (e.g. the bundled
///   server's `circleci_get` adds `cache`). `M` must serialize to an object.
/// - `incomplete` is present only when `data` is not the whole result (§5).
///
/// A typed `T` gives a typed `outputSchema` ([`Envelope::output_schema`]):
///
/// ```
/// use mcp_envelope::{Envelope, NoMeta, PageMeta};
/// use schemars::JsonSchema;
/// use serde::Serialize;
///
/// #[derive(Serialize, JsonSchema)]
/// struct Widget {
///     id: u64,
///     name: String,
/// }
///
/// let schema = Envelope::<Vec<Widget>, PageMeta>::output_schema();
/// assert_eq!(schema["properties"]["data"]["anyOf"][0]["type"], "array");
/// assert_eq!(schema["properties"]["data"]["anyOf"][1]["type"], "null");
///
/// let envelope = Envelope::new(vec![Widget { id: 7, name: "gear".into() }], PageMeta::new(Some(2)));
/// assert_eq!(
///     envelope.to_value()?,
///     serde_json::json!({"data": [{"id": 7, "name": "gear"}], "nextPage": 2})
/// );
/// // The default data type is any JSON value, the default metadata none.
/// let untyped: Envelope = Envelope::new(serde_json::json!({"any": "value"}), NoMeta {});
/// assert_eq!(serde_json::to_string(&untyped)?, r#"{"data":{"any":"value"}}"#);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Envelope<T = Value, M = NoMeta> {
    /// The (projected) upstream body. Any JSON value, `null` included; `null`
    /// when the value was too large and `incomplete` is present.
    #[schemars(description = "The body, or the jq output; null when incomplete")]
    pub data: T,
    /// Tool metadata, flattened beside `data`.
    #[serde(flatten)]
    pub meta: M,
    /// Present only when `data` is not the whole result (never `null`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(
        with = "Incomplete",
        description = "Only when data is null (too large): read the whole result with artifact_read"
    )]
    pub incomplete: Option<Incomplete>,
}

impl<T, M> Envelope<T, M> {
    /// A complete envelope (`incomplete` absent) holding `data` and `meta`.
    pub fn new(data: T, meta: M) -> Self {
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

impl<T: Serialize, M: Serialize> Envelope<T, M> {
    /// The envelope as a JSON value (the `structuredContent` value), copying
    /// `data`. For an `Envelope<Value, M>` no longer needed afterwards prefer
    /// [`Envelope::into_value`]: it moves `data` instead of copying it.
    ///
    /// # Errors
    /// Only if `T`'s or `M`'s `Serialize` impl fails, or `M` does not produce
    /// an object (never for [`PageMeta`] or [`NoMeta`]).
    pub fn to_value(&self) -> Result<Value, serde_json::Error> {
        serde_json::to_value(self)
    }
}

impl<T: JsonSchema, M: JsonSchema> Envelope<T, M> {
    /// The `outputSchema` of a tool whose `structuredContent` is this envelope
    ///: `data` follows `T`'s schema or is `null` (the oversized
    /// and binary forms, §5, §8), the metadata follows `M`, `incomplete` is
    /// optional. Normalised like [`crate::output_schema_for`] (draft-07 and
    /// 2020-12 read it the same way), so it can be given to rmcp as is, e.g.
    /// `#[tool(output_schema = Arc::new(Envelope::<Vec<Widget>>::output_schema()))]`.
    ///
    /// This schema states what `data` is *without* a `jq` projection. A tool
    /// that lets callers project `data` (any shape may come out) advertises
    /// [`Envelope::projected_output_schema`] instead, or uses `T = Value`.
    pub fn output_schema() -> Map<String, Value> {
        let mut schema = crate::schema::output_schema_for::<Self>();
        crate::schema::map_data_schema(&mut schema, crate::schema::nullable);
        close(&mut schema);
        schema
    }

    /// [`Envelope::output_schema`] for a tool that takes a `jq` projection:
    /// `data` is documented as `T` (or `null`) when no projection is given,
    /// and accepts any JSON value, since a projection may return any shape.
    /// The branch for `T` stays in the schema (`anyOf [T, null, {}]`) so a
    /// code-mode program's author still reads the unprojected shape.
    pub fn projected_output_schema() -> Map<String, Value> {
        let mut schema = crate::schema::output_schema_for::<Self>();
        crate::schema::map_data_schema(&mut schema, crate::schema::any_after_projection);
        close(&mut schema);
        schema
    }
}

/// `additionalProperties: false` on the envelope and on `incomplete`: both are closed (`data`, the metadata and
/// `incomplete` are every key written), so a type generator gives exact types.
fn close(schema: &mut Map<String, Value>) {
    schema.insert("additionalProperties".to_owned(), Value::Bool(false));
    if let Some(Value::Object(properties)) = schema.get_mut("properties")
        && let Some(Value::Object(incomplete)) = properties.get_mut("incomplete")
    {
        incomplete.insert("additionalProperties".to_owned(), Value::Bool(false));
    }
}

impl<M: Serialize> Envelope<Value, M> {
    /// The envelope as a JSON value (the `structuredContent` value), moving
    /// `data` into it without a copy. The result is identical, key order
    /// included, to [`Envelope::to_value`].
    ///
    /// # Errors
    /// Only if `M`'s `Serialize` impl fails or does not produce an object
    /// (never for [`PageMeta`] or [`NoMeta`]).
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

/// Metadata of the paged GitHub tools: wire `"nextPage"`,
/// an integer >= 1 or `null`, always present.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PageMeta {
    /// The page to request next (pass it as `page`), or `null` when upstream
    /// advertised no next page. Taken from the upstream headers, never from
    /// the projected data.
    #[schemars(range(min = 1), description = "Pass as page for the next page; null on the last")]
    #[serde(deserialize_with = "flattened::optional_u64")]
    pub next_page: Option<u64>,
}

impl PageMeta {
    /// Metadata with the given next page (`None` = no next page).
    pub fn new(next_page: Option<u64>) -> Self {
        Self { next_page }
    }
}

/// Metadata of a free-path read whose next page may have no number (the bundled server's `github_get`): wire
/// `"nextPage"` (as [`PageMeta`]) and `"nextLink"`, both always present. `nextLink` is the next page's URL whatever
/// its form (a page number or a cursor such as GitHub's `?after=…`); when only it is set, the next page cannot be
/// asked for by number, and a program passes it as the tool's `path`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LinkedPageMeta {
    /// As [`PageMeta::next_page`].
    #[schemars(range(min = 1), description = "Pass as page for the next page; null on the last")]
    #[serde(deserialize_with = "flattened::optional_u64")]
    pub next_page: Option<u64>,
    /// As [`NextLinkMeta::next_link`].
    #[schemars(description = "Next page: pass as path alone; null on the last")]
    pub next_link: Option<String>,
}

/// Metadata of a read that continues by link (the bundled server's `circleci_get`, `jira_get`, `conf_get`,
/// `bb_get`): wire `"nextLink"`, always present. It is computed from the unprojected answer (a `jq` that drops
/// the vendor's token or link does not lose it).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NextLinkMeta {
    /// The next page as an absolute URL on the upstream's API host, with every query parameter it needs (the
    /// vendor's link, or the request's URL with its page token or start index set); `null` on the last page or
    /// when the answer is not paged. Pass it as the same tool's `path`, without query parameters or paging
    /// arguments.
    #[schemars(description = "Next page: pass as path alone; null on the last")]
    pub next_link: Option<String>,
}

/// No tool metadata: the envelope is `{data, incomplete?}` (e.g. the bundled
/// server's Atlassian reads).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
pub struct NoMeta {}

/// Why `data` is not the whole result.
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
    /// a server defect, a schema tool had no value to report.
    pub fn unavailable() -> Self {
        Self {
            reason: IncompleteReason::Unavailable,
            bytes: 0,
            limit_bytes: 0,
            artifact_id: None,
            mime_type: None,
        }
    }

    /// The `binary` marker: the upstream body of `bytes` bytes
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
    /// The value was larger than the size bound ([`crate::SizeBound`]); it is saved as an artifact.
    Size,
    /// The upstream body is not text (an image, an archive, text invalid in
    /// its charset): it is saved byte for byte as an artifact with its media
    /// type.
    Binary,
    /// Server defect: a tool that advertised a schema had no value.
    Unavailable,
}

/// Deserializing integers of metadata flattened beside `data`. serde reads a
/// flattened field from a buffer in which serde_json (built with
/// `arbitrary_precision`, so that upstream numbers keep their digits) keeps
/// numbers as its private number map, which a plain `u64` field rejects;
/// reading them through [`serde_json::Number`] accepts both forms. Use them on
/// integer fields of your own metadata type:
/// `#[serde(deserialize_with = "mcp_envelope::flattened::u64")]`.
pub mod flattened {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer};

    fn to_u64<E: Error>(n: &serde_json::Number) -> Result<u64, E> {
        n.as_u64()
            .ok_or_else(|| E::custom(format_args!("expected a whole number >= 0, got {n}")))
    }

    /// A whole number >= 0 (`u64`), from either number form.
    ///
    /// # Errors
    /// A number that is negative, fractional or past `u64::MAX`.
    pub fn u64<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
        to_u64(&serde_json::Number::deserialize(deserializer)?)
    }

    /// [`u64()`] or `null` (`Option<u64>`).
    ///
    /// # Errors
    /// As [`u64()`], or a value that is neither a number nor `null`.
    pub fn optional_u64<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u64>, D::Error> {
        Option::<serde_json::Number>::deserialize(deserializer)?
            .as_ref()
            .map(to_u64)
            .transpose()
    }
}

/// Envelope of a paged list (the bundled server's `github_list_workflow_runs`
/// and `github_list_workflow_jobs`): `{data, nextPage, incomplete?}`.
pub type PagedEnvelope<T = Value> = Envelope<T, PageMeta>;

/// `outputSchema` of a paged list, `{data, nextPage, incomplete?}` with `data`
/// any JSON value and `nextPage` an integer >= 1 or `null`:
/// [`Envelope::<Value, PageMeta>::output_schema`](Envelope::output_schema)
/// with a title and a description.
pub fn paged_output_schema() -> Map<String, Value> {
    crate::schema::with_title(
        Envelope::<Value, PageMeta>::output_schema(),
        "PagedEnvelope",
        "A page of upstream results: `data` is the (projected) body, `nextPage` the page to request next or null. `incomplete` appears only when `data` is not the whole result.",
    )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    /// Metadata with a nested object and an integer, like a cache report.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(rename_all = "camelCase")]
    struct Stamp {
        stamp: StampInfo,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(rename_all = "camelCase")]
    struct StampInfo {
        #[serde(deserialize_with = "flattened::u64")]
        age_ms: u64,
    }

    #[test]
    fn wire_shapes() {
        let paged = PagedEnvelope::new(json!([1]), PageMeta::new(None));
        assert_eq!(paged.to_value().unwrap(), json!({"data": [1], "nextPage": null}));
        let stamped = Envelope::new(
            json!(null),
            Stamp {
                stamp: StampInfo { age_ms: 5 },
            },
        );
        assert_eq!(
            serde_json::to_string(&stamped).unwrap(),
            r#"{"data":null,"stamp":{"ageMs":5}}"#
        );
        let mut plain: Envelope = Envelope::new(json!({}), NoMeta {});
        assert_eq!(serde_json::to_string(&plain).unwrap(), r#"{"data":{}}"#);
        plain.incomplete = Some(Incomplete::unavailable());
        assert_eq!(
            serde_json::to_string(&plain).unwrap(),
            r#"{"data":{},"incomplete":{"reason":"unavailable","bytes":0,"limitBytes":0,"artifactId":null}}"#
        );
    }

    #[test]
    fn typed_data_serializes_like_its_value() {
        let typed = Envelope::new(vec![1_u8, 2], PageMeta::new(Some(3)));
        let untyped = Envelope::new(json!([1, 2]), PageMeta::new(Some(3)));
        assert_eq!(typed.to_value().unwrap(), untyped.clone().into_value().unwrap());
        let back: Envelope<Vec<u8>, PageMeta> = serde_json::from_value(untyped.into_value().unwrap()).unwrap();
        assert_eq!(back, typed);
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
        let env = Envelope::new(
            json!({"items": []}),
            Stamp {
                stamp: StampInfo { age_ms: 0 },
            },
        );
        let text = serde_json::to_string(&env).unwrap();
        let back: Envelope<Value, Stamp> = serde_json::from_str(&text).unwrap();
        assert_eq!(back, env);
    }
}
