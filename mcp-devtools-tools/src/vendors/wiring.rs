//! What the registry gives the rest of the crate, kept here so that nothing below the registry reads it (no module
//! the vendors build on imports them back): the server with its catalogue ([`crate::DevtoolsServer::new`]), the
//! default and parsed toolsets, the redactor's secrets and the configured vendors of a [`ToolsConfig`], and the
//! policy's vendor names ([`Vendor`]'s `Deserialize`).

use std::sync::Arc;

use adapters_http::Redactor;
use adapters_http::cache::redis::RedisCacheConfig;
use mcp_policy::{Selection, UnknownToolset};
use mcp_results::tasks::RedisTaskStoreConfig;
use serde::{Deserialize, Deserializer};

use super::{COMPANIONS_AFTER, registry};
use crate::app::App;
use crate::config::{ArtifactBackend, ToolsConfig};
use crate::handler::{Catalog, CatalogTool, DevtoolsServer};
use crate::toolsets::ToolSelection;
use crate::vendor::Vendor;

impl DevtoolsServer {
    /// The server over the shared `app`, with its catalogue built from `app`'s configuration (every vendor of the
    /// registry, [`crate::vendors`]). No principal is set: over streamable HTTP each call's principal comes from
    /// the request (the auth middleware puts a [`crate::Principal`] in the HTTP request's extensions; a call
    /// without one is refused); set one with [`DevtoolsServer::with_principal`] for stdio.
    pub fn new(app: Arc<App>) -> Self {
        let catalog = Catalog::new(&app, every_tool(&app));
        DevtoolsServer::from_catalog(app, catalog)
    }
}

/// Every tool before the selection, in catalogue order: each vendor's routes in the registry's order (within a
/// vendor, its `order`; a route missing there follows, by name), `artifact_read` after [`COMPANIONS_AFTER`]'s.
fn every_tool(app: &App) -> Vec<CatalogTool> {
    let mut tools = Vec::new();
    for entry in registry() {
        let mut routes: Vec<_> = (entry.tools)().into_iter().collect();
        routes.sort_by_key(|route| {
            let rank = entry.order.iter().position(|name| *name == route.attr.name);
            (rank.unwrap_or(usize::MAX), route.attr.name.to_string())
        });
        tools.extend(routes.into_iter().map(|route| CatalogTool {
            vendor: entry.vendor,
            identity: entry.identity,
            task: entry.tasks.contains(&route.attr.name.as_ref()),
            route,
        }));
        if entry.vendor == COMPANIONS_AFTER {
            tools.push(CatalogTool {
                vendor: Vendor::NONE,
                identity: |_| (None, None),
                route: app.results.artifact_read_route(),
                task: false,
            });
        }
    }
    tools
}

/// Every toolset (one per vendor of the registry), in `--help` order: the default selection.
pub fn toolsets() -> Vec<Vendor> {
    registry().iter().map(|entry| entry.vendor).collect()
}

/// Parses a comma-separated toolset list (`None` or blank: every toolset) with the read-only switch.
///
/// # Errors
/// A name that is not a toolset ([`UnknownToolset`]; the host adds its setting's name).
pub fn parse_toolsets(toolsets: Option<&str>, read_only: bool) -> Result<ToolSelection, UnknownToolset> {
    Selection::parse(toolsets, &self::toolsets(), read_only)
}

impl Default for ToolsConfig {
    /// Every toolset, structured output off, the default bound, artifacts in memory, no credentials (each vendor's
    /// tools answer "no request sent: set …"), no policy.
    fn default() -> Self {
        ToolsConfig::defaults_with(toolsets())
    }
}

impl<'de> Deserialize<'de> for Vendor {
    /// A registered vendor's name or `none`; anything else is an error listing the names.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        if name == Vendor::NONE.as_str() {
            return Ok(Vendor::NONE);
        }
        toolsets()
            .into_iter()
            .find(|vendor| vendor.as_str() == name)
            .ok_or_else(|| {
                let known: Vec<&str> = super::names().chain([Vendor::NONE.as_str()]).collect();
                serde::de::Error::custom(format!("unknown vendor {name:?}; use one of {}", known.join(", ")))
            })
    }
}

impl ToolsConfig {
    /// Every credential these settings hold, for [`adapters_http::Redactor`]: the GitHub token (and its git Basic
    /// pair with `x-access-token`), the CircleCI token, the
    /// Atlassian API token and Bitbucket app password (with their Basic pairs), the S3 secret access key (and session token) and
    /// the Redis passwords (the HTTP cache's and the task store's). Each is named by the host's setting name where the adapters have one (`GITHUB_TOKEN`, …);
    /// the store's two as `S3 secret access key` and `Redis password`. [`crate::App::new`] gives it to every
    /// vendor client, so no vendor's answer carries any of them back (values under 8 bytes are not secrets, see
    /// [`adapters_http::MIN_SECRET_BYTES`]).
    pub fn redactor(&self) -> Redactor {
        let mut secrets = Redactor::builder();
        for vendor in super::registry() {
            secrets = (vendor.secrets)(self, secrets);
        }
        if let ArtifactBackend::S3(s3) = &self.artifact_backend {
            if let Some(key) = &s3.secret_access_key {
                secrets = secrets.secret("S3 secret access key", key);
            }
            if let Some(token) = &s3.session_token {
                secrets = secrets.secret("S3 session token", token);
            }
        }
        if let Some(password) = self.http_cache_redis.as_ref().and_then(RedisCacheConfig::password) {
            secrets = secrets.secret("Redis password", &password);
        }
        if let Some(password) = self.tasks.redis.as_ref().and_then(RedisTaskStoreConfig::password) {
            secrets = secrets.secret("Redis password", &password);
        }
        secrets.build()
    }

    /// The vendors with credentials set (`github`, `circleci`, `jira`, `confluence`, `bitbucket`), for a start-up
    /// log line; a vendor without them answers every call "no request sent: set ...".
    pub fn configured_vendors(&self) -> Vec<&'static str> {
        super::registry()
            .iter()
            .filter(|vendor| (vendor.configured)(self))
            .map(|vendor| vendor.vendor.as_str())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_vendor_lists_the_order_of_exactly_its_tools_and_tasks_among_them() {
        for entry in registry() {
            let mut routed: Vec<String> = (entry.tools)()
                .into_iter()
                .map(|route| route.attr.name.to_string())
                .collect();
            let mut ordered: Vec<String> = entry.order.iter().map(|name| (*name).to_owned()).collect();
            routed.sort();
            ordered.sort();
            assert_eq!(routed, ordered, "vendor {}", entry.vendor);
            for task in entry.tasks {
                assert!(
                    entry.order.contains(task),
                    "vendor {}: task tool {task} is not its tool",
                    entry.vendor
                );
            }
        }
    }
}
