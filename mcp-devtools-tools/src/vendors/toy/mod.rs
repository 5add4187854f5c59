//! The toy vendor of the tests: a vendor added the way docs/library.md says ("Adding a vendor"), through this
//! folder and one line of the registry, and nothing else. Its config part is its token (a constant here; a real
//! vendor's lives in [`crate::ToolsConfig`]); its tools answer without an upstream: `toy_get` at once, and
//! `toy_wait`, which runs as a task (MCP Tasks extension) for a client that declared it, after a few steps with
//! progress (the tests count the steps it took by its `label`: [`steps_taken`]).

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use mcp_results::{Args, Json, Structured, WithView};
use rmcp::model::CallToolResult;
use rmcp::service::RequestContext;
use rmcp::{RoleServer, tool, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::VendorEntry;
use crate::Vendor;
use crate::handler::DevtoolsServer;
use crate::tools::output_schema;
use crate::tools::progress::{ProgressUpdate, Reporter};

/// The vendor: `toy`.
pub(crate) const VENDOR: Vendor = Vendor::named("toy");

/// The toy vendor's credential, as its setting would hold it.
pub(crate) const TOKEN: &str = "toy-token-7f3a9c21e5b8";

/// The registry entry.
pub(crate) const ENTRY: VendorEntry = VendorEntry {
    vendor: VENDOR,
    tools: DevtoolsServer::toy_tools,
    order: &["toy_get", "toy_wait"],
    tasks: &["toy_wait"],
    secrets: |_, secrets| secrets.secret("TOY_TOKEN", TOKEN),
    configured: |_| true,
    identity: |_| (Some("TOY_TOKEN"), None),
};

/// `toy_get`'s own argument.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ToyArgs {
    /// Whom to greet.
    name: Option<String>,
}

/// `toy_wait`'s own arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct ToyWaitArgs {
    /// Whose steps these are ([`steps_taken`]).
    label: String,
    /// How many steps (default 3).
    steps: Option<u64>,
    /// How long each step takes, milliseconds (default 50).
    step_ms: Option<u64>,
    /// End with an `isError` result instead of the count.
    fail: Option<bool>,
    /// Panic after the steps (a defect of a tool).
    panic: Option<bool>,
}

/// The steps `toy_wait` took, by label.
static STEPS: Mutex<Option<HashMap<String, u64>>> = Mutex::new(None);

/// How many steps `toy_wait` calls with `label` have taken so far.
pub(crate) fn steps_taken(label: &str) -> u64 {
    let steps = STEPS.lock().unwrap_or_else(PoisonError::into_inner);
    steps.as_ref().and_then(|steps| steps.get(label)).copied().unwrap_or(0)
}

fn step(label: &str) {
    let mut steps = STEPS.lock().unwrap_or_else(PoisonError::into_inner);
    *steps
        .get_or_insert_with(HashMap::new)
        .entry(label.to_owned())
        .or_default() += 1;
}

