//! The JMESPath fallback dialect, for clients written against
//! the reference servers (`workflow_runs[*].id`).
//!
//! Numbers stay exact: jmespath 0.5 stores them as `serde_json::Number`.
//! Note: JMESPath objects are sorted maps, so objects in a JMESPath result
//! have their keys in sorted order.

use serde_json::Value;

/// A compiled JMESPath expression.
#[derive(Clone)]
pub(crate) struct JmesPathProgram {
    expression: jmespath::Expression<'static>,
}

impl std::fmt::Debug for JmesPathProgram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("JmesPathProgram")
            .field(&self.expression.as_str())
            .finish()
    }
}

fn describe(err: &jmespath::JmespathError) -> String {
    format!("{} at line {}, column {}", err.reason, err.line + 1, err.column + 1)
}

impl JmesPathProgram {
    /// Compile `code` as JMESPath. The error is a one-line description.
    pub(crate) fn compile(code: &str) -> Result<Self, String> {
        jmespath::compile(code)
            .map(|expression| Self { expression })
            .map_err(|e| describe(&e))
    }

    /// Evaluate on `input`.
    pub(crate) fn run(&self, input: Value) -> Result<Value, String> {
        // Converted here, numbers moved over as they are: jmespath's own conversion of nested values goes through
        // serde, which (see `to_value`) would turn them into maps.
        // `Expression::search` would convert its argument through serde again (jmespath's blanket `ToJmespath`), so
        // the interpreter is called directly on the converted value.
        let data = jmespath::Rcvar::new(from_value(input));
        let mut context = jmespath::Context::new(self.expression.as_str(), &jmespath::DEFAULT_RUNTIME);
        let result = jmespath::interpret(&data, self.expression.as_ast(), &mut context).map_err(|e| describe(&e))?;
        Ok(to_value(&result))
    }
}

/// JSON as a JMESPath value, numbers moved over as they are.
fn from_value(value: Value) -> jmespath::Variable {
    use jmespath::Variable;
    match value {
        Value::Null => Variable::Null,
        Value::Bool(b) => Variable::Bool(b),
        Value::Number(n) => Variable::Number(n),
        Value::String(s) => Variable::String(s),
        Value::Array(items) => {
            Variable::Array(items.into_iter().map(|v| jmespath::Rcvar::new(from_value(v))).collect())
        }
        Value::Object(map) => Variable::Object(
            map.into_iter()
                .map(|(k, v)| (k, jmespath::Rcvar::new(from_value(v))))
                .collect(),
        ),
    }
}

/// A JMESPath value as JSON, numbers moved over as they are (`serde_json::Number`, every digit kept). Not through
/// serde: with serde_json's `arbitrary_precision`, a number serialized that way arrives as serde_json's private
/// number map.
fn to_value(variable: &jmespath::Variable) -> Value {
    use jmespath::Variable;
    match variable {
        Variable::Null => Value::Null,
        Variable::String(s) => Value::String(s.clone()),
        Variable::Bool(b) => Value::Bool(*b),
        Variable::Number(n) => Value::Number(n.clone()),
        Variable::Array(items) => Value::Array(items.iter().map(|item| to_value(item)).collect()),
        Variable::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), to_value(v))).collect()),
        Variable::Expref(ast) => Value::String(format!("<expression: {ast:?}>")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn program_is_send_sync() {
        assert_send_sync::<JmesPathProgram>();
    }
}
