//! `github_get` (`{data, nextPage, nextPath?, incomplete?}`): a `GET` of any GitHub REST path, with `page` /
//! `perPage` and `nextPage` exactly as for the list tools, and `nextPath` for the lists GitHub continues with a
//! cursor (`?after=…`) instead of a page number. Reads only: GitHub writes are out of scope.

use std::collections::BTreeMap;

use adapters_github::{GetRequest, MediaType};
use mcp_envelope::{Envelope, OutputFormat, TextSource};
use rmcp::model::{CallToolResult, JsonObject};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::github::{JqArg, client, finish_with, parse_paged};
use super::paging::Paged;
use super::{OutputContract, ToolSpec, handler, input_schema, read_only};
use crate::Principal;
use crate::app::App;

/// Tool name.
pub const NAME: &str = "github_get";

/// Metadata of `github_get` beside `data`: `nextPage` as for the list tools, and `nextPath`, present when GitHub
/// links a next page (`rel="next"`), the one way on through a cursor list (Dependabot and secret-scanning alerts,
/// the audit log: `?after=…`, where `nextPage` is `null`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GetMeta {
    /// The page to request next (pass it as `page`), or `null`.
    #[schemars(range(min = 1), description = "Pass as page for the next page; null on the last")]
    pub next_page: Option<u64>,
    /// The next page's path and query, relative to the API base.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(
        default,
        description = "Pass as path for the next page (cursor lists: the only way on)"
    )]
    pub next_path: Option<String>,
}

/// `structuredContent` of `github_get`.
pub type GithubGetEnvelope = Envelope<Value, GetMeta>;

/// `outputSchema` of `github_get`.
pub fn output_schema() -> Map<String, Value> {
    mcp_envelope::with_title(
        GithubGetEnvelope::output_schema(),
        "GithubGetEnvelope",
        "A GitHub response: `data` is the (projected) body, `nextPage` the page to request next or null, `nextPath` (when there is a next page) the path to request it by. `incomplete` appears only when `data` is not the whole result.",
    )
}

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

/// The `tools/list` entry of `github_get`.
pub fn spec() -> ToolSpec {
    ToolSpec {
        name: NAME,
        description: "GET a GitHub REST path (pull requests of a commit, its check-runs, a run's artifacts, ...).",
        input_schema: input_schema::<Paged<GithubGetArgs>>(),
        output: Some(OutputContract::GithubGet),
        annotations: read_only("GitHub GET", true),
        vendor: crate::Vendor::Github,
        handler: handler(|app, principal, arguments| Box::pin(call(app, principal, arguments))),
    }
}

/// Runs `github_get`.
pub async fn call(app: &App, principal: &Principal, arguments: Option<JsonObject>) -> CallToolResult {
    let (args, per_page, page) = match parse_paged::<GithubGetArgs>(NAME, arguments).await {
        Ok(parsed) => parsed,
        Err(err) => return mcp_results::error(err.to_string()),
    };
    let github = match client(app, NAME) {
        Ok(github) => github,
        Err(unusable) => return mcp_results::error(unusable),
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
    finish_with(app, principal, NAME, page, &view, |page| GetMeta {
        next_page: page.next_page,
        next_path: page.next_path.clone(),
    })
    .await
}

impl JqArg for GithubGetArgs {
    fn jq(&self) -> Option<&str> {
        self.jq.as_deref()
    }
}
