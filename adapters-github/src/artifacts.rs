//! A workflow run artifact's archive: `GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/zip`.
//!
//! See <https://docs.github.com/rest/actions/artifacts#download-an-artifact>: GitHub answers `302 Found` with a
//! short-lived signed URL on another host (`Location`), fetched without the token
//! ([`adapters_http::HttpClient::get_handoff`]). The body is a zip archive.

use adapters_http::Download;

use crate::client::GithubClient;
use crate::error::GithubError;
use crate::params::{build_url, segment};

/// One artifact of a repository: `owner`, `repo` (not blank) and the artifact's id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArtifactRef {
    /// Account owner of the repository.
    pub owner: String,
    /// Repository name without `.git`.
    pub repo: String,
    /// The artifact's id (`id` of an artifact of `GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts`).
    pub artifact_id: u64,
}

impl ArtifactRef {
    /// The artifact `artifact_id` of `owner/repo`.
    pub fn new(owner: impl Into<String>, repo: impl Into<String>, artifact_id: u64) -> Self {
        ArtifactRef {
            owner: owner.into(),
            repo: repo.into(),
            artifact_id,
        }
    }
}

impl GithubClient {
    /// The artifact's zip archive as a stream of bytes ([`Download::chunk`]; the caller bounds what it keeps).
    /// GitHub's `302` is followed without the token, to `https` only (`http` to loopback for tests).
    ///
    /// Errors: as [`GithubClient::job_logs`] (an unknown or expired artifact is GitHub's `404`/`410`, mapped like
    /// any answer, and so is the other host's error answer).
    pub async fn artifact_zip(&self, artifact: &ArtifactRef) -> Result<Download, GithubError> {
        self.require_token()?;
        let owner = segment("owner", &artifact.owner)?;
        let repo = segment("repo", &artifact.repo)?;
        let id = artifact.artifact_id.to_string();
        let url = build_url(
            self.http.base(),
            &["repos", owner, repo, "actions", "artifacts", id.as_str(), "zip"],
            &[],
        )?;
        self.handed_off(url).await
    }
}
