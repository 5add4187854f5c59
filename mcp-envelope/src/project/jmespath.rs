//! The JMESPath fallback dialect (CONTRACT §4), for clients written against
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
        let result = self.expression.search(input).map_err(|e| describe(&e))?;
        serde_json::to_value(&*result).map_err(|e| e.to_string())
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
