//! The 15 Atlassian tools: `jira_get`, `conf_get`, `bb_get` — `{data, incomplete?}` whose text is
//! the bare body ([`TextSource::Data`]) — and `{jira,conf,bb}_{post,put,patch,delete}`, text only (never an
//! `outputSchema` or `structuredContent`, also with the switch on). All are thin: path rules, auth and body
//! decoding live in `adapters-atlassian`.

use std::collections::BTreeMap;

use adapters_atlassian::{Product, Request};
use adapters_http::decode::Payload;
use http::Method;
use mcp_envelope::{Envelope, NextLinkMeta, OutputFormat, TextSource};
use rmcp::model::{CallToolResult, JsonObject, ToolAnnotations};
use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::{OutputContract, ToolSpec, handler, input_schema, read_only, writes};
use crate::Principal;
use crate::app::App;
use crate::args::{self, ArgumentError};
use crate::vendor::Vendor;
use mcp_results::View;

/// `outputSchema` of `jira_get`, `conf_get`, `bb_get`: `{data, nextLink, incomplete?}`.
pub fn output_schema() -> serde_json::Map<String, serde_json::Value> {
    mcp_envelope::with_title(
        Envelope::<serde_json::Value, NextLinkMeta>::output_schema(),
        "AtlassianEnvelope",
        "An Atlassian response: `data` is the (projected) body. `incomplete` appears only when `data` is not the whole result.",
    )
}

/// Arguments of the reads (`jira_get`, `conf_get`, `bb_get`) and of the deletes.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PathArgs {
    /// Path from the product's base; a body's next link works as is.
    #[schemars(length(max = crate::args::MAX_PATH_CHARS))]
    pub path: String,
    /// Query parameters, unencoded.
    pub query_params: Option<BTreeMap<String, String>>,
    #[schemars(description = "")]
    /// jq filter; replaces data.
    #[schemars(length(max = crate::args::MAX_JQ_CHARS))]
    pub jq: Option<String>,
    #[schemars(description = "")]
    /// The text block's format: TOON (default) or pretty JSON (the type says it: no description in the schema).
    pub output_format: Option<OutputFormat>,
}

