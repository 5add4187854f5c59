//! Property tests for CONTRACT §5 and §2: any JSON value under any bound is
//! either inline within the bound or oversized with exact full bytes, and
//! the structured value always validates against its `outputSchema`.
#![allow(clippy::unwrap_used, missing_docs)]

use std::sync::LazyLock;

use jsonschema::Validator;
use mcp_envelope::{
    CacheInfo, CacheMeta, Envelope, IncompleteReason, MAX_MAX_BYTES, MIN_MAX_BYTES, NoMeta, PageMeta, Sealed,
    SizeBound, atlassian_output_schema, circleci_output_schema, paged_output_schema, seal,
};
use proptest::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
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
static CIRCLECI: LazyLock<Validators> = LazyLock::new(|| validators(circleci_output_schema()));
static ATLASSIAN: LazyLock<Validators> = LazyLock::new(|| validators(atlassian_output_schema()));

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

fn check<M>(envelope: Envelope<M>, bound: &SizeBound, v: &Validators)
where
    M: Serialize + DeserializeOwned + Clone + PartialEq + std::fmt::Debug,
{
    let full_value = envelope.to_value().unwrap();
    assert_valid(v, &full_value);
    let compact_len = serde_json::to_vec(&envelope).unwrap().len();
    match seal(envelope.clone(), bound).unwrap() {
        Sealed::Inline(inline) => {
            assert!(compact_len <= bound.bytes());
            assert_eq!(inline, envelope);
            assert_valid(v, &inline.into_value().unwrap());
        }
        Sealed::Oversized(oversized) => {
            assert!(compact_len > bound.bytes());
            let bytes = oversized.full_bytes().to_vec();
            assert_eq!(bytes.len(), compact_len);
            let parsed: Value = serde_json::from_slice(&bytes).unwrap();
            assert_eq!(parsed, full_value);
            let back: Envelope<M> = serde_json::from_slice(&bytes).unwrap();
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
    fn circleci_envelopes(data in json_value(), meta in cache_meta(), bound in bound()) {
        check(Envelope::new(data, meta), &bound, &CIRCLECI);
    }

    #[test]
    fn atlassian_envelopes(data in json_value(), bound in bound()) {
        check(Envelope::new(data, NoMeta {}), &bound, &ATLASSIAN);
    }
}

#[test]
fn unavailable_form_validates_everywhere() {
    for (v, value) in [
        (&*PAGED, serde_json::json!({"data": null, "nextPage": null})),
        (
            &*CIRCLECI,
            serde_json::json!({"data": null, "cache": {"hit": false, "ageMs": 0, "fetchedAt": "2026-10-07T16:20:11.402Z"}}),
        ),
        (&*ATLASSIAN, serde_json::json!({"data": null})),
    ] {
        let mut value = value;
        value["incomplete"] = serde_json::to_value(mcp_envelope::Incomplete::unavailable()).unwrap();
        assert_valid(v, &value);
    }
}
