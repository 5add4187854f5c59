//! Property tests for CONTRACT §5 and §2: any JSON value under any bound is
//! either inline within the bound or oversized with exact full bytes, and
//! the structured value always validates against its `outputSchema`.
#![allow(clippy::unwrap_used, missing_docs)]

use std::sync::LazyLock;

use jsonschema::Validator;
use mcp_envelope::{
    Envelope, IncompleteReason, MAX_MAX_BYTES, MIN_MAX_BYTES, NoMeta, PageMeta, Sealed, SizeBound, paged_output_schema,
    seal,
};
use proptest::prelude::*;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

struct Validators {
    draft7: Validator,
    draft2020: Validator,
}

fn validators(schema: Map<String, Value>) -> Validators {
    let schema = Value::Object(schema);
    Validators {
        draft7: jsonschema::draft7::new(&schema).unwrap(),
        draft2020: jsonschema::draft202012::new(&schema).unwrap(),
    }
}

static PAGED: LazyLock<Validators> = LazyLock::new(|| validators(paged_output_schema()));
static CACHED: LazyLock<Validators> = LazyLock::new(|| validators(Envelope::<Value, CacheMeta>::output_schema()));
static PLAIN: LazyLock<Validators> = LazyLock::new(|| validators(Envelope::<Value, NoMeta>::output_schema()));
static TYPED: LazyLock<Validators> = LazyLock::new(|| validators(Envelope::<Vec<Widget>, PageMeta>::output_schema()));

/// Nested metadata with integers, like a cache report (a reuser's own metadata type).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct CacheMeta {
    cache: CacheInfo,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct CacheInfo {
    hit: bool,
    #[serde(deserialize_with = "mcp_envelope::flattened::u64")]
    age_ms: u64,
    fetched_at: String,
}

/// A reuser's typed `data` item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
struct Widget {
    id: u64,
    name: String,
    tags: Vec<String>,
    parent: Option<u64>,
}

fn widget() -> impl Strategy<Value = Widget> {
    (
        any::<u64>(),
        any::<String>(),
        prop::collection::vec(any::<String>(), 0..4),
        any::<Option<u64>>(),
    )
        .prop_map(|(id, name, tags, parent)| Widget { id, name, tags, parent })
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<u64>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        prop_oneof![Just(9_007_199_254_740_993u64), Just(u64::MAX)].prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        any::<String>().prop_map(Value::String),
        // Occasionally large strings, so default-range bounds overflow too.
        (any::<char>(), 0..40_000usize).prop_map(|(c, n)| Value::String(c.to_string().repeat(n))),
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(4, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::vec((any::<String>(), inner), 0..8)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

fn bound() -> impl Strategy<Value = SizeBound> {
    prop_oneof![
        (MIN_MAX_BYTES as u64..=MAX_MAX_BYTES as u64).prop_map(|b| SizeBound::new(b).0),
        (MIN_MAX_BYTES as u64..=80_000u64).prop_map(|b| SizeBound::new(b).0),
        (0usize..4_000).prop_map(SizeBound::unclamped_for_tests),
    ]
}

fn cache_meta() -> impl Strategy<Value = CacheMeta> {
    (any::<bool>(), any::<u64>()).prop_map(|(hit, age_ms)| CacheMeta {
        cache: CacheInfo {
            hit,
            age_ms,
            fetched_at: "2026-10-07T16:20:11.402Z".to_owned(),
        },
    })
}

fn assert_valid(v: &Validators, value: &Value) {
    if let Err(e) = v.draft7.validate(value) {
        panic!("draft-07: {e} for {value}");
    }
    if let Err(e) = v.draft2020.validate(value) {
        panic!("2020-12: {e} for {value}");
    }
}

fn check<T, M>(envelope: Envelope<T, M>, bound: &SizeBound, v: &Validators)
where
    T: Serialize + DeserializeOwned + Clone + PartialEq + std::fmt::Debug,
    M: Serialize + DeserializeOwned + Clone + PartialEq + std::fmt::Debug,
{
    let full_value = envelope.to_value().unwrap();
    assert_valid(v, &full_value);
    let compact_len = serde_json::to_vec(&envelope).unwrap().len();
    match seal(envelope.clone(), bound).unwrap() {
        Sealed::Inline(inline) => {
            assert!(compact_len <= bound.bytes());
            assert_eq!(inline, envelope);
            assert_valid(v, &inline.to_value().unwrap());
        }
        Sealed::Oversized(oversized) => {
            assert!(compact_len > bound.bytes());
            let bytes = oversized.full_bytes().to_vec();
            assert_eq!(bytes.len(), compact_len);
            let parsed: Value = serde_json::from_slice(&bytes).unwrap();
            assert_eq!(parsed, full_value);
            let back: Envelope<T, M> = serde_json::from_slice(&bytes).unwrap();
            assert_eq!(back, envelope);
            let (moved, pending) = oversized.clone().into_parts();
            assert_eq!(moved, bytes);
            for artifact_id in [Some("3f1c0a9e".to_owned()), None] {
                let done = pending.clone().finish(artifact_id.clone());
                assert!(done.data.is_null());
                assert_eq!(done.meta, envelope.meta);
                let inc = done.incomplete.clone().unwrap();
                assert_eq!(inc.reason, IncompleteReason::Size);
                assert_eq!(inc.bytes, bytes.len() as u64);
                assert_eq!(inc.limit_bytes, bound.bytes() as u64);
                assert_eq!(inc.artifact_id, artifact_id);
                assert_valid(v, &done.into_value().unwrap());
            }
            assert_eq!(oversized.finish(None).incomplete.unwrap().bytes, compact_len as u64);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn paged_envelopes(data in json_value(), next in prop::option::of(1u64..), bound in bound()) {
        check(Envelope::new(data, PageMeta::new(next)), &bound, &PAGED);
    }

    #[test]
    fn cached_envelopes(data in json_value(), meta in cache_meta(), bound in bound()) {
        check(Envelope::new(data, meta), &bound, &CACHED);
    }

    #[test]
    fn plain_envelopes(data in json_value(), bound in bound()) {
        check(Envelope::new(data, NoMeta {}), &bound, &PLAIN);
    }

    #[test]
    fn typed_envelopes(data in prop::collection::vec(widget(), 0..40), next in prop::option::of(1u64..), bound in bound()) {
        check(Envelope::new(data, PageMeta::new(next)), &bound, &TYPED);
    }
}

#[test]
fn unavailable_form_validates_everywhere() {
    for (v, value) in [
        (&*PAGED, serde_json::json!({"data": null, "nextPage": null})),
        (
            &*CACHED,
            serde_json::json!({"data": null, "cache": {"hit": false, "ageMs": 0, "fetchedAt": "2026-10-07T16:20:11.402Z"}}),
        ),
        (&*PLAIN, serde_json::json!({"data": null})),
        (&*TYPED, serde_json::json!({"data": null, "nextPage": null})),
    ] {
        let mut value = value;
        value["incomplete"] = serde_json::to_value(mcp_envelope::Incomplete::unavailable()).unwrap();
        assert_valid(v, &value);
    }
}
