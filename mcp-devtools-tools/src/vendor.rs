//! Which upstream service a tool talks to: the subject of policy rules (`vendor = "github"`) and of enterprise
//! `_meta["mcp-devtools/upstream"]`.

use std::fmt;

use serde::{Deserialize, Serialize};

/// An upstream vendor, spelled in policy files and `_meta` as its lowercase name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Vendor {
    /// No upstream (e.g. `artifact_read`).
    None,
    /// GitHub REST.
    Github,
    /// CircleCI API v2.
    Circleci,
    /// Jira (Atlassian).
    Jira,
    /// Confluence (Atlassian).
    Confluence,
    /// Bitbucket (Atlassian).
    Bitbucket,
}

impl Vendor {
    /// The lowercase name (`github`, `circleci`, …, `none`).
    pub fn as_str(self) -> &'static str {
        match self {
            Vendor::None => "none",
            Vendor::Github => "github",
            Vendor::Circleci => "circleci",
            Vendor::Jira => "jira",
            Vendor::Confluence => "confluence",
            Vendor::Bitbucket => "bitbucket",
        }
    }
}

impl fmt::Display for Vendor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
