//! `github_get` (paged contract `{data, nextPage, incomplete?}`): a `GET` of any GitHub REST path, with
//! `page` / `perPage` and `nextPage` exactly as for the list tools. Reads only: GitHub writes are out of scope.

use std::collections::BTreeMap;

use adapters_github::{GetRequest, MediaType};
use mcp_envelope::LinkedPageMeta;
use mcp_results::WithView;
use rmcp::model::CallToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::pages;
use super::runs::{Checked, check_paged, client, finish};
use crate::Principal;
use crate::app::App;
use crate::tools::all_pages::{AllPages, Next, WithPages};
use crate::tools::paging::Paged;

/// Tool name.
pub const NAME: &str = "github_get";

/// The representation asked for.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum MediaTypeArg {
    /// JSON (the default).
    Json,
    /// A unified diff, as a string.
    Diff,
    /// A `git format-patch` text, as a string.
    Patch,
}

/// Arguments of `github_get` (with `perPage` and `page`: [`Paged`]; `allPages` and `maxItems`: [`AllPages`]; `jq`
/// and `outputFormat`: [`WithView`]).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GithubGetArgs {
    /// REST path, e.g. `/repos/{o}/{r}/commits/{sha}/pulls`; an absolute URL only on the API host.
    #[schemars(length(max = crate::args::MAX_PATH_CHARS))]
    pub path: String,
    // Values unencoded (encoded once by the server).
    pub query_params: Option<BTreeMap<String, String>>,
    /// diff, patch: the text as a string.
    pub media_type: Option<MediaTypeArg>,
}

/// `outputSchema` of `github_get`: `{data, nextPage, nextLink, pages?, incomplete?}`.
pub fn output_schema() -> serde_json::Map<String, serde_json::Value> {
    mcp_envelope::with_title(
        mcp_envelope::Envelope::<serde_json::Value, WithPages<LinkedPageMeta>>::output_schema(),
        "LinkedPagedEnvelope",
        "A page of upstream results: `data` is the (projected) body, `nextPage` the page to request next or null. `incomplete` appears only when `data` is not the whole result.",
    )
}

/// Runs `github_get`.
pub(super) async fn call(
    app: &App,
    principal: &Principal,
    args: AllPages<Paged<WithView<GithubGetArgs>>>,
) -> CallToolResult {
    let checked = match check_paged(NAME, args).await {
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
    let github = match client(app, NAME) {
        Ok(github) => github,
        Err(unusable) => return mcp_results::coded_error(unusable, "invalid_setting"),
    };
    let query: Vec<(String, String)> = args.query_params.unwrap_or_default().into_iter().collect();
    let media_type = match args.media_type {
        None | Some(MediaTypeArg::Json) => MediaType::Json,
        Some(MediaTypeArg::Diff) => MediaType::Diff,
        Some(MediaTypeArg::Patch) => MediaType::Patch,
    };
    let request = GetRequest::new(&args.path)
        .with_query(&query)
        .with_per_page(per_page)
        .with_page(page)
        .with_media_type(media_type);
    let (limits, first) = match (all, github.get(&request).await) {
        (Some(limits), Ok(first)) => (limits, first),
        (_, first) => return finish(app, principal, NAME, first, &view, linked_meta).await,
    };
    crate::tools::record_upstream_status(Some(200));
    // The page asked for first, when the path is a whole URL (a nextLink given back) and nothing is added to it.
    let start = (query.is_empty() && per_page.is_none() && page.is_none() && args.path.contains("://"))
        .then(|| Next::Link(args.path.clone()));
    let request = &request;
    let fetch = |next| async move {
        match next {
            Next::Link(link) => {
                let request = GetRequest::new(&link).with_media_type(media_type);
                github.get(&request).await
            }
            Next::Page(n) => github.get(&request.with_page(Some(pages::page_number(n)?))).await,
        }
    };
    let next_of = pages::by_link;
    pages::merge(
        app,
        principal,
        NAME,
        limits,
        start,
        first,
        &view,
        linked_meta,
        next_of,
        fetch,
    )
    .await
}

/// `github_get`'s metadata: the next page's number and URL.
fn linked_meta(page: &adapters_github::Page) -> LinkedPageMeta {
    LinkedPageMeta {
        next_page: page.next_page,
        next_link: page.next_link.clone(),
    }
}
