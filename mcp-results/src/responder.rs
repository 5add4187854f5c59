//! [`Responder`]: from a tool's data to its rmcp `CallToolResult` .

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use mcp_artifacts::ArtifactStore;
use mcp_envelope::rmcp::success_result;
use mcp_envelope::{Envelope, Incomplete, Rest, Sealed, SizeBound, TextEnds, prepare, prepare_text, render_serialize};
use mcp_projection::ProjectionRunner;
use rmcp::model::CallToolResult;
use rmcp::service::{RequestContext, RoleServer};
use serde::Serialize;
use serde_json::Value;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::builder::{DEFAULT_OWNER, Owner};
use crate::pipeline::{self, check_depth, render_data};
use crate::{View, error};

/// What [`Responder::prepare`] gives: the text, and (structured output on) the sealed envelope with the ends of a
/// truncated text, kept to name the artifact once it is saved.
type Prepared<M> = (String, Option<(Sealed<M>, Option<TextEnds>)>);

/// The media type of an oversized result's artifact.
const JSON_MIME_TYPE: &str = "application/json";

/// Default of [`Responder::with_pipeline_timeout`]: 10 s.
pub const DEFAULT_PIPELINE_TIMEOUT: Duration = Duration::from_secs(10);

/// Turns a tool's data into its MCP result, the whole way: wait for a pipeline permit, project with the caller's
/// `jq` through the [`ProjectionRunner`], check the depth, render the text and seal the structured value against
/// the [`SizeBound`] on a blocking thread, put an oversized value into the [`ArtifactStore`] (a failed put gives
/// `artifactId: null` and a warning in the log), and build the `CallToolResult`. Every failure is an `isError`
/// result whose text says what to do ([`error`]); nothing panics on bad data.
///
/// Cheap to clone (everything is shared); build one per process and share it.
///
/// ```
/// use std::sync::Arc;
/// use mcp_artifacts::{MemoryStore, StoreConfig};
/// use mcp_envelope::{NoMeta, OutputFormat, SizeBound};
/// use mcp_results::{Responder, View};
///
/// # tokio::runtime::Runtime::new()?.block_on(async {
/// let store = Arc::new(MemoryStore::new(StoreConfig::default()));
/// let results = Responder::new(store, SizeBound::default(), Arc::new(mcp_projection::InProcess));
/// let view = View::new(Some("map(.id)".into()), OutputFormat::Json);
/// let result = results.respond("alice", serde_json::json!([{"id": 1}, {"id": 2}]), NoMeta {}, &view).await;
/// assert_eq!(result.structured_content, Some(serde_json::json!({"data": [1, 2]})));
/// # });
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone)]
pub struct Responder {
    store: Arc<dyn ArtifactStore>,
    bound: SizeBound,
    runner: Arc<dyn ProjectionRunner>,
    structured: bool,
    permits: Arc<Semaphore>,
    /// How many permits `permits` started with (named in the busy error).
    pipelines: usize,
    pub(crate) timeout: Duration,
    owner: Owner,
}

impl Responder {
    /// A responder that puts oversized values into `store`, bounds `structuredContent` by `bound` (compact JSON
    /// bytes) and runs `jq` with `runner`. Defaults: structured output on, one pipeline permit per available CPU
    /// (at least two), [`DEFAULT_PIPELINE_TIMEOUT`].
    pub fn new(store: Arc<dyn ArtifactStore>, bound: SizeBound, runner: Arc<dyn ProjectionRunner>) -> Self {
        Responder {
            store,
            bound,
            runner,
            structured: true,
            permits: Arc::new(Semaphore::new(default_permits())),
            pipelines: default_permits(),
            timeout: DEFAULT_PIPELINE_TIMEOUT,
            owner: Arc::new(|_: &RequestContext<RoleServer>| DEFAULT_OWNER.to_owned()),
        }
    }

    /// Who owns a call's artifacts, from its request context ([`crate::ResponderBuilder::owner`]); default: every
    /// call is owned by [`DEFAULT_OWNER`].
    #[must_use]
    pub fn with_owner(mut self, owner: Owner) -> Self {
        self.owner = owner;
        self
    }

