//! The vendors: one folder each (its tools as `#[tool]` methods, its config part, its toolset name, its secrets for
//! the redactor, its enterprise identity), listed once in the registry (`registry()`; [`names`] lists them). The toolsets, the redactor, the catalogue,
//! the `MCP_TOOLSETS` default and the policy's vendor names all read that list, so adding a vendor is its folder
//! and one line here (docs/library.md, "Adding a vendor").

pub(crate) mod atlassian;
pub(crate) mod ci;
pub(crate) mod circleci;
pub(crate) mod github;
#[cfg(test)]
pub(crate) mod toy;
mod wiring;

pub use wiring::{parse_toolsets, toolsets};

use adapters_http::RedactorBuilder;
use rmcp::handler::server::router::tool::ToolRouter;

use crate::config::ToolsConfig;
use crate::handler::{DevtoolsServer, Identity};
use crate::vendor::Vendor;

/// One vendor of the registry: what every part of the server needs to know of it.
pub(crate) struct VendorEntry {
    /// Its name: the toolset, the policy's `vendor`, enterprise `_meta`'s `vendor`.
    pub vendor: Vendor,
    /// Its tools: the `#[tool_router]` of its folder.
    pub tools: fn() -> ToolRouter<DevtoolsServer>,
    /// Its tools' names in `tools/list` order (a test holds them to [`VendorEntry::tools`]).
    pub order: &'static [&'static str],
    /// The names of its tools that run as tasks (MCP Tasks extension) for a client that declared the extension: the
    /// long waits (`github_wait_for_run`, ...). Each is one of [`VendorEntry::order`] (a test holds them to it).
    pub tasks: &'static [&'static str],
    /// Adds the credentials it holds in `config` to the redactor, named by their setting, so that no vendor's
    /// answer carries them back.
    pub secrets: fn(&ToolsConfig, RedactorBuilder) -> RedactorBuilder,
    /// Whether its credentials are set (the start-up log line; a vendor without them answers every call "no
    /// request sent: set ...").
    pub configured: fn(&ToolsConfig) -> bool,
    /// The upstream identity a call acts as: the credential setting's name (never its value; `None` when unset)
    /// and the upstream's `host[:port]`.
    pub identity: Identity,
}

/// Every vendor, in `tools/list` and `--help` order.
#[cfg_attr(test, allow(dead_code))]
static VENDORS: &[VendorEntry] = &[
    github::ENTRY,
    circleci::ENTRY,
    ci::ENTRY,
    atlassian::JIRA,
    atlassian::CONFLUENCE,
    atlassian::BITBUCKET,
];

/// Every vendor and the toy vendor of the tests, which joins through its folder and this one line.
#[cfg(test)]
static TEST_VENDORS: &[VendorEntry] = &[
    github::ENTRY,
    circleci::ENTRY,
    ci::ENTRY,
    atlassian::JIRA,
    atlassian::CONFLUENCE,
    atlassian::BITBUCKET,
    toy::ENTRY,
];

/// The registry: every vendor, in order.
pub(crate) fn registry() -> &'static [VendorEntry] {
    #[cfg(test)]
    return TEST_VENDORS;
    #[cfg(not(test))]
    VENDORS
}

/// The registry's vendor names (the toolset names), in order.
pub fn names() -> impl Iterator<Item = &'static str> {
    registry().iter().map(|entry| entry.vendor.as_str())
}

/// The enterprise identity of a vendor whose adapter takes [`adapters_http::HttpOptions`] (one base, one
/// credential): the credential setting's name when it is set, and the base's `host[:port]`.
pub(crate) fn http_identity(http: &adapters_http::HttpOptions) -> (Option<&'static str>, Option<String>) {
    let credential = http.credential.as_ref().map(|_| http.setting_names.credential);
    (credential, authority(&http.api_base))
}

/// `host[:port]` of a base URL; `None` when it does not parse.
pub(crate) fn authority(base: &str) -> Option<String> {
    let url = url::Url::parse(base).ok()?;
    let host = url.host_str()?;
    Some(match url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_string(),
    })
}

/// The companion tools (`artifact_read`) are listed after this vendor's tools, where they have always stood.
pub(crate) const COMPANIONS_AFTER: Vendor = circleci::VENDOR;
