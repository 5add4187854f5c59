//! The advertised `inputSchema` of a tool's argument struct, the one [`crate::args::parse`] checks `maxLength`
//! against.

use rmcp::model::JsonObject;
use schemars::JsonSchema;
use serde_json::Value;

/// The input schema of argument struct `T`: object root, draft-07-safe keywords, everything inlined
/// ([`mcp_envelope::input_schema_for`]), optional arguments not required, then compacted for `tools/list`
/// ([`mcp_envelope::compact_input_schema`]: no root title/description, one line of description per argument).
///
/// `#[serde(default)]` on an optional argument (needed beside `deserialize_with`, see [`crate::args::integer`])
/// makes schemars write `"default": null`; an absent argument already means that, so it is left out.
pub fn input_schema<T: JsonSchema>() -> JsonObject {
    let mut schema = mcp_envelope::input_schema_for::<T>();
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        for property in properties.values_mut() {
            if let Value::Object(property) = property
                && property.get("default") == Some(&Value::Null)
            {
                property.shift_remove("default");
            }
        }
    }
    mcp_envelope::compact_input_schema(schema)
}
