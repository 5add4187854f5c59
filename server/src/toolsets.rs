//! The tool selection settings (CONTRACT §11): `MCP_TOOLSETS` keeps only some vendors' tools, `MCP_READ_ONLY` drops
//! the write tools. [`mcp_policy::Selection`] decides; this module knows the toolset names and names the settings in
//! the texts. A tool left out is neither listed nor callable; `artifact_read` stays whenever a listed tool has an
//! `outputSchema` contract (its oversized results are read back with it).

use mcp_policy::{LeftOut, Selection, UnknownToolset};

use crate::registry::{READ_ONLY, TOOLSETS};
use crate::vendor::Vendor;

/// Every toolset, in `--help` order.
pub const TOOLSET_NAMES: [Vendor; 5] = [
    Vendor::Github,
    Vendor::Circleci,
    Vendor::Jira,
    Vendor::Confluence,
    Vendor::Bitbucket,
];

/// Which tools this server offers.
pub type ToolSelection = Selection<Vendor>;

/// `MCP_TOOLSETS` names an unknown toolset: start-up stops with this text, naming the setting.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{TOOLSETS}={raw:?}: {err}", raw = .0.raw, err = .0)]
pub struct ToolsetsError(pub UnknownToolset);

/// Parses `MCP_TOOLSETS` (`None` or blank: every toolset) with `MCP_READ_ONLY` already read.
///
/// # Errors
/// A name that is not a toolset ([`ToolsetsError`]).
pub fn parse(toolsets: Option<&str>, read_only: bool) -> Result<ToolSelection, ToolsetsError> {
    Selection::parse(toolsets, &TOOLSET_NAMES, read_only).map_err(ToolsetsError)
}

/// The text refusing a call of `tool` (of `vendor`), left out of `selection` because of `why`, naming the setting
/// to change.
pub fn refusal(selection: &ToolSelection, tool: &str, vendor: Vendor, why: LeftOut) -> String {
    match why {
        LeftOut::NotInToolsets => format!(
            "Tool {tool:?} is not offered: the {vendor} toolset is not in {TOOLSETS}={}; add it to use this tool",
            selection.toolsets_text()
        ),
        LeftOut::ReadOnly => {
            format!("Tool {tool:?} is not offered: {READ_ONLY}=true offers only read tools; unset it to write")
        }
        LeftOut::NoArtifacts => format!(
            "Tool {tool:?} is not offered: none of the toolsets in {TOOLSETS}={} returns artifacts",
            selection.toolsets_text()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_names_are_refused_naming_the_setting() {
        let err = parse(Some("github,gitlab"), false).unwrap_err();
        assert_eq!(
            err.to_string(),
            "MCP_TOOLSETS=\"github,gitlab\": unknown toolset \"gitlab\"; use a comma-separated list of github, \
             circleci, jira, confluence, bitbucket"
        );
        assert_eq!(parse(None, true).unwrap().toolsets, TOOLSET_NAMES);
    }
}
