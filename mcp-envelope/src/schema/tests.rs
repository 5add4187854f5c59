#![allow(clippy::unwrap_used)]
use super::*;
use crate::{Envelope, PageMeta, paged_output_schema};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::json;

/// Walk a normalised schema and fail on any keyword outside the allow-list,
/// any `$`-keyword, non-standard `format`, array-form `items`, union `type`
/// (but a nullable scalar's `[X, "null"]`) or boolean subschema.
fn walk(schema: &Value, path: &str) {
    let Value::Object(map) = schema else {
        panic!("{path}: subschema is not an object: {schema}");
    };
    for (key, value) in map {
        let here = format!("{path}/{key}");
        assert!(!key.starts_with('$'), "{here}: `$` keyword");
        assert!(ALLOWED_KEYWORDS.contains(&key.as_str()), "{here}: keyword not allowed");
        match key.as_str() {
            "properties" => {
                for (name, sub) in value.as_object().unwrap() {
                    walk(sub, &format!("{here}/{name}"));
                }
            }
            "items" | "not" => walk(value, &here),
            "additionalProperties" if !value.is_boolean() => walk(value, &here),
            "anyOf" | "oneOf" | "allOf" => {
                for (i, sub) in value.as_array().unwrap().iter().enumerate() {
                    walk(sub, &format!("{here}/{i}"));
                }
            }
            "format" => assert!(
                STANDARD_FORMATS.contains(&value.as_str().unwrap()),
                "{here}: non-standard format {value}"
            ),
            "type" => assert!(
                value.is_string()
                    || value.as_array().is_some_and(|types| {
                        let types: Vec<String> = types.iter().filter_map(|t| t.as_str().map(str::to_owned)).collect();
                        nullable_scalar(&types).is_some()
                    }),
                "{here}: union type {value}"
            ),
            _ => {}
        }
    }
}

fn check(schema: Map<String, Value>) -> Value {
    assert_eq!(schema.get("type"), Some(&json!("object")), "root type");
    let value = Value::Object(schema);
    walk(&value, "#");
    let text = value.to_string();
    for banned in ["$schema", "$ref", "$defs", "definitions", "prefixItems", "$dynamicRef"] {
        assert!(!text.contains(&format!("\"{banned}\"")), "{banned} in {text}");
    }
    assert!(jsonschema::meta::is_valid(&value), "not a valid schema: {text}");
    assert!(jsonschema::draft7::new(&value).is_ok());
    assert!(jsonschema::draft202012::new(&value).is_ok());
    value
}

#[test]
fn envelope_schemas_pass_the_allow_list() {
    check(paged_output_schema());
    check(Envelope::<Value, crate::NoMeta>::output_schema());
    check(Envelope::<Vec<Item>, PageMeta>::output_schema());
    check(Envelope::<Vec<Item>, PageMeta>::projected_output_schema());
    check(Envelope::<Option<Item>, crate::NoMeta>::output_schema());
}

/// A reuser's typed `data` item.
#[derive(Serialize, JsonSchema)]
struct Item {
    /// The item's id.
    id: u64,
    label: Option<String>,
}

#[test]
fn data_is_untyped_and_next_page_is_integer_ge_1_or_null() {
    let schema = check(paged_output_schema());
    let props = &schema["properties"];
    assert!(props["data"].is_object());
    assert!(props["data"].get("type").is_none());
    let v = jsonschema::draft7::new(&schema).unwrap();
    let w = jsonschema::draft202012::new(&schema).unwrap();
    for ok in [
        json!({"data": null, "nextPage": null}),
        json!({"data": 5, "nextPage": 1}),
        json!({"data": [1], "nextPage": 2}),
        json!({"data": null, "nextPage": 2, "incomplete": {"reason": "size", "bytes": 3, "limitBytes": 2, "artifactId": "a"}}),
        json!({"data": null, "nextPage": null, "incomplete": {"reason": "unavailable", "bytes": 0, "limitBytes": 0, "artifactId": null}}),
    ] {
        assert!(v.is_valid(&ok) && w.is_valid(&ok), "{ok}");
    }
    for bad in [
        json!({"data": null, "nextPage": 0}),
        json!({"data": null, "nextPage": "2"}),
        json!({"data": null, "nextPage": 1.5}),
        json!({"data": 1}),
        json!({"nextPage": 1}),
        json!({"data": null, "nextPage": null, "incomplete": null}),
        json!({"data": null, "nextPage": null, "incomplete": {"reason": "other", "bytes": 0, "limitBytes": 0, "artifactId": null}}),
        json!({"data": null, "nextPage": null, "incomplete": {"reason": "size", "bytes": 0, "limitBytes": 0}}),
        json!([]),
    ] {
        assert!(!v.is_valid(&bad) && !w.is_valid(&bad), "{bad}");
    }
}

