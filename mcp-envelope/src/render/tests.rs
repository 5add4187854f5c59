#![allow(clippy::unwrap_used)]
use super::*;
use crate::truncate::Kept;
use serde_json::json;

fn toon(v: &Value) -> String {
    render(v, OutputFormat::Toon).unwrap()
}

/// Cases copied by hand from the official TOON specification's encode
/// fixtures (toon-format/spec, fixtures/encode/primitives.json and
/// arrays-tabular.json). The spec repository cannot be cloned here and the
/// toon-format crate does not ship its fixtures, so this is a subset.
#[test]
fn toon_spec_encode_fixtures() {
    let cases: Vec<(Value, &str)> = vec![
        (json!("hello"), "hello"),
        (json!(""), "\"\""),
        (json!("true"), "\"true\""),
        (json!("42"), "\"42\""),
        (json!("05"), "\"05\""),
        (json!("café"), "café"),
        (json!("a,🚀"), "\"a,🚀\""),
        (json!("- item"), "\"- item\""),
        (json!("#hello"), "\"#hello\""),
        (json!(42), "42"),
        (json!(2.75), "2.75"), // spec case: 3.14 (clippy flags it as PI)
        (json!(-7), "-7"),
        (json!(-0.0), "0"),
        (json!(1e6), "1000000"),
        (json!(0.000001), "0.000001"),
        (json!(9007199254740991u64), "9007199254740991"),
        (
            json!([0.3333333333333333, 0.30000000000000004, -0.000001]),
            "[3]: 0.3333333333333333,0.30000000000000004,-0.000001",
        ),
        (json!(null), "null"),
        (json!(true), "true"),
        (
            json!({"marker": "-", "note": "- item"}),
            "marker: \"-\"\nnote: \"- item\"",
        ),
        (json!({"items": ["-", "-x"]}), "items[2]: \"-\",\"-x\""),
        (
            json!({"items": [{"sku": "A1", "qty": 2, "price": 9.99}, {"sku": "B2", "qty": 1, "price": 14.5}]}),
            "items[2]{sku,qty,price}:\n  A1,2,9.99\n  B2,1,14.5",
        ),
        (
            json!({"items": [{"id": 1, "value": null}, {"id": 2, "value": "test"}]}),
            "items[2]{id,value}:\n  1,null\n  2,test",
        ),
        (
            json!({"items": [{"sku": "A,1", "desc": "cool", "qty": 2}, {"sku": "B2", "desc": "wip: test", "qty": 1}]}),
            "items[2]{sku,desc,qty}:\n  \"A,1\",cool,2\n  B2,\"wip: test\",1",
        ),
        (
            json!({"entries": [{"id": 1, "meta": {"a": 1}}, {"id": 2, "meta": {"b": 2}}]}),
            "entries[2]:\n  - id: 1\n    meta:\n      a: 1\n  - id: 2\n    meta:\n      b: 2",
        ),
    ];
    for (input, expected) in cases {
        assert_eq!(toon(&input), expected, "input: {input}");
    }
}

#[test]
fn toon_of_a_github_page() {
    let page = json!({
        "data": {
            "total_count": 2,
            "workflow_runs": [
                {"id": 30433642, "name": "CI", "status": "completed", "conclusion": "failure"},
                {"id": 30433643, "name": "Build docs", "status": "in_progress", "conclusion": null}
            ]
        },
        "nextPage": 2
    });
    assert_eq!(
        toon(&page),
        "data:\n  total_count: 2\n  workflow_runs[2]{id,name,status,conclusion}:\n    30433642,CI,completed,failure\n    30433643,Build docs,in_progress,null\nnextPage: 2"
    );
}

#[test]
fn toon_keeps_big_integers_exact() {
    let v = json!({"ids": [9007199254740993u64, 18446744073709551615u64, -9223372036854775808i64]});
    assert_eq!(
        toon(&v),
        "ids[3]: 9007199254740993,18446744073709551615,-9223372036854775808"
    );
    // Through the Serialize path too (envelopes are rendered that way).
    assert_eq!(render_serialize(&v, OutputFormat::Toon).unwrap(), toon(&v));
}

#[test]
fn json_is_pretty_with_two_spaces_and_exact() {
    let v = json!({"data": [9007199254740993u64, {"a": null}], "nextPage": null});
    let text = render(&v, OutputFormat::Json).unwrap();
    assert_eq!(
        text,
        "{\n  \"data\": [\n    9007199254740993,\n    {\n      \"a\": null\n    }\n  ],\n  \"nextPage\": null\n}"
    );
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), v);
}

#[test]
fn output_format_parsing_and_wire() {
    assert_eq!("toon".parse::<OutputFormat>().unwrap(), OutputFormat::Toon);
    assert_eq!(" JSON ".parse::<OutputFormat>().unwrap(), OutputFormat::Json);
    let err = "yaml".parse::<OutputFormat>().unwrap_err();
    assert!(err.to_string().contains("\"yaml\"") && err.to_string().contains("\"json\""));
    assert_eq!(OutputFormat::default(), OutputFormat::Toon);
    assert_eq!(serde_json::to_value(OutputFormat::Json).unwrap(), json!("json"));
    assert_eq!(
        serde_json::from_value::<OutputFormat>(json!("toon")).unwrap(),
        OutputFormat::Toon
    );
    assert!(serde_json::from_value::<OutputFormat>(json!("xml")).is_err());
    let schema = serde_json::to_value(schemars::schema_for!(OutputFormat)).unwrap();
    assert!(schema.to_string().contains("toon") && schema.to_string().contains("json"));
}

