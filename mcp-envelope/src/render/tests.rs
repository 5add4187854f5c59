#![allow(clippy::unwrap_used)]
use super::*;
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