/// Arguments of the writes that send a body (`*_post`, `*_put`, `*_patch`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BodyArgs {
    #[schemars(description = "")]
    /// Path from the product's base.
    #[schemars(length(max = crate::args::MAX_PATH_CHARS))]
    pub path: String,
    #[schemars(description = "")]
    /// Query parameters, unencoded.
    pub query_params: Option<BTreeMap<String, String>>,
    #[schemars(description = "")]
    /// JSON request body.
    pub body: Option<serde_json::Value>,
    #[schemars(description = "")]
    /// jq filter; replaces data.
    #[schemars(length(max = crate::args::MAX_JQ_CHARS))]
    pub jq: Option<String>,
    #[schemars(description = "")]
    /// The text block's format: TOON (default) or pretty JSON (the type says it: no description in the schema).
    pub output_format: Option<OutputFormat>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verb {
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

struct Def {
    name: &'static str,
    product: Product,
    verb: Verb,
    title: &'static str,
    description: &'static str,
}

macro_rules! write_note {
    ($product:literal) => {
        concat!(" Clears cached ", $product, " reads.")
    };
}

static DEFS: [Def; 15] = [
    Def {
        name: "jira_get",
        product: Product::Jira,
        verb: Verb::Get,
        title: "Jira GET",
        description: "GET a Jira REST path, e.g. /rest/api/3/search/jql with queryParams {jql, fields, \
                      maxResults, nextPageToken}, /rest/api/3/issue/EX-1. Ask only for \
                      the fields you need.",
    },
    Def {
        name: "jira_post",
        product: Product::Jira,
        verb: Verb::Post,
        title: "Jira POST",
        description: concat!(
            "POST a JSON body to a Jira path, e.g. /rest/api/3/issue (create), /rest/api/3/issue/EX-1/comment.",
            write_note!("Jira")
        ),
    },
    Def {
        name: "jira_put",
        product: Product::Jira,
        verb: Verb::Put,
        title: "Jira PUT",
        description: concat!(
            "PUT a JSON body to a Jira path, e.g. /rest/api/3/issue/EX-1 with {fields} (edit).",
            write_note!("Jira")
        ),
    },
    Def {
        name: "jira_patch",
        product: Product::Jira,
        verb: Verb::Patch,
        title: "Jira PATCH",
        description: concat!("PATCH a Jira path with a JSON body.", write_note!("Jira")),
    },
    Def {
        name: "jira_delete",
        product: Product::Jira,
        verb: Verb::Delete,
        title: "Jira DELETE",
        description: concat!(
            "DELETE a Jira path, e.g. /rest/api/3/issue/EX-1. Cannot be undone.",
            write_note!("Jira")
        ),
    },
    Def {
        name: "conf_get",
        product: Product::Confluence,
        verb: Verb::Get,
        title: "Confluence GET",
        description: "GET a Confluence REST path, e.g. /wiki/api/v2/pages, /wiki/api/v2/pages/{id} with \
                      queryParams {body-format: storage}, /wiki/rest/api/search with {cql}; continue \
                      with its _links.next as path.",
    },
    Def {
        name: "conf_post",
        product: Product::Confluence,
        verb: Verb::Post,
        title: "Confluence POST",
        description: concat!(
            "POST a JSON body to a Confluence path, e.g. /wiki/api/v2/pages with {spaceId, title, body}.",
            write_note!("Confluence")
        ),
    },
    Def {
        name: "conf_put",
        product: Product::Confluence,
        verb: Verb::Put,
        title: "Confluence PUT",
        description: concat!(
            "PUT a JSON body to a Confluence path, e.g. /wiki/api/v2/pages/{id} with {id, status, title, body, \
             version: {number: current + 1}}.",
            write_note!("Confluence")
        ),
    },
    Def {
        name: "conf_patch",
        product: Product::Confluence,
        verb: Verb::Patch,
        title: "Confluence PATCH",
        description: concat!("PATCH a Confluence path with a JSON body.", write_note!("Confluence")),
    },
    Def {
        name: "conf_delete",
        product: Product::Confluence,
        verb: Verb::Delete,
        title: "Confluence DELETE",
        description: concat!(
            "DELETE a Confluence path, e.g. /wiki/api/v2/pages/{id} ({purge: true}: for good).",
            write_note!("Confluence")
        ),
    },
    Def {
        name: "bb_get",
        product: Product::Bitbucket,
        verb: Verb::Get,
        title: "Bitbucket GET",
        description: "GET a Bitbucket 2.0 path, e.g. /repositories/{workspace}/{repo}/pullrequests, \
                      .../diff/{spec}. A diff or raw file is a string; continue with its next \
                      URL as path.",
    },
    Def {
        name: "bb_post",
        product: Product::Bitbucket,
        verb: Verb::Post,
        title: "Bitbucket POST",
        description: concat!(
            "POST a JSON body to a Bitbucket path, e.g. /repositories/{workspace}/{repo}/pullrequests, \
             .../pullrequests/{id}/approve.",
            write_note!("Bitbucket")
        ),
    },
    Def {
        name: "bb_put",
        product: Product::Bitbucket,
        verb: Verb::Put,
        title: "Bitbucket PUT",
        description: concat!(
            "PUT a JSON body to a Bitbucket path, e.g. a pull request.",
            write_note!("Bitbucket")
        ),
    },
    Def {
        name: "bb_patch",
        product: Product::Bitbucket,
        verb: Verb::Patch,
        title: "Bitbucket PATCH",
        description: concat!("PATCH a Bitbucket path with a JSON body.", write_note!("Bitbucket")),
    },
    Def {
        name: "bb_delete",
        product: Product::Bitbucket,
        verb: Verb::Delete,
        title: "Bitbucket DELETE",
        description: concat!(
            "DELETE a Bitbucket path, e.g. .../pullrequests/{id}/approve. Cannot be undone.",
            write_note!("Bitbucket")
        ),
    },
];

fn vendor(product: Product) -> Vendor {
    match product {
        Product::Jira => Vendor::Jira,
        Product::Confluence => Vendor::Confluence,
        Product::Bitbucket => Vendor::Bitbucket,
    }
}

/// Annotations of a write: not read-only, open world, and `destructiveHint: true` for every verb, because these
/// are pass-throughs: a POST can merge a pull request or transition an issue and a PUT overwrites, as surely as a
/// DELETE removes. `idempotentHint` is true for PUT and DELETE only (RFC 9110 §9.2.2).
fn write_annotations(def: &Def) -> ToolAnnotations {
    ToolAnnotations::with_title(def.title)
        .read_only(false)
        .destructive(true)
        .idempotent(matches!(def.verb, Verb::Put | Verb::Delete))
        .open_world(true)
}

/// The `tools/list` entries of the 15 Atlassian tools, reads first for each product.
pub fn specs() -> Vec<ToolSpec> {
    DEFS.iter()
        .map(|def| {
            let (input_schema, output, annotations) = match def.verb {
                Verb::Get => (
                    input_schema::<PathArgs>(),
                    Some(OutputContract::Atlassian),
                    read_only(def.title, true),
                ),
                Verb::Delete => (input_schema::<PathArgs>(), None, write_annotations(def)),
                Verb::Post | Verb::Put | Verb::Patch => (input_schema::<BodyArgs>(), None, write_annotations(def)),
            };
            ToolSpec {
                name: def.name,
                description: def.description,
                input_schema,
                output,
                annotations,
                vendor: vendor(def.product),
                handler: handler(move |app, principal, arguments| Box::pin(run(app, principal, def, arguments))),
            }
        })
        .collect()
}

/// One call's arguments, whatever the verb.
struct Call {
    path: String,
    query: Vec<(String, String)>,
    body: Option<serde_json::Value>,
    view: View,
}

fn parse<T: DeserializeOwned + schemars::JsonSchema>(
    name: &'static str,
    arguments: Option<JsonObject>,
) -> Result<T, ArgumentError> {
    args::parse::<T>(name, arguments)
}

fn call_args(def: &Def, arguments: Option<JsonObject>) -> Result<Call, ArgumentError> {
    let view = |jq, format| super::view(jq, format, TextSource::Data);
    Ok(match def.verb {
        Verb::Get | Verb::Delete => {
            let a = parse::<PathArgs>(def.name, arguments)?;
            Call {
                path: a.path,
                query: a.query_params.unwrap_or_default().into_iter().collect(),
                body: None,
                view: view(a.jq, a.output_format),
            }
        }
        Verb::Post | Verb::Put | Verb::Patch => {
            let a = parse::<BodyArgs>(def.name, arguments)?;
            Call {
                path: a.path,
                query: a.query_params.unwrap_or_default().into_iter().collect(),
                body: a.body,
                view: view(a.jq, a.output_format),
            }
        }
    })
}

async fn run(app: &App, principal: &Principal, def: &Def, arguments: Option<JsonObject>) -> CallToolResult {
    let call = match call_args(def, arguments) {
        Ok(call) => call,
        Err(err) => return err.into_result(),
    };
    if let Err(err) = args::check_jq(def.name, call.view.jq.as_deref()).await {
        return err.into_result();
    }
    let method = def.verb.method();
    let request = Request {
        method: &method,
        path: &call.path,
        query: &call.query,
        body: call.body.as_ref(),
        partition: principal.as_str(),
    };
    match app.atlassian.product(def.product).send(&request).await {
        Ok(response) => {
            super::record_upstream_status(Some(response.status));
            match (def.verb == Verb::Get, response.body) {
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
        Err(err) => {
            super::record_upstream_status(err.status());
            if let adapters_atlassian::AtlassianError::MissingSetting { settings, .. } = &err {
                tracing::info!(tool = def.name, "no request sent: set {}", settings.join(" and "));
            } else {
                tracing::info!(tool = def.name, status = err.status(), "upstream call failed");
            }
            mcp_results::error_with_meta(format!("{} failed: {err}", def.name), err.info().to_meta())
        }
    }
}
