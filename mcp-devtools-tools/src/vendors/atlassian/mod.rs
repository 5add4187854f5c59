//! Jira, Confluence and Bitbucket: the vendor's folder, one toolset per product ([`JIRA`], [`CONFLUENCE`],
//! [`BITBUCKET`]). Each product's five tools (`*_get`, `*_post`, `*_put`, `*_patch`, `*_delete`) are `#[tool]`
//! methods on the front door, written once by [`product_tools!`] for the three products; what they do is in
//! [`tools`].
//!
//! The writes' annotations: not read-only, open world, and `destructiveHint: true` for every verb, because these
//! are pass-throughs: a POST can merge a pull request or transition an issue and a PUT overwrites, as surely as a
//! DELETE removes. `idempotentHint` is true for PUT and DELETE only (RFC 9110 §9.2.2).

mod tools;

use adapters_atlassian::Product;
use mcp_envelope::NextLinkMeta;
use mcp_results::{Args, Json, Structured, WithView};
use rmcp::model::CallToolResult;
use rmcp::service::RequestContext;
use rmcp::{RoleServer, tool, tool_router};
use serde_json::Value;

use tools::{BodyArgs, PathArgs};

use super::VendorEntry;
use crate::Vendor;
use crate::app::App;
use crate::handler::DevtoolsServer;
use crate::tools::{caller, output_schema};
use tools::{Call, Verb};

/// The vendor of the Jira tools: `jira`.
pub const JIRA_VENDOR: Vendor = Vendor::named("jira");
/// The vendor of the Confluence tools: `confluence`.
pub const CONFLUENCE_VENDOR: Vendor = Vendor::named("confluence");
/// The vendor of the Bitbucket tools: `bitbucket`.
pub const BITBUCKET_VENDOR: Vendor = Vendor::named("bitbucket");

/// The registry entry of Jira. The Atlassian account's API token (shared by the three products) is given to the
/// redactor here, with its Basic pair.
pub(crate) const JIRA: VendorEntry = VendorEntry {
    vendor: JIRA_VENDOR,
    tools: DevtoolsServer::jira_tools,
    order: &["jira_get", "jira_post", "jira_put", "jira_patch", "jira_delete"],
    tasks: &[],
    secrets: |config, secrets| {
        let atlassian = &config.atlassian;
        match &atlassian.api_token {
            Some(token) => {
                let user = atlassian.user_email.as_deref().unwrap_or_default().trim();
                secrets.basic(atlassian.setting_names.api_token, user, token.expose())
            }
            None => secrets,
        }
    },
    configured: |config| {
        let atlassian = &config.atlassian;
        account(config) && (atlassian.site_name.is_some() || atlassian.jira_base_url.is_some())
    },
    identity: |app| identity(app, Product::Jira),
};

/// The registry entry of Confluence (its credential is the account's, given to the redactor by [`JIRA`]).
pub(crate) const CONFLUENCE: VendorEntry = VendorEntry {
    vendor: CONFLUENCE_VENDOR,
    tools: DevtoolsServer::confluence_tools,
    order: &["conf_get", "conf_post", "conf_put", "conf_patch", "conf_delete"],
    tasks: &[],
    secrets: |_, secrets| secrets,
    configured: |config| {
        let atlassian = &config.atlassian;
        account(config) && (atlassian.site_name.is_some() || atlassian.confluence_base_url.is_some())
    },
    identity: |app| identity(app, Product::Confluence),
};

/// The registry entry of Bitbucket: its app password, with its Basic pair.
pub(crate) const BITBUCKET: VendorEntry = VendorEntry {
    vendor: BITBUCKET_VENDOR,
    tools: DevtoolsServer::bitbucket_tools,
    order: &["bb_get", "bb_post", "bb_put", "bb_patch", "bb_delete"],
    tasks: &[],
    secrets: |config, secrets| {
        let atlassian = &config.atlassian;
        match &atlassian.bitbucket_app_password {
            Some(password) => {
                let user = atlassian.bitbucket_username.as_deref().unwrap_or_default().trim();
                secrets.basic(atlassian.setting_names.bitbucket_app_password, user, password.expose())
            }
            None => secrets,
        }
    },
    configured: |config| {
        let atlassian = &config.atlassian;
        account(config) || (atlassian.bitbucket_username.is_some() && atlassian.bitbucket_app_password.is_some())
    },
    identity: |app| identity(app, Product::Bitbucket),
};

/// The Atlassian account (e-mail and API token) is set.
fn account(config: &crate::ToolsConfig) -> bool {
    config.atlassian.user_email.is_some() && config.atlassian.api_token.is_some()
}

/// The credential setting's name and the base's authority of `product`.
fn identity(app: &App, product: Product) -> (Option<&'static str>, Option<String>) {
    let client = app.atlassian.product(product);
    (
        client.credential_label(),
        client.base().and_then(|base| super::authority(base.as_str())),
    )
}

