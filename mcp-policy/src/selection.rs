//! Tool selection: which of the host's tools are offered at all. Only the tools of some toolsets (a toolset is a
//! vendor's tools), only read tools; a companion tool that belongs to no toolset (e.g. `artifact_read`, which reads
//! back other tools' oversized results) is offered while an offered tool returns artifacts. A tool left out should
//! be neither listed nor callable; [`LeftOut`] says why, so the host can name its own setting in the refusal.

use std::fmt::Display;

/// What the selection needs to know about one tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolFacts<V> {
    /// The toolset (vendor) the tool belongs to; `None`: a companion tool, offered while an offered tool
    /// [`returns_artifacts`](ToolFacts::returns_artifacts).
    pub toolset: Option<V>,
    /// The tool only reads (its `readOnlyHint` is `true`).
    pub read_only: bool,
    /// The tool's oversized results are saved as artifacts (it has an output contract), so the companion tools
    /// are needed while it is offered.
    pub returns_artifacts: bool,
}

/// Why a tool is not offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeftOut {
    /// Its toolset is not among [`Selection::toolsets`].
    NotInToolsets,
    /// [`Selection::read_only`] is on and the tool writes.
    ReadOnly,
    /// A companion tool, and no offered tool returns artifacts.
    NoArtifacts,
}

/// A toolset list names a toolset the host does not have.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown toolset {name:?}; use a comma-separated list of {}", known.join(", "))]
pub struct UnknownToolset {
    /// The whole list as given.
    pub raw: String,
    /// The first name that is not a toolset.
    pub name: String,
    /// The host's toolset names, in its order.
    pub known: Vec<String>,
}

/// Which tools are offered: the tools of [`Selection::toolsets`], only the read tools when
/// [`Selection::read_only`], and the companion tools while one of those returns artifacts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection<V> {
    /// The toolsets whose tools are offered, in the order given.
    pub toolsets: Vec<V>,
    /// Only read tools are offered.
    pub read_only: bool,
}

impl<V: Clone + PartialEq + Display> Selection<V> {
    /// Parses a comma-separated toolset list (`None` or blank: every toolset in `known`) against the host's
    /// toolsets `known`, matched by their `Display` name ignoring ASCII case; repeats are dropped.
    ///
    /// # Errors
    /// A name that is not in `known` ([`UnknownToolset`]: the message lists the names; the host adds its setting).
    pub fn parse(raw: Option<&str>, known: &[V], read_only: bool) -> Result<Selection<V>, UnknownToolset> {
        let Some(raw) = raw.filter(|raw| !raw.trim().is_empty()) else {
            return Ok(Selection {
                toolsets: known.to_vec(),
                read_only,
            });
        };
        let mut toolsets = Vec::new();
        for name in raw.split(',').map(str::trim).filter(|name| !name.is_empty()) {
            let toolset = known
                .iter()
                .find(|toolset| toolset.to_string().eq_ignore_ascii_case(name))
                .ok_or_else(|| UnknownToolset {
                    raw: raw.to_owned(),
                    name: name.to_owned(),
                    known: known.iter().map(ToString::to_string).collect(),
                })?;
            if !toolsets.contains(toolset) {
                toolsets.push(toolset.clone());
            }
        }
        Ok(Selection { toolsets, read_only })
    }

    /// The toolsets as `github,jira` (for logs and messages).
    pub fn toolsets_text(&self) -> String {
        let names: Vec<String> = self.toolsets.iter().map(ToString::to_string).collect();
        names.join(",")
    }
}

impl<V: PartialEq> Selection<V> {
    /// Why a tool of a toolset is left out, judged on its own; `None` when offered. A companion tool
    /// (`toolset: None`) is never left out here: [`Selection::select`] judges it against the other tools.
    pub fn left_out(&self, tool: &ToolFacts<V>) -> Option<LeftOut> {
        if tool
            .toolset
            .as_ref()
            .is_some_and(|toolset| !self.toolsets.contains(toolset))
        {
            return Some(LeftOut::NotInToolsets);
        }
        if self.read_only && !tool.read_only {
            return Some(LeftOut::ReadOnly);
        }
        None
    }

