//! Tool argument parsing: a JSON object to a typed struct, with errors that name the argument and say what it
//! accepts. [`integer`]: whole numbers sent as JSON integers or digit strings.

pub mod integer;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use rmcp::model::JsonObject;
use serde::de::DeserializeOwned;

/// `_meta.code` of a call refused for its arguments.
pub const INVALID_ARGUMENT: &str = "invalid_argument";

/// Why a tool's arguments were rejected; the text names the argument and what it accepts.
#[non_exhaustive]
#[derive(Debug, thiserror::Error)]
#[error("Invalid arguments for {tool}: {detail}")]
pub struct ArgumentError {
    /// The tool whose arguments were rejected.
    pub tool: std::borrow::Cow<'static, str>,
    /// What is wrong, naming the argument (e.g. "perPage: must be between 1 and 100, got 0").
    pub detail: String,
}

impl ArgumentError {
    /// The error result: this text and `_meta.code: "invalid_argument"` (nothing was sent upstream; fix the call).
    pub fn into_result(self) -> rmcp::model::CallToolResult {
        crate::coded_error(self.to_string(), INVALID_ARGUMENT)
    }

    /// An error for `tool` with this detail.
    pub fn new(tool: impl Into<std::borrow::Cow<'static, str>>, detail: impl Into<String>) -> Self {
        ArgumentError {
            tool: tool.into(),
            detail: detail.into(),
        }
    }
}

impl From<ArgumentError> for rmcp::model::CallToolResult {
    /// [`ArgumentError::into_result`], so a `#[tool]` method returning `Result<Json<…>, CallToolResult>` can use
    /// `?` on its arguments.
    fn from(err: ArgumentError) -> Self {
        err.into_result()
    }
}

/// Longest `jq` expression, characters (the byte limit [`mcp_envelope::MAX_EXPRESSION_BYTES`] applies
/// too, see [`check_jq`]).
pub const MAX_JQ_CHARS: u32 = 65_536;

/// Deserializes `arguments` (absent = `{}`) into `T`. Errors name the offending argument by its JSON path
/// (e.g. `perPage: invalid type: string "x", expected u64`), or say which required argument is missing. First,
/// every top-level string argument is checked against the `maxLength` that `T`'s advertised input schema gives it
/// (`owner is too long: 3145728 characters, at most 100`), so the schema and the check cannot drift apart.
pub fn parse<T: DeserializeOwned + schemars::JsonSchema>(
    tool: impl Into<std::borrow::Cow<'static, str>>,
    arguments: Option<JsonObject>,
) -> Result<T, ArgumentError> {
    let tool = tool.into();
    let arguments = arguments.unwrap_or_default();
    check_lengths::<T>(&tool, &arguments)?;
    let value = serde_json::Value::Object(arguments);
    serde_path_to_error::deserialize(value).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner().to_string();
        let detail = if path == "." { inner } else { format!("{path}: {inner}") };
        ArgumentError::new(tool, detail)
    })
}

/// Checks each top-level string argument against its `maxLength` in `T`'s advertised input schema (characters).
fn check_lengths<T: schemars::JsonSchema>(tool: &str, arguments: &JsonObject) -> Result<(), ArgumentError> {
    let limits = max_lengths::<T>();
    for (name, value) in arguments {
        let (Some(text), Some(&max)) = (value.as_str(), limits.get(name)) else {
            continue;
        };
        // Bytes bound characters from above: count characters only when the bytes are over.
        if u64::try_from(text.len()).unwrap_or(u64::MAX) <= max {
            continue;
        }
        let chars = text.chars().count();
        if u64::try_from(chars).unwrap_or(u64::MAX) > max {
            return Err(ArgumentError::new(
                tool.to_owned(),
                format!("{name} is too long: {chars} characters, at most {max}"),
            ));
        }
    }
    Ok(())
}

/// The `maxLength` of each top-level string argument in `T`'s advertised input schema (characters; an optional
/// argument's sits in its `anyOf` string branch), read from the very schema `tools/list` advertises, once per type
/// (by its schemars `schema_id`): generating a schema costs more than the rest of a small call (issue 46).
fn max_lengths<T: schemars::JsonSchema>() -> Arc<HashMap<String, u64>> {
    type Cache = Mutex<HashMap<std::borrow::Cow<'static, str>, Arc<HashMap<String, u64>>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Cache::default);
    let id = T::schema_id();
    if let Some(limits) = cache.lock().unwrap_or_else(PoisonError::into_inner).get(&id) {
        return limits.clone();
    }
    let limits = Arc::new(read_max_lengths(&crate::schema::input_schema::<T>()));
    cache
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(id, limits.clone());
    limits
}

