//! Why a GitHub job's log is missing: the logs endpoint answers `404` or `410` both for a job that has not finished
//! and for a log that is gone (deleted, or past the repository's retention, 90 days by default), and a program
//! must tell "wait" from "give up". The job's own state (`GET …/actions/jobs/{id}`) and its run's newest attempt
//! (`run_url`) decide, and the error result says which (`_meta.code`) and which call would help (`_meta.nextCall`).
//!
//! See <https://docs.github.com/rest/actions/workflow-jobs#download-job-logs-for-a-workflow-job> and
//! <https://docs.github.com/actions/managing-workflow-runs/removing-workflow-artifacts#setting-the-retention-period>.

use adapters_github::{GetRequest, GithubClient, GithubError, JobRef};
use adapters_http::error_info::ErrorCode;
use rmcp::model::CallToolResult;
use serde_json::{Value, json};

/// Job statuses before `completed` (GitHub's `status` of a workflow job).
const NOT_FINISHED: &[&str] = &["queued", "in_progress", "waiting", "pending", "requested"];

/// The error result for a log download that answered `404`/`410` (`err`), explained by the job's state. When the
/// job itself cannot be read, `err` as any upstream error.
/// `tool` is the job-log tool, named in the text and in `_meta.nextCall`.
pub(super) async fn explain(
    github: &GithubClient,
    job: &JobRef,
    err: GithubError,
    tool: &'static str,
) -> CallToolResult {
    let body = match github.get_job(job).await {
        Ok(page) => page.data().cloned().unwrap_or(Value::Null),
        Err(_) => return upstream_error(tool, err),
    };
    let latest_attempt = match body["run_url"].as_str() {
        Some(run_url) if body["status"] == "completed" => newest_attempt(github, run_url).await,
        _ => None,
    };
    let absence = Absence::of(&body, err.status(), latest_attempt);
    let (text, meta) = absence.describe(tool, job, &body, err.status());
    crate::tools::record_upstream_status(err.status());
    tracing::info!(
        tool,
        status = err.status(),
        code = absence.code.as_str(),
        "job log missing"
    );
    mcp_results::error_with_meta(format!("{tool} failed: {text}"), meta)
}

/// The error result of a failed GitHub call of `tool`, with its `_meta` ([`GithubError::info`]).
pub(super) fn upstream_error(tool: &'static str, err: GithubError) -> CallToolResult {
    crate::tools::record_upstream_status(err.status());
    tracing::info!(tool, status = err.status(), "upstream call failed");
    mcp_results::error_with_meta(format!("{tool} failed: {err}"), err.info().to_meta())
}

/// The run's `run_attempt` (its newest attempt), when it can be read.
async fn newest_attempt(github: &GithubClient, run_url: &str) -> Option<u64> {
    let page = github.get(&GetRequest::new(run_url)).await.ok()?;
    page.data()?.get("run_attempt")?.as_u64()
}

/// The verdict: its code, and the newer attempt when the job was superseded.
struct Absence {
    code: ErrorCode,
    newer_attempt: Option<u64>,
}

impl Absence {
    fn of(job: &Value, status: Option<u16>, latest_attempt: Option<u64>) -> Self {
        let state = job["status"].as_str().unwrap_or("");
        let newer_attempt =
            latest_attempt.filter(|latest| job["run_attempt"].as_u64().is_some_and(|own| latest > &own));
        let code = if NOT_FINISHED.contains(&state) {
            ErrorCode::LogNotReady
        } else if never_ran(job) {
            ErrorCode::LogAbsent
        } else if status == Some(410) || state == "completed" {
            ErrorCode::LogExpired
        } else {
            ErrorCode::NotFound
        };
        Self { code, newer_attempt }
    }

