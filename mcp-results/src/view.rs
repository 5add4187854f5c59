//! How the caller asked to see a result, as a client sends it: [`ViewArgs`] (the `jq` and `outputFormat` arguments)
//! and [`WithView`] (a tool's own arguments with those two added, for rmcp's `Parameters<T>`); both give the one
//! [`View`] type (`mcp_envelope::View`, re-exported at the crate root), which [`crate::Responder`] takes.

use std::borrow::Cow;

use mcp_envelope::{OutputFormat, View};
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

use crate::args::MAX_JQ_CHARS;
use crate::splice::{self, ArgGroup};

impl From<ViewArgs> for View {
    /// [`ViewArgs::into_view`].
    fn from(args: ViewArgs) -> Self {
        args.into_view()
    }
}

/// The two view arguments every result tool takes: `jq` (at most [`MAX_JQ_CHARS`] characters) and `outputFormat`
/// (`toon` or `json`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ViewArgs {
    /// jq (or JMESPath) applied to the result's data; must yield one value, e.g. `map({id, name})`. No description
    /// in the schema: the `outputSchema`'s `data` says it once for every tool, which keeps `tools/list` small.
    #[schemars(description = "")]
    #[schemars(length(max = MAX_JQ_CHARS))]
    pub jq: Option<String>,
    /// Text format: toon (default) or json (the type says it: no description in the schema).
    #[schemars(description = "")]
    pub output_format: Option<OutputFormat>,
}

impl ArgGroup for ViewArgs {
    const NAMES: &'static [&'static str] = &["jq", "outputFormat"];
}

impl ViewArgs {
    /// The two arguments as given (`None`: not sent).
    pub fn new(jq: Option<String>, output_format: Option<OutputFormat>) -> Self {
        ViewArgs { jq, output_format }
    }

    /// The [`View`] these arguments ask for, the text rendered from the envelope.
    pub fn into_view(self) -> View {
        View::new(self.jq, self.output_format.unwrap_or_default())
    }
}

/// A tool's own arguments `A` plus [`ViewArgs`], flattened into one JSON object: `{...A's fields, jq?,
/// outputFormat?}`. Use it as rmcp's `Parameters<WithView<A>>`.
///
/// Deserializing takes `jq` and `outputFormat` out of the object and gives the rest to `A` (so `A`'s
/// `deny_unknown_fields` and its integer deserializers work as on their own; serde's `flatten` would buffer the
/// values and break both). The JSON schema is `A`'s with the two properties added (neither required). `A` must
/// not have fields named `jq` or `outputFormat`.
///
/// ```
/// use mcp_results::WithView;
/// use schemars::JsonSchema;
/// use serde::Deserialize;
///
/// #[derive(Deserialize, JsonSchema)]
/// #[serde(deny_unknown_fields)]
/// struct ListArgs {
///     /// Only widgets of this colour.
///     colour: Option<String>,
/// }
///
/// let args: WithView<ListArgs> =
///     serde_json::from_value(serde_json::json!({"colour": "red", "jq": "map(.id)"}))?;
/// assert_eq!(args.args.colour.as_deref(), Some("red"));
/// assert_eq!(args.view.jq.as_deref(), Some("map(.id)"));
/// let schema = mcp_results::schema::input_schema::<WithView<ListArgs>>();
/// assert!(schema["properties"]["outputFormat"].is_object());
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WithView<A> {
    /// The tool's own arguments.
    pub args: A,
    /// `jq` and `outputFormat`.
    pub view: ViewArgs,
}

impl<A> WithView<A> {
    /// The [`View`] the caller asked for (text rendered from the envelope).
    pub fn view(&self) -> View {
        self.view.clone().into_view()
    }
}

impl<'de, A: DeserializeOwned> Deserialize<'de> for WithView<A> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let object = Map::<String, Value>::deserialize(deserializer)?;
        let (args, view) = splice::split::<A, ViewArgs>(object).map_err(D::Error::custom)?;
        Ok(WithView { args, view })
    }
}

impl<A: JsonSchema> JsonSchema for WithView<A> {
    fn schema_name() -> Cow<'static, str> {
        format!("{}WithView", A::schema_name()).into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        splice::schema::<A, ViewArgs>(generator)
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
        #[serde(default, deserialize_with = "crate::args::integer::optional")]
        per_page: Option<u64>,
    }

    #[test]
    fn splits_view_from_own_arguments() {
        let parsed: WithView<Own> =
            serde_json::from_value(json!({"perPage": "5", "jq": ".a", "outputFormat": "json"})).unwrap();
        assert_eq!(parsed.args.per_page, Some(5));
        assert_eq!(parsed.view(), View::new(Some(".a".into()), OutputFormat::Json));
        let err = serde_json::from_value::<WithView<Own>>(json!({"perPage": "x"})).unwrap_err();
        assert!(err.to_string().starts_with("perPage: invalid value"), "{err}");
        let err = serde_json::from_value::<WithView<Own>>(json!({"nope": 1})).unwrap_err();
        assert!(err.to_string().contains("unknown field `nope`"), "{err}");
        let err = serde_json::from_value::<WithView<Own>>(json!({"outputFormat": "xml"})).unwrap_err();
        assert!(err.to_string().contains("unknown variant `xml`"), "{err}");
    }

    #[test]
    fn schema_has_both_sets_of_properties() {
        let schema = crate::schema::input_schema::<WithView<Own>>();
        let properties = schema["properties"].as_object().unwrap();
        assert_eq!(properties.keys().collect::<Vec<_>>(), ["perPage", "jq", "outputFormat"]);
        assert_eq!(properties["jq"]["maxLength"], json!(MAX_JQ_CHARS));
        assert_eq!(properties["outputFormat"]["enum"], json!(["toon", "json"]));
        assert_eq!(schema["additionalProperties"], json!(false));
        assert!(schema.get("required").is_none_or(|r| r.as_array().unwrap().is_empty()));
    }
}
