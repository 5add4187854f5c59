//! CircleCI's workflows and jobs as [`WaitJob`]s, read afresh (pipeline, workflow and job paths are never cached):
//! what `circleci_wait_for_pipeline` and `ci_status` read from
//! <https://circleci.com/docs/api/v2/index.html#operation/listWorkflowsByPipelineId> and
//! <https://circleci.com/docs/api/v2/index.html#operation/listWorkflowJobs>.

use adapters_circleci::{CircleciClient, CircleciError, GetRequest};
use serde_json::Value;

use crate::logs::is_failed;
use crate::tools::wait::{JobKind, WaitJob};

/// Workflow states that end a workflow (`on_hold` waits for an approval no poll can give, so it ends the wait).
pub(crate) const TERMINAL: &[&str] = &[
    "success",
    "failed",
    "error",
    "canceled",
    "unauthorized",
    "not_run",
    "on_hold",
];

/// One fresh GET's JSON body.
pub(crate) async fn fetch(circleci: &CircleciClient, request: &GetRequest<'_>) -> Result<Value, CircleciError> {
    let response = circleci.get(request).await?;
    Ok(response.body.as_data().cloned().unwrap_or(Value::Null))
}

/// The web page of pipeline `number` of project `slug` (`gh/ORG/REPO` → `github/ORG/REPO`).
pub(crate) fn pipeline_url(slug: &str, number: u64) -> String {
    let mut parts = slug.splitn(2, '/');
    let vcs = match parts.next().unwrap_or_default() {
        "gh" => "github",
        "bb" => "bitbucket",
        other => other,
    };
    format!(
        "https://app.circleci.com/pipelines/{vcs}/{}/{number}",
        parts.next().unwrap_or_default()
    )
}

fn text(value: &Value) -> Option<String> {
    value.as_str().map(str::to_owned)
}

/// A workflow of the pipeline.
pub(crate) fn workflow_entry(workflow: &Value) -> WaitJob {
    let status = workflow["status"].as_str().unwrap_or("unknown");
    let mut entry = WaitJob::new(
        JobKind::Workflow,
        workflow["id"].as_str().unwrap_or_default(),
        workflow["name"].as_str().unwrap_or_default(),
        status,
    );
    entry.finished = TERMINAL.contains(&status);
    entry.conclusion = entry.finished.then(|| status.to_owned());
    entry.failed = matches!(status, "failed" | "error" | "unauthorized");
    entry.started_at = text(&workflow["created_at"]);
    entry.finished_at = text(&workflow["stopped_at"]);
    entry.project_slug = text(&workflow["project_slug"]);
    if let (Some(slug), Some(number), Some(id)) = (
        workflow["project_slug"].as_str(),
        workflow["pipeline_number"].as_u64(),
        workflow["id"].as_str(),
    ) {
        entry.url = Some(format!("{}/workflows/{id}", pipeline_url(slug, number)));
    }
    entry
}

/// A job of a workflow.
pub(crate) fn job_entry(job: &Value) -> WaitJob {
    let status = job["status"].as_str().unwrap_or("unknown");
    let mut entry = WaitJob::new(
        JobKind::CircleciJob,
        job["id"].as_str().unwrap_or_default(),
        job["name"].as_str().unwrap_or_default(),
        status,
    );
    entry.finished = matches!(
        status,
        "success"
            | "failed"
            | "canceled"
            | "not_run"
            | "infrastructure_fail"
            | "timedout"
            | "terminated-unknown"
            | "unauthorized"
    );
    entry.conclusion = entry.finished.then(|| status.to_owned());
    entry.failed = is_failed(Some(status));
    entry.started_at = text(&job["started_at"]);
    entry.finished_at = text(&job["stopped_at"]);
    entry.job_number = job["job_number"].as_u64();
    entry.project_slug = text(&job["project_slug"]);
    entry
}
