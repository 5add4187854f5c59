//! `artifact_read`: the library tool [`mcp_results::artifact_read`] on this server's store, owned
//! by the calling principal.

use rmcp::model::{CallToolResult, JsonObject};

use super::{OutputContract, ToolSpec, handler};
use crate::Principal;
use crate::app::App;

/// The tool name.
pub const NAME: &str = mcp_results::artifact_read::NAME;

/// The `tools/list` entry.
pub fn spec() -> ToolSpec {
    ToolSpec {
        name: NAME,
        description: mcp_results::artifact_read::DESCRIPTION,
        input_schema: mcp_results::artifact_read::input_schema(),
        output: Some(OutputContract::ArtifactChunk),
        annotations: mcp_results::artifact_read::annotations(),
        vendor: crate::Vendor::None,
        handler: handler(|app, principal, arguments| Box::pin(call(app, principal, arguments))),
    }
}

/// Runs `artifact_read` for `principal` ([`mcp_results::artifact_read::call`]).
pub async fn call(app: &App, principal: &Principal, arguments: Option<JsonObject>) -> CallToolResult {
    mcp_results::artifact_read::call(
        app.store.as_ref(),
        principal.as_str(),
        arguments,
        app.results.structured(),
    )
    .await
}
