//! [`Catalog`]: the tools a configuration offers, built once per process from the vendor registry: each vendor's
//! `#[tool]` routes, `artifact_read` from the front door ([`mcp_results::Responder::artifact_read_route`]), the tool
//! selection applied by removing routes, the call policy by [`mcp_results::Responder::guard`], `outputSchema`
//! dropped when structured output is off, and the `tools/list` answer in one fixed order.

use std::collections::HashMap;

use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::model::Tool;

use crate::app::App;
use crate::handler::DevtoolsServer;
use crate::vendor::Vendor;
use crate::{toolsets, vendors};

/// The offered tools: one rmcp router, the `tools/list` entries in catalogue order, the refusal text of each tool
/// the selection leaves out, and each offered tool's vendor (for enterprise `_meta`).
pub struct Catalog {
    router: ToolRouter<DevtoolsServer>,
    listed: Vec<Tool>,
    left_out: Vec<(String, String)>,
    vendors: HashMap<String, Vendor>,
}

impl Catalog {
    /// The catalogue of `app`'s configuration: the tools of [`crate::ToolsConfig::selection`], guarded by
    /// [`App::policy`], with `outputSchema` when [`crate::ToolsConfig::structured_output`] is on.
    pub(crate) fn new(app: &App) -> Self {
        let config = &app.config;
        let selection = &config.selection;
        let (offered, left_out) = selection.select(every_tool(app), |(vendor, route)| mcp_policy::ToolFacts {
            toolset: (*vendor != Vendor::NONE).then_some(*vendor),
            read_only: route.attr.annotations.as_ref().and_then(|a| a.read_only_hint) == Some(true),
            returns_artifacts: route.attr.output_schema.is_some(),
        });
        let left_out = left_out
            .into_iter()
            .map(|((vendor, route), why)| {
                let name = route.attr.name.to_string();
                let refusal = toolsets::refusal(selection, config.selection_names, &name, vendor, why);
                (name, refusal)
            })
            .collect();
        let mut listed = Vec::with_capacity(offered.len());
        let mut vendors = HashMap::with_capacity(offered.len());
        let mut by_vendor: Vec<(Vendor, ToolRouter<DevtoolsServer>)> = Vec::new();
        for (vendor, mut route) in offered {
            if !config.structured_output {
                route.attr.output_schema = None;
            }
            listed.push(route.attr.clone());
            vendors.insert(route.attr.name.to_string(), vendor);
            match by_vendor.iter_mut().find(|(v, _)| *v == vendor) {
                Some((_, router)) => router.add_route(route),
                None => by_vendor.push((vendor, ToolRouter::new().with_route(route))),
            }
        }
        let mut router = ToolRouter::new();
        for (vendor, routes) in by_vendor {
            router += match &app.policy {
                Some(policy) => app.results.guard(routes, policy.clone(), vendor),
                None => routes,
            };
        }
        Catalog {
            router,
            listed,
            left_out,
            vendors,
        }
    }

    /// The router of the offered tools.
    pub(crate) fn router(&self) -> &ToolRouter<DevtoolsServer> {
        &self.router
    }

    /// The vendor of the offered tool `name`.
    ///
    /// # Errors
    /// The text to answer when `name` is not offered: naming the setting that leaves it out, or saying to call
    /// `tools/list` when no such tool exists.
    pub fn find(&self, name: &str) -> Result<Vendor, String> {
        if let Some(vendor) = self.vendors.get(name) {
            return Ok(*vendor);
        }
        Err(match self.left_out.iter().find(|(left_out, _)| left_out == name) {
            Some((_, refusal)) => refusal.clone(),
            None => format!("Unknown tool {name:?}: call tools/list for the tools this server offers"),
        })
    }

    /// The `tools/list` entries, in catalogue order.
    pub fn listed(&self) -> &[Tool] {
        &self.listed
    }
}

/// Every tool before the selection, with its vendor, in catalogue order: each vendor's routes in the registry's
/// order (within a vendor, its `order`; a route missing there follows, by name), `artifact_read` after
/// [`vendors::COMPANIONS_AFTER`]'s.
fn every_tool(app: &App) -> Vec<(Vendor, ToolRoute<DevtoolsServer>)> {
    let mut tools = Vec::new();
    for entry in vendors::registry() {
        let mut routes: Vec<ToolRoute<DevtoolsServer>> = (entry.tools)().into_iter().collect();
        routes.sort_by_key(|route| {
            let rank = entry.order.iter().position(|name| *name == route.attr.name);
            (rank.unwrap_or(usize::MAX), route.attr.name.to_string())
        });
        tools.extend(routes.into_iter().map(|route| (entry.vendor, route)));
        if entry.vendor == vendors::COMPANIONS_AFTER {
            tools.push((Vendor::NONE, app.results.artifact_read_route()));
        }
    }
    tools
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_vendor_lists_the_order_of_exactly_its_tools() {
        for entry in vendors::registry() {
            let mut routed: Vec<String> = (entry.tools)()
                .into_iter()
                .map(|route| route.attr.name.to_string())
                .collect();
            let mut ordered: Vec<String> = entry.order.iter().map(|name| (*name).to_owned()).collect();
            routed.sort();
            ordered.sort();
            assert_eq!(routed, ordered, "vendor {}", entry.vendor);
        }
    }
}
