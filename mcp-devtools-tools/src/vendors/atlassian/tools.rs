//! What the six Atlassian tools do (their `#[tool]` methods are in [`super`]): `jira_get`, `conf_get`, `bb_get` —
//! `{data, nextLink, pages?, incomplete?}` whose text is the bare body ([`TextSource::Data`]); with `allPages`, the
//! pages of a list merged ([`read_all`], each product's list and continuation in [`list_shape`]) — and `jira_write`, `conf_write`,
//! `bb_write`, text only (never an `outputSchema` or `structuredContent`, also with the switch on). All are thin: path rules, auth and body
//! decoding live in `adapters-atlassian`.

use std::collections::BTreeMap;

use adapters_atlassian::{Product, Request};
use adapters_http::decode::Payload;
use http::Method;
use mcp_envelope::{Envelope, NextLinkMeta, TextSource};
use mcp_results::{View, ViewArgs};
use rmcp::model::CallToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::Principal;
use crate::app::App;
use crate::args::{self, ArgumentError};
use crate::tools::all_pages::{self, Fetched, Limits, ListAt, ListShape, Next, WithPages};
use crate::tools::{record_upstream_status, writes};

/// `outputSchema` of `jira_get`, `conf_get`, `bb_get`: `{data, nextLink, pages?, incomplete?}`.
pub fn output_schema() -> serde_json::Map<String, serde_json::Value> {
    mcp_envelope::with_title(
        Envelope::<serde_json::Value, WithPages<NextLinkMeta>>::output_schema(),
        "AtlassianEnvelope",
        "An Atlassian response: `data` is the (projected) body. `incomplete` appears only when `data` is not the whole result.",
    )
}

/// Arguments of the reads (`jira_get`, `conf_get`, `bb_get`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PathArgs {
    /// Path from the product's base; a body's next link works as is.
    #[schemars(length(max = crate::args::MAX_PATH_CHARS))]
    pub path: String,
    /// Query parameters, unencoded.
    pub query_params: Option<BTreeMap<String, String>>,
}

/// Arguments of the writes (`jira_write`, `conf_write`, `bb_write`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WriteArgs {
    #[schemars(description = "")]
    /// The HTTP method.
    pub method: WriteMethod,
    #[schemars(description = "")]
    /// Path from the product's base.
    #[schemars(length(max = crate::args::MAX_PATH_CHARS))]
    pub path: String,
    #[schemars(description = "")]
    /// Query parameters, unencoded.
    pub query_params: Option<BTreeMap<String, String>>,
    #[schemars(description = "")]
    /// JSON request body (never with DELETE).
    pub body: Option<serde_json::Value>,
}

/// The method of a write, as HTTP spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum WriteMethod {
    /// Create (RFC 9110 §9.3.3).
    Post,
    /// Replace (§9.3.4).
    Put,
    /// Change in part (RFC 5789).
    Patch,
    /// Remove (§9.3.5): never with a body.
    Delete,
}

/// The HTTP method of a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Verb {
    Get,
    Post,
    Put,
    Patch,
    Delete,
}

impl Verb {
    fn method(self) -> Method {
        match self {
            Verb::Get => Method::GET,
            Verb::Post => Method::POST,
            Verb::Put => Method::PUT,
            Verb::Patch => Method::PATCH,
            Verb::Delete => Method::DELETE,
        }
    }
}

/// One call's arguments, whatever the verb.
pub(super) struct Call {
    path: String,
    query: Vec<(String, String)>,
    body: Option<serde_json::Value>,
    view: View,
}

impl Call {
    /// A read's arguments.
    pub(super) fn path(args: PathArgs, view: ViewArgs) -> Self {
        Call {
            path: args.path,
            query: args.query_params.unwrap_or_default().into_iter().collect(),
            body: None,
            view: view.into_view().text_from(TextSource::Data),
        }
    }

    /// A write's verb and arguments; a DELETE with a body is refused (`_meta.code: "invalid_argument"`), since
    /// the products ignore it and the caller meant something else.
    pub(super) fn write(tool: &'static str, args: WriteArgs, view: ViewArgs) -> Result<(Verb, Self), ArgumentError> {
        let verb = match args.method {
            WriteMethod::Post => Verb::Post,
            WriteMethod::Put => Verb::Put,
            WriteMethod::Patch => Verb::Patch,
            WriteMethod::Delete => Verb::Delete,
        };
        if verb == Verb::Delete && args.body.is_some() {
            let detail = "body: a DELETE sends no body; leave it out (query parameters go in queryParams)";
            return Err(ArgumentError::new(tool, detail));
        }
        let call = Call {
            path: args.path,
            query: args.query_params.unwrap_or_default().into_iter().collect(),
            body: args.body,
            view: view.into_view().text_from(TextSource::Data),
        };
        Ok((verb, call))
    }
}

