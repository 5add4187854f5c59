//! GitHub's check runs and commit statuses as [`WaitJob`]s: what `github_wait_for_checks` and `ci_status` read from
//! <https://docs.github.com/rest/checks/runs#list-check-runs-for-a-git-reference> and
//! <https://docs.github.com/rest/commits/statuses#get-the-combined-status-for-a-specific-reference>.

use adapters_github::{GithubClient, GithubError};
use serde_json::Value;

use crate::logs::is_failed;
use crate::tools::wait::{JobKind, WaitJob};

/// A string field, when it is one.
pub(crate) fn text(value: &Value) -> Option<String> {
    value.as_str().map(str::to_owned)
}

/// A ref (a branch may hold `/`) or SHA as one URL path segment.
pub(crate) fn ref_segment(git_ref: &str) -> String {
    url::form_urlencoded::byte_serialize(git_ref.as_bytes())
        .collect::<String>()
        .replace('+', "%20")
}

/// One GET's JSON body (`null` when GitHub sent none).
pub(crate) async fn get_json(github: &GithubClient, path: &str) -> Result<Value, GithubError> {
    Ok(github.poll(path, None).await?.body.unwrap_or(Value::Null))
}

/// Pull request `number` of `repo_path` (`repos/OWNER/REPO`): its head commit's SHA and its head branch.
pub(crate) async fn pull_head(
    github: &GithubClient,
    repo_path: &str,
    number: u64,
) -> Result<(String, Option<String>), GithubError> {
    let pull = get_json(github, &format!("{repo_path}/pulls/{number}")).await?;
    let sha = pull["head"]["sha"].as_str().unwrap_or_default().to_owned();
    Ok((sha, pull["head"]["ref"].as_str().map(str::to_owned)))
}

/// A check run; an Actions job's check run has the job's id and its run in `details_url`.
pub(crate) fn check_run(run: &Value) -> WaitJob {
    let id = run["id"].as_u64();
    let mut entry = WaitJob::new(
        JobKind::CheckRun,
        id.map(|id| id.to_string()).unwrap_or_default(),
        run["name"].as_str().unwrap_or_default(),
        run["status"].as_str().unwrap_or("unknown"),
    );
    entry.conclusion = text(&run["conclusion"]);
    entry.finished = run["status"] == "completed";
    entry.failed = is_failed(entry.conclusion.as_deref()) || entry.conclusion.as_deref() == Some("action_required");
    entry.url = text(&run["html_url"]).or_else(|| text(&run["details_url"]));
    entry.started_at = text(&run["started_at"]);
    entry.finished_at = text(&run["completed_at"]);
    if run["app"]["slug"] == "github-actions" {
        entry.job_id = id;
        entry.run_id = run["details_url"]
            .as_str()
            .and_then(|url| url.split("/actions/runs/").nth(1))
            .and_then(|rest| rest.split('/').next())
            .and_then(|run| run.parse().ok());
    }
    entry
}

/// A commit status of the combined status.
pub(crate) fn commit_status(status: &Value) -> WaitJob {
    let state = status["state"].as_str().unwrap_or("pending");
    let mut entry = WaitJob::new(
        JobKind::Status,
        status["id"].as_u64().map(|id| id.to_string()).unwrap_or_default(),
        status["context"].as_str().unwrap_or_default(),
        state,
    );
    entry.finished = state != "pending";
    entry.conclusion = entry.finished.then(|| state.to_owned());
    entry.failed = matches!(state, "failure" | "error");
    entry.url = text(&status["target_url"]);
    entry.started_at = text(&status["created_at"]);
    entry.finished_at = if entry.finished {
        text(&status["updated_at"])
    } else {
        None
    };
    entry
}
