//! Request parameters and URL building for the Actions endpoints.
//!
//! URLs are built with [`url::Url`]: path segments are percent-encoded one by one with
//! `path_segments_mut` (a `/` in `owner` becomes `%2F`, never a new segment) and the query string
//! is encoded exactly once by `url`.

use std::fmt;

use url::Url;

use crate::error::GithubError;

/// Largest `per_page` GitHub accepts.
pub const MAX_PER_PAGE: u8 = 100;

/// Parameters of `GET /repos/{owner}/{repo}/actions/runs` and
/// `GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs`.
///
/// See <https://docs.github.com/rest/actions/workflow-runs#list-workflow-runs-for-a-repository> and
/// <https://docs.github.com/rest/actions/workflow-runs#list-workflow-runs-for-a-workflow>.
/// Optional filters are sent as query parameters only when `Some` and not blank.
#[non_exhaustive]
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListWorkflowRunsParams {
    /// Account owner of the repository (user or organisation). Required, not blank.
    pub owner: String,
    /// Repository name without `.git`. Required, not blank.
    pub repo: String,
    /// Restricts the list to one workflow (numeric id or file name such as `ci.yml`).
    pub workflow_id: Option<WorkflowId>,
    /// `branch` filter: runs whose head branch is this.
    pub branch: Option<String>,
    /// `status` filter: a status or conclusion (`completed`, `in_progress`, `failure`, ...).
    /// Passed through as given; GitHub validates it.
    pub status: Option<String>,
    /// `event` filter: the triggering event (`push`, `pull_request`, ...).
    pub event: Option<String>,
    /// `actor` filter: login of the user who triggered the run.
    pub actor: Option<String>,
    /// Results per page, 1..=100 (GitHub's default is 30 when omitted).
    pub per_page: Option<u8>,
    /// Page number, >= 1 (GitHub's default is 1 when omitted).
    pub page: Option<u32>,
}

impl ListWorkflowRunsParams {
    /// The runs of `owner/repo`, no filter, GitHub's default page (set the rest with the `with_*` methods).
    pub fn new(owner: impl Into<String>, repo: impl Into<String>) -> Self {
        Self {
            owner: owner.into(),
            repo: repo.into(),
            ..Self::default()
        }
    }

    /// This request with [`ListWorkflowRunsParams::owner`] set.
    #[must_use]
    pub fn with_owner(mut self, owner: impl Into<String>) -> Self {
        self.owner = owner.into();
        self
    }

    /// This request with [`ListWorkflowRunsParams::repo`] set.
    #[must_use]
    pub fn with_repo(mut self, repo: impl Into<String>) -> Self {
        self.repo = repo.into();
        self
    }

    /// This request with [`ListWorkflowRunsParams::workflow_id`] set.
    #[must_use]
    pub fn with_workflow_id(mut self, workflow_id: Option<WorkflowId>) -> Self {
        self.workflow_id = workflow_id;
        self
    }

    /// This request with [`ListWorkflowRunsParams::branch`] set.
    #[must_use]
    pub fn with_branch(mut self, branch: Option<String>) -> Self {
        self.branch = branch;
        self
    }

    /// This request with [`ListWorkflowRunsParams::status`] set.
    #[must_use]
    pub fn with_status(mut self, status: Option<String>) -> Self {
        self.status = status;
        self
    }

    /// This request with [`ListWorkflowRunsParams::event`] set.
    #[must_use]
    pub fn with_event(mut self, event: Option<String>) -> Self {
        self.event = event;
        self
    }

    /// This request with [`ListWorkflowRunsParams::actor`] set.
    #[must_use]
    pub fn with_actor(mut self, actor: Option<String>) -> Self {
        self.actor = actor;
        self
    }

    /// This request with [`ListWorkflowRunsParams::per_page`] set.
    #[must_use]
    pub fn with_per_page(mut self, per_page: Option<u8>) -> Self {
        self.per_page = per_page;
        self
    }

    /// This request with [`ListWorkflowRunsParams::page`] set.
    #[must_use]
    pub fn with_page(mut self, page: Option<u32>) -> Self {
        self.page = page;
        self
    }
}

/// A workflow reference: its numeric id or its file name (`ci.yml`, not a path).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorkflowId {
    /// Numeric workflow id (`workflow_id` in the API).
    Id(u64),
    /// Workflow file name, e.g. `ci.yml` (percent-encoded as one path segment).
    FileName(String),
}

impl fmt::Display for WorkflowId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Id(id) => write!(f, "{id}"),
            Self::FileName(name) => f.write_str(name),
        }
    }
}

/// Parameters of `GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs`.
///
/// See <https://docs.github.com/rest/actions/workflow-jobs#list-jobs-for-a-workflow-run>.
#[non_exhaustive]
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListWorkflowJobsParams {
    /// Account owner of the repository. Required, not blank.
    pub owner: String,
    /// Repository name without `.git`. Required, not blank.
    pub repo: String,
    /// Workflow run id.
    pub run_id: u64,
    /// Which attempts' jobs to list (GitHub's default is `latest` when omitted).
    pub filter: Option<JobFilter>,
    /// Results per page, 1..=100 (GitHub's default is 30 when omitted).
    pub per_page: Option<u8>,
    /// Page number, >= 1.
    pub page: Option<u32>,
}