/// The `maxLength` of each property of an input schema that has one (directly or in an `anyOf` branch).
fn read_max_lengths(schema: &JsonObject) -> HashMap<String, u64> {
    use serde_json::Value;
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return HashMap::new();
    };
    let max_length = |property: &Value| {
        property.get("maxLength").and_then(Value::as_u64).or_else(|| {
            property
                .get("anyOf")?
                .as_array()?
                .iter()
                .find_map(|branch| branch.get("maxLength").and_then(Value::as_u64))
        })
    };
    properties
        .iter()
        .filter_map(|(name, property)| Some((name.clone(), max_length(property)?)))
        .collect()
}

/// Checks the `jq` argument (when given and not blank) compiles, so a bad expression is an argument error before
/// anything is sent upstream. The error reads `jq: <reason>`, the reason being [`mcp_envelope::ProjectionError`]'s
/// text: over [`mcp_envelope::MAX_EXPRESSION_BYTES`] bytes (64 KiB), or neither valid jq nor valid
/// JMESPath (both parser messages). Compiles on a blocking thread: a 64 KiB expression can take a moment. The
/// result pipeline compiles it again (a typical expression compiles in well under a millisecond).
pub async fn check_jq(tool: &'static str, jq: Option<&str>) -> Result<(), ArgumentError> {
    let Some(expr) = jq.filter(|expr| !expr.trim().is_empty()) else {
        return Ok(());
    };
    if expr.len() > mcp_envelope::MAX_EXPRESSION_BYTES {
        // Checked here too, so a huge expression is not copied to another thread.
        let err = mcp_envelope::ProjectionError::TooLong {
            bytes: expr.len(),
            limit: mcp_envelope::MAX_EXPRESSION_BYTES,
        };
        return Err(ArgumentError::new(tool, format!("jq: {err}")));
    }
    let expr = expr.to_owned();
    match tokio::task::spawn_blocking(move || mcp_envelope::Projection::compile(&expr).map(|_| ())).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(err)) => Err(ArgumentError::new(tool, format!("jq: {err}"))),
        Err(join) => Err(ArgumentError::new(
            tool,
            format!("jq: the expression could not be checked ({join})"),
        )),
    }
}

/// Checks `value` (when given) is within `min..=max`, naming `name` in the error.
pub fn check_range(
    tool: &'static str,
    name: &str,
    value: Option<u64>,
    min: u64,
    max: u64,
) -> Result<(), ArgumentError> {
    match value {
        Some(v) if v < min || v > max => {
            let range = if max == u64::MAX {
                format!("at least {min}")
            } else {
                format!("between {min} and {max}")
            };
            Err(ArgumentError::new(tool, format!("{name}: must be {range}, got {v}")))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, schemars::JsonSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    #[allow(dead_code)]
    struct Args {
        #[schemars(length(max = 3))]
        owner: String,
        #[schemars(length(max = 2))]
        branch: Option<String>,
        per_page: Option<u64>,
    }

    fn obj(value: serde_json::Value) -> Option<JsonObject> {
        value.as_object().cloned()
    }

    #[test]
    fn errors_name_the_argument() {
        let err = parse::<Args>("t", obj(serde_json::json!({}))).unwrap_err();
        assert!(err.to_string().contains("missing field `owner`"), "{err}");
        let err = parse::<Args>("t", obj(serde_json::json!({"owner": "o", "perPage": "x"}))).unwrap_err();
        assert!(err.to_string().contains("perPage: invalid type"), "{err}");
        let err = parse::<Args>("t", obj(serde_json::json!({"owner": "o", "nope": 1}))).unwrap_err();
        assert!(err.to_string().contains("unknown field `nope`"), "{err}");
        let err = parse::<Args>("t", obj(serde_json::json!({"owner": "oooo"}))).unwrap_err();
        assert!(
            err.to_string().ends_with("owner is too long: 4 characters, at most 3"),
            "{err}"
        );
        assert!(
            parse::<Args>("t", obj(serde_json::json!({"owner": "ööö"}))).is_ok(),
            "characters, not bytes"
        );
        let err = parse::<Args>("t", obj(serde_json::json!({"owner": "o", "branch": "bbb"}))).unwrap_err();
        assert!(err.to_string().contains("branch is too long"), "{err}");
        let err = check_range("t", "perPage", Some(0), 1, 100).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Invalid arguments for t: perPage: must be between 1 and 100, got 0"
        );
    }

    #[tokio::test]
    async fn jq_is_checked_and_named() {
        assert!(check_jq("t", None).await.is_ok());
        assert!(check_jq("t", Some("  ")).await.is_ok());
        assert!(check_jq("t", Some(".workflow_runs | map(.id)")).await.is_ok());
        assert!(check_jq("t", Some("workflow_runs[*].id")).await.is_ok());
        let err = check_jq("t", Some(".[")).await.unwrap_err().to_string();
        assert!(
            err.starts_with("Invalid arguments for t: jq: the jq expression is not valid jq"),
            "{err}"
        );
        let huge = ".".repeat(1 << 20);
        let err = check_jq("t", Some(&huge)).await.unwrap_err().to_string();
        assert!(
            err.contains("jq: the jq expression is 1048576 bytes long; the limit is 65536 bytes"),
            "{err}"
        );
    }
}
