//! One job and its log: `GET /repos/{owner}/{repo}/actions/jobs/{job_id}` and `…/logs`.
//!
//! See <https://docs.github.com/rest/actions/workflow-jobs#get-a-job-for-a-workflow-run> and
//! <https://docs.github.com/rest/actions/workflow-jobs#download-job-logs-for-a-workflow-job>: the logs endpoint
//! answers `302 Found` with a short-lived URL on another host, fetched without the token
//! ([`adapters_http::client::handoff`]).

use adapters_http::Download;

use crate::client::{GithubClient, Page};
use crate::error::GithubError;
use crate::params::{build_url, segment};

/// One job of a repository: `owner`, `repo` (not blank) and the job's id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobRef {
    /// Account owner of the repository.
    pub owner: String,
    /// Repository name without `.git`.
    pub repo: String,
    /// The job's id (`id` of a job from the jobs of a run).
    pub job_id: u64,
}

impl GithubClient {
    /// The job (`GET /repos/{owner}/{repo}/actions/jobs/{job_id}`): its name, conclusion, URLs and `steps`.
    ///
    /// Errors: as [`GithubClient::list_workflow_runs`].
    pub async fn get_job(&self, job: &JobRef) -> Result<Page, GithubError> {
        self.require_token()?;
        let url = job_url(self, job, false)?;
        self.get_page(url).await
    }

    /// The job's log as a stream of bytes (plain text, one line per log line, each prefixed with its RFC 3339
    /// timestamp). GitHub's `302` is followed without the token, to `https` only
    /// ([`adapters_http::HttpClient::get_handoff`]).
    ///
    /// Errors: as [`GithubClient::get_job`] (a log that has expired or a job that has not finished is GitHub's
    /// `404`/`410`, mapped like any answer); [`GithubError::Upstream`] with status 302 when the redirect target
    /// is refused (not `https`).
    pub async fn job_logs(&self, job: &JobRef) -> Result<Download, GithubError> {
        self.require_token()?;
        let url = job_url(self, job, true)?;
        self.handed_off(url).await
    }
}

fn job_url(client: &GithubClient, job: &JobRef, logs: bool) -> Result<url::Url, GithubError> {
    let owner = segment("owner", &job.owner)?;
    let repo = segment("repo", &job.repo)?;
    let id = job.job_id.to_string();
    let mut segments = vec!["repos", owner, repo, "actions", "jobs", id.as_str()];
    if logs {
        segments.push("logs");
    }
    build_url(client.http.base(), &segments, &[])
}
