//! `github_get` (paged contract `{data, nextPage, incomplete?}`): a `GET` of any GitHub REST path, with
//! `page` / `perPage` and `nextPage` exactly as for the list tools. Reads only: GitHub writes are out of scope.

use std::collections::BTreeMap;

use adapters_github::{GetRequest, MediaType};
use mcp_envelope::LinkedPageMeta;
use mcp_results::WithView;
use rmcp::model::CallToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::runs::{check_paged, client, finish};
use crate::Principal;
use crate::app::App;
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

/// Arguments of `github_get` (with `perPage` and `page`: [`Paged`]; `jq` and `outputFormat`: [`WithView`]).
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

/// `outputSchema` of `github_get`: `{data, nextPage, nextLink, incomplete?}`.
pub fn output_schema() -> serde_json::Map<String, serde_json::Value> {
    mcp_envelope::with_title(
        mcp_envelope::Envelope::<serde_json::Value, LinkedPageMeta>::output_schema(),
        "LinkedPagedEnvelope",
        "A page of upstream results: `data` is the (projected) body, `nextPage` the page to request next or null. `incomplete` appears only when `data` is not the whole result.",
    )
}

/// Runs `github_get`.
pub(super) async fn call(app: &App, principal: &Principal, args: Paged<WithView<GithubGetArgs>>) -> CallToolResult {
    let (args, view, per_page, page) = match check_paged(NAME, args).await {
        Ok(checked) => checked,
        Err(err) => return err.into_result(),
    };
    let github = match client(app, NAME) {
        Ok(github) => github,
        Err(unusable) => return mcp_results::coded_error(unusable, "invalid_setting"),
    };
    let query: Vec<(String, String)> = args.query_params.unwrap_or_default().into_iter().collect();
    let request = GetRequest::new(&args.path)
        .with_query(&query)
        .with_per_page(per_page)
        .with_page(page)
        .with_media_type(match args.media_type {
            None | Some(MediaTypeArg::Json) => MediaType::Json,
            Some(MediaTypeArg::Diff) => MediaType::Diff,
            Some(MediaTypeArg::Patch) => MediaType::Patch,
        });
    let page = github.get(&request).await;
    finish(app, principal, NAME, page, &view, |page| LinkedPageMeta {
        next_page: page.next_page,
        next_link: page.next_link.clone(),
    })
    .await
}