/// The `outputSchema` of the reads.
fn read_schema() -> std::sync::Arc<rmcp::model::JsonObject> {
    output_schema(tools::output_schema(), None)
}

/// The note every write's description ends with.
macro_rules! write_note {
    ($product:literal) => {
        concat!(" Clears cached ", $product, " reads.")
    };
}

const JIRA_GET: &str = "GET a Jira REST path, e.g. /rest/api/3/search/jql with queryParams {jql, fields, \
                        maxResults, nextPageToken}, /rest/api/3/issue/EX-1. Ask only for the fields you need.";
const JIRA_POST: &str = concat!(
    "POST a JSON body to a Jira path, e.g. /rest/api/3/issue (create), /rest/api/3/issue/EX-1/comment.",
    write_note!("Jira")
);
const JIRA_PUT: &str = concat!(
    "PUT a JSON body to a Jira path, e.g. /rest/api/3/issue/EX-1 with {fields} (edit).",
    write_note!("Jira")
);
const JIRA_PATCH: &str = concat!("PATCH a Jira path with a JSON body.", write_note!("Jira"));
const JIRA_DELETE: &str = concat!(
    "DELETE a Jira path, e.g. /rest/api/3/issue/EX-1. Cannot be undone.",
    write_note!("Jira")
);
const CONF_GET: &str = "GET a Confluence REST path, e.g. /wiki/api/v2/pages, /wiki/api/v2/pages/{id} with \
                        queryParams {body-format: storage}, /wiki/rest/api/search with {cql}; continue with its \
                        _links.next as path.";
const CONF_POST: &str = concat!(
    "POST a JSON body to a Confluence path, e.g. /wiki/api/v2/pages with {spaceId, title, body}.",
    write_note!("Confluence")
);
const CONF_PUT: &str = concat!(
    "PUT a JSON body to a Confluence path, e.g. /wiki/api/v2/pages/{id} with {id, status, title, body, \
     version: {number: current + 1}}.",
    write_note!("Confluence")
);
const CONF_PATCH: &str = concat!("PATCH a Confluence path with a JSON body.", write_note!("Confluence"));
const CONF_DELETE: &str = concat!(
    "DELETE a Confluence path, e.g. /wiki/api/v2/pages/{id} ({purge: true}: for good).",
    write_note!("Confluence")
);
const BB_GET: &str = "GET a Bitbucket 2.0 path, e.g. /repositories/{workspace}/{repo}/pullrequests, \
                      .../diff/{spec}. A diff or raw file is a string; continue with its next URL as path.";
const BB_POST: &str = concat!(
    "POST a JSON body to a Bitbucket path, e.g. /repositories/{workspace}/{repo}/pullrequests, \
     .../pullrequests/{id}/approve.",
    write_note!("Bitbucket")
);
const BB_PUT: &str = concat!(
    "PUT a JSON body to a Bitbucket path, e.g. a pull request.",
    write_note!("Bitbucket")
);
const BB_PATCH: &str = concat!("PATCH a Bitbucket path with a JSON body.", write_note!("Bitbucket"));
const BB_DELETE: &str = concat!(
    "DELETE a Bitbucket path, e.g. .../pullrequests/{id}/approve. Cannot be undone.",
    write_note!("Bitbucket")
);

