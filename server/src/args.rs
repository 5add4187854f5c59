//! Tool argument parsing: JSON object → typed struct, with errors that name the argument.

use rmcp::model::JsonObject;
use serde::de::DeserializeOwned;

/// Why a tool's arguments were rejected; the text names the argument and what it accepts.
#[derive(Debug, thiserror::Error)]
#[error("Invalid arguments for {tool}: {detail}")]
pub struct ArgumentError {
    /// The tool whose arguments were rejected.
    pub tool: &'static str,
    /// What is wrong, naming the argument (e.g. "perPage: must be between 1 and 100, got 0").
    pub detail: String,
}

impl ArgumentError {
    /// An error for `tool` with this detail.
    pub fn new(tool: &'static str, detail: impl Into<String>) -> Self {
        ArgumentError {
            tool,
            detail: detail.into(),
        }
    }
}

/// Deserializes `arguments` (absent = `{}`) into `T`. Errors name the offending argument by its JSON path
/// (e.g. `perPage: invalid type: string "x", expected u64`), or say which required argument is missing.
pub fn parse<T: DeserializeOwned>(tool: &'static str, arguments: Option<JsonObject>) -> Result<T, ArgumentError> {
    let value = serde_json::Value::Object(arguments.unwrap_or_default());
    serde_path_to_error::deserialize(value).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner().to_string();
        let detail = if path == "." { inner } else { format!("{path}: {inner}") };
        ArgumentError::new(tool, detail)
    })
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
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    #[allow(dead_code)]
    struct Args {
        owner: String,
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
        let err = check_range("t", "perPage", Some(0), 1, 100).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Invalid arguments for t: perPage: must be between 1 and 100, got 0"
        );
    }
}
