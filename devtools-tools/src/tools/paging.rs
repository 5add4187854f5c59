//! The paging arguments the paged GitHub tools share (`perPage`, `page`: [`PageArgs`]) and [`Paged`], a tool's own
//! arguments with them spliced in, like the front door's [`mcp_results::WithView`] splices `jq` and `outputFormat`.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

use crate::args::{self, ArgumentError};

/// `perPage` and `page` as a client sends them (integers may be digit strings).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PageArgs {
    /// 1..=100 (default 30).
    #[schemars(range(min = 1, max = 100))]
    #[serde(default, deserialize_with = "crate::args::integer::optional")]
    pub per_page: Option<u64>,
    #[schemars(description = "")]
    /// Page, from 1: the last result's nextPage.
    #[schemars(range(min = 1))]
    #[serde(default, deserialize_with = "crate::args::integer::optional")]
    pub page: Option<u64>,
}

impl PageArgs {
    /// The names of the two arguments on the wire.
    pub const NAMES: [&'static str; 2] = ["perPage", "page"];

    /// Validates `perPage` (1..=100) and `page` (>= 1) and narrows them to the adapters' types.
    pub fn check(&self, tool: &'static str) -> Result<(Option<u8>, Option<u32>), ArgumentError> {
        args::check_range(tool, "perPage", self.per_page, 1, 100)?;
        args::check_range(tool, "page", self.page, 1, u64::from(u32::MAX))?;
        Ok((
            self.per_page.and_then(|p| u8::try_from(p).ok()),
            self.page.and_then(|p| u32::try_from(p).ok()),
        ))
    }
}

/// A paged tool's own arguments `A` plus [`PageArgs`], one JSON object. Deserializing takes `perPage` and `page`
/// out and gives the rest to `A` (so `A`'s `deny_unknown_fields` works; serde's `flatten` would not). The schema is
/// `A`'s with the two properties placed before `jq` (the view arguments stay last), else at the end.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Paged<A> {
    /// The tool's own arguments.
    pub args: A,
    /// `perPage` and `page`.
    pub paging: PageArgs,
}

impl<'de, A: DeserializeOwned> Deserialize<'de> for Paged<A> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut object = Map::<String, Value>::deserialize(deserializer)?;
        let mut paging = Map::new();
        for name in PageArgs::NAMES {
            if let Some(value) = object.shift_remove(name) {
                paging.insert(name.to_owned(), value);
            }
        }
        let paging = serde_path_to_error::deserialize(Value::Object(paging)).map_err(|err| {
            let path = err.path().to_string();
            D::Error::custom(format!("{path}: {}", err.into_inner()))
        })?;
        // The tool's own arguments keep their paths in errors (`runId: invalid type ...`).
        let args = serde_path_to_error::deserialize(Value::Object(object)).map_err(|err| {
            let path = err.path().to_string();
            let inner = err.into_inner();
            if path == "." {
                D::Error::custom(inner)
            } else {
                D::Error::custom(format!("{path}: {inner}"))
            }
        })?;
        Ok(Paged { args, paging })
    }
}

impl<A: JsonSchema> JsonSchema for Paged<A> {
    fn schema_name() -> Cow<'static, str> {
        format!("{}Paged", A::schema_name()).into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut schema = A::json_schema(generator);
        let paging = PageArgs::json_schema(generator);
        let added = paging
            .get("properties")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        if let Some(Value::Object(properties)) = schema.as_object_mut().and_then(|o| o.get_mut("properties")) {
            let own = std::mem::take(properties);
            let mut added = Some(added);
            for (name, property) in own {
                if name == "jq"
                    && let Some(added) = added.take()
                {
                    properties.extend(added);
                }
                properties.insert(name, property);
            }
            properties.extend(added.unwrap_or_default());
        }
        schema
    }
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

    #[test]
    fn splits_paging_from_own_arguments() {
        let parsed: Paged<Own> =
            serde_json::from_value(json!({"owner": "o", "perPage": "5", "page": 2, "jq": "."})).unwrap();
        assert_eq!((parsed.paging.per_page, parsed.paging.page), (Some(5), Some(2)));
        assert_eq!(
            (parsed.args.owner.as_str(), parsed.args.jq.as_deref()),
            ("o", Some("."))
        );
        let err = serde_json::from_value::<Paged<Own>>(json!({"owner": "o", "page": "x"})).unwrap_err();
        assert!(err.to_string().starts_with("page: invalid value"), "{err}");
        let err = serde_json::from_value::<Paged<Own>>(json!({"owner": "o", "nope": 1})).unwrap_err();
        assert!(err.to_string().contains("unknown field `nope`"), "{err}");
        let err = PageArgs {
            per_page: Some(0),
            page: None,
        }
        .check("t")
        .unwrap_err();
        assert!(
            err.to_string().ends_with("perPage: must be between 1 and 100, got 0"),
            "{err}"
        );
    }

    #[test]
    fn paging_properties_come_before_jq() {
        let schema = mcp_results::schema::input_schema::<Paged<Own>>();
        let properties = schema["properties"].as_object().unwrap();
        assert_eq!(
            properties.keys().collect::<Vec<_>>(),
            ["owner", "perPage", "page", "jq"]
        );
        assert_eq!(schema["required"], json!(["owner"]));
    }
}