/// One product's five tools as `#[tool]` methods of the router `$router`: names, titles and descriptions given,
/// the rest the same for every product.
macro_rules! product_tools {
    (
        $router:ident, $product:expr,
        $get:ident $get_name:tt $get_title:tt $get_description:ident,
        $post:ident $post_name:tt $post_title:tt $post_description:ident,
        $put:ident $put_name:tt $put_title:tt $put_description:ident,
        $patch:ident $patch_name:tt $patch_title:tt $patch_description:ident,
        $delete:ident $delete_name:tt $delete_title:tt $delete_description:ident $(,)?
    ) => {
        #[tool_router(router = $router, vis = "pub(crate)")]
        impl DevtoolsServer {
            #[tool(
                                        name = $get_name,
                                        description = $get_description,
                                        input_schema = mcp_results::schema::input_schema::<WithView<PathArgs>>(),
                                        output_schema = read_schema(),
                                        annotations(
                                            title = $get_title,
                                            read_only_hint = true,
                                            destructive_hint = false,
                                            idempotent_hint = true,
                                            open_world_hint = true
                                        )
                                    )]
            async fn $get(
                &self,
                args: Args<WithView<PathArgs>>,
                cx: RequestContext<RoleServer>,
            ) -> Result<Json<Structured<Value, NextLinkMeta>>, CallToolResult> {
                let WithView { args, view } = args.into_result()?;
                let call = Call::path(args, view);
                let result = tools::run(self.app(), &caller(&cx), $get_name, $product, Verb::Get, call).await;
                Ok(Json::from_result(result))
            }

            #[tool(
                                        name = $post_name,
                                        description = $post_description,
                                        input_schema = mcp_results::schema::input_schema::<WithView<BodyArgs>>(),
                                        annotations(
                                            title = $post_title,
                                            read_only_hint = false,
                                            destructive_hint = true,
                                            idempotent_hint = false,
                                            open_world_hint = true
                                        )
                                    )]
            async fn $post(&self, args: Args<WithView<BodyArgs>>, cx: RequestContext<RoleServer>) -> CallToolResult {
                self.atlassian_write($post_name, $product, Verb::Post, args, &cx)
                    .await
            }

            #[tool(
                                        name = $put_name,
                                        description = $put_description,
                                        input_schema = mcp_results::schema::input_schema::<WithView<BodyArgs>>(),
                                        annotations(
                                            title = $put_title,
                                            read_only_hint = false,
                                            destructive_hint = true,
                                            idempotent_hint = true,
                                            open_world_hint = true
                                        )
                                    )]
            async fn $put(&self, args: Args<WithView<BodyArgs>>, cx: RequestContext<RoleServer>) -> CallToolResult {
                self.atlassian_write($put_name, $product, Verb::Put, args, &cx)
                    .await
            }

            #[tool(
                                        name = $patch_name,
                                        description = $patch_description,
                                        input_schema = mcp_results::schema::input_schema::<WithView<BodyArgs>>(),
                                        annotations(
                                            title = $patch_title,
                                            read_only_hint = false,
                                            destructive_hint = true,
                                            idempotent_hint = false,
                                            open_world_hint = true
                                        )
                                    )]
            async fn $patch(&self, args: Args<WithView<BodyArgs>>, cx: RequestContext<RoleServer>) -> CallToolResult {
                self.atlassian_write($patch_name, $product, Verb::Patch, args, &cx)
                    .await
            }

            #[tool(
                                        name = $delete_name,
                                        description = $delete_description,
                                        input_schema = mcp_results::schema::input_schema::<WithView<PathArgs>>(),
                                        annotations(
                                            title = $delete_title,
                                            read_only_hint = false,
                                            destructive_hint = true,
                                            idempotent_hint = true,
                                            open_world_hint = true
                                        )
                                    )]
            async fn $delete(&self, args: Args<WithView<PathArgs>>, cx: RequestContext<RoleServer>) -> CallToolResult {
                let call = match args.into_result() {
                    Ok(WithView { args, view }) => Call::path(args, view),
                    Err(refused) => return refused,
                };
                tools::run(
                    self.app(),
                    &caller(&cx),
                    $delete_name,
                    $product,
                    Verb::Delete,
                    call,
                )
                .await
            }
        }
    };
}

product_tools!(
    jira_tools, Product::Jira,
    jira_get "jira_get" "Jira GET" JIRA_GET,
    jira_post "jira_post" "Jira POST" JIRA_POST,
    jira_put "jira_put" "Jira PUT" JIRA_PUT,
    jira_patch "jira_patch" "Jira PATCH" JIRA_PATCH,
    jira_delete "jira_delete" "Jira DELETE" JIRA_DELETE,
);

product_tools!(
    confluence_tools, Product::Confluence,
    conf_get "conf_get" "Confluence GET" CONF_GET,
    conf_post "conf_post" "Confluence POST" CONF_POST,
    conf_put "conf_put" "Confluence PUT" CONF_PUT,
    conf_patch "conf_patch" "Confluence PATCH" CONF_PATCH,
    conf_delete "conf_delete" "Confluence DELETE" CONF_DELETE,
);

product_tools!(
    bitbucket_tools, Product::Bitbucket,
    bb_get "bb_get" "Bitbucket GET" BB_GET,
    bb_post "bb_post" "Bitbucket POST" BB_POST,
    bb_put "bb_put" "Bitbucket PUT" BB_PUT,
    bb_patch "bb_patch" "Bitbucket PATCH" BB_PATCH,
    bb_delete "bb_delete" "Bitbucket DELETE" BB_DELETE,
);

impl DevtoolsServer {
    /// A write with a body (`*_post`, `*_put`, `*_patch`): text only, never `structuredContent`.
    async fn atlassian_write(
        &self,
        name: &'static str,
        product: Product,
        verb: Verb,
        args: Args<WithView<BodyArgs>>,
        cx: &RequestContext<RoleServer>,
    ) -> CallToolResult {
        let call = match args.into_result() {
            Ok(WithView { args, view }) => Call::body(args, view),
            Err(refused) => return refused,
        };
        tools::run(self.app(), &caller(cx), name, product, verb, call).await
    }
}
