//! Compact forms of the tool schemas for `tools/list`, which a model pays for in context on every session (private module: its items are re-exported at the crate root, and the concern is documented on `compact_output_schema`).

use serde_json::{Map, Value};

/// The `inputSchema` of a tool, compacted as described on [`compact_output_schema`].
pub fn compact_input_schema(mut schema: Map<String, Value>) -> Map<String, Value> {
    schema.remove("title");
    schema.remove("description");
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        for property in properties.values_mut() {
            if let Value::Object(object) = property {
                *object = compact_argument(std::mem::take(object));
            }
        }
    }
    schema
}

/// The `outputSchema` of a tool, compacted for `tools/list`.
///
/// Compact forms of the tool schemas for `tools/list`, which a model pays for in context on every session
///. The shapes are kept: every keyword that constrains a value (`type`, `minimum`, `maximum`,
/// `maxLength`, `required`, `additionalProperties`, ...) stays; only words are dropped.
///
/// - [`compact_input_schema`]: no root `title`/`description`; an optional argument's `anyOf [T, null]` becomes `T`
///   (an absent argument already means "none"); a union nested in it stays one `anyOf`; a `oneOf` of string
///   constants becomes one `enum`; only each argument's own `description` is kept, on one line.
/// - [`compact_output_schema`]: no root `title`/`description` (the tool's description says what it is) and none
///   below the top-level properties; each top-level property (`data`, `nextPage`, `incomplete`, ...) keeps its own
///   `description`, on one line, so a type generator documents the envelope once per field; nullable fields keep
///   their `[T, null]` form, so the schema still validates every result, and a `oneOf` of string constants becomes
///   one `enum` (the same values).
///
/// An empty `description` (`#[schemars(description = "")]`, for an argument whose type says it all) is dropped.
pub fn compact_output_schema(mut schema: Map<String, Value>) -> Map<String, Value> {
    let mut kept = Vec::new();
    if let Some(Value::Object(properties)) = schema.get("properties") {
        for (name, property) in properties {
            if let Some(Value::String(text)) = property.get("description")
                && !text.trim().is_empty()
            {
                kept.push((name.clone(), one_line(text)));
            }
        }
    }
    strip_words(&mut schema);
    enums_of_constants(&mut schema);
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        for (name, text) in kept {
            if let Some(Value::Object(property)) = properties.get_mut(&name) {
                property.insert("description".into(), Value::String(text));
            }
        }
    }
    schema
}

fn compact_argument(mut argument: Map<String, Value>) -> Map<String, Value> {
    let description = argument.remove("description");
    if let Some(inner) = non_null_branch(&argument) {
        argument = inner;
    }
    strip_words(&mut argument);
    enums_of_constants(&mut argument);
    if let Some(Value::String(text)) = description.filter(|text| text.as_str().is_some_and(|t| !t.trim().is_empty())) {
        argument.insert("description".into(), Value::String(one_line(&text)));
    }
    argument
}

/// `T` of an `anyOf [T, {"type": "null"}]` (either order), or the schema with `"type": X` of a
/// `"type": [X, "null"]`, else `None`.
fn non_null_branch(schema: &Map<String, Value>) -> Option<Map<String, Value>> {
    if let Some(Value::Array(types)) = schema.get("type") {
        let types: Vec<String> = types.iter().filter_map(|t| t.as_str().map(str::to_owned)).collect();
        let scalar = crate::schema::nullable_scalar(&types)?.to_owned();
        let mut inner = schema.clone();
        inner.insert("type".into(), Value::String(scalar));
        return Some(inner);
    }
    let Some(Value::Array(branches)) = schema.get("anyOf") else {
        return None;
    };
    let null = serde_json::json!({"type": "null"});
    match branches.as_slice() {
        [a, b] if *b == null => a.as_object().cloned(),
        [a, b] if *a == null => b.as_object().cloned(),
        _ => None,
    }
}