impl ListWorkflowJobsParams {
    /// The jobs of run `run_id` of `owner/repo`, GitHub's default filter and page.
    pub fn new(owner: impl Into<String>, repo: impl Into<String>, run_id: u64) -> Self {
        Self {
            owner: owner.into(),
            repo: repo.into(),
            run_id,
            ..Self::default()
        }
    }

    /// This request with [`ListWorkflowJobsParams::owner`] set.
    #[must_use]
    pub fn with_owner(mut self, owner: impl Into<String>) -> Self {
        self.owner = owner.into();
        self
    }

    /// This request with [`ListWorkflowJobsParams::repo`] set.
    #[must_use]
    pub fn with_repo(mut self, repo: impl Into<String>) -> Self {
        self.repo = repo.into();
        self
    }

    /// This request with [`ListWorkflowJobsParams::run_id`] set.
    #[must_use]
    pub fn with_run_id(mut self, run_id: u64) -> Self {
        self.run_id = run_id;
        self
    }

    /// This request with [`ListWorkflowJobsParams::filter`] set.
    #[must_use]
    pub fn with_filter(mut self, filter: Option<JobFilter>) -> Self {
        self.filter = filter;
        self
    }

    /// This request with [`ListWorkflowJobsParams::per_page`] set.
    #[must_use]
    pub fn with_per_page(mut self, per_page: Option<u8>) -> Self {
        self.per_page = per_page;
        self
    }

    /// This request with [`ListWorkflowJobsParams::page`] set.
    #[must_use]
    pub fn with_page(mut self, page: Option<u32>) -> Self {
        self.page = page;
        self
    }
}

/// The `filter` query parameter of the jobs endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobFilter {
    /// Jobs of the most recent attempt only (`latest`).
    Latest,
    /// Jobs of every attempt (`all`).
    All,
}

impl JobFilter {
    /// The wire value: `"latest"` or `"all"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Latest => "latest",
            Self::All => "all",
        }
    }
}

impl fmt::Display for JobFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl ListWorkflowRunsParams {
    /// Validates the parameters and builds the request URL under `base`.
    ///
    /// Errors: [`GithubError::InvalidArgument`] for a blank `owner`/`repo`/workflow file name,
    /// a `.`/`..` segment, `per_page` outside 1..=100 or `page` 0.
    pub(crate) fn url(&self, base: &Url) -> Result<Url, GithubError> {
        let owner = segment("owner", &self.owner)?;
        let repo = segment("repo", &self.repo)?;
        let workflow = match &self.workflow_id {
            None => None,
            Some(WorkflowId::Id(id)) => Some(id.to_string()),
            Some(WorkflowId::FileName(name)) => Some(segment("workflowId", name)?.to_owned()),
        };
        let mut segments = vec!["repos", owner, repo, "actions"];
        if let Some(workflow) = &workflow {
            segments.extend(["workflows", workflow.as_str()]);
        }
        segments.push("runs");

        let mut query = paging(self.per_page, self.page)?;
        for (name, value) in [
            ("branch", &self.branch),
            ("status", &self.status),
            ("event", &self.event),
            ("actor", &self.actor),
        ] {
            if let Some(value) = value.as_deref().filter(|v| !v.trim().is_empty()) {
                query.push((name, value.to_owned()));
            }
        }
        build_url(base, &segments, &query)
    }
}

impl ListWorkflowJobsParams {
    /// Validates the parameters and builds the request URL under `base`.
    ///
    /// Errors: [`GithubError::InvalidArgument`] for a blank `owner`/`repo`, a `.`/`..` segment,
    /// `per_page` outside 1..=100 or `page` 0.
    pub(crate) fn url(&self, base: &Url) -> Result<Url, GithubError> {
        let owner = segment("owner", &self.owner)?;
        let repo = segment("repo", &self.repo)?;
        let run_id = self.run_id.to_string();
        let segments = ["repos", owner, repo, "actions", "runs", run_id.as_str(), "jobs"];
        let mut query = paging(self.per_page, self.page)?;
        if let Some(filter) = self.filter {
            query.push(("filter", filter.as_str().to_owned()));
        }
        build_url(base, &segments, &query)
    }
}

/// Checks one user-supplied path segment. `url` drops `.`/`..` segments silently, so they are
/// refused here rather than changing the path.
pub(crate) fn segment<'a>(name: &str, value: &'a str) -> Result<&'a str, GithubError> {
    if value.trim().is_empty() {
        return Err(GithubError::InvalidArgument {
            name: name.to_owned(),
            detail: "must not be empty".to_owned(),
        });
    }
    if value == "." || value == ".." {
        return Err(GithubError::InvalidArgument {
            name: name.to_owned(),
            detail: format!("`{value}` is not a valid name"),
        });
    }
    Ok(value)
}

