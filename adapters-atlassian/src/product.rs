//! [`Product`]: which Atlassian product a call goes to.

use std::fmt;

/// One Atlassian product.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Product {
    /// Jira Cloud platform REST (`/rest/api/3/...`, `/rest/agile/1.0/...`).
    Jira,
    /// Confluence Cloud REST (`/wiki/api/v2/...`, `/wiki/rest/api/...`).
    Confluence,
    /// Bitbucket Cloud REST 2.0 (`/2.0/...`).
    Bitbucket,
}

impl Product {
    /// Display name: `Jira`, `Confluence`, `Bitbucket` (also the cache namespace a write clears).
    pub fn name(self) -> &'static str {
        match self {
            Product::Jira => "Jira",
            Product::Confluence => "Confluence",
            Product::Bitbucket => "Bitbucket",
        }
    }
}

impl fmt::Display for Product {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
