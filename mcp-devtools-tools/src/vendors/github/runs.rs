//! `github_list_workflow_runs` and `github_list_workflow_jobs` (paged contract `{data, nextPage, incomplete?}`).

use std::future::Future;
use std::sync::Mutex;

use adapters_github::{
    Downloaded, GetRequest, GithubClient, GithubError, JobFilter, ListWorkflowJobsParams, ListWorkflowRunsParams, Page,
    WorkflowId,
};
use adapters_http::decode::Payload;
use mcp_envelope::PageMeta;
use mcp_results::{View, WithView};
use rmcp::model::CallToolResult;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::pages::{self, page_number};
use crate::Principal;
use crate::app::App;
use crate::args::{self, ArgumentError};
use crate::tools::all_pages::{AllPages, Limits, Next};
use crate::tools::paging::Paged;

/// Tool name of the workflow-runs listing.
pub const LIST_WORKFLOW_RUNS: &str = "github_list_workflow_runs";
/// Tool name of the jobs listing.
pub const LIST_WORKFLOW_JOBS: &str = "github_list_workflow_jobs";

/// A workflow's numeric id or its file name.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum WorkflowIdArg {
    /// The workflow's numeric id (a string of digits is read as the id too).
    Id(#[serde(deserialize_with = "crate::args::integer::required")] u64),
    /// The workflow file name, e.g. `ci.yml`.
    FileName(String),
}

/// Arguments of `github_list_workflow_runs` (with `perPage` and `page`: [`Paged`]; `allPages` and `maxItems`:
/// [`AllPages`]; `jq` and `outputFormat`: [`WithView`]).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ListWorkflowRunsArgs {
    #[schemars(description = "")]
    /// Repository owner, e.g. octo-org.
    #[schemars(length(max = crate::args::MAX_NAME_CHARS))]
    pub owner: String,
    #[schemars(description = "")]
    /// Repository name, e.g. octo-repo.
    #[schemars(length(max = crate::args::MAX_NAME_CHARS))]
    pub repo: String,
    /// Workflow id or file name (e.g. ci.yml).
    pub workflow_id: Option<WorkflowIdArg>,
    /// Branch name.
    #[schemars(length(max = crate::args::MAX_FILTER_CHARS))]
    pub branch: Option<String>,
    /// A status or conclusion, e.g. failure, in_progress.
    #[schemars(length(max = crate::args::MAX_FILTER_CHARS))]
    pub status: Option<String>,
    /// Triggering event, e.g. push, pull_request.
    #[schemars(length(max = crate::args::MAX_FILTER_CHARS))]
    pub event: Option<String>,
    /// Login of the user who started the run.
    #[schemars(length(max = crate::args::MAX_FILTER_CHARS))]
    pub actor: Option<String>,
}

/// Arguments of `github_list_workflow_jobs` (with `perPage` and `page`: [`Paged`]; `allPages` and `maxItems`:
/// [`AllPages`]; `jq` and `outputFormat`: [`WithView`]).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ListWorkflowJobsArgs {
    #[schemars(description = "")]
    /// Repository owner, e.g. octo-org.
    #[schemars(length(max = crate::args::MAX_NAME_CHARS))]
    pub owner: String,
    #[schemars(description = "")]
    /// Repository name, e.g. octo-repo.
    #[schemars(length(max = crate::args::MAX_NAME_CHARS))]
    pub repo: String,
    /// The run's id.
    #[serde(deserialize_with = "crate::args::integer::required")]
    pub run_id: u64,
    /// latest (default): the latest attempt's jobs; all: every attempt's.
    pub filter: Option<JobFilterArg>,
}

/// The jobs `filter` argument.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum JobFilterArg {
    /// Jobs of the latest attempt.
    Latest,
    /// Jobs of every attempt.
    All,
}

/// Runs `github_list_workflow_runs`.
pub(super) async fn list_workflow_runs(
    app: &App,
    principal: &Principal,
    args: AllPages<Paged<WithView<ListWorkflowRunsArgs>>>,
) -> CallToolResult {
    let checked = match check_paged(LIST_WORKFLOW_RUNS, args).await {
        Ok(checked) => checked,
        Err(err) => return err.into_result(),
    };
    let Checked {
        args,
        view,
        per_page,
        page,
        all,
    } = checked;
    let params = ListWorkflowRunsParams::new(args.owner, args.repo)
        .with_workflow_id(args.workflow_id.map(|id| match id {
            WorkflowIdArg::Id(id) => WorkflowId::Id(id),
            WorkflowIdArg::FileName(name) => WorkflowId::FileName(name),
        }))
        .with_branch(args.branch)
        .with_status(args.status)
        .with_event(args.event)
        .with_actor(args.actor)
        .with_per_page(per_page)
        .with_page(page);
    read_numbered(app, principal, LIST_WORKFLOW_RUNS, params, page, all, view).await
}

