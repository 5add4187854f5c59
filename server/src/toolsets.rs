//! Tool selection (CONTRACT §11): `MCP_TOOLSETS` keeps only some vendors' tools, `MCP_READ_ONLY` drops the write
//! tools. A tool left out is neither listed nor callable; `artifact_read` stays whenever a listed tool has an
//! `outputSchema` contract (its oversized results are read back with it).

use crate::tools::ToolSpec;
use crate::vendor::Vendor;

/// `MCP_TOOLSETS`: comma-separated toolsets to offer (`github`, `circleci`, `jira`, `confluence`, `bitbucket`;
/// default all).
pub const TOOLSETS: &str = "MCP_TOOLSETS";
/// `MCP_READ_ONLY`: offer only read tools (default false).
pub const READ_ONLY: &str = "MCP_READ_ONLY";

/// Every toolset name, in `--help` order.
pub const TOOLSET_NAMES: [Vendor; 5] = [
    Vendor::Github,
    Vendor::Circleci,
    Vendor::Jira,
    Vendor::Confluence,
    Vendor::Bitbucket,
];

/// A setting that cannot be used: start-up stops with this text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{TOOLSETS}={raw:?}: unknown toolset {name:?}; use a comma-separated list of github, circleci, jira, confluence, bitbucket"
)]
pub struct UnknownToolset {
    /// The whole setting as given.
    pub raw: String,
    /// The first name that is not a toolset.
    pub name: String,
}

/// Which tools this server offers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolSelection {
    /// The vendors whose tools are offered (every vendor by default).
    pub toolsets: Vec<Vendor>,
    /// Only read tools (`readOnlyHint: true`) are offered.
    pub read_only: bool,
}

impl Default for ToolSelection {
    fn default() -> Self {
        ToolSelection {
            toolsets: TOOLSET_NAMES.to_vec(),
            read_only: false,
        }
    }
}

impl ToolSelection {
    /// Parses `MCP_TOOLSETS` (`None` or blank: all) with `read_only` already read.
    ///
    /// # Errors
    /// A name that is not a toolset ([`UnknownToolset`]).
    pub fn parse(toolsets: Option<&str>, read_only: bool) -> Result<ToolSelection, UnknownToolset> {
        let Some(raw) = toolsets.filter(|raw| !raw.trim().is_empty()) else {
            return Ok(ToolSelection {
                read_only,
                ..ToolSelection::default()
            });
        };
        let mut selected = Vec::new();
        for name in raw.split(',').map(str::trim).filter(|name| !name.is_empty()) {
            let vendor = TOOLSET_NAMES
                .into_iter()
                .find(|vendor| vendor.as_str().eq_ignore_ascii_case(name))
                .ok_or_else(|| UnknownToolset {
                    raw: raw.to_owned(),
                    name: name.to_owned(),
                })?;
            if !selected.contains(&vendor) {
                selected.push(vendor);
            }
        }
        Ok(ToolSelection {
            toolsets: selected,
            read_only,
        })
    }

    /// The toolsets as `github,circleci,...` (for logs).
    pub fn toolsets_text(&self) -> String {
        self.toolsets.iter().map(|v| v.as_str()).collect::<Vec<_>>().join(",")
    }

    /// Why `spec` is left out, naming the setting to change; `None` when it is offered. `artifact_read`
    /// ([`Vendor::None`]) is judged by [`ToolSelection::select`].
    pub fn refusal(&self, spec: &ToolSpec) -> Option<String> {
        if spec.vendor != Vendor::None && !self.toolsets.contains(&spec.vendor) {
            return Some(format!(
                "Tool {:?} is not offered: the {} toolset is not in {TOOLSETS}={}; add it to use this tool",
                spec.name,
                spec.vendor,
                self.toolsets_text()
            ));
        }
        if self.read_only && spec.annotations.read_only_hint != Some(true) {
            return Some(format!(
                "Tool {:?} is not offered: {READ_ONLY}=true offers only read tools; unset it to write",
                spec.name
            ));
        }
        None
    }

    /// The tools of `catalog` this selection offers, in catalogue order. `artifact_read` is kept when a kept tool
    /// has an output contract.
    pub fn select(&self, catalog: Vec<ToolSpec>) -> Vec<ToolSpec> {
        let any_schema = catalog
            .iter()
            .any(|spec| spec.vendor != Vendor::None && spec.output.is_some() && self.refusal(spec).is_none());
        catalog
            .into_iter()
            .filter(|spec| match spec.vendor {
                Vendor::None => any_schema,
                _ => self.refusal(spec).is_none(),
            })
            .collect()
    }

    /// Why `spec` (a tool of the full catalogue) is not in `select`'s answer, naming the setting.
    pub fn refusal_in(&self, spec: &ToolSpec) -> String {
        self.refusal(spec).unwrap_or_else(|| {
            format!(
                "Tool {:?} is not offered: none of the toolsets in {TOOLSETS}={} returns artifacts",
                spec.name,
                self.toolsets_text()
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(selection: &ToolSelection) -> Vec<&'static str> {
        selection
            .select(crate::tools::catalog())
            .iter()
            .map(|spec| spec.name)
            .collect()
    }

    #[test]
    fn default_offers_every_tool() {
        assert_eq!(names(&ToolSelection::default()).len(), crate::tools::catalog().len());
    }

    #[test]
    fn toolsets_and_read_only_narrow_the_list() {
        let selection = ToolSelection::parse(Some(" GitHub, jira ,github"), true).unwrap();
        assert_eq!(selection.toolsets, vec![Vendor::Github, Vendor::Jira]);
        assert_eq!(
            names(&selection),
            [
                "github_list_workflow_runs",
                "github_list_workflow_jobs",
                "artifact_read",
                "jira_get"
            ]
        );
        let all = ToolSelection::parse(None, false).unwrap();
        assert_eq!(all, ToolSelection::default());
    }

    #[test]
    fn unknown_names_are_refused_naming_the_setting() {
        let err = ToolSelection::parse(Some("github,gitlab"), false).unwrap_err();
        assert_eq!(
            err.to_string(),
            "MCP_TOOLSETS=\"github,gitlab\": unknown toolset \"gitlab\"; use a comma-separated list of github, \
             circleci, jira, confluence, bitbucket"
        );
    }
}
