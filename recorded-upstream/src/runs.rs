//! The workflow runs of the GitHub runs fixtures, the one source the derived bodies (per-run jobs, CircleCI
//! pipelines of the same commits) are built from, so every vendor tells the same story.

use serde_json::Value;

use crate::fixture::fixture;

/// The runs fixtures, newest first: page 1 and page 2 of the 100-run listing, then the single-workflow one.
pub const RUNS_FIXTURES: [&str; 3] = ["github/runs-large", "github/actions-runs", "github/workflow-runs"];

/// Every run of [`RUNS_FIXTURES`], in that order (ids are distinct).
///
/// # Errors
/// A fixture that does not load or parse.
pub fn all() -> anyhow::Result<Vec<Value>> {
    let mut runs = Vec::new();
    for name in RUNS_FIXTURES {
        let body: Value = serde_json::from_slice(fixture(name)?.body)?;
        runs.extend(body["workflow_runs"].as_array().cloned().unwrap_or_default());
    }
    Ok(runs)
}