/// Runs `github_list_workflow_jobs`.
pub(super) async fn list_workflow_jobs(
    app: &App,
    principal: &Principal,
    args: AllPages<Paged<WithView<ListWorkflowJobsArgs>>>,
) -> CallToolResult {
    let checked = match check_paged(LIST_WORKFLOW_JOBS, args).await {
        Ok(checked) => checked,
        Err(err) => return err.into_result(),
    };
    let Checked {
        args,
        view,
        per_page,
        page,
        all,
    } = checked;
    let params = ListWorkflowJobsParams::new(args.owner, args.repo, args.run_id)
        .with_filter(args.filter.map(|filter| match filter {
            JobFilterArg::Latest => JobFilter::Latest,
            JobFilterArg::All => JobFilter::All,
        }))
        .with_per_page(per_page)
        .with_page(page);
    read_numbered(app, principal, LIST_WORKFLOW_JOBS, params, page, all, view).await
}

/// A GitHub list read by page number (workflow runs, a run's jobs): its parameters at another page, and the calls
/// that read them (whole, or downloaded then parsed: [`adapters_github::Downloaded`]).
trait Numbered: Clone + Send + Sync {
    /// These parameters at `page`.
    fn at_page(self, page: Option<u32>) -> Self;
    /// The page these parameters name.
    fn read<'a>(&'a self, github: &'a GithubClient) -> impl Future<Output = Result<Page, GithubError>> + Send + 'a;
    /// The answer of that page, downloaded, not yet parsed.
    fn download<'a>(
        &'a self,
        github: &'a GithubClient,
    ) -> impl Future<Output = Result<Downloaded, GithubError>> + Send + 'a;
}

impl Numbered for ListWorkflowRunsParams {
    fn at_page(self, page: Option<u32>) -> Self {
        self.with_page(page)
    }

    fn read<'a>(&'a self, github: &'a GithubClient) -> impl Future<Output = Result<Page, GithubError>> + Send + 'a {
        github.list_workflow_runs(self)
    }

    fn download<'a>(
        &'a self,
        github: &'a GithubClient,
    ) -> impl Future<Output = Result<Downloaded, GithubError>> + Send + 'a {
        github.download_workflow_runs(self)
    }
}

impl Numbered for ListWorkflowJobsParams {
    fn at_page(self, page: Option<u32>) -> Self {
        self.with_page(page)
    }

    fn read<'a>(&'a self, github: &'a GithubClient) -> impl Future<Output = Result<Page, GithubError>> + Send + 'a {
        github.list_workflow_jobs(self)
    }

    fn download<'a>(
        &'a self,
        github: &'a GithubClient,
    ) -> impl Future<Output = Result<Downloaded, GithubError>> + Send + 'a {
        github.download_workflow_jobs(self)
    }
}

/// The first page `params` name as `tool`'s answer, or, with `allPages` (`all`), every page from it on, merged by
/// page number ([`pages::merge`]); a next page GitHub names by link only is read by that link.
async fn read_numbered<P: Numbered>(
    app: &App,
    principal: &Principal,
    tool: &'static str,
    params: P,
    page: Option<u32>,
    all: Option<Limits>,
    view: View,
) -> CallToolResult {
    let github = match client(app, tool) {
        Ok(github) => github,
        Err(unusable) => return mcp_results::coded_error(unusable, "invalid_setting"),
    };
    let Some(limits) = all else {
        return finish(app, principal, tool, params.read(github).await, &view, page_meta).await;
    };
    // Each page after the first is downloaded while the one before it parses ([`Ahead`]), only when the merge will
    // read it: within `allPages`, and not with `maxItems`, which may stop the merge at any page.
    let last = match limits.items {
        None => u64::from(page.unwrap_or(1)).saturating_add(limits.pages.saturating_sub(1)),
        Some(_) => 0,
    };
    let ahead = Ahead::default();
    let (params, ahead, start) = (&params, &ahead, first_page(page));
    let first = match params.download(github).await {
        Ok(downloaded) => ahead.parse(github, params, downloaded, last).await,
        Err(err) => Err(err),
    };
    let first = match first {
        Ok(first) => first,
        Err(err) => return finish(app, principal, tool, Err(err), &view, page_meta).await,
    };
    crate::tools::record_upstream_status(Some(200));
    let fetch = |next| async move {
        let n = match next {
            Next::Page(n) => n,
            Next::Link(link) => return github.get(&GetRequest::new(&link)).await,
        };
        let downloaded = match ahead.take(n) {
            Some(downloaded) => downloaded?,
            None => params.clone().at_page(Some(page_number(n)?)).download(github).await?,
        };
        ahead.parse(github, params, downloaded, last).await
    };
    pages::merge(
        app,
        principal,
        tool,
        limits,
        start,
        first,
        &view,
        page_meta,
        pages::by_number,
        fetch,
    )
    .await
}