#[tool_router(router = toy_tools, vis = "pub(crate)")]
impl DevtoolsServer {
    #[tool(
        name = "toy_get",
        description = "Greet someone (the toy vendor of the tests).",
        input_schema = mcp_results::schema::input_schema::<WithView<ToyArgs>>(),
        output_schema = output_schema(mcp_envelope::Envelope::<Value>::output_schema(), None),
        annotations(title = "Toy GET", read_only_hint = true, open_world_hint = false)
    )]
    async fn toy_get(
        &self,
        args: Args<WithView<ToyArgs>>,
        cx: RequestContext<RoleServer>,
    ) -> Result<Json<Structured<Value>>, CallToolResult> {
        let WithView { args, view } = args.into_result()?;
        let greeting = json!({"greeting": format!("hello {}", args.name.as_deref().unwrap_or("toy"))});
        Ok(self.app().results.json(&cx, greeting, view).await)
    }

    #[tool(
        name = "toy_wait",
        description = "Take a few steps, reporting progress (the toy vendor's long call, run as a task).",
        input_schema = mcp_results::schema::input_schema::<WithView<ToyWaitArgs>>(),
        output_schema = output_schema(mcp_envelope::Envelope::<Value>::output_schema(), None),
        annotations(title = "Toy wait", read_only_hint = true, open_world_hint = false)
    )]
    async fn toy_wait(
        &self,
        args: Args<WithView<ToyWaitArgs>>,
        cx: RequestContext<RoleServer>,
    ) -> Result<Json<Structured<Value>>, CallToolResult> {
        let WithView { args, view } = args.into_result()?;
        let steps = args.steps.unwrap_or(3);
        let mut reporter = Reporter::new(&cx, Duration::from_secs(10));
        for done in 0..steps {
            reporter
                .report(ProgressUpdate {
                    progress: done,
                    total: Some(steps),
                    message: format!("step {} of {steps}", done + 1),
                })
                .await;
            tokio::time::sleep(Duration::from_millis(args.step_ms.unwrap_or(50))).await;
            step(&args.label);
        }
        if args.panic == Some(true) {
            panic!("toy_wait was asked to panic");
        }
        if args.fail == Some(true) {
            return Err(mcp_results::error(format!("toy_wait failed after {steps} steps")));
        }
        Ok(self.app().results.json(&cx, json!({"steps": steps}), view).await)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use std::sync::Arc;

    use rmcp::model::CallToolRequestParams;
    use serde_json::json;
    use wiremock::matchers::{method, path};
    use wiremock::{Mock, MockServer, ResponseTemplate};

    use super::*;
    use crate::vendors::parse_toolsets;
    use crate::{App, Principal, ToolsConfig};

    async fn server(config: ToolsConfig) -> DevtoolsServer {
        DevtoolsServer::new(Arc::new(App::new(config.with_structured_output(true)).await.unwrap()))
    }

    fn names(server: &DevtoolsServer) -> Vec<String> {
        server.tools().iter().map(|tool| tool.name.to_string()).collect()
    }

    fn call(name: &str, arguments: serde_json::Value) -> CallToolRequestParams {
        CallToolRequestParams::new(name.to_owned()).with_arguments(arguments.as_object().cloned().unwrap())
    }

    #[tokio::test]
    async fn a_vendor_added_through_its_folder_is_listed_called_and_filtered_by_its_toolset() {
        let all = server(ToolsConfig::default()).await;
        assert_eq!(names(&all).last().map(String::as_str), Some("toy_wait"));
        let result = all
            .call_tool_as(&Principal::named("alice"), call("toy_get", json!({"name": "mia"})))
            .await
            .unwrap();
        assert_eq!(
            result.structured_content,
            Some(json!({"data": {"greeting": "hello mia"}}))
        );

        let toy_only = ToolsConfig::default().with_selection(parse_toolsets(Some("toy"), false).unwrap());
        assert_eq!(names(&server(toy_only).await), ["artifact_read", "toy_get", "toy_wait"]);

        let github_only = ToolsConfig::default().with_selection(parse_toolsets(Some("github"), false).unwrap());
        let github_only = server(github_only).await;
        assert!(!names(&github_only).contains(&"toy_get".to_owned()));
        let refused = github_only
            .call_tool_as(&Principal::named("alice"), call("toy_get", json!({})))
            .await
            .unwrap_err();
        assert_eq!(
            refused.message,
            "Tool \"toy_get\" is not offered: the toy toolset is not in selection.toolsets=github; add it to use \
             this tool"
        );
        let unknown = parse_toolsets(Some("toy,gitlab"), false).unwrap_err();
        assert!(
            unknown
                .to_string()
                .contains("github, circleci, ci, jira, confluence, bitbucket, toy"),
            "{unknown}"
        );
    }

    #[tokio::test]
    async fn its_token_is_redacted_when_another_vendors_answer_quotes_it() {
        let upstream = MockServer::start().await;
        Mock::given(method("GET"))
            .and(path("/repos/octo-org/octo-repo/issues/1"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({
                "title": "CI leaks a token",
                "body": format!("the toy step printed TOY_TOKEN={TOKEN} in its log"),
            })))
            .mount(&upstream)
            .await;
        let mut config = ToolsConfig::default();
        config.github.http.api_base = upstream.uri();
        config.github.http.credential = Some(adapters_http::Secret::new("ghp_toytest000000000001"));
        let server = server(config).await;
        let request = call("github_get", json!({"path": "/repos/octo-org/octo-repo/issues/1"}));
        let result = server.call_tool_as(&Principal::named("alice"), request).await.unwrap();
        assert_ne!(result.is_error, Some(true), "{result:?}");
        let everything = serde_json::to_string(&result).unwrap();
        assert!(!everything.contains(TOKEN), "{everything}");
        assert_eq!(
            result.structured_content.unwrap()["data"]["body"],
            "the toy step printed TOY_TOKEN=[redacted TOY_TOKEN] in its log"
        );
    }
}
