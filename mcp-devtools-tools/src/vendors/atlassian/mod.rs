//! Jira, Confluence and Bitbucket: the vendor's folder, one toolset per product ([`JIRA`], [`CONFLUENCE`],
//! [`BITBUCKET`]). Each product's two tools (`*_get`, and `*_write` taking `method`: POST, PUT, PATCH or DELETE) are
//! `#[tool]` methods on the front door, written once by [`product_tools!`] for the three products; what they do is
//! in [`tools`].
//!
//! One write tool per product, not one per verb: the four had the same arguments, and each tool costs every
//! session its description and schemas in context (the peers consolidated the same way, e.g.
//! github/github-mcp-server#1261). A policy still tells the verbs apart by the `method` argument
//! (`mcp_policy` rules' `arguments`). The write's annotations: not read-only, open world and `destructiveHint:
//! true`, the spec's defaults, because these are pass-throughs: a POST can merge a pull request or transition an
//! issue and a PUT overwrites, as surely as a DELETE removes; not idempotent, as POST is not (RFC 9110 §9.2.2).

mod tools;

use adapters_atlassian::Product;
use mcp_envelope::NextLinkMeta;
use mcp_results::{Args, Json, Structured, WithView};
use rmcp::model::CallToolResult;
use rmcp::service::RequestContext;
use rmcp::{RoleServer, tool, tool_router};
use serde_json::Value;

use tools::{PathArgs, WriteArgs};

use super::VendorEntry;
use crate::Vendor;
use crate::app::App;
use crate::handler::DevtoolsServer;
use crate::tools::all_pages::{AllPages, WithPages};
use crate::tools::{caller, output_schema};
use tools::{Call, Verb};

/// The vendor of the Jira tools: `jira`.
pub const JIRA_VENDOR: Vendor = Vendor::named("jira");
/// The vendor of the Confluence tools: `confluence`.
pub const CONFLUENCE_VENDOR: Vendor = Vendor::named("confluence");
/// The vendor of the Bitbucket tools: `bitbucket`.
pub const BITBUCKET_VENDOR: Vendor = Vendor::named("bitbucket");

/// The registry entry of Jira. The Atlassian account's API token (shared by the three products) is given to the
/// redactor here, with its Basic pair, and Jira's personal access token.
pub(crate) const JIRA: VendorEntry = VendorEntry {
    vendor: JIRA_VENDOR,
    tools: DevtoolsServer::jira_tools,
    order: &["jira_get", "jira_write"],
    tasks: &[],
    secrets: |config, secrets| {
        let atlassian = &config.atlassian;
        let secrets = bearer(config, Product::Jira, secrets);
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
        signed_in(config, Product::Jira) && (atlassian.site_name.is_some() || atlassian.jira_base_url.is_some())
    },
    identity: |app| identity(app, Product::Jira),
};

/// The registry entry of Confluence (its Basic credential is the account's, given to the redactor by [`JIRA`]; its
/// personal access token here).
pub(crate) const CONFLUENCE: VendorEntry = VendorEntry {
    vendor: CONFLUENCE_VENDOR,
    tools: DevtoolsServer::confluence_tools,
    order: &["conf_get", "conf_write"],
    tasks: &[],
    secrets: |config, secrets| bearer(config, Product::Confluence, secrets),
    configured: |config| {
        let atlassian = &config.atlassian;
        signed_in(config, Product::Confluence)
            && (atlassian.site_name.is_some() || atlassian.confluence_base_url.is_some())
    },
    identity: |app| identity(app, Product::Confluence),
};

/// The registry entry of Bitbucket: its app password, with its Basic pair, and its access token.
pub(crate) const BITBUCKET: VendorEntry = VendorEntry {
    vendor: BITBUCKET_VENDOR,
    tools: DevtoolsServer::bitbucket_tools,
    order: &["bb_get", "bb_write"],
    tasks: &[],
    secrets: |config, secrets| {
        let atlassian = &config.atlassian;
        let secrets = bearer(config, Product::Bitbucket, secrets);
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
        signed_in(config, Product::Bitbucket)
            || (atlassian.bitbucket_username.is_some() && atlassian.bitbucket_app_password.is_some())
    },
    identity: |app| identity(app, Product::Bitbucket),
};

