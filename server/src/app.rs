//! The composed server state: settings, the artifact store and the vendor clients.

use std::sync::Arc;

use adapters_atlassian::Atlassian;
use adapters_circleci::CircleciClient;
use adapters_github::GithubClient;
use adapters_http::HttpCache;
use mcp_artifacts::{ArtifactStore, FsStore, MemoryStore, spawn_sweeper};

use crate::config::{ArtifactBackend, Settings};
use crate::policy::Policy;

/// Everything a tool call needs, shared by every call.
pub struct App {
    /// Effective settings.
    pub settings: Settings,
    /// Where oversized structured values go.
    pub store: Arc<dyn ArtifactStore>,
    /// The GitHub adapter.
    pub github: GithubClient,
    /// The CircleCI adapter, using [`App::http_cache`].
    pub circleci: CircleciClient,
    /// The Jira, Confluence and Bitbucket clients, using [`App::http_cache`] (a product missing a setting fails at
    /// call time).
    pub atlassian: Atlassian,
    /// The HTTP cache shared by the vendor clients (entries partitioned by principal and credential).
    pub http_cache: HttpCache,
    /// The call policy (`MCP_POLICY_FILE`); `None`: every call is allowed.
    pub policy: Option<Policy>,
}

impl App {
    /// Opens the artifact store (re-indexing a filesystem store), starts its sweeper task and builds the vendor
    /// clients. Must run inside a tokio runtime.
    ///
    /// # Errors
    /// The artifact directory cannot be created or read, an HTTP client cannot be built, or the policy file is
    /// unreadable or malformed ([`crate::policy::PolicyError`]).
    pub async fn new(settings: Settings) -> anyhow::Result<Self> {
        let store: Arc<dyn ArtifactStore> = match &settings.artifact_backend {
            ArtifactBackend::Memory => Arc::new(MemoryStore::new(settings.artifact_store)),
            ArtifactBackend::Fs(dir) => Arc::new(
                FsStore::open(dir.clone(), settings.artifact_store)
                    .await
                    .map_err(|err| anyhow::anyhow!("cannot open the artifact directory {}: {err}", dir.display()))?,
            ),
        };
        spawn_sweeper(store.clone(), settings.artifact_store.sweep_interval);
        let github = GithubClient::new(settings.github.clone())?;
        let http_cache = HttpCache::new(settings.http_cache);
        let circleci = CircleciClient::new(settings.circleci.clone(), Some(http_cache.clone()))?;
        let atlassian = Atlassian::new(&settings.atlassian, Some(http_cache.clone()));
        let policy = settings.deploy.policy_file.as_deref().map(Policy::load).transpose()?;
        Ok(App {
            settings,
            store,
            github,
            circleci,
            atlassian,
            http_cache,
            policy,
        })
    }
}