#[test]
fn typed_data_follows_its_type_or_null() {
    let schema = check(Envelope::<Vec<Item>, PageMeta>::output_schema());
    let v = jsonschema::draft7::new(&schema).unwrap();
    let w = jsonschema::draft202012::new(&schema).unwrap();
    for ok in [
        json!({"data": [], "nextPage": null}),
        json!({"data": [{"id": 1, "label": null}, {"id": 2, "label": "b"}], "nextPage": 2}),
        json!({"data": null, "nextPage": 2, "incomplete": {"reason": "size", "bytes": 3, "limitBytes": 2, "artifactId": "a"}}),
    ] {
        assert!(v.is_valid(&ok) && w.is_valid(&ok), "{ok}");
    }
    for bad in [
        json!({"data": {"id": 1}, "nextPage": null}),
        json!({"data": [{"id": -1, "label": null}], "nextPage": null}),
        json!({"data": [{"label": "no id"}], "nextPage": null}),
        json!({"data": [1, 2], "nextPage": null}),
    ] {
        assert!(!v.is_valid(&bad) && !w.is_valid(&bad), "{bad}");
    }
    // The item's doc comment survives (inlined): the reuser's own schema.
    assert!(schema.to_string().contains("The item's id."));
}

#[test]
fn projected_typed_schema_accepts_any_data_and_keeps_the_type() {
    let schema = check(Envelope::<Vec<Item>, PageMeta>::projected_output_schema());
    let v = jsonschema::draft7::new(&schema).unwrap();
    for ok in [
        json!({"data": [7, 8], "nextPage": null}),
        json!({"data": "x", "nextPage": 1}),
    ] {
        assert!(v.is_valid(&ok), "{ok}");
    }
    assert!(!v.is_valid(&json!({"data": [], "nextPage": 0})));
    assert_eq!(schema["properties"]["data"]["anyOf"][0]["type"], json!("array"));
    assert_eq!(schema["properties"]["data"]["anyOf"][1], json!({"type": "null"}));
    // Untyped data is already "any value": both forms are the same schema.
    assert_eq!(
        Envelope::<Value, PageMeta>::projected_output_schema(),
        Envelope::<Value, PageMeta>::output_schema()
    );
}

#[test]
fn plain_schema_is_data_plus_incomplete() {
    let schema = check(Envelope::<Value, crate::NoMeta>::output_schema());
    let v = jsonschema::draft7::new(&schema).unwrap();
    assert!(v.is_valid(&json!({"data": "diff --git a b"})));
    assert!(v.is_valid(&json!({"data": {}})));
    assert!(!v.is_valid(&json!({})));
    assert_eq!(schema["required"], json!(["data"]));
}

/// Shaped like `artifact_read`'s result, which lives in another crate.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct ArtifactChunk {
    artifact_id: String,
    mime_type: String,
    offset: u64,
    next_offset: u64,
    total_bytes: u64,
    eof: bool,
    encoding: Encoding,
    data: String,
    note: Option<String>,
    ratio: f32,
    small: i32,
    nested: Vec<Nested>,
    tag: Tagged,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Encoding {
    Base64,
}