/// Validates and renders `per_page` and `page`.
pub(crate) fn paging(per_page: Option<u8>, page: Option<u32>) -> Result<Vec<(&'static str, String)>, GithubError> {
    let mut query = Vec::new();
    if let Some(per_page) = per_page {
        if !(1..=MAX_PER_PAGE).contains(&per_page) {
            return Err(GithubError::InvalidArgument {
                name: "perPage".to_owned(),
                detail: format!("must be between 1 and {MAX_PER_PAGE}, got {per_page}"),
            });
        }
        query.push(("per_page", per_page.to_string()));
    }
    if let Some(page) = page {
        if page == 0 {
            return Err(GithubError::InvalidArgument {
                name: "page".to_owned(),
                detail: "must be at least 1, got 0".to_owned(),
            });
        }
        query.push(("page", page.to_string()));
    }
    Ok(query)
}

/// Appends `segments` (each percent-encoded) to the base path and sets the query (encoded once); see
/// [`adapters_http::target::with_segments`].
pub(crate) fn build_url(base: &Url, segments: &[&str], query: &[(&str, String)]) -> Result<Url, GithubError> {
    adapters_http::target::with_segments(base, segments, query).ok_or_else(|| GithubError::InvalidArgument {
        name: "api_base".to_owned(),
        detail: "is not a base URL that can hold a path".to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base(s: &str) -> Url {
        Url::parse(s).expect("test base URL")
    }

    fn runs(owner: &str, repo: &str) -> ListWorkflowRunsParams {
        ListWorkflowRunsParams {
            owner: owner.to_owned(),
            repo: repo.to_owned(),
            ..Default::default()
        }
    }

    #[test]
    fn runs_url_plain_and_with_query() {
        let url = runs("octo-org", "octo-repo")
            .url(&base("https://api.github.com"))
            .expect("url");
        assert_eq!(
            url.as_str(),
            "https://api.github.com/repos/octo-org/octo-repo/actions/runs"
        );
        let params = ListWorkflowRunsParams {
            branch: Some("feature/a b&c=d+e".to_owned()),
            status: Some("completed".to_owned()),
            event: Some("  ".to_owned()),
            per_page: Some(100),
            page: Some(3),
            ..runs("o", "r")
        };
        let url = params.url(&base("https://api.github.com/")).expect("url");
        assert_eq!(
            url.as_str(),
            "https://api.github.com/repos/o/r/actions/runs?per_page=100&page=3&branch=feature%2Fa+b%26c%3Dd%2Be&status=completed"
        );
    }

    #[test]
    fn enterprise_base_with_path() {
        let params = ListWorkflowRunsParams {
            workflow_id: Some(WorkflowId::FileName("ci build.yml".to_owned())),
            ..runs("o", "r")
        };
        for b in ["https://ghe.example.com/api/v3", "https://ghe.example.com/api/v3/"] {
            let url = params.url(&base(b)).expect("url");
            assert_eq!(
                url.as_str(),
                "https://ghe.example.com/api/v3/repos/o/r/actions/workflows/ci%20build.yml/runs"
            );
        }
    }

    #[test]
    fn segments_are_encoded_not_split() {
        let url = runs("a/b", "c?d#e%").url(&base("https://api.github.com")).expect("url");
        assert_eq!(
            url.as_str(),
            "https://api.github.com/repos/a%2Fb/c%3Fd%23e%25/actions/runs"
        );
    }

    #[test]
    fn invalid_arguments() {
        let b = base("https://api.github.com");
        for (params, name) in [
            (runs("", "r"), "owner"),
            (runs("o", " "), "repo"),
            (runs("..", "r"), "owner"),
            (runs("o", "."), "repo"),
            (
                ListWorkflowRunsParams {
                    per_page: Some(0),
                    ..runs("o", "r")
                },
                "perPage",
            ),
            (
                ListWorkflowRunsParams {
                    per_page: Some(101),
                    ..runs("o", "r")
                },
                "perPage",
            ),
            (
                ListWorkflowRunsParams {
                    page: Some(0),
                    ..runs("o", "r")
                },
                "page",
            ),
            (
                ListWorkflowRunsParams {
                    workflow_id: Some(WorkflowId::FileName(String::new())),
                    ..runs("o", "r")
                },
                "workflowId",
            ),
        ] {
            match params.url(&b) {
                Err(GithubError::InvalidArgument { name: got, .. }) => assert_eq!(got, name),
                other => panic!("expected InvalidArgument {name}, got {other:?}"),
            }
        }
    }

    #[test]
    fn jobs_url() {
        let params = ListWorkflowJobsParams {
            owner: "o".to_owned(),
            repo: "r".to_owned(),
            run_id: 18_446_744_073_709_551_615,
            filter: Some(JobFilter::All),
            per_page: Some(1),
            page: None,
        };
        let url = params.url(&base("http://127.0.0.1:8080")).expect("url");
        assert_eq!(
            url.as_str(),
            "http://127.0.0.1:8080/repos/o/r/actions/runs/18446744073709551615/jobs?per_page=1&filter=all"
        );
        assert_eq!(JobFilter::Latest.as_str(), "latest");
        assert_eq!(JobFilter::All.to_string(), "all");
    }
}
