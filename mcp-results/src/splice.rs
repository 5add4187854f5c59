//! One JSON object of arguments read as two structs: a tool's own arguments and an [`ArgGroup`] several tools
//! share (the view's `jq` / `outputFormat`, paging, log filters). [`Spliced`] is the pair; [`crate::WithView`] is
//! the pair with [`crate::ViewArgs`].
//!
//! Deserializing takes the group's names out of the object and gives the rest to the tool's own struct, so both
//! keep `deny_unknown_fields` and their integer deserializers (serde's `flatten` buffers the values and breaks
//! both). Errors name the argument by its JSON path (`perPage: invalid value ...`).

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

/// Arguments several tools share, spliced into each tool's own arguments by [`Spliced`].
pub trait ArgGroup: DeserializeOwned + JsonSchema {
    /// The group's argument names on the wire (its struct's fields, as serialized).
    const NAMES: &'static [&'static str];
    /// The property of the tool's own schema that the group's properties are placed before (e.g. `jq`, so the
    /// view arguments stay last); `None` or absent there: at the end.
    const BEFORE: Option<&'static str> = None;
}

/// A tool's own arguments `A` and a shared group `G`, one JSON object on the wire: `{...A's fields, ...G's}`.
/// `A` must not have fields with `G`'s names. The schema is `A`'s with `G`'s properties added (see
/// [`ArgGroup::BEFORE`]) and `G`'s required ones required.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Spliced<A, G> {
    /// The tool's own arguments.
    pub args: A,
    /// The shared group.
    pub group: G,
}

impl<'de, A: DeserializeOwned, G: ArgGroup> Deserialize<'de> for Spliced<A, G> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let object = Map::<String, Value>::deserialize(deserializer)?;
        let (args, group) = split::<A, G>(object).map_err(D::Error::custom)?;
        Ok(Spliced { args, group })
    }
}

impl<A: JsonSchema, G: ArgGroup> JsonSchema for Spliced<A, G> {
    fn schema_name() -> Cow<'static, str> {
        format!("{}{}", A::schema_name(), G::schema_name()).into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        schema::<A, G>(generator)
    }
}

/// `object` read as `G` (its names taken out) and `A` (the rest). The error text names the argument.
pub(crate) fn split<A: DeserializeOwned, G: ArgGroup>(mut object: Map<String, Value>) -> Result<(A, G), String> {
    let mut taken = Map::new();
    for name in G::NAMES {
        if let Some(value) = object.shift_remove(*name) {
            taken.insert((*name).to_owned(), value);
        }
    }
    let group = with_path(Value::Object(taken))?;
    let args = with_path(Value::Object(object))?;
    Ok((args, group))
}

/// `value` as `T`, an error naming the argument by its path (`.`: the object itself, no path).
fn with_path<T: DeserializeOwned>(value: Value) -> Result<T, String> {
    serde_path_to_error::deserialize(value).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        if path == "." {
            inner.to_string()
        } else {
            format!("{path}: {inner}")
        }
    })
}

/// `A`'s schema with `G`'s properties spliced in.
pub(crate) fn schema<A: JsonSchema, G: ArgGroup>(generator: &mut SchemaGenerator) -> Schema {
    let mut schema = A::json_schema(generator);
    let group = G::json_schema(generator);
    let added = group
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let required: Vec<Value> = group
        .get("required")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if let Some(object) = schema.as_object_mut() {
        object.entry("type").or_insert_with(|| Value::from("object"));
        let properties = object.entry("properties").or_insert_with(|| Value::Object(Map::new()));
        if let Some(properties) = properties.as_object_mut() {
            let own = std::mem::take(properties);
            let mut added = Some(added);
            for (name, property) in own {
                if G::BEFORE == Some(name.as_str())
                    && let Some(added) = added.take()
                {
                    properties.extend(added);
                }
                properties.insert(name, property);
            }
            properties.extend(added.unwrap_or_default());
        }
        if !required.is_empty()
            && let Some(list) = object
                .entry("required")
                .or_insert_with(|| Value::Array(Vec::new()))
                .as_array_mut()
        {
            list.extend(required);
        }
    }
    schema
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    struct Own {
        owner: String,
        jq: Option<String>,
    }

    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    struct Group {
        #[serde(default, deserialize_with = "crate::args::integer::optional")]
        per_page: Option<u64>,
        page: u64,
    }

    impl ArgGroup for Group {
        const NAMES: &'static [&'static str] = &["perPage", "page"];
        const BEFORE: Option<&'static str> = Some("jq");
    }

    #[test]
    fn splits_the_group_from_the_own_arguments() {
        let parsed: Spliced<Own, Group> =
            serde_json::from_value(json!({"owner": "o", "perPage": "5", "page": 2, "jq": "."})).unwrap();
        assert_eq!((parsed.group.per_page, parsed.group.page), (Some(5), 2));
        assert_eq!(
            (parsed.args.owner.as_str(), parsed.args.jq.as_deref()),
            ("o", Some("."))
        );
        let err = serde_json::from_value::<Spliced<Own, Group>>(json!({"owner": "o", "page": "x"})).unwrap_err();
        assert!(err.to_string().starts_with("page: invalid type"), "{err}");
        let err = serde_json::from_value::<Spliced<Own, Group>>(json!({"owner": "o", "page": 1, "nope": 1}));
        assert!(err.unwrap_err().to_string().contains("unknown field `nope`"));
        let err = serde_json::from_value::<Spliced<Own, Group>>(json!({"owner": "o"})).unwrap_err();
        assert!(err.to_string().contains("missing field `page`"), "{err}");
    }

    #[test]
    fn the_schema_places_the_group_before_jq_and_requires_its_required() {
        let schema = crate::schema::input_schema::<Spliced<Own, Group>>();
        let properties = schema["properties"].as_object().unwrap();
        assert_eq!(
            properties.keys().collect::<Vec<_>>(),
            ["owner", "perPage", "page", "jq"]
        );
        assert_eq!(schema["required"], json!(["owner", "page"]));
        assert_eq!(schema["additionalProperties"], json!(false));
    }
}