    /// The owner of a call's artifacts (and the principal of the call policy, [`Responder::guard`]), named by the
    /// owner function from the call's request context.
    pub fn owner(&self, cx: &RequestContext<RoleServer>) -> String {
        (self.owner)(cx)
    }

    /// The structured-output switch: off, results carry the text block only (no
    /// `structuredContent`, nothing saved as an artifact but binary bodies). Callers also leave `outputSchema` out
    /// of `tools/list` then ([`Responder::structured`]).
    #[must_use]
    pub fn with_structured_output(mut self, on: bool) -> Self {
        self.structured = on;
        self
    }

    /// How many pipelines (projection, rendering, sealing) run at once; further calls wait, at most the pipeline
    /// timeout, then get a "busy" error. At least 1. Each permit covers one projection run, so with an isolated
    /// runner the workers' memory limits add up to a known bound.
    #[must_use]
    pub fn with_pipeline_permits(mut self, permits: usize) -> Self {
        self.pipelines = permits.max(1);
        self.permits = Arc::new(Semaphore::new(self.pipelines));
        self
    }

    /// How long a call waits for a permit, and how long rendering and sealing one result (after the projection,
    /// which has the runner's own limit) may take before the call fails with an error saying to select less.
    #[must_use]
    pub fn with_pipeline_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Whether structured output is on.
    pub fn structured(&self) -> bool {
        self.structured
    }

    /// The bound on `structuredContent`.
    pub fn bound(&self) -> SizeBound {
        self.bound
    }

    /// The artifact store (also the one `artifact_read` must read from).
    pub fn store(&self) -> &Arc<dyn ArtifactStore> {
        &self.store
    }

    /// The projection runner.
    pub fn runner(&self) -> &Arc<dyn ProjectionRunner> {
        &self.runner
    }

    /// The success result for `data` with tool metadata `meta`, as `view` asks, for the caller `owner` (who alone
    /// can read the artifact back).
    ///
    /// With structured output off the result is the text block alone. With it on, `structuredContent` is the
    /// envelope `{data, ...meta}`, or its incomplete form `{data: null, ...meta, incomplete: {reason: "size",
    /// bytes, limitBytes, artifactId}}` when the compact value exceeds the bound (the full value is then put into
    /// the store as `application/json`, and the result carries its `resource_link` block after the text,
    /// [`crate::resources::link`]). Error results: busy (no permit within the timeout), a failed or stopped
    /// `jq`, a value nested deeper than [`crate::MAX_RESULT_DEPTH`], rendering past the timeout.
    pub async fn respond<M>(&self, owner: &str, data: Value, meta: M, view: &View) -> CallToolResult
    where
        M: Serialize + Send + Sync + 'static,
    {
        // The permit covers the CPU work only (projection, rendering, sealing); the artifact save below runs
        // outside it, bounded by the store's own limits, so a slow store never holds a pipeline.
        let (text, sealed) = match self.prepare(data, meta, view).await {
            Ok(prepared) => prepared,
            Err(failed) => return failed,
        };
        let Some((sealed, text_ends)) = sealed else {
            return success_result(text, None);
        };
        self.deliver(owner, text, sealed, text_ends).await
    }

    /// The success result of a prepared value: an oversized one saved as an artifact of `owner` (its text then
    /// naming it) and linked; the envelope as `structuredContent`.
    pub(crate) async fn deliver<M: Serialize>(
        &self,
        owner: &str,
        mut text: String,
        sealed: Sealed<M>,
        text_ends: Option<TextEnds>,
    ) -> CallToolResult {
        let mut saved = None;
        let envelope = match sealed {
            Sealed::Inline(envelope) => envelope,
            Sealed::Oversized(oversized) => {
                let (bytes, pending) = oversized.into_parts();
                let size = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
                let id = self
                    .save(owner, JSON_MIME_TYPE, Bytes::from(bytes), "an oversized result")
                    .await;
                if let Some(ends) = text_ends {
                    // The truncated text names the artifact (or says saving failed): a harness that reads only
                    // the text has no other way to reach the value.
                    text = ends.noting(id.as_deref().map_or(Rest::NotSaved, Rest::Artifact));
                }
                saved = id.clone().map(|id| (id, size));
                pending.finish(id)
            }
        };
        match envelope.into_value() {
            Ok(value) => {
                let mut result = success_result(text, Some(value));
                if let Some((id, size)) = saved {
                    self.add_link(&mut result, &id, JSON_MIME_TYPE, size);
                }
                result
            }
            Err(err) => error(format!("Internal error: the result could not be serialized: {err}")),
        }
    }

