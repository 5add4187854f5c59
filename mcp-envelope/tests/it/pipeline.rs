//! The whole pipeline on real GitHub bodies (CONTRACT §2, §4, §5, §6).
#![allow(clippy::unwrap_used, missing_docs)]

use mcp_envelope::{
    Envelope, NoMeta, OutputFormat, PageMeta, Sealed, SizeBound, TEXT_LIMIT_BYTES, TextSource, View,
    paged_output_schema, prepare, prepare_text,
};
use serde_json::{Value, json};

const RUNS: &str = include_str!("../../../fixtures/github/actions-runs.json");
const RUNS_LARGE: &str = include_str!("../../../fixtures/github/runs-large.json");

fn validate_paged(value: &Value) {
    let schema = Value::Object(paged_output_schema());
    for v in [
        jsonschema::draft7::new(&schema).unwrap(),
        jsonschema::draft202012::new(&schema).unwrap(),
    ] {
        assert!(v.is_valid(value), "{}", v.validate(value).unwrap_err());
    }
}

#[test]
fn actions_runs_inline_structured_complete_while_text_truncated() {
    let body: Value = serde_json::from_str(RUNS).unwrap();
    let prepared = prepare(
        body.clone(),
        PageMeta::new(Some(2)),
        &View::new(None, OutputFormat::Json),
        &SizeBound::default(),
    )
    .unwrap();
    // 48 KB of compact JSON: over the 40,000-byte text limit, under the bound.
    assert!(prepared.text_truncated);
    assert!(prepared.text.len() <= TEXT_LIMIT_BYTES);
    assert!(prepared.text.starts_with("{\n  \"data\": {\n    \"total_count\": 593,"));
    let Sealed::Inline(envelope) = prepared.sealed else {
        panic!("48 KB must be inline under the default bound");
    };
    let structured = envelope.into_value().unwrap();
    assert_eq!(structured["data"], body);
    assert_eq!(structured["nextPage"], json!(2));
    validate_paged(&structured);
}

#[test]
fn json_text_equals_structured_content_when_not_truncated() {
    let body: Value = serde_json::from_str(RUNS).unwrap();
    let prepared = prepare(
        body,
        PageMeta::new(Some(2)),
        &View::new(
            Some("{total_count, workflow_runs: .workflow_runs[:2]}".into()),
            OutputFormat::Json,
        ),
        &SizeBound::default(),
    )
    .unwrap();
    assert!(!prepared.text_truncated);
    let structured = prepared.sealed.into_envelope(|_| None).into_value().unwrap();
    validate_paged(&structured);
    assert_eq!(structured["data"]["workflow_runs"].as_array().unwrap().len(), 2);
    let parsed: Value = serde_json::from_str(&prepared.text).unwrap();
    assert_eq!(parsed, structured);
}

