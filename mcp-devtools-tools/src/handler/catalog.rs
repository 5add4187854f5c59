//! [`Catalog`]: the tools a configuration offers, built once per process from every tool the vendor registry
//! gives (each vendor's `#[tool]` routes and `artifact_read`, in `tools/list` order, `crate::vendors`): the tool
//! selection applied by removing routes, the call policy by [`mcp_results::Responder::guard`], `outputSchema`
//! dropped when structured output is off, argument descriptions moved into the tool's description
//! ([`super::described`]), and each tool's vendor and enterprise identity kept for its calls, and
//! whether it runs as a task.

use std::collections::{HashMap, HashSet};

use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::model::Tool;

use super::DevtoolsServer;
use crate::app::App;
use crate::toolsets;
use crate::vendor::Vendor;

/// The enterprise identity of a tool's calls: the credential setting's name (never its value; `None` when unset)
/// and the upstream's `host[:port]`, from the [`App`].
pub(crate) type Identity = fn(&App) -> (Option<&'static str>, Option<String>);

/// One tool as the registry gives it: its vendor (its toolset; [`Vendor::NONE`] for the companion tools), its
/// identity and its route.
pub(crate) struct CatalogTool {
    /// The vendor.
    pub vendor: Vendor,
    /// The identity of its calls.
    pub identity: Identity,
    /// Its `#[tool]` route.
    pub route: ToolRoute<DevtoolsServer>,
    /// Whether it runs as a task for a client that declared the tasks extension (its vendor's
    /// `VendorEntry::tasks`).
    pub task: bool,
}

/// The offered tools: one rmcp router, the `tools/list` entries in catalogue order, the refusal text of each tool
/// the selection leaves out, each offered tool's vendor and identity (for enterprise `_meta`), and the offered tools
/// that run as tasks.
pub struct Catalog {
    router: ToolRouter<DevtoolsServer>,
    listed: Vec<Tool>,
    left_out: Vec<(String, String)>,
    vendors: HashMap<String, (Vendor, Identity)>,
    tasks: HashSet<String>,
}

impl Catalog {
    /// The catalogue of `app`'s configuration from `every_tool` (in `tools/list` order): the tools of
    /// [`crate::ToolsConfig::selection`], guarded by [`App::policy`], with `outputSchema` when
    /// [`crate::ToolsConfig::structured_output`] is on.
    pub(crate) fn new(app: &App, every_tool: Vec<CatalogTool>) -> Self {
        let config = &app.config;
        let selection = &config.selection;
        let (offered, left_out) = selection.select(every_tool, |tool| mcp_policy::ToolFacts {
            toolset: (tool.vendor != Vendor::NONE).then_some(tool.vendor),
            read_only: tool.route.attr.annotations.as_ref().and_then(|a| a.read_only_hint) == Some(true),
            returns_artifacts: tool.route.attr.output_schema.is_some(),
        });
        let left_out = left_out
            .into_iter()
            .map(|(CatalogTool { vendor, route, .. }, why)| {
                let name = route.attr.name.to_string();
                let refusal = toolsets::refusal(selection, config.selection_names, &name, vendor, why);
                (name, refusal)
            })
            .collect();
        let mut listed = Vec::with_capacity(offered.len());
        let mut vendors = HashMap::with_capacity(offered.len());
        let mut tasks = HashSet::new();
        let mut by_vendor: Vec<(Vendor, ToolRouter<DevtoolsServer>)> = Vec::new();
        for CatalogTool {
            vendor,
            identity,
            mut route,
            task,
        } in offered
        {
            if task {
                tasks.insert(route.attr.name.to_string());
            }
            if !config.structured_output {
                route.attr.output_schema = None;
            }
            route.attr = super::described::arguments_in_description(route.attr);
            listed.push(route.attr.clone());
            vendors.insert(route.attr.name.to_string(), (vendor, identity));
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
            tasks,
        }
    }

    /// The router of the offered tools.
    pub(crate) fn router(&self) -> &ToolRouter<DevtoolsServer> {
        &self.router
    }

    /// The vendor of the offered tool `name`, and the identity of its calls.
    ///
    /// # Errors
    /// The text to answer when `name` is not offered: naming the setting that leaves it out, or saying to call
    /// `tools/list` when no such tool exists.
    pub(crate) fn find(&self, name: &str) -> Result<(Vendor, Identity), String> {
        if let Some(vendor) = self.vendors.get(name) {
            return Ok(*vendor);
        }
        Err(match self.left_out.iter().find(|(left_out, _)| left_out == name) {
            Some((_, refusal)) => refusal.clone(),
            None => match crate::vendors::atlassian::retired(name) {
                Some((tool, method)) => format!(
                    "Unknown tool {name:?}: since 0.2 it is {tool} with \"method\": \"{method}\" (same other arguments)"
                ),
                None => format!("Unknown tool {name:?}: call tools/list for the tools this server offers"),
            },
        })
    }

    /// Whether the offered tool `name` runs as a task for a client that declared the tasks extension (MCP Tasks
    /// extension: the call is answered at once with a task; the client polls `tasks/get`).
    pub fn runs_as_task(&self, name: &str) -> bool {
        self.tasks.contains(name)
    }

    /// The `tools/list` entries, in catalogue order.
    pub fn listed(&self) -> &[Tool] {
        &self.listed
    }
}
