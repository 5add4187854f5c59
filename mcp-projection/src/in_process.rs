//! [`InProcess`]: the projection on a blocking thread of the host process.

use serde_json::Value;

use crate::runner::{ProjectionRunner, RunError, Unprojected};

/// Runs the projection in this process, on tokio's blocking pool (so it never stalls the async workers).
///
/// **Risk:** jaq has no step or memory budget. A runaway program (`last(range(1e15))`) keeps one blocking thread
/// busy for ever, and one that builds a huge value (`[range(1e12)]`, `"x" * 1000000000`) can exhaust the host's
/// memory. Use it only where the programs are trusted (your own code, tests); run callers' programs isolated.
#[derive(Debug, Clone, Copy, Default)]
pub struct InProcess;

#[async_trait::async_trait]
impl ProjectionRunner for InProcess {
    async fn project(&self, data: Value, jq: &str) -> Result<Value, Unprojected> {
        if jq.trim().is_empty() {
            return Ok(data);
        }
        let jq = jq.to_owned();
        let joined = tokio::task::spawn_blocking(move || {
            // Compile first: a bad expression gives the data back untouched. Applying consumes the value, so a
            // copy is kept for the (rarer) run-time failure, which also gives the data back.
            let projection = match mcp_envelope::Projection::compile(&jq) {
                Ok(Some(projection)) => projection,
                Ok(None) => return Ok(data),
                Err(err) => return Err((err, data)),
            };
            projection.apply(data.clone()).map_err(|err| (err, data))
        })
        .await;
        match joined {
            Ok(Ok(projected)) => Ok(projected),
            Ok(Err((err, data))) => Err(Unprojected {
                error: RunError::Projection(err.to_string()),
                data,
            }),
            Err(join) => Err(Unprojected {
                error: RunError::Internal(format!("the projection thread failed: {join}")),
                data: Value::Null,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    #[tokio::test]
    async fn projects_and_gives_data_back_on_error() {
        let runner: &dyn ProjectionRunner = &InProcess;
        assert_eq!(runner.project(json!({"a": [1, 2]}), ".a[1]").await.unwrap(), json!(2));
        assert_eq!(runner.project(json!(3), "  ").await.unwrap(), json!(3));
        let failed = runner.project(json!({"a": 1}), "lenght").await.unwrap_err();
        assert!(
            matches!(failed.error, RunError::Projection(ref m) if m.contains("lenght")),
            "{:?}",
            failed.error
        );
        assert_eq!(failed.data, json!({"a": 1}));
    }
}