#[test]
fn actions_runs_projected_with_jq_and_jmespath() {
    let body: Value = serde_json::from_str(RUNS).unwrap();
    let expected: Vec<Value> = body["workflow_runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].clone())
        .collect();
    for jq in [".workflow_runs | map(.id)", "workflow_runs[*].id"] {
        let prepared = prepare(
            body.clone(),
            PageMeta::new(None),
            &View::new(Some(jq.to_owned()), OutputFormat::Json),
            &SizeBound::default(),
        )
        .unwrap();
        let structured = prepared.sealed.into_envelope(|_| None).into_value().unwrap();
        assert_eq!(structured, json!({"data": expected, "nextPage": null}));
        assert_eq!(serde_json::from_str::<Value>(&prepared.text).unwrap(), structured);
    }
}

#[test]
fn toon_text_is_the_default_and_matches_text_only_mode() {
    let body: Value = serde_json::from_str(RUNS).unwrap();
    let jq = Some(".workflow_runs[:2] | map({id, name, conclusion})");
    let prepared = prepare(
        body.clone(),
        PageMeta::new(Some(2)),
        &View::new(jq.map(str::to_owned), OutputFormat::default()),
        &SizeBound::default(),
    )
    .unwrap();
    assert!(
        prepared.text.starts_with("data[2]{id,name,conclusion}:\n"),
        "{}",
        prepared.text
    );
    assert!(prepared.text.ends_with("\nnextPage: 2"), "{}", prepared.text);
    let text_only = prepare_text(
        body,
        PageMeta::new(Some(2)),
        &View::new(jq.map(str::to_owned), OutputFormat::Toon),
    )
    .unwrap();
    assert_eq!(text_only, prepared.text);
}

#[test]
fn runs_large_is_oversized_with_exact_artifact_bytes_and_truncated_text() {
    let body: Value = serde_json::from_str(RUNS_LARGE).unwrap();
    for format in [OutputFormat::Json, OutputFormat::Toon] {
        let prepared = prepare(
            body.clone(),
            PageMeta::new(Some(3)),
            &View::new(None, format),
            &SizeBound::default(),
        )
        .unwrap();
        assert!(prepared.text_truncated);
        assert!(prepared.text.len() <= TEXT_LIMIT_BYTES);
        assert!(prepared.text.contains("structuredContent"));
        let Sealed::Oversized(oversized) = prepared.sealed else {
            panic!("1.2 MB must be oversized under the default bound");
        };
        let (bytes, pending) = oversized.into_parts();
        let back: Envelope<Value, PageMeta> = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(back.data, body);
        assert_eq!(back.meta.next_page, Some(3));
        let structured = pending.finish(Some("6f1c".into())).into_value().unwrap();
        assert_eq!(
            structured,
            json!({"data": null, "nextPage": 3, "incomplete": {"reason": "size", "bytes": bytes.len(), "limitBytes": 262144, "artifactId": "6f1c"}})
        );
        validate_paged(&structured);
    }
}

#[test]
fn runs_large_narrowed_by_jq_fits_inline() {
    let body: Value = serde_json::from_str(RUNS_LARGE).unwrap();
    let prepared = prepare(
        body,
        PageMeta::new(None),
        &View::new(
            Some(".workflow_runs | map({id, conclusion})".into()),
            OutputFormat::Json,
        ),
        &SizeBound::default(),
    )
    .unwrap();
    let Sealed::Inline(envelope) = prepared.sealed else {
        panic!("ids and conclusions should fit");
    };
    validate_paged(&envelope.into_value().unwrap());
}

#[test]
fn atlassian_text_is_the_bare_body() {
    let body = json!({"issues": [{"key": "PLAT-1"}, {"key": "PLAT-2"}], "isLast": true});
    let prepared = prepare(
        body.clone(),
        NoMeta {},
        &View::new(None, OutputFormat::Json).text_from(TextSource::Data),
        &SizeBound::default(),
    )
    .unwrap();
    assert_eq!(serde_json::from_str::<Value>(&prepared.text).unwrap(), body);
    let structured = prepared.sealed.into_envelope(|_| None).into_value().unwrap();
    assert_eq!(structured, json!({"data": body}));
    let schema = Value::Object(Envelope::<Value, NoMeta>::output_schema());
    assert!(jsonschema::draft7::new(&schema).unwrap().is_valid(&structured));
}

#[test]
fn projection_errors_surface_from_prepare() {
    let err = prepare(
        json!([1, 2]),
        NoMeta {},
        &View::new(Some(".[]".into()), OutputFormat::Json).text_from(TextSource::Data),
        &SizeBound::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("2 outputs"), "{err}");
}

/// A tool's own metadata: a nested report and a plain field, beside `data`.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Audited {
    cache: CacheReport,
    request_id: &'static str,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct CacheReport {
    hit: bool,
    age_ms: u64,
}

/// Every field the envelope serializes reaches the TOON text, the JSON text and `structuredContent` alike: the
/// texts are the envelope's serialization, whatever its fields (a field added to `Envelope` itself is held to the
/// same by `render::tests::root_entries_hold_every_field_of_the_serialization_with_data_borrowed`).
#[test]
fn metadata_fields_reach_toon_json_and_structured_content_alike() {
    let body: Value = serde_json::from_str(RUNS).unwrap();
    let jq = Some(".workflow_runs[:2] | map({id, conclusion})");
    let audited = || Audited {
        cache: CacheReport { hit: true, age_ms: 5 },
        request_id: "r-1",
    };
    let view = |format| View::new(jq.map(str::to_owned), format);
    let structured_of = |format| {
        let prepared = prepare(body.clone(), audited(), &view(format), &SizeBound::default()).unwrap();
        assert!(!prepared.text_truncated);
        let structured = prepared.sealed.into_envelope(|_| None).into_value().unwrap();
        (prepared.text, structured)
    };
    let (toon, structured) = structured_of(OutputFormat::Toon);
    let (json_text, structured_too) = structured_of(OutputFormat::Json);
    assert_eq!(structured, structured_too);
    assert_eq!(serde_json::from_str::<Value>(&json_text).unwrap(), structured);
    assert_eq!(toon, mcp_envelope::render(&structured, OutputFormat::Toon).unwrap());
    let keys: Vec<&str> = structured.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["data", "cache", "requestId"]);
    assert_eq!(structured["cache"], json!({"hit": true, "ageMs": 5}));
    assert!(
        toon.ends_with("\ncache:\n  hit: true\n  ageMs: 5\nrequestId: r-1"),
        "{toon}"
    );
    let text_only = prepare_text(body, audited(), &view(OutputFormat::Toon)).unwrap();
    assert_eq!(text_only, toon);
}
