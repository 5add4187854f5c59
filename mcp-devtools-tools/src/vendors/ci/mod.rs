//! Cross-vendor CI tools: the vendor (toolset) `ci`. `ci_status` merges what GitHub and CircleCI report on one
//! commit. They use the GitHub and CircleCI clients and settings; this vendor holds no credential of its own.

mod status;

use mcp_results::{Args, Json, Structured};
use rmcp::model::CallToolResult;
use rmcp::service::RequestContext;
use rmcp::{RoleServer, tool, tool_router};

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
    order: &[status::NAME],
    tasks: &[],
    secrets: |_, secrets| secrets,
    configured: |config| config.github.http.credential.is_some(),
    identity: |app| super::http_identity(&app.config.github.http),
};

#[tool_router(router = ci_tools, vis = "pub(crate)")]
impl DevtoolsServer {
    #[tool(
        name = "ci_status",
        description = "One CI state for a commit (ref, sha or pullNumber): every GitHub check run and commit \
                       status and, with CircleCI configured, its pipelines' workflows and jobs, each with the ids \
                       the log and wait tools take.",
        input_schema = mcp_results::schema::input_schema::<CiStatusArgs>(),
        output_schema = crate::tools::output_schema(
            mcp_envelope::Envelope::<CiStatus, mcp_envelope::NoMeta>::output_schema(),
            Some("The commit's checks; null when too large (incomplete)"),
        ),
        annotations(
            title = "CI status of a commit",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        )
    )]
    async fn ci_status(
        &self,
        args: Args<CiStatusArgs>,
        cx: RequestContext<RoleServer>,
    ) -> Result<Json<Structured<CiStatus>>, CallToolResult> {
        let status = status::call(self.app(), &caller(&cx), args.into_result()?).await?;
        Ok(self
            .app()
            .results
            .json(&cx, status, mcp_envelope::View::default())
            .await)
    }
}