/// The page downloaded ahead of the merge, by its number (the requests stay one after another, as GitHub asks; only a
/// page's parse overlaps the next page's download).
#[derive(Default)]
struct Ahead(Mutex<Option<(u64, Result<Downloaded, GithubError>)>>);

impl Ahead {
    /// The answer of page `n` when it was downloaded ahead.
    fn take(&self, n: u64) -> Option<Result<Downloaded, GithubError>> {
        let mut slot = self.0.lock().ok()?;
        match slot.take() {
            Some((page, downloaded)) if page == n => Some(downloaded),
            _ => None,
        }
    }

    /// The page of `downloaded`, parsed while the page after it (when it is at most `last`) downloads, kept here.
    async fn parse<P: Numbered>(
        &self,
        github: &GithubClient,
        params: &P,
        downloaded: Downloaded,
        last: u64,
    ) -> Result<Page, GithubError> {
        let Some(after) = downloaded.next_page().filter(|after| *after <= last) else {
            return github.parse(downloaded).await;
        };
        let params = params.clone().at_page(Some(page_number(after)?));
        let (page, next) = tokio::join!(github.parse(downloaded), params.download(github));
        if let Ok(mut slot) = self.0.lock() {
            *slot = Some((after, next));
        }
        page
    }
}

/// The GitHub client, or the error text of `tool` saying why it could not be built from its configuration.
pub(super) fn client<'a>(app: &'a App, tool: &str) -> Result<&'a GithubClient, String> {
    app.github.as_ref().map_err(|setup| format!("{tool} failed: {setup}"))
}

/// A paged tool's arguments, checked ([`check_paged`]).
pub(super) struct Checked<T> {
    /// The tool's own arguments.
    pub args: T,
    /// `jq` and `outputFormat`.
    pub view: View,
    /// `perPage`, narrowed.
    pub per_page: Option<u8>,
    /// `page`, narrowed.
    pub page: Option<u32>,
    /// `allPages` and `maxItems`: `None` for a single page.
    pub all: Option<Limits>,
}

/// Checks a paged tool's arguments before anything is sent upstream: `perPage`/`page` narrowed to the adapter's
/// types, `allPages`/`maxItems` checked, `jq` compiled.
pub(super) async fn check_paged<T>(
    tool: &'static str,
    args: AllPages<Paged<WithView<T>>>,
) -> Result<Checked<T>, ArgumentError> {
    let AllPages {
        args: Paged {
            args: WithView { args, view },
            group: paging,
        },
        group: all,
    } = args;
    let (per_page, page) = paging.check(tool)?;
    let all = all.check(tool)?;
    args::check_jq(tool, view.jq.as_deref()).await?;
    Ok(Checked {
        args,
        view: view.into_view(),
        per_page,
        page,
        all,
    })
}

/// The page a list call with `page` asks for first (GitHub's default is 1), as a merge's start.
pub(super) fn first_page(page: Option<u32>) -> Option<Next> {
    Some(Next::Page(u64::from(page.unwrap_or(1))))
}

/// The list tools' metadata: the next page number.
fn page_meta(page: &Page) -> PageMeta {
    PageMeta::new(page.next_page)
}

/// The result of a paged read: the page's body with the metadata `meta_of` takes from it ([`PageMeta`] for the
/// list tools, [`mcp_envelope::LinkedPageMeta`] for `github_get`), or the error with its `_meta`.
pub(super) async fn finish<M: Serialize + Send + Sync + 'static>(
    app: &App,
    principal: &Principal,
    tool: &str,
    page: Result<Page, GithubError>,
    view: &View,
    meta_of: fn(&Page) -> M,
) -> CallToolResult {
    match page {
        Ok(page) => {
            crate::tools::record_upstream_status(Some(200));
            let meta = meta_of(&page);
            match page.body {
                Payload::Data(data) => app.results.respond(principal.as_str(), data, meta, view).await,
                Payload::Binary(body) => {
                    app.results
                        .binary(principal.as_str(), body.media_type, body.bytes, meta, view)
                        .await
                }
            }
        }
        Err(err) => {
            crate::tools::record_upstream_status(err.status());
            if let adapters_github::GithubError::Http(adapters_http::HttpError::MissingCredential { setting, .. }) =
                &err
            {
                tracing::info!(tool, "no request sent: set {setting}");
            } else {
                tracing::info!(tool, status = err.status(), "upstream call failed");
            }
            mcp_results::error_with_meta(format!("{tool} failed: {err}"), err.info().to_meta())
        }
    }
}
