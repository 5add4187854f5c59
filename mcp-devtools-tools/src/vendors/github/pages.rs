//! GitHub's pages for `allPages` ([`crate::tools::all_pages`]): where a page keeps its list ([`LIST`]), the page
//! after one (`nextPage`, else the `Link` cursor), and the merge of the three paged tools ([`merge`]).

use std::future::Future;

use adapters_github::{GithubError, Page};
use mcp_results::View;
use rmcp::model::CallToolResult;
use serde::Serialize;
use serde_json::Value;

use crate::Principal;
use crate::app::App;
use crate::tools::all_pages::{self, Fetched, Limits, ListAt, ListShape, MergeMeta, Next};

/// The list members of GitHub's wrapped lists (`{total_count, <name>: [...]}`), looked for first.
const LISTS: &[&str] = &[
    "workflow_runs",
    "jobs",
    "check_runs",
    "check_suites",
    "artifacts",
    "workflows",
    "items",
    "repositories",
    "runners",
    "runner_groups",
    "secrets",
    "variables",
    "actions_caches",
    "environments",
    "installations",
];

/// Arrays of single resources that are no page's list (a run's `pull_requests`, a job's `steps`, a commit's `files`).
const NOT_LISTS: &[&str] = &[
    "pull_requests",
    "referenced_workflows",
    "steps",
    "labels",
    "parents",
    "files",
    "assets",
];

/// A GitHub page's list: a top-level array (most REST lists), else a known list member ([`LISTS`]), else the
/// object's one array member that is not a single resource's ([`NOT_LISTS`]). Nothing continues in the body:
/// GitHub's continuation is the `Link` header.
pub(super) const LIST: ListShape = ListShape {
    find: find_list,
    continuation: &[],
};

fn find_list(body: &Value) -> Result<ListAt, String> {
    let Some(object) = body.as_object() else {
        return ListShape::named(body, LISTS);
    };
    if let Ok(at) = ListShape::named(body, LISTS) {
        return Ok(at);
    }
    let mut arrays = object
        .iter()
        .filter(|(name, value)| value.is_array() && !NOT_LISTS.contains(&name.as_str()));
    match (arrays.next(), arrays.next()) {
        (Some((name, _)), None) => Ok(ListAt::Field(name.clone())),
        _ => Err(all_pages::not_a_list(
            object,
            &["a top-level array", "a known list member", "one array member"],
        )),
    }
}

/// The page after `page` for the list tools, built from their parameters: its number when the `Link` (or
/// `x-next-page`) gives one, else the `Link` target (a cursor).
pub(super) fn by_number(page: &Page) -> Option<Next> {
    page.next_page
        .map(Next::Page)
        .or_else(|| page.next_link.clone().map(Next::Link))
}

/// The page after `page` for `github_get`, whose path may carry any query: the `Link` target (it holds every
/// parameter), else the `x-next-page` number.
pub(super) fn by_link(page: &Page) -> Option<Next> {
    page.next_link
        .clone()
        .map(Next::Link)
        .or_else(|| page.next_page.map(Next::Page))
}

/// The merged result of a GitHub paged tool from its `first` page (whose status the caller recorded on the call's
/// span: the later pages' are not, a span field holds one value): the metadata of each page by `meta_of`, the page
/// after it by `next_of` ([`by_number`], [`by_link`]), later pages read by `fetch`. `start` is the page `first` was
/// asked as.
#[allow(clippy::too_many_arguments)]
pub(super) async fn merge<M, F, Fut>(
    app: &App,
    principal: &Principal,
    tool: &str,
    limits: Limits,
    start: Option<Next>,
    first: Page,
    view: &View,
    meta_of: fn(&Page) -> M,
    next_of: fn(&Page) -> Option<Next>,
    mut fetch: F,
) -> CallToolResult
where
    M: MergeMeta + Serialize + Send + Sync + 'static,
    F: FnMut(Next) -> Fut,
    Fut: Future<Output = Result<Page, GithubError>>,
{
    let fetched = move |page: Page| Fetched {
        meta: meta_of(&page),
        next: next_of(&page),
        body: page.body,
    };
    let first = fetched(first);
    all_pages::respond(app, principal, tool, &LIST, limits, start, first, view, |next| {
        let page = fetch(next);
        async move {
            page.await.map(fetched).map_err(|err| {
                tracing::info!(status = err.status(), "a later page failed upstream");
                err.to_string()
            })
        }
    })
    .await
}

/// A page number as the adapters take it.
#[expect(
    clippy::result_large_err,
    reason = "the adapter's own error, beside its calls' in the same closure"
)]
pub(super) fn page_number(page: u64) -> Result<u32, GithubError> {
    u32::try_from(page).map_err(|_| GithubError::InvalidArgument {
        name: "page".to_owned(),
        detail: format!("the next page {page} is past {}", u32::MAX),
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use serde_json::json;

    use super::*;

    #[test]
    fn the_list_of_each_github_answer() {
        let find = |body: Value| (LIST.find)(&body);
        assert_eq!(find(json!([{"id": 1}])), Ok(ListAt::Whole));
        assert_eq!(
            find(json!({"total_count": 2, "workflow_runs": [], "pull_requests": []})),
            Ok(ListAt::Field("workflow_runs".into()))
        );
        assert_eq!(
            find(json!({"total_count": 2, "deployment_branch_policies": [{}]})),
            Ok(ListAt::Field("deployment_branch_policies".into()))
        );
        let err = find(json!({"id": 7, "pull_requests": [], "referenced_workflows": []})).unwrap_err();
        assert!(err.starts_with("the answer has no list to merge"), "{err}");
        assert!(err.ends_with("found id, pull_requests, referenced_workflows)"), "{err}");
        assert!(find(json!({"a": [], "b": []})).is_err(), "two arrays: which one?");
    }
}
