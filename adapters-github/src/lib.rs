//! GitHub Actions REST adapter for `mcp-devtools`.
//!
//! The rules this crate shares with the rest of the workspace (result shapes, limits, errors) are written down in
//! the project's contract, [docs/CONTRACT.md].
//!
//! [docs/CONTRACT.md]: https://github.com/mcp-devtools/mcp-devtools/blob/main/docs/CONTRACT.md
//!
//! This crate talks to the GitHub REST API (version [`API_VERSION`]) and returns plain data: the
//! upstream JSON body with exact integers and the next page number taken from the response headers
//! ([`Page`]), or a typed [`GithubError`]. It knows nothing about MCP; the server turns these values
//! into tool results.
//!
//! Endpoints covered:
//! - [`GithubClient::list_workflow_runs`] follows <https://docs.github.com/rest/actions/workflow-runs#list-workflow-runs-for-a-repository>
//!   and <https://docs.github.com/rest/actions/workflow-runs#list-workflow-runs-for-a-workflow>
//! - [`GithubClient::list_workflow_jobs`] follows <https://docs.github.com/rest/actions/workflow-jobs#list-jobs-for-a-workflow-run>
//! - [`GithubClient::get`] reads any REST path ([`GetRequest`]), as JSON or as a diff or patch ([`MediaType`]), e.g.
//!   <https://docs.github.com/rest/commits/commits#list-pull-requests-associated-with-a-commit>
//! - [`GithubClient::get_job`] and [`GithubClient::job_logs`] follow
//!   <https://docs.github.com/rest/actions/workflow-jobs#get-a-job-for-a-workflow-run> and
//!   <https://docs.github.com/rest/actions/workflow-jobs#download-job-logs-for-a-workflow-job> (the log's `302` to
//!   another host is followed without the token)
//! - [`GithubClient::artifact_zip`] follows <https://docs.github.com/rest/actions/artifacts#download-an-artifact>
//!   (the archive's `302` to another host is followed without the token)
//!
//! Pagination follows <https://docs.github.com/rest/using-the-rest-api/using-pagination-in-the-rest-api>
//! (see [`next_page_from_headers`]). Errors follow
//! <https://docs.github.com/rest/using-the-rest-api/troubleshooting-the-rest-api> and
//! <https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api>.
//!
//! The client is configured with [`GithubConfig`], which embeds the shared [`adapters_http::HttpOptions`] (base URL,
//! token, setting names, user agent, timeout, body cap). The token never appears in errors, `Debug` output or logs:
//! it is held in an [`adapters_http::Secret`].
//! Reads are retried by the shared HTTP layer's policy ([`adapters_http::RetryPolicy`]) with GitHub's rate-limit rules
//! ([`github_verdict`]).

mod access;
mod artifacts;
mod client;
mod config;
mod downloaded;
mod error;
mod get;
mod logs;
mod pagination;
mod params;
mod poll;
mod retry;
mod sso;

pub use access::Access;
pub use artifacts::ArtifactRef;
pub use client::{GithubClient, Page};
pub use config::{API_VERSION, DEFAULT_API_BASE, GithubConfig, VENDOR_NAME};
pub use downloaded::Downloaded;
pub use error::GithubError;
pub use get::{GetRequest, MediaType};
pub use logs::JobRef;
pub use pagination::{next_link_from_headers, next_page_from_headers, parse_link_next, parse_link_next_page};
pub use params::{JobFilter, ListWorkflowJobsParams, ListWorkflowRunsParams, MAX_PER_PAGE, WorkflowId};
pub use poll::{Pace, Polled};
pub use retry::{SECONDARY_LIMIT_WAIT, github_verdict};

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