/// Removes `title` and `description` everywhere in `schema` (not properties *named* so).
fn strip_words(schema: &mut Map<String, Value>) {
    schema.remove("title");
    schema.remove("description");
    for (keyword, value) in schema.iter_mut() {
        match (keyword.as_str(), value) {
            ("properties", Value::Object(properties)) => {
                for property in properties.values_mut() {
                    if let Value::Object(property) = property {
                        strip_words(property);
                    }
                }
            }
            (_, Value::Object(sub)) => strip_words(sub),
            (_, Value::Array(items)) => {
                for item in items {
                    if let Value::Object(sub) = item {
                        strip_words(sub);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Rewrites every `oneOf` whose branches are all `{"type": "string", "const": c}` as
/// `{"type": "string", "enum": [c, ...]}`, and drops an `enum` that repeats a `const`.
fn enums_of_constants(schema: &mut Map<String, Value>) {
    let constants: Option<Vec<Value>> = match schema.get("oneOf") {
        Some(Value::Array(branches)) if !branches.is_empty() => branches
            .iter()
            .map(|branch| {
                let branch = branch.as_object()?;
                let only_type_and_const =
                    branch.len() == 2 && branch.get("type") == Some(&Value::String("string".into()));
                only_type_and_const.then(|| branch.get("const").cloned()).flatten()
            })
            .collect(),
        _ => None,
    };
    if let Some(constants) = constants {
        schema.remove("oneOf");
        schema.insert("type".into(), Value::String("string".into()));
        schema.insert("enum".into(), Value::Array(constants));
    }
    if let (Some(constant), Some(Value::Array(values))) = (schema.get("const"), schema.get("enum"))
        && values.len() == 1
        && values[0] == *constant
    {
        schema.remove("enum");
    }
    for value in schema.values_mut() {
        match value {
            Value::Object(sub) => enums_of_constants(sub),
            Value::Array(items) => {
                for item in items {
                    if let Value::Object(sub) = item {
                        enums_of_constants(sub);
                    }
                }
            }
            _ => {}
        }
    }
}

/// `text` with its line breaks (from doc comments) as single spaces.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn optional_arguments_lose_null_and_nested_words() {
        let schema = object(json!({
            "type": "object", "title": "Args", "description": "Arguments of x.",
            "properties": {
                "workflowId": {"anyOf": [{"anyOf": [{"type": "integer", "minimum": 0, "description": "id"},
                    {"type": "string", "description": "file"}], "description": "either"}, {"type": "null"}],
                    "description": "Only runs of this\nworkflow."},
                "perPage": {"anyOf": [{"type": "integer", "minimum": 1, "maximum": 100}, {"type": "null"}]},
                "format": {"anyOf": [{"oneOf": [{"type": "string", "const": "toon", "description": "a"},
                    {"type": "string", "const": "json"}]}, {"type": "null"}], "description": "Text format."}
            },
            "required": []
        }));
        assert_eq!(
            Value::Object(compact_input_schema(schema)),
            json!({
                "type": "object",
                "properties": {
                    "workflowId": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "string"}],
                        "description": "Only runs of this workflow."},
                    "perPage": {"type": "integer", "minimum": 1, "maximum": 100},
                    "format": {"type": "string", "enum": ["toon", "json"], "description": "Text format."}
                },
                "required": []
            })
        );
    }

    #[test]
    fn output_schemas_keep_nulls_and_constraints() {
        let schema = object(json!({
            "type": "object", "title": "T", "description": "d",
            "properties": {
                "description": {"type": "string", "description": "a property named description stays"},
                "nextPage": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}], "description": "n",
                    "title": "N"},
                "encoding": {"type": "string", "const": "base64", "enum": ["base64"]},
                "deep": {"type": "object", "properties": {"x": {"type": "string", "description": "dropped"}}}
            },
            "required": ["nextPage"]
        }));
        assert_eq!(
            Value::Object(compact_output_schema(schema)),
            json!({
                "type": "object",
                "properties": {
                    "description": {"type": "string", "description": "a property named description stays"},
                    "nextPage": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}], "description": "n"},
                    "encoding": {"type": "string", "const": "base64"},
                    "deep": {"type": "object", "properties": {"x": {"type": "string"}}}
                },
                "required": ["nextPage"]
            }),
            "each top-level property keeps its own description, nothing below it"
        );
    }

    #[test]
    fn a_nullable_scalar_argument_is_its_scalar_and_an_empty_description_goes() {
        let schema = object(json!({
            "type": "object",
            "properties": {
                "branch": {"type": ["string", "null"], "maxLength": 255, "description": "Branch name."},
                "outputFormat": {"anyOf": [{"type": "string", "enum": ["toon", "json"]}, {"type": "null"}],
                    "description": ""}
            }
        }));
        assert_eq!(
            Value::Object(compact_input_schema(schema)),
            json!({
                "type": "object",
                "properties": {
                    "branch": {"type": "string", "maxLength": 255, "description": "Branch name."},
                    "outputFormat": {"type": "string", "enum": ["toon", "json"]}
                }
            })
        );
    }
}