    /// Splits `tools` into the offered ones and the ones left out (with why), both in the order given. `facts`
    /// tells what the selection needs to know about each tool.
    pub fn select<T>(
        &self,
        tools: impl IntoIterator<Item = T>,
        facts: impl Fn(&T) -> ToolFacts<V>,
    ) -> (Vec<T>, Vec<(T, LeftOut)>) {
        let judged: Vec<(T, ToolFacts<V>, Option<LeftOut>)> = tools
            .into_iter()
            .map(|tool| {
                let facts = facts(&tool);
                let left_out = self.left_out(&facts);
                (tool, facts, left_out)
            })
            .collect();
        let artifacts = judged
            .iter()
            .any(|(_, facts, left_out)| facts.toolset.is_some() && facts.returns_artifacts && left_out.is_none());
        let mut offered = Vec::new();
        let mut left = Vec::new();
        for (tool, facts, left_out) in judged {
            let left_out = match left_out {
                None if facts.toolset.is_none() && !artifacts => Some(LeftOut::NoArtifacts),
                other => other,
            };
            match left_out {
                None => offered.push(tool),
                Some(why) => left.push((tool, why)),
            }
        }
        (offered, left)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    const KNOWN: [&str; 3] = ["github", "circleci", "jira"];

    fn tools() -> Vec<(&'static str, ToolFacts<&'static str>)> {
        let tool = |toolset: Option<&'static str>, read_only, returns_artifacts| ToolFacts {
            toolset,
            read_only,
            returns_artifacts,
        };
        vec![
            ("github_runs", tool(Some("github"), true, true)),
            ("artifact_read", tool(None, true, false)),
            ("circleci_get", tool(Some("circleci"), true, true)),
            ("jira_get", tool(Some("jira"), true, false)),
            ("jira_write", tool(Some("jira"), false, false)),
        ]
    }

    fn names(selection: &Selection<&'static str>) -> (Vec<&'static str>, Vec<(&'static str, LeftOut)>) {
        let (offered, left) = selection.select(tools(), |(_, facts)| facts.clone());
        (
            offered.into_iter().map(|(name, _)| name).collect(),
            left.into_iter().map(|((name, _), why)| (name, why)).collect(),
        )
    }

    #[test]
    fn default_offers_every_tool() {
        let all = Selection::parse(None, &KNOWN, false).unwrap();
        assert_eq!(all.toolsets, KNOWN);
        assert_eq!(names(&all).0.len(), tools().len());
        assert_eq!(Selection::parse(Some("  "), &KNOWN, false).unwrap(), all);
    }

    #[test]
    fn toolsets_and_read_only_narrow_the_list_and_say_why() {
        let selection = Selection::parse(Some(" GitHub, jira ,github"), &KNOWN, true).unwrap();
        assert_eq!(selection.toolsets, ["github", "jira"]);
        assert_eq!(selection.toolsets_text(), "github,jira");
        let (offered, left) = names(&selection);
        assert_eq!(offered, ["github_runs", "artifact_read", "jira_get"]);
        assert_eq!(
            left,
            [
                ("circleci_get", LeftOut::NotInToolsets),
                ("jira_write", LeftOut::ReadOnly)
            ]
        );
    }

    #[test]
    fn companions_go_when_no_offered_tool_returns_artifacts() {
        let selection = Selection::parse(Some("jira"), &KNOWN, false).unwrap();
        let (offered, left) = names(&selection);
        assert_eq!(offered, ["jira_get", "jira_write"]);
        assert!(left.contains(&("artifact_read", LeftOut::NoArtifacts)), "{left:?}");
    }

    #[test]
    fn unknown_names_are_refused_listing_the_known_ones() {
        let err = Selection::parse(Some("github,gitlab"), &KNOWN, false).unwrap_err();
        assert_eq!(err.raw, "github,gitlab");
        assert_eq!(
            err.to_string(),
            "unknown toolset \"gitlab\"; use a comma-separated list of github, circleci, jira"
        );
    }
}