/// The per-verb write tools of releases before 0.2 and what does each now: (retired name, tool, `method`).
const RETIRED_TOOLS: [(&str, &str, &str); 12] = [
    ("jira_post", "jira_write", "POST"),
    ("jira_put", "jira_write", "PUT"),
    ("jira_patch", "jira_write", "PATCH"),
    ("jira_delete", "jira_write", "DELETE"),
    ("conf_post", "conf_write", "POST"),
    ("conf_put", "conf_write", "PUT"),
    ("conf_patch", "conf_write", "PATCH"),
    ("conf_delete", "conf_write", "DELETE"),
    ("bb_post", "bb_write", "POST"),
    ("bb_put", "bb_write", "PUT"),
    ("bb_patch", "bb_write", "PATCH"),
    ("bb_delete", "bb_write", "DELETE"),
];

/// The tool and `method` that replace the retired write tool `name`, if it is one.
pub(crate) fn retired(name: &str) -> Option<(&'static str, &'static str)> {
    RETIRED_TOOLS
        .iter()
        .find(|(tool, ..)| *tool == name)
        .map(|(_, replacement, method)| (*replacement, *method))
}

/// Refuses a policy with a rule whose `tool` is a retired write tool's name: it would match nothing, and the
/// calls it was written to refuse would run.
pub(crate) fn refuse_retired_tools(policy: &mcp_policy::Policy<Vendor>) -> Result<(), crate::app::AppError> {
    for (rule, pattern) in policy.tool_patterns() {
        if let Some((replacement, method)) = retired(pattern) {
            return Err(crate::app::AppError::RetiredTool {
                rule: rule.to_owned(),
                tool: pattern.to_owned(),
                replacement,
                method,
            });
        }
    }
    Ok(())
}

/// `product` has a credential: its Bearer token, or the Atlassian account (e-mail or Data Center user name, and API
/// token or password).
fn signed_in(config: &crate::ToolsConfig, product: Product) -> bool {
    let atlassian = &config.atlassian;
    atlassian.bearer_token(product).is_some() || (atlassian.user_email.is_some() && atlassian.api_token.is_some())
}

/// `secrets` with `product`'s Bearer token, when set, for the redactor.
fn bearer(
    config: &crate::ToolsConfig,
    product: Product,
    secrets: adapters_http::RedactorBuilder,
) -> adapters_http::RedactorBuilder {
    let atlassian = &config.atlassian;
    match atlassian.bearer_token(product) {
        Some(token) => secrets.secret(atlassian.setting_names.bearer_token(product), token.expose()),
        None => secrets,
    }
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
                        maxResults, nextPageToken}, /rest/api/3/issue/EX-1 (Data Center: /rest/api/2/..., search \
                        with startAt). Ask only for the fields you need.";
const JIRA_WRITE: &str = concat!(
    "POST, PUT, PATCH or DELETE (method) a Jira path with a JSON body, e.g. POST /rest/api/3/issue (create), \
     PUT /rest/api/3/issue/EX-1 {fields} (edit), POST .../EX-1/comment, DELETE .../EX-1 (for good).",
    write_note!("Jira")
);
const CONF_GET: &str = "GET a Confluence REST path, e.g. /wiki/api/v2/pages, /wiki/api/v2/pages/{id} with \
                        queryParams {body-format: storage}, /wiki/rest/api/search with {cql}; continue with its \
                        _links.next as path.";
const CONF_WRITE: &str = concat!(
    "POST, PUT, PATCH or DELETE (method) a Confluence path with a JSON body, e.g. POST /wiki/api/v2/pages \
     {spaceId, title, body}, PUT .../pages/{id} {id, status, title, body, version: {number: current + 1}}, \
     DELETE .../pages/{id} (queryParams {purge: true}: for good).",
    write_note!("Confluence")
);
const BB_GET: &str = "GET a Bitbucket path, e.g. /repositories/{workspace}/{repo}/pullrequests, .../diff/{spec} \
                      (Data Center: /projects/{key}/repos/{repo}/pull-requests). A diff or raw file is a string; \
                      continue with nextLink as path.";
