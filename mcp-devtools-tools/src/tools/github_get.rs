//! `github_get` (paged contract `{data, nextPage, incomplete?}`): a `GET` of any GitHub REST path, with
//! `page` / `perPage` and `nextPage` exactly as for the list tools. Reads only: GitHub writes are out of scope.

use std::collections::BTreeMap;

use adapters_github::{GetRequest, MediaType};
use mcp_envelope::{LinkedPageMeta, OutputFormat, TextSource};
use rmcp::model::{CallToolResult, JsonObject};
use schemars::JsonSchema;
use serde::Deserialize;

use super::github::{JqArg, client, finish, parse_paged};
use super::paging::Paged;
use super::{OutputContract, ToolSpec, handler, input_schema, read_only};
use crate::Principal;
use crate::app::App;

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

/// Arguments of `github_get` (with `perPage` and `page`: [`super::paging::Paged`]).
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
    #[schemars(description = "")]
    /// jq or JMESPath over the body; one value.
    #[schemars(length(max = crate::args::MAX_JQ_CHARS))]
    pub jq: Option<String>,
    #[schemars(description = "")]
    /// toon (default) or json.
    pub output_format: Option<OutputFormat>,
}

/// `outputSchema` of `github_get`: `{data, nextPage, nextLink, incomplete?}`.
pub fn output_schema() -> serde_json::Map<String, serde_json::Value> {
    mcp_envelope::with_title(
        mcp_envelope::Envelope::<serde_json::Value, LinkedPageMeta>::output_schema(),
        "LinkedPagedEnvelope",
        "A page of upstream results: `data` is the (projected) body, `nextPage` the page to request next or null. `incomplete` appears only when `data` is not the whole result.",
    )
}

/// The `tools/list` entry of `github_get`.
pub fn spec() -> ToolSpec {
    ToolSpec {
        name: NAME,
        description: "GET a GitHub REST path (pull requests of a commit, its check-runs, a run's artifacts, ...).",
        input_schema: input_schema::<Paged<GithubGetArgs>>(),
        output: Some(OutputContract::LinkedPaged),
        annotations: read_only("GitHub GET", true),
        vendor: crate::Vendor::Github,
        handler: handler(|app, principal, arguments| Box::pin(call(app, principal, arguments))),
    }
}

/// Runs `github_get`.
pub async fn call(app: &App, principal: &Principal, arguments: Option<JsonObject>) -> CallToolResult {
    let (args, per_page, page) = match parse_paged::<GithubGetArgs>(NAME, arguments).await {
        Ok(parsed) => parsed,
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
    let view = super::view(args.jq, args.output_format, TextSource::Envelope);
    finish(app, principal, NAME, page, &view, |page| LinkedPageMeta {
        next_page: page.next_page,
        next_link: page.next_link.clone(),
    })
    .await
}

impl JqArg for GithubGetArgs {
    fn jq(&self) -> Option<&str> {
        self.jq.as_deref()
    }
}
