//! The tool selection: only some vendors' tools, or only the read tools. [`mcp_policy::Selection`]
//! decides; this module knows the toolset names and writes the refusal, naming the host's settings
//! ([`SelectionNames`]). A tool left out is neither listed nor callable; `artifact_read` stays whenever a listed tool
//! has an `outputSchema` contract (its oversized results are read back with it).

use mcp_policy::{LeftOut, Selection};

use crate::vendor::Vendor;

/// Which tools are offered.
pub type ToolSelection = Selection<Vendor>;

/// The names the host gives the two tool-selection settings, used in the text refusing a tool the selection leaves
/// out (e.g. `the jira toolset is not in MCP_TOOLSETS=github`). The defaults are the
/// [`ToolsConfig`](crate::ToolsConfig) field names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SelectionNames {
    /// The setting listing the toolsets (the bundled server: `MCP_TOOLSETS`).
    pub toolsets: &'static str,
    /// The read-only switch (the bundled server: `MCP_READ_ONLY`).
    pub read_only: &'static str,
}

impl Default for SelectionNames {
    fn default() -> Self {
        SelectionNames {
            toolsets: "selection.toolsets",
            read_only: "selection.read_only",
        }
    }
}

/// The text refusing a call of `tool` (of `vendor`), left out of `selection` because of `why`, naming the setting
/// to change (`names`).
pub fn refusal(selection: &ToolSelection, names: SelectionNames, tool: &str, vendor: Vendor, why: LeftOut) -> String {
    let SelectionNames { toolsets, read_only } = names;
    match why {
        LeftOut::NotInToolsets => format!(
            "Tool {tool:?} is not offered: the {vendor} toolset is not in {toolsets}={}; add it to use this tool",
            selection.toolsets_text()
        ),
        LeftOut::ReadOnly => {
            format!("Tool {tool:?} is not offered: {read_only}=true offers only read tools; unset it to write")
        }
        LeftOut::NoArtifacts => format!(
            "Tool {tool:?} is not offered: none of the toolsets in {toolsets}={} returns artifacts",
            selection.toolsets_text()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vendors::{parse_toolsets as parse, toolsets as all};

    #[test]
    fn refusals_name_the_hosts_settings() {
        let selection = parse(Some("github"), true).unwrap();
        let names = SelectionNames {
            toolsets: "TOOLSETS",
            read_only: "READ_ONLY",
        };
        assert_eq!(
            refusal(
                &selection,
                names,
                "jira_get",
                Vendor::named("jira"),
                LeftOut::NotInToolsets
            ),
            "Tool \"jira_get\" is not offered: the jira toolset is not in TOOLSETS=github; add it to use this tool"
        );
        assert!(refusal(&selection, names, "t", Vendor::named("github"), LeftOut::ReadOnly).contains("READ_ONLY=true"));
        assert_eq!(parse(None, true).unwrap().toolsets, all());
        assert!(parse(Some("github,gitlab"), false).is_err());
    }
}
