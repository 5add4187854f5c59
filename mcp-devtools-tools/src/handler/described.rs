//! Each tool's argument descriptions moved into its description, once, for `tools/list`.
//!
//! A code-mode harness writes an argument's description twice: on the field of the generated input type and as an
//! `@param` line of the tool's doc comment (`@cloudflare/codemode`'s `generateTypesFromJsonSchema` does both), so a
//! model pays for every argument description twice in every session. In the tool's description it is written once,
//! next to what the tool does, and a client that shows only the description still sees it. The argument's schema
//! keeps everything that constrains a value (`type`, `enum`, `minimum`, `maxLength`, ...).

use std::sync::Arc;

use rmcp::model::Tool;
use serde_json::Value;

/// `tool` with each top-level argument's `description` appended to its description as `name: text` (in the
/// schema's order, each text ending with a full stop) and removed from `inputSchema`. A tool whose arguments have
/// no description is returned as it is.
pub(crate) fn arguments_in_description(mut tool: Tool) -> Tool {
    let mut schema = (*tool.input_schema).clone();
    let Some(Value::Object(properties)) = schema.get_mut("properties") else {
        return tool;
    };
    let mut described = Vec::new();
    for (name, property) in properties.iter_mut() {
        if let Some(Value::String(text)) = property.as_object_mut().and_then(|p| p.remove("description")) {
            let text = text.trim();
            if !text.is_empty() {
                let stop = if text.ends_with('.') { "" } else { "." };
                described.push(format!("{name}: {text}{stop}"));
            }
        }
    }
    if described.is_empty() {
        return tool;
    }
    let mut description = tool.description.as_deref().unwrap_or_default().trim_end().to_owned();
    for line in described {
        if !description.is_empty() {
            description.push(' ');
        }
        description.push_str(&line);
    }
    tool.description = Some(description.into());
    tool.input_schema = Arc::new(schema);
    tool
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use serde_json::json;

    use super::*;

    #[test]
    fn argument_descriptions_join_the_tool_description_once() {
        let schema = json!({"type": "object", "properties": {
            "runId": {"type": "integer", "minimum": 0, "description": "The run's id"},
            "raw": {"type": "boolean"},
            "filter": {"type": "string", "enum": ["latest", "all"], "description": "latest (default) or all."}
        }, "required": ["runId"]});
        let tool = Tool::new("t", "List jobs.", Arc::new(schema.as_object().cloned().unwrap()));
        let tool = arguments_in_description(tool);
        assert_eq!(
            tool.description.as_deref(),
            Some("List jobs. runId: The run's id. filter: latest (default) or all.")
        );
        assert_eq!(
            Value::Object((*tool.input_schema).clone()),
            json!({"type": "object", "properties": {
                "runId": {"type": "integer", "minimum": 0},
                "raw": {"type": "boolean"},
                "filter": {"type": "string", "enum": ["latest", "all"]}
            }, "required": ["runId"]}),
            "the constraints stay"
        );
        let bare = Tool::new("u", "Nothing to add.", Arc::new(serde_json::Map::new()));
        assert_eq!(
            arguments_in_description(bare).description.as_deref(),
            Some("Nothing to add.")
        );
    }
}
