//! [`ResponderBuilder`]: a [`Responder`] from an artifact store, every other part defaulted; and who owns a call's
//! artifacts ([`Owner`]).

use std::sync::Arc;
use std::time::Duration;

use mcp_artifacts::ArtifactStore;
use mcp_envelope::SizeBound;
use mcp_projection::{InProcess, ProjectionRunner};
use rmcp::service::{RequestContext, RoleServer};

use crate::Responder;

/// Who owns the artifacts of a call (the only caller who can read them back with `artifact_read`), from the call's
/// request context: e.g. the authenticated principal.
pub type Owner = Arc<dyn Fn(&RequestContext<RoleServer>) -> String + Send + Sync>;

/// The owner every call has unless the builder is given one ([`ResponderBuilder::owner`]): `"default"`, one owner
/// for all callers, right for a single-user server (stdio); a server with several users names each caller.
pub const DEFAULT_OWNER: &str = "default";

/// Builds a [`Responder`] ([`Responder::builder`]). Defaults: the [`SizeBound`] default (256 KiB), `jq` in-process
/// ([`InProcess`]: jaq has no step or memory budget, so a server that runs untrusted callers' `jq` plugs an
/// isolated runner in, [`mcp_projection::Isolated`]), structured output on, one pipeline permit per available CPU
/// (at least two), [`crate::DEFAULT_PIPELINE_TIMEOUT`], every call owned by [`DEFAULT_OWNER`].
#[must_use]
pub struct ResponderBuilder {
    store: Arc<dyn ArtifactStore>,
    bound: SizeBound,
    runner: Arc<dyn ProjectionRunner>,
    structured: bool,
    permits: Option<usize>,
    timeout: Option<Duration>,
    owner: Option<Owner>,
}

impl Responder {
    /// A builder of a responder that puts oversized values into `store` (e.g.
    /// `mcp_artifacts::MemoryStore::default()`); see [`ResponderBuilder`] for the defaults.
    pub fn builder(store: impl ArtifactStore + 'static) -> ResponderBuilder {
        Self::builder_shared(Arc::new(store))
    }

    /// [`Responder::builder`] with a store shared with other parts of the server.
    pub fn builder_shared(store: Arc<dyn ArtifactStore>) -> ResponderBuilder {
        ResponderBuilder {
            store,
            bound: SizeBound::default(),
            runner: Arc::new(InProcess),
            structured: true,
            permits: None,
            timeout: None,
            owner: None,
        }
    }
}

impl ResponderBuilder {
    /// The bound on `structuredContent`, compact JSON bytes, clamped into `16384..=15728640` (a
    /// clamped value is logged as a warning).
    pub fn max_bytes(mut self, bytes: u64) -> Self {
        let (bound, warning) = SizeBound::new(bytes);
        if let Some(warning) = warning {
            tracing::warn!(
                "structured-content bound {} bytes: using {} bytes",
                warning.given(),
                warning.used()
            );
        }
        self.bound = bound;
        self
    }

    /// The bound on `structuredContent` ([`ResponderBuilder::max_bytes`] from a number).
    pub fn bound(mut self, bound: SizeBound) -> Self {
        self.bound = bound;
        self
    }

    /// Where `jq` runs: a [`ProjectionRunner`], e.g. [`mcp_projection::Isolated`].
    pub fn runner(mut self, runner: impl ProjectionRunner + 'static) -> Self {
        self.runner = Arc::new(runner);
        self
    }

    /// [`ResponderBuilder::runner`] with a runner shared with other parts of the server.
    pub fn runner_shared(mut self, runner: Arc<dyn ProjectionRunner>) -> Self {
        self.runner = runner;
        self
    }

    /// The structured-output switch ([`Responder::with_structured_output`]).
    pub fn structured_output(mut self, on: bool) -> Self {
        self.structured = on;
        self
    }

    /// How many pipelines run at once ([`Responder::with_pipeline_permits`]).
    pub fn pipeline_permits(mut self, permits: usize) -> Self {
        self.permits = Some(permits);
        self
    }

    /// How long a call waits for a permit and for its rendering ([`Responder::with_pipeline_timeout`]).
    pub fn pipeline_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Who owns a call's artifacts, from its request context (the authenticated caller; the client's name in a
    /// demo). The same function names the caller for `artifact_read` ([`Responder::artifact_read_route`]) and for
    /// the call policy ([`Responder::guard`]).
    pub fn owner(mut self, owner: impl Fn(&RequestContext<RoleServer>) -> String + Send + Sync + 'static) -> Self {
        self.owner = Some(Arc::new(owner));
        self
    }

    /// The responder.
    pub fn build(self) -> Responder {
        let mut responder = Responder::new(self.store, self.bound, self.runner).with_structured_output(self.structured);
        if let Some(permits) = self.permits {
            responder = responder.with_pipeline_permits(permits);
        }
        if let Some(timeout) = self.timeout {
            responder = responder.with_pipeline_timeout(timeout);
        }
        match self.owner {
            Some(owner) => responder.with_owner(owner),
            None => responder,
        }
    }
}

impl std::fmt::Debug for ResponderBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResponderBuilder")
            .field("bound", &self.bound)
            .field("runner", &self.runner)
            .field("structured", &self.structured)
            .finish_non_exhaustive()
    }
}