#[derive(Serialize, JsonSchema)]
struct Nested {
    when: Option<u64>,
    pair: (u8, String),
}

#[derive(Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
#[allow(dead_code)]
enum Tagged {
    A { x: u16 },
    B,
}

#[test]
fn generic_struct_schema_is_draft07_safe_and_validates_values() {
    let schema = check(output_schema_for::<ArtifactChunk>());
    let text = schema.to_string();
    for f in ["uint64", "int32", "float", "uint8", "uint16"] {
        assert!(!text.contains(f), "format {f} kept: {text}");
    }
    let value = serde_json::to_value(ArtifactChunk {
        artifact_id: "a".into(),
        mime_type: "application/json".into(),
        offset: 0,
        next_offset: 18_446_744_073_709_551_615,
        total_bytes: 3,
        eof: true,
        encoding: Encoding::Base64,
        data: "AAAA".into(),
        note: None,
        ratio: 0.5,
        small: -3,
        nested: vec![Nested {
            when: Some(1),
            pair: (1, "x".into()),
        }],
        tag: Tagged::A { x: 1 },
    })
    .unwrap();
    for v in [
        jsonschema::draft7::new(&schema).unwrap(),
        jsonschema::draft202012::new(&schema).unwrap(),
    ] {
        assert!(v.is_valid(&value), "{value}");
        let mut bad = value.clone();
        bad["encoding"] = json!("hex");
        assert!(!v.is_valid(&bad));
        let mut bad = value.clone();
        bad["offset"] = json!(-1);
        assert!(!v.is_valid(&bad));
    }
}

#[derive(Serialize, JsonSchema)]
struct Tree {
    name: String,
    children: Vec<Tree>,
}

#[test]
fn recursive_types_have_no_refs() {
    let schema = check(output_schema_for::<Tree>());
    let v = jsonschema::draft7::new(&schema).unwrap();
    assert!(v.is_valid(&json!({"name": "a", "children": [{"name": "b", "children": []}]})));
}

#[test]
fn non_object_roots_get_object_type() {
    let schema = output_schema_for::<Encoding>();
    assert_eq!(schema.get("type"), Some(&json!("object")));
}

#[test]
fn boolean_and_tuple_forms_are_normalised() {
    let raw = json!({
        "$schema": "x", "type": "object",
        "properties": {
            "any": true, "none": false,
            "tuple": {"type": "array", "items": [{"type": "string"}], "additionalItems": false},
            "nested": {"type": ["string", "null"], "format": "uuid", "minLength": 1}
        },
        "additionalProperties": false,
        "definitions": {"X": {}}
    });
    let out = Value::Object(normalize_root(raw));
    walk(&out, "#");
    assert_eq!(out["properties"]["any"], json!({}));
    assert_eq!(out["properties"]["none"], json!({"not": {}}));
    assert_eq!(out["properties"]["tuple"], json!({"type": "array"}));
    assert_eq!(
        out["properties"]["nested"],
        json!({"type": ["string", "null"], "minLength": 1}),
        "a nullable scalar keeps its type list"
    );
    let mixed = Value::Object(normalize_root(json!({"type": "object", "properties": {
        "either": {"type": ["string", "integer"], "minLength": 1}}})));
    assert_eq!(
        mixed["properties"]["either"],
        json!({"anyOf": [{"type": "string", "minLength": 1}, {"type": "integer"}]})
    );
    assert_eq!(out["additionalProperties"], json!(false));
}

#[test]
fn input_schema_does_not_require_optional_arguments() {
    #[derive(JsonSchema, serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    struct Args {
        owner: String,
        per_page: Option<u64>,
    }
    let input = Value::Object(input_schema_for::<Args>());
    walk(&input, "");
    assert_eq!(input["type"], "object");
    assert_eq!(input["required"], json!(["owner"]));
    // The serialize contract (outputs) lists every field that is always written.
    assert_eq!(
        Value::Object(output_schema_for::<Args>())["required"],
        json!(["owner", "perPage"])
    );
}