/// The text `write_envelope` gives (under the truncation limit).
fn envelope_text<M: Serialize>(envelope: &Envelope<Value, M>, format: OutputFormat) -> String {
    let mut kept = Kept::new(crate::TEXT_LIMIT_BYTES);
    write_envelope(envelope, format, &mut kept).unwrap();
    kept.finish(crate::Rest::StructuredContent).0
}

/// Metadata whose fields are named like the envelope's own.
#[derive(Serialize)]
struct Clashing {
    first: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    incomplete: Option<&'static str>,
    last: u8,
}

#[test]
fn toon_envelope_text_is_the_toon_of_its_serialization() {
    let data = json!({"runs": [{"id": 1, "ok": true}, {"id": 2, "ok": false}], "total": 2});
    let unavailable = Some(crate::Incomplete::unavailable());
    let mut cases: Vec<(Envelope<Value, Clashing>, Value)> = Vec::new();
    for (meta_data, meta_incomplete, incomplete) in [
        (None, None, None),
        (None, None, unavailable.clone()),
        (Some("meta's"), None, None),
        (None, Some("meta's"), None),
        (None, Some("meta's"), unavailable.clone()),
        (Some("meta's"), Some("meta's"), unavailable),
    ] {
        let meta = Clashing {
            first: 1,
            data: meta_data,
            incomplete: meta_incomplete,
            last: 2,
        };
        let envelope = Envelope {
            data: data.clone(),
            meta,
            incomplete,
        };
        let value = serde_json::to_value(&envelope).unwrap();
        cases.push((envelope, value));
    }
    // A repeated key keeps its first position and takes the last value, as in `structuredContent`.
    assert_eq!(
        cases[5].1,
        json!({"data": "meta's", "first": 1, "incomplete": {"reason": "unavailable", "bytes": 0, "limitBytes": 0, "artifactId": null}, "last": 2})
    );
    for (envelope, value) in &cases {
        assert_eq!(envelope_text(envelope, OutputFormat::Toon), toon(value), "{value}");
        let json_text = envelope_text(envelope, OutputFormat::Json);
        assert_eq!(serde_json::from_str::<Value>(&json_text).unwrap(), *value);
    }
    // Metadata that is not a struct: a map, and none at all (`()` flattens to nothing).
    let mut extra = serde_json::Map::new();
    extra.insert("requestId".into(), json!("r-1"));
    extra.insert("cache".into(), json!({"hit": true, "ageMs": 5}));
    let mapped = Envelope::new(data.clone(), extra);
    assert_eq!(
        envelope_text(&mapped, OutputFormat::Toon),
        toon(&serde_json::to_value(&mapped).unwrap())
    );
    let unit = Envelope::new(data.clone(), ());
    assert_eq!(envelope_text(&unit, OutputFormat::Toon), toon(&json!({"data": data})));
}

/// An envelope with a field of its own beyond `data`, the metadata and `incomplete`: what [`Envelope`] would be
/// with one more field.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Wider<T, M> {
    data: T,
    #[serde(flatten)]
    meta: M,
    #[serde(skip_serializing_if = "Option::is_none")]
    incomplete: Option<crate::Incomplete>,
    warnings: Vec<&'static str>,
}

#[test]
fn root_entries_hold_every_field_of_the_serialization_with_data_borrowed() {
    let data = json!([{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]);
    let meta = crate::PageMeta::new(Some(2));
    let incomplete = Some(crate::Incomplete::unavailable());
    let skeleton = Wider {
        data: root::DataSlot,
        meta,
        incomplete: incomplete.clone(),
        warnings: vec!["stale cache"],
    };
    let entries = root::RootEntries::of(&skeleton).unwrap();
    let keys: Vec<&str> = entries.with(&data).map(|(key, _)| key).collect();
    assert_eq!(keys, ["data", "nextPage", "incomplete", "warnings"]);
    assert!(
        std::ptr::eq(entries.with(&data).next().unwrap().1, &data),
        "data is borrowed, not copied"
    );
    let mut text = String::new();
    toon::encode_root(entries.with(&data), &mut text).unwrap();
    let whole = Wider {
        data: data.clone(),
        meta,
        incomplete,
        warnings: vec!["stale cache"],
    };
    assert_eq!(text, toon(&serde_json::to_value(&whole).unwrap()));
    assert!(text.ends_with("\nwarnings[1]: stale cache"), "{text}");
}

#[test]
fn root_entries_are_only_of_maps_and_structs() {
    for not_a_map in [json!(1), json!([1]), json!(null), json!("data")] {
        let err = root::RootEntries::of(&not_a_map).unwrap_err();
        assert!(err.to_string().contains("map or a struct"), "{err}");
    }
    // Keys that are not strings are written as serde_json writes them; others are refused.
    let numbered = std::collections::BTreeMap::from([(1, "one"), (2, "two")]);
    let entries = root::RootEntries::of(&numbered).unwrap();
    let keys: Vec<&str> = entries.with(&Value::Null).map(|(key, _)| key).collect();
    assert_eq!(keys, ["1", "2"]);
    let unit_keyed = std::collections::BTreeMap::from([((), 1)]);
    assert!(root::RootEntries::of(&unit_keyed).is_err());
    // The slot anywhere but at the top of an entry is `null`, as serde_json writes it.
    let entries = root::RootEntries::of(&std::collections::BTreeMap::from([("a", [root::DataSlot])])).unwrap();
    assert_eq!(entries.with(&json!(1)).collect::<Vec<_>>(), [("a", &json!([null]))]);
}
