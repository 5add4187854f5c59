//! The rmcp `ToolRouter` pieces of the front door: `artifact_read` added in one line
//! ([`Responder::artifact_read_route`]) and the call policy decided before every call ([`Responder::guard`]).

use std::sync::Arc;

use mcp_policy::Policy;
use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::handler::server::tool::ToolCallContext;
use serde::de::DeserializeOwned;

use crate::{Responder, artifact_read};

impl Responder {
    /// The `artifact_read` tool for an rmcp `ToolRouter<S>`, reading this responder's store for the caller
    /// [`Responder::owner`] names, with `outputSchema` and `structuredContent` as the structured-output switch
    /// says: `Self::tool_router().with_route(results.artifact_read_route())`.
    pub fn artifact_read_route<S: Send + Sync + 'static>(&self) -> ToolRoute<S> {
        let responder = self.clone();
        artifact_read::route_with(self.store().clone(), self.structured(), move |cx| responder.owner(cx))
    }

    /// `router` with `policy` decided before every call of its tools: a call the policy refuses gets
    /// the policy's refusal (`isError`, `_meta.code: "policy_denied"` and the deciding rule) and the tool does not
    /// run; rules with `arguments` see the call's arguments ([`Policy::decide_call`]). The principal is the caller
    /// [`Responder::owner`] names; `vendor` is the vendor every tool of `router`
    /// calls, for the rules that name one. Tools listed stay as they are. `policy` may be shared between routers
    /// (an `Arc<Policy<V>>`). The deciding rule's effect is recorded as `policy_effect` on the current tracing
    /// span, when the span declares that field.
    pub fn guard<S, V>(&self, router: ToolRouter<S>, policy: impl Into<Arc<Policy<V>>>, vendor: V) -> ToolRouter<S>
    where
        S: Send + Sync + 'static,
        V: DeserializeOwned + PartialEq + Send + Sync + 'static,
    {
        let policy: Arc<Policy<V>> = policy.into();
        let vendor = Arc::new(vendor);
        let mut guarded = ToolRouter::new();
        for route in router {
            let (call, name) = (route.call.clone(), route.attr.name.clone());
            let (policy, vendor, responder) = (policy.clone(), vendor.clone(), self.clone());
            guarded.add_route(ToolRoute::new_dyn(route.attr, move |cx: ToolCallContext<'_, S>| {
                let owner = responder.owner(&cx.request_context);
                let decision = policy.decide_call(&owner, &name, &vendor, cx.arguments.as_ref());
                if let Some(decision) = &decision {
                    tracing::Span::current().record("policy_effect", tracing::field::debug(decision.effect));
                }
                match decision.and_then(|decision| mcp_policy::refusal(&name, &decision)) {
                    Some(refusal) => Box::pin(std::future::ready(Ok(refusal.into()))),
                    None => call(cx),
                }
            }));
        }
        guarded
    }
}