const BB_WRITE: &str = concat!(
    "POST, PUT, PATCH or DELETE (method) a Bitbucket path with a JSON body, e.g. POST \
     /repositories/{workspace}/{repo}/pullrequests, POST or DELETE .../pullrequests/{id}/approve.",
    write_note!("Bitbucket")
);

/// One product's two tools as `#[tool]` methods of the router `$router`: names, titles and descriptions given,
/// the rest the same for every product. The write's annotations are the spec's defaults (not read-only,
/// destructive, not idempotent, open world), so only its title is sent.
macro_rules! product_tools {
    (
        $router:ident, $product:expr,
        $get:ident $get_name:tt $get_title:tt $get_description:ident,
        $write:ident $write_name:tt $write_title:tt $write_description:ident $(,)?
    ) => {
        #[tool_router(router = $router, vis = "pub(crate)")]
        impl DevtoolsServer {
            #[tool(
                                        name = $get_name,
                                        description = $get_description,
                                        input_schema = mcp_results::schema::input_schema::<AllPages<WithView<PathArgs>>>(),
                                        output_schema = read_schema(),
                                        annotations(title = $get_title, read_only_hint = true)
                                    )]
            async fn $get(
                &self,
                args: Args<AllPages<WithView<PathArgs>>>,
                cx: RequestContext<RoleServer>,
            ) -> Result<Json<Structured<Value, WithPages<NextLinkMeta>>>, CallToolResult> {
                let AllPages { args: WithView { args, view }, group: all } = args.into_result()?;
                let call = Call::path(args, view);
                let result = match all.check($get_name)? {
                    None => tools::run(self.app(), &caller(&cx), $get_name, $product, Verb::Get, call).await,
                    Some(limits) => tools::read_all(self.app(), &caller(&cx), $get_name, $product, call, limits).await,
                };
                Ok(Json::from_result(result))
            }

            #[tool(
                                        name = $write_name,
                                        description = $write_description,
                                        input_schema = mcp_results::schema::input_schema::<WithView<WriteArgs>>(),
                                        annotations(title = $write_title)
                                    )]
            async fn $write(&self, args: Args<WithView<WriteArgs>>, cx: RequestContext<RoleServer>) -> CallToolResult {
                let written = args
                    .into_result()
                    .map(|WithView { args, view }| Call::write($write_name, args, view));
                let (verb, call) = match written {
                    Ok(Ok(call)) => call,
                    Ok(Err(err)) => return err.into_result(),
                    Err(refused) => return refused,
                };
                tools::run(self.app(), &caller(&cx), $write_name, $product, verb, call).await
            }
        }
    };
}

product_tools!(
    jira_tools, Product::Jira,
    jira_get "jira_get" "Jira GET" JIRA_GET,
    jira_write "jira_write" "Jira write" JIRA_WRITE,
);

product_tools!(
    confluence_tools, Product::Confluence,
    conf_get "conf_get" "Confluence GET" CONF_GET,
    conf_write "conf_write" "Confluence write" CONF_WRITE,
);

product_tools!(
    bitbucket_tools, Product::Bitbucket,
    bb_get "bb_get" "Bitbucket GET" BB_GET,
    bb_write "bb_write" "Bitbucket write" BB_WRITE,
);

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn policy(tool: &str) -> mcp_policy::Policy<Vendor> {
        let text = format!("version = \"1\"\n[[rules]]\nid = \"r\"\ntool = \"{tool}\"\neffect = \"deny\"\n");
        mcp_policy::Policy::from_toml(&text).unwrap()
    }

    #[test]
    fn a_policy_naming_a_retired_write_tool_is_refused_with_its_successor() {
        let err = refuse_retired_tools(&policy("conf_delete")).unwrap_err().to_string();
        assert!(
            err.contains(r#"policy rule r: tool "conf_delete" is gone"#)
                && err.contains(r#"tool = "conf_write" with arguments = { method = "DELETE" }"#),
            "{err}"
        );
        for fine in ["jira_write", "jira_*", "*_post*"] {
            assert!(refuse_retired_tools(&policy(fine)).is_ok(), "{fine}");
        }
        assert_eq!(retired("bb_patch"), Some(("bb_write", "PATCH")));
        assert_eq!(retired("bb_get"), None);
    }
}
