//! Cross-vendor CI tools: the vendor (toolset) `ci`. They read what GitHub Actions and CircleCI report through
//! those vendors' clients and settings: one CI state for a commit (`ci_status`), test results (`ci_test_results`)
//! and a zip artifact's files (`ci_artifact_entries`, `ci_artifact_entry`). Their `data` is ours, typed fully in the
//! `outputSchema`; they take no `jq`. The toolset is configured when GitHub or CircleCI is; it holds no credential
//! of its own (each vendor's client redacts its own) and acts as GitHub's identity.

mod circleci_tests;
mod entries;
mod model;
mod results;
mod source;
mod status;

use mcp_envelope::View;
use mcp_results::splice::Spliced;
use mcp_results::{Args, Json, Structured};
use rmcp::model::CallToolResult;
use rmcp::service::RequestContext;
use rmcp::{RoleServer, tool, tool_router};

use entries::{EntriesResult, EntryArgs, EntryResult};
use model::TestResults;
use results::ReportArgs;
use source::ArtifactArgs;
use status::{CiStatus, CiStatusArgs};

use super::VendorEntry;
use crate::Vendor;
use crate::handler::DevtoolsServer;
use crate::tools::caller;

/// The vendor: `ci`.
pub const VENDOR: Vendor = Vendor::named("ci");

/// The registry entry.
pub(crate) const ENTRY: VendorEntry = VendorEntry {
    vendor: VENDOR,
    tools: DevtoolsServer::ci_tools,
    order: &[status::NAME, results::NAME, entries::LIST, entries::READ],
    tasks: &[],
    secrets: |_, secrets| secrets,
    configured: |config| config.github.http.credential.is_some() || config.circleci.http.credential.is_some(),
    identity: |app| super::http_identity(&app.config.github.http),
};

/// The `outputSchema` of a ci tool whose `data` is a `T`.
fn schema<T: schemars::JsonSchema>() -> std::sync::Arc<rmcp::model::JsonObject> {
    crate::tools::typed_output_schema::<T>()
}

#[tool_router(router = ci_tools, vis = "pub(crate)")]
impl DevtoolsServer {
    #[tool(
        name = "ci_status",
        description = "One CI state for a commit (ref, sha or pullNumber): every GitHub check run and commit \
                       status and, with CircleCI configured, its pipelines' workflows and jobs, each with the ids \
                       the log and wait tools take.",
        input_schema = mcp_results::schema::input_schema::<CiStatusArgs>(),
        output_schema = schema::<CiStatus>(),
        annotations(title = "CI status of a commit", read_only_hint = true)
    )]
    async fn ci_status(
        &self,
        args: Args<CiStatusArgs>,
        cx: RequestContext<RoleServer>,
    ) -> Result<Json<Structured<CiStatus>>, CallToolResult> {
        let status = status::call(self.app(), &caller(&cx), args.into_result()?).await?;
        Ok(self.app().results.json(&cx, status, View::default()).await)
    }

    #[tool(
        name = "ci_test_results",
        description = "Test results of a GitHub Actions artifact, a CircleCI job or its artifactPath: counts, \
                       failed tests with file, line, message. Reads JUnit, TRX, NUnit, mocha, RSpec, go, dart.",
        input_schema = mcp_results::schema::input_schema::<Spliced<ArtifactArgs, ReportArgs>>(),
        output_schema = schema::<TestResults>(),
        annotations(title = "CI test results", read_only_hint = true)
    )]
    async fn ci_test_results(
        &self,
        args: Args<Spliced<ArtifactArgs, ReportArgs>>,
        cx: RequestContext<RoleServer>,
    ) -> Result<Json<Structured<TestResults>>, CallToolResult> {
        let owner = self.app().results.owner(&cx);
        let (result, saved) = results::call(self.app(), &caller(&cx), &owner, args.into_result()?).await?;
        let mut result = self
            .app()
            .results
            .json(&cx, result, View::default())
            .await
            .into_result();
        if result.is_error != Some(true) {
            // Each detailsArtifactId is a resource too (structured output on).
            for (id, size) in saved {
                self.app()
                    .results
                    .add_link(&mut result, &id, results::DETAILS_MIME_TYPE, size);
            }
        }
        Ok(Json::from_result(result))
    }

    #[tool(
        name = "ci_artifact_entries",
        description = "List the files of a zip artifact (GitHub Actions, or a CircleCI artifactPath).",
        input_schema = mcp_results::schema::input_schema::<ArtifactArgs>(),
        output_schema = schema::<EntriesResult>(),
        annotations(title = "List artifact files", read_only_hint = true)
    )]
    async fn ci_artifact_entries(
        &self,
        args: Args<ArtifactArgs>,
        cx: RequestContext<RoleServer>,
    ) -> Result<Json<Structured<EntriesResult>>, CallToolResult> {
        let result = entries::list(self.app(), &caller(&cx), args.into_result()?).await?;
        Ok(self.app().results.json(&cx, result, View::default()).await)
    }

    #[tool(
        name = "ci_artifact_entry",
        description = "Read one file of a zip artifact as text, json or jsonl.",
        input_schema = mcp_results::schema::input_schema::<Spliced<ArtifactArgs, EntryArgs>>(),
        output_schema = schema::<EntryResult>(),
        annotations(title = "Read an artifact file", read_only_hint = true)
    )]
    async fn ci_artifact_entry(
        &self,
        args: Args<Spliced<ArtifactArgs, EntryArgs>>,
        cx: RequestContext<RoleServer>,
    ) -> Result<Json<Structured<EntryResult>>, CallToolResult> {
        let result = entries::read(self.app(), &caller(&cx), args.into_result()?).await?;
        Ok(self.app().results.json(&cx, result, View::default()).await)
    }
}
