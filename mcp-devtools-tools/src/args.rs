//! Tool arguments: the generic parsing lives in [`mcp_results::args`] (re-exported here); this module keeps the
//! limits of this server's own arguments and the text for unreadable `tools/call` params.

pub use mcp_results::args::{ArgumentError, MAX_JQ_CHARS, check_jq, check_range, integer, parse};

/// Longest `owner` and `repo`, characters (GitHub allows 39 and 100).
pub const MAX_NAME_CHARS: u32 = 100;
/// Longest filter value (`branch`, `status`, `event`, `actor`), characters (git refs are practically shorter).
pub const MAX_FILTER_CHARS: u32 = 255;
/// Longest API `path`, characters.
pub const MAX_PATH_CHARS: u32 = 4096;

/// The JSON-RPC error text for a `tools/call` request whose `params` rmcp could not read (it then hands the request
/// to the server as a custom request): says which part is malformed — `params` not an object, `name` not a string,
/// or `arguments` not a JSON object (`null` and absent are fine) — and what to send instead.
pub fn malformed_call_params(params: Option<&serde_json::Value>) -> String {
    use serde_json::Value;
    let kind = |value: &Value| match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    };
    let Some(params) = params.and_then(Value::as_object) else {
        return "Invalid tools/call params: they must be an object {\"name\": <tool name>, \"arguments\": {...}}"
            .to_owned();
    };
    match (params.get("name"), params.get("arguments")) {
        (Some(Value::String(_)), Some(arguments)) if !arguments.is_object() && !arguments.is_null() => format!(
            "Invalid tools/call params: arguments must be a JSON object of the tool's arguments by name \
             (e.g. {{\"owner\": \"octo-org\", \"repo\": \"octo-repo\"}}), got {}",
            kind(arguments)
        ),
        (Some(Value::String(_)), _) => "Invalid tools/call params: check them against the MCP tools/call request \
                                        ({\"name\": <tool name>, \"arguments\": {...}})"
            .to_owned(),
        (name, _) => format!(
            "Invalid tools/call params: name must be the tool's name as a string (see tools/list), got {}",
            name.map_or("nothing", kind)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_call_params_say_what_is_wrong() {
        let text = malformed_call_params(Some(&serde_json::json!({"name": "t", "arguments": [1]})));
        assert!(text.contains("arguments must be a JSON object"), "{text}");
        assert!(text.ends_with("got an array"), "{text}");
        let text = malformed_call_params(Some(&serde_json::json!({"name": 3})));
        assert!(text.contains("name must be the tool's name as a string"), "{text}");
        assert!(text.ends_with("got a number"), "{text}");
        let text = malformed_call_params(Some(&serde_json::json!("x")));
        assert!(text.contains("must be an object"), "{text}");
    }
}
