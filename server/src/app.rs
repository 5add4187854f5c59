//! The composed server state: settings, the artifact store and the vendor clients.

use std::sync::Arc;

use adapters_atlassian::Atlassian;
use adapters_circleci::CircleciClient;
use adapters_github::GithubClient;
use adapters_http::HttpCache;
use mcp_artifacts::{ArtifactStore, FsStore, MemoryStore, S3Store, spawn_sweeper};
use mcp_projection::Isolated;
use mcp_results::Responder;

use crate::config::{ArtifactBackend, Settings};
use crate::registry::{ARTIFACT_S3_URL, AWS_ENDPOINT_URL, AWS_REGION, HTTP_CACHE_REDIS_URL};
use crate::vendor::Vendor;

/// Everything a tool call needs, shared by every call.
pub struct App {
    /// Effective settings.
    pub settings: Settings,
    /// Where oversized structured values go.
    pub store: Arc<dyn ArtifactStore>,
    /// The GitHub adapter, or why it could not be built from the settings (e.g. a malformed `GITHUB_API_BASE`):
    /// then only the GitHub tools fail, at call time, with this text.
    pub github: Result<GithubClient, String>,
    /// The CircleCI adapter, using [`App::http_cache`], or why it could not be built (only `circleci_get` fails).
    pub circleci: Result<CircleciClient, String>,
    /// The Jira, Confluence and Bitbucket clients, using [`App::http_cache`] (a product missing a setting fails at
    /// call time).
    pub atlassian: Atlassian,
    /// The HTTP cache shared by the vendor clients (entries partitioned by principal and credential).
    pub http_cache: HttpCache,
    /// The call policy (`MCP_POLICY_FILE`); `None`: every call is allowed.
    pub policy: Option<mcp_policy::Policy<Vendor>>,
    /// The result path ([`mcp_results::Responder`]): the store, the bound (`MCP_STRUCTURED_MAX_BYTES`), the
    /// structured-output switch and where `jq` projections run ([`mcp_projection::Isolated`], a pool of limited
    /// worker processes built from [`Settings::jq`], pre-started in the background), with one pipeline permit per
    /// CPU (at least two), so large results queue instead of all competing for the cores.
    pub results: Responder,
}

impl App {
    /// Opens the artifact store (re-indexing a filesystem store), starts its sweeper task and builds the vendor
    /// clients. Must run inside a tokio runtime.
    ///
    /// # Errors
    /// `MCP_TOOLSETS` names an unknown toolset ([`crate::toolsets::ToolsetsError`]), the artifact directory cannot
    /// be created or read, the S3 bucket cannot be listed (wrong `STREAMING_ARTIFACT_S3_URL`, endpoint or
    /// credentials), `HTTP_CACHE_REDIS_URL` is not a Redis URL (an unreachable Redis is not an error: calls go
    /// uncached), or the policy file is unreadable or malformed
    /// ([`mcp_policy::PolicyError`]). A vendor client that cannot be built from its settings does not stop the
    /// server: it is logged once and its tools fail at call time naming the setting.
    pub async fn new(settings: Settings) -> anyhow::Result<Self> {
        if let Err(err) = &settings.tools {
            anyhow::bail!("{err}");
        }
        let store: Arc<dyn ArtifactStore> = match &settings.artifact_backend {
            ArtifactBackend::Memory => Arc::new(MemoryStore::new(settings.artifact_store)),
            ArtifactBackend::Fs(dir) => Arc::new(
                FsStore::open(dir.clone(), settings.artifact_store)
                    .await
                    .map_err(|err| anyhow::anyhow!("cannot open the artifact directory {}: {err}", dir.display()))?,
            ),
            ArtifactBackend::S3(s3) => Arc::new(S3Store::open(s3, settings.artifact_store).await.map_err(|err| {
                anyhow::anyhow!(
                    "{err} (settings {ARTIFACT_S3_URL}, {AWS_ENDPOINT_URL}, {AWS_REGION} and the AWS_* keys)"
                )
            })?),
        };
        tracing::info!(backend = %settings.artifact_backend.describe(), "artifact store open");
        spawn_sweeper(store.clone(), settings.artifact_store.sweep_interval);
        let github = GithubClient::new(settings.github.clone()).map_err(|err| unusable("GitHub", err));
        let mut http_cache = HttpCache::new(settings.http_cache);
        if let Some(redis) = &settings.http_cache_redis {
            http_cache = http_cache
                .with_redis(redis)
                .map_err(|err| anyhow::anyhow!("{HTTP_CACHE_REDIS_URL}: {err}"))?;
        }
        let circleci = CircleciClient::new(settings.circleci.clone(), Some(http_cache.clone()))
            .map_err(|err| unusable("CircleCI", err));
        let atlassian = Atlassian::new(&settings.atlassian, Some(http_cache.clone()));
        let policy = settings
            .deploy
            .policy_file
            .as_deref()
            .map(mcp_policy::Policy::load)
            .transpose()?;
        let projection = Isolated::new(settings.jq.clone());
        let prestarting = projection.clone();
        tokio::spawn(async move {
            if let Err(err) = prestarting.prestart().await {
                tracing::warn!(error = %err, "the jq workers did not start; calls with `jq` will fail");
            }
        });
        let results = Responder::new(store.clone(), settings.max_bytes, Arc::new(projection))
            .with_structured_output(settings.structured_output);
        Ok(App {
            settings,
            store,
            github,
            circleci,
            atlassian,
            http_cache,
            policy,
            results,
        })
    }
}

/// Logs (once, at start-up) that a vendor's client cannot be built, and keeps the text for its tools' errors.
fn unusable(vendor: &str, err: impl std::fmt::Display) -> String {
    tracing::warn!(vendor, error = %err, "the {vendor} tools are unavailable until the settings are fixed");
    err.to_string()
}