    /// [`Responder::respond`] for any `T: Serialize` (converted to a JSON value first; an error result if `T`'s
    /// `Serialize` fails).
    pub async fn respond_serialize<T, M>(&self, owner: &str, data: &T, meta: M, view: &View) -> CallToolResult
    where
        T: Serialize + ?Sized,
        M: Serialize + Send + Sync + 'static,
    {
        match serde_json::to_value(data) {
            Ok(data) => self.respond(owner, data, meta, view).await,
            Err(err) => error(format!("Internal error: the result could not be serialized: {err}")),
        }
    }

    /// The success result of a read whose upstream body is binary: `bytes` are put into the store as
    /// an artifact of `media_type` owned by `owner` (never turned into a string), and the result is the envelope
    /// `{data: null, ...meta, incomplete: {reason: "binary", bytes, limitBytes, artifactId, mimeType}}`:
    /// `structuredContent` when structured output is on, and the text (rendered from that envelope in the asked
    /// format, whatever `view.text_from`, so the model sees the artifact id) either way, and with structured output on
    /// the artifact's `resource_link` block ([`crate::resources::link`]). `jq` is not applied: there
    /// is no JSON to project. A failed put gives `artifactId: null` and a warning in the log.
    pub async fn binary<M: Serialize>(
        &self,
        owner: &str,
        media_type: String,
        bytes: Bytes,
        meta: M,
        view: &View,
    ) -> CallToolResult {
        let len = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
        let id = self.save(owner, &media_type, bytes, "a binary upstream body").await;
        let limit = u64::try_from(self.bound.bytes()).unwrap_or(u64::MAX);
        let link = id.clone().map(|id| (id, media_type.clone()));
        let envelope = Envelope {
            data: Value::Null,
            meta,
            incomplete: Some(Incomplete::binary(len, limit, id, media_type)),
        };
        let text = match render_serialize(&envelope, view.format) {
            Ok(text) => text,
            Err(err) => return error(format!("Internal error while preparing the result: {err}")),
        };
        if !self.structured {
            return success_result(text, None);
        }
        match envelope.into_value() {
            Ok(value) => {
                let mut result = success_result(text, Some(value));
                if let Some((id, media_type)) = link {
                    self.add_link(&mut result, &id, &media_type, len);
                }
                result
            }
            Err(err) => error(format!("Internal error: the result could not be serialized: {err}")),
        }
    }

    /// What a text-only result (no `structuredContent`, whatever the switch) can show of `data`:
    /// projected by the view's optional `jq` and rendered (TOON or pretty JSON, truncated) from the bare value, on
    /// a blocking thread. Never an error result: the caller words the outcome, e.g. a write tool whose write
    /// already happened upstream must not report a failed projection as a failed call (a caller would retry and
    /// repeat the write), so a `jq` that fails, runs too long or finds no permit gives the unprojected value.
    pub async fn text(&self, data: Value, view: &View) -> TextOutcome {
        let format = view.format;
        let timeout = self.timeout;
        if view.jq().is_none() {
            // No projection: nothing here can turn the value into an error.
            let data = match check_depth(data) {
                Ok(data) => data,
                Err(too_deep) => return TextOutcome::NotShown(too_deep),
            };
            return match render_data(data, format, timeout).await {
                Ok(text) => TextOutcome::Shown(text),
                Err(render) => TextOutcome::NotShown(render),
            };
        }
        let (reason, unprojected) = match self.permit().await {
            Err(busy) => (busy, data),
            Ok(_permit) => match self.project(data, view).await {
                Ok(projected) => {
                    return match render_data(projected, format, timeout).await {
                        Ok(text) => TextOutcome::Shown(text),
                        Err(render) => TextOutcome::NotShown(render),
                    };
                }
                Err(failed) => (failed.error.to_string(), failed.data),
            },
        };
        let unprojected = match check_depth(unprojected) {
            Ok(data) => data,
            Err(too_deep) => return TextOutcome::NotShown(format!("{reason}; {too_deep}")),
        };
        match render_data(unprojected, format, timeout).await {
            Ok(text) => TextOutcome::Unprojected { reason, text },
            Err(render) => TextOutcome::NotShown(format!("{reason}; {render}")),
        }
    }