    /// The text after `failed:` and the `_meta` keys.
    fn describe(
        &self,
        tool: &str,
        job: &JobRef,
        body: &Value,
        status: Option<u16>,
    ) -> (String, serde_json::Map<String, Value>) {
        let state = body["status"].as_str().unwrap_or("unknown");
        let conclusion = body["conclusion"].as_str();
        let shown = conclusion.map_or_else(|| state.to_owned(), |c| format!("{state}, {c}"));
        let id = job.job_id;
        let status_text = status.map_or_else(String::new, |s| format!(" (GitHub answered {s})"));
        let same_job = json!({"tool": tool, "arguments": {"owner": job.owner, "repo": job.repo, "jobId": id}});
        let (mut text, mut next_call) = match self.code {
            ErrorCode::LogNotReady => (
                format!(
                    "job {id} has no log yet{status_text}: it is {state}. Wait until it completes (its status in \
                     github_list_workflow_jobs), then call {tool} again."
                ),
                Some(same_job),
            ),
            ErrorCode::LogAbsent => (
                format!("job {id} has no log{status_text}: it never ran ({shown}), so GitHub kept none."),
                None,
            ),
            ErrorCode::LogExpired => (
                format!(
                    "the log of job {id} is gone{status_text}: the job finished ({shown}) and its log was deleted or \
                     is past the repository's log retention (90 days unless the repository sets less). It cannot \
                     be fetched again; the job's steps and conclusion are still in github_list_workflow_jobs."
                ),
                None,
            ),
            _ => (format!("no log for job {id}{status_text} ({shown})."), None),
        };
        if let (Some(latest), Some(run_id)) = (self.newer_attempt, body["run_id"].as_u64()) {
            let name = body["name"].as_str().unwrap_or_default();
            text.push_str(&format!(
                " The run was re-run: attempt {latest} is the newest; its job of the same name has its own log \
                 ({tool} with runId {run_id} and jobName {name:?})."
            ));
            next_call = Some(json!({"tool": tool, "arguments": {
                "owner": job.owner, "repo": job.repo, "runId": run_id, "jobName": name
            }}));
        }
        let mut meta = serde_json::Map::new();
        meta.insert("code".to_owned(), Value::from(self.code.as_str()));
        if let Some(status) = status {
            meta.insert("status".to_owned(), Value::from(status));
        }
        meta.insert(
            "job".to_owned(),
            json!({
                "id": id,
                "status": body["status"],
                "conclusion": body["conclusion"],
                "runId": body["run_id"],
                "runAttempt": body["run_attempt"],
                "completedAt": body["completed_at"],
            }),
        );
        if let Some(latest) = self.newer_attempt {
            meta.insert("latestAttempt".to_owned(), Value::from(latest));
        }
        if let Some(call) = next_call {
            meta.insert("nextCall".to_owned(), call);
        }
        (text, meta)
    }
}

/// A finished job that never started: `skipped`, or cancelled before any step began.
fn never_ran(job: &Value) -> bool {
    let conclusion = job["conclusion"].as_str();
    let no_step_ran = job["steps"].as_array().is_none_or(|steps| {
        steps
            .iter()
            .all(|s| s["started_at"].is_null() || s["conclusion"] == "skipped")
    });
    conclusion == Some("skipped") || (conclusion == Some("cancelled") && no_step_ran && job["started_at"].is_null())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(job: Value, status: u16, latest: Option<u64>) -> ErrorCode {
        Absence::of(&job, Some(status), latest).code
    }

    #[test]
    fn verdicts() {
        assert_eq!(
            code(json!({"status": "in_progress"}), 404, None),
            ErrorCode::LogNotReady
        );
        assert_eq!(code(json!({"status": "queued"}), 404, None), ErrorCode::LogNotReady);
        assert_eq!(
            code(json!({"status": "completed", "conclusion": "skipped"}), 404, None),
            ErrorCode::LogAbsent
        );
        assert_eq!(
            code(
                json!({"status": "completed", "conclusion": "cancelled", "started_at": null, "steps": []}),
                404,
                None
            ),
            ErrorCode::LogAbsent
        );
        assert_eq!(
            code(
                json!({"status": "completed", "conclusion": "failure", "started_at": "2020-01-01T00:00:00Z"}),
                410,
                None
            ),
            ErrorCode::LogExpired
        );
        let superseded = Absence::of(
            &json!({"status": "completed", "conclusion": "failure", "run_attempt": 1, "started_at": "x"}),
            Some(404),
            Some(2),
        );
        assert_eq!(superseded.newer_attempt, Some(2));
        let same = Absence::of(&json!({"status": "completed", "run_attempt": 2}), Some(404), Some(2));
        assert_eq!(same.newer_attempt, None);
    }
}