/// Runs the tool `name`: `verb` on `product` for `principal`.
pub(super) async fn run(
    app: &App,
    principal: &Principal,
    name: &'static str,
    product: Product,
    verb: Verb,
    call: Call,
) -> CallToolResult {
    if let Err(err) = args::check_jq(name, call.view.jq.as_deref()).await {
        return err.into_result();
    }
    let method = verb.method();
    let request = Request {
        method: &method,
        path: &call.path,
        query: &call.query,
        body: call.body.as_ref(),
        partition: principal.as_str(),
    };
    match app.atlassian.product(product).send(&request).await {
        Ok(response) => {
            record_upstream_status(Some(response.status));
            match (verb == Verb::Get, response.body) {
                (true, Payload::Data(data)) => {
                    let meta = NextLinkMeta {
                        next_link: response.next_link,
                    };
                    app.results.respond(principal.as_str(), data, meta, &call.view).await
                }
                (true, Payload::Binary(body)) => {
                    let meta = NextLinkMeta::default();
                    app.results
                        .binary(principal.as_str(), body.media_type, body.bytes, meta, &call.view)
                        .await
                }
                (false, Payload::Data(data)) => writes::text(&app.results, data, response.status, &call.view).await,
                (false, Payload::Binary(body)) => {
                    let owner = principal.as_str();
                    writes::binary(&app.results, owner, body.media_type, body.bytes, response.status).await
                }
            }
        }
        Err(err) => failed(name, &err),
    }
}

/// The error result of a failed request, its status on the span and a log line.
fn failed(name: &str, err: &adapters_atlassian::AtlassianError) -> CallToolResult {
    record_upstream_status(err.status());
    if let adapters_atlassian::AtlassianError::MissingSetting { settings, .. } = err {
        tracing::info!(tool = name, "no request sent: set {}", settings.join(" and "));
    } else {
        tracing::info!(tool = name, status = err.status(), "upstream call failed");
    }
    mcp_results::error_with_meta(format!("{name} failed: {err}"), err.info().to_meta())
}

/// Where each product keeps a page's list and what continues it (the fields the merged value takes from the last
/// page read): Jira's `issues` (search) or `values`, `comments`, `worklogs`, `histories` (the start-index lists),
/// continued by `nextPageToken` / `isLast` / `nextPage`; Confluence's `results` and `_links.next`; Bitbucket's
/// `values`, continued by Cloud's `next` or Data Center's `isLastPage` / `nextPageStart`.
pub(super) fn list_shape(product: Product) -> ListShape {
    match product {
        Product::Jira => ListShape {
            find: jira_list,
            continuation: &["/nextPageToken", "/isLast", "/nextPage"],
        },
        Product::Confluence => ListShape {
            find: confluence_list,
            continuation: &["/_links/next"],
        },
        Product::Bitbucket => ListShape {
            find: bitbucket_list,
            continuation: &["/next", "/isLastPage", "/nextPageStart"],
        },
    }
}

fn jira_list(body: &serde_json::Value) -> Result<ListAt, String> {
    ListShape::named(body, adapters_http::next_link::StartIndex::JIRA.lists)
}

fn confluence_list(body: &serde_json::Value) -> Result<ListAt, String> {
    ListShape::named(body, &["results"])
}

fn bitbucket_list(body: &serde_json::Value) -> Result<ListAt, String> {
    ListShape::named(body, &["values"])
}

/// A read with `allPages` (`limits`): the first page as [`run`] reads it (its error is the call's), then the
/// product's next links until a stop, merged ([`all_pages::respond`]).
pub(super) async fn read_all(
    app: &App,
    principal: &Principal,
    name: &'static str,
    product: Product,
    call: Call,
    limits: Limits,
) -> CallToolResult {
    if let Err(err) = args::check_jq(name, call.view.jq.as_deref()).await {
        return err.into_result();
    }
    let client = app.atlassian.product(product);
    let first = match read_page(client, principal, &call.path, &call.query).await {
        Ok((status, first)) => {
            record_upstream_status(Some(status));
            first
        }
        Err(err) => return failed(name, &err),
    };
    let start = (call.query.is_empty() && call.path.contains("://")).then(|| Next::Link(call.path.clone()));
    let fetch = |next| async move {
        let Next::Link(link) = next else {
            return Err("Atlassian lists continue by link, not by page number".to_owned());
        };
        match read_page(client, principal, &link, &[]).await {
            Ok((_, page)) => Ok(page),
            Err(err) => {
                tracing::info!(tool = name, status = err.status(), "a later page failed upstream");
                Err(err.to_string())
            }
        }
    };
    let shape = list_shape(product);
    all_pages::respond(app, principal, name, &shape, limits, start, first, &call.view, fetch).await
}

/// One page of a read: `GET path` with `query` for `principal`, as the merge takes it, with its HTTP status (only
/// the first page's is recorded on the call's span: a span field holds one value).
async fn read_page(
    client: &adapters_atlassian::ProductClient,
    principal: &Principal,
    path: &str,
    query: &[(String, String)],
) -> Result<(u16, Fetched<NextLinkMeta>), adapters_atlassian::AtlassianError> {
    let request = Request {
        method: &Method::GET,
        path,
        query,
        body: None,
        partition: principal.as_str(),
    };
    let response = client.send(&request).await?;
    let page = Fetched {
        next: response.next_link.clone().map(Next::Link),
        meta: NextLinkMeta {
            next_link: response.next_link,
        },
        body: response.body,
    };
    Ok((response.status, page))
}
