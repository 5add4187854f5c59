//! [`Deployment`]: whether a product is Atlassian's Cloud or a self-hosted Data Center (or Server) installation,
//! set per product because a company may run Jira in the Cloud and Bitbucket on its own servers.
//!
//! What changes with Data Center (<https://developer.atlassian.com/server/>):
//! - **Base**: there is no site name; the product's base-URL setting is required and may carry a context path
//!   (`https://wiki.example.com/confluence`).
//! - **Auth**: a personal access token (Jira 8.14+, Confluence 7.9+; Bitbucket's HTTP access token) is sent as
//!   `Authorization: Bearer`; a user name and password still work as Basic
//!   (<https://confluence.atlassian.com/enterprise/using-personal-access-tokens-1026032365.html>).
//! - **Paths**: Jira's REST v2 (`/rest/api/2/search`, `startAt` paging) instead of v3; Confluence without `/wiki`
//!   (`/rest/api/content`); Bitbucket's `/rest/api/1.0/...` with `isLastPage` / `nextPageStart` paging instead of
//!   Cloud's `/2.0/...` and `next`, and its error body `{"errors": [{"context", "message", "exceptionName"}]}`.

use std::fmt;
use std::str::FromStr;

/// Where a product runs. [`Default`]: [`Deployment::Cloud`].
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Deployment {
    /// Atlassian Cloud (`*.atlassian.net`, `api.bitbucket.org`).
    #[default]
    Cloud,
    /// A self-hosted Data Center or Server installation.
    DataCenter,
}

impl Deployment {
    /// The setting's value: `cloud` or `data-center`.
    pub fn as_str(self) -> &'static str {
        match self {
            Deployment::Cloud => "cloud",
            Deployment::DataCenter => "data-center",
        }
    }
}

impl fmt::Display for Deployment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A value that names no deployment.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a deployment: use cloud or data-center (server and dc are accepted for data-center)")]
pub struct UnknownDeployment(pub String);

impl FromStr for Deployment {
    type Err = UnknownDeployment;

    /// `cloud`, or `data-center` (also `datacenter`, `dc`, `server`), in any case, spaces around ignored.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.trim().to_ascii_lowercase().as_str() {
            "cloud" => Ok(Deployment::Cloud),
            "data-center" | "datacenter" | "data_center" | "dc" | "server" => Ok(Deployment::DataCenter),
            _ => Err(UnknownDeployment(text.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_parse_and_print() {
        for (text, deployment) in [
            ("cloud", Deployment::Cloud),
            (" Data-Center ", Deployment::DataCenter),
            ("server", Deployment::DataCenter),
            ("dc", Deployment::DataCenter),
        ] {
            assert_eq!(text.parse::<Deployment>(), Ok(deployment), "{text}");
        }
        assert_eq!(Deployment::DataCenter.to_string(), "data-center");
        let err = "onprem"
            .parse::<Deployment>()
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("use cloud or data-center"), "{err}");
    }
}