    /// Puts `bytes` (e.g. a binary response body, never turned into a string) into the store as an artifact of
    /// `media_type` owned by `owner`: its id, or `None` when the put failed (a warning in the log).
    pub async fn put_artifact(&self, owner: &str, media_type: &str, bytes: Bytes) -> Option<String> {
        self.save(owner, media_type, bytes, "a binary body").await
    }

    /// The CPU part of [`Responder::respond`], under a pipeline permit: projection, depth check, rendering and
    /// sealing. The text and (structured output on) the sealed envelope with the truncated text's ends, or the
    /// error result.
    async fn prepare<M>(&self, data: Value, meta: M, view: &View) -> Result<Prepared<M>, CallToolResult>
    where
        M: Serialize + Send + Sync + 'static,
    {
        let _permit = match self.permit().await {
            Ok(permit) => permit,
            Err(busy) => return Err(error(busy)),
        };
        let data = match self.project(data, view).await {
            Ok(projected) => projected,
            Err(failed) => {
                mcp_envelope::nesting::drop_flat(failed.data);
                return Err(error(failed.error.to_string()));
            }
        };
        let data = match check_depth(data) {
            Ok(data) => data,
            Err(too_deep) => return Err(error(too_deep)),
        };
        // Projected above, through the runner: the rest of the pipeline renders and seals as the view asks.
        // Small values render here; larger ones on the blocking pool (`pipeline::run`).
        let (structured, bound, view) = (self.structured, self.bound, view.without_jq());
        let small = pipeline::at_most(&data, pipeline::INLINE_RENDER_BYTES);
        let work = move || {
            if structured {
                prepare(data, meta, &view, &bound).map(|p| (p.text, Some((p.sealed, p.text_ends))))
            } else {
                prepare_text(data, meta, &view).map(|text| (text, None))
            }
        };
        pipeline::run(small, work, self.timeout).await.map_err(error)
    }

    /// `data` projected by the view's `jq` (unchanged when there is none) through the runner.
    async fn project(&self, data: Value, view: &View) -> Result<Value, mcp_projection::Unprojected> {
        match view.jq() {
            Some(jq) => self.runner.project(data, jq).await,
            None => Ok(data),
        }
    }

    /// Puts `bytes` into the store for `owner`: the id, or `None` (with a warning naming `what`) when that failed.
    async fn save(&self, owner: &str, mime_type: &str, bytes: Bytes, what: &str) -> Option<String> {
        match self.store.put(owner, mime_type, bytes).await {
            Ok(id) => Some(id.to_string()),
            Err(err) => {
                tracing::warn!(error = %err, "saving {what} as an artifact failed; artifactId is null");
                None
            }
        }
    }

    /// Waits (at most the pipeline timeout) for a permit; the error text says the server is busy.
    pub(crate) async fn permit(&self) -> Result<OwnedSemaphorePermit, String> {
        match tokio::time::timeout(self.timeout, self.permits.clone().acquire_owned()).await {
            Ok(Ok(permit)) => Ok(permit),
            _ => Err(format!(
                "the server is busy: all {} result pipelines were taken by other calls' projection and rendering for \
                 {} s; try again shortly",
                self.pipelines,
                self.timeout.as_secs()
            )),
        }
    }
}

/// What [`Responder::text`] could show of a value.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TextOutcome {
    /// The (projected) value, rendered.
    Shown(String),
    /// The `jq` projection failed, ran too long or found no pipeline permit (`reason`, the text to report);
    /// `text` is the unprojected value, rendered.
    Unprojected {
        /// Why the projection did not run or failed.
        reason: String,
        /// The unprojected value, rendered.
        text: String,
    },
    /// Nothing could be rendered (nested too deep, rendering too slow): why, as text to report.
    NotShown(String),
}

impl std::fmt::Debug for Responder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Responder")
            .field("bound", &self.bound)
            .field("runner", &self.runner)
            .field("structured", &self.structured)
            .field("permits_free", &self.permits.available_permits())
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

/// One pipeline per available CPU, at least two.
fn default_permits() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get().max(2))
}
