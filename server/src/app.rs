//! The composed server state: settings, the artifact store and the vendor clients.

use std::sync::Arc;

use adapters_github::GithubClient;
use mcp_artifacts::{ArtifactStore, FsStore, MemoryStore, spawn_sweeper};

use crate::config::{ArtifactBackend, Settings};

/// Everything a tool call needs, shared by every call.
pub struct App {
    /// Effective settings.
    pub settings: Settings,
    /// Where oversized structured values go.
    pub store: Arc<dyn ArtifactStore>,
    /// The GitHub adapter.
    pub github: GithubClient,
}

impl App {
    /// Opens the artifact store (re-indexing a filesystem store), starts its sweeper task and builds the vendor
    /// clients. Must run inside a tokio runtime.
    ///
    /// # Errors
    /// The artifact directory cannot be created or read, or an HTTP client cannot be built.
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
        Ok(App {
            settings,
            store,
            github,
        })
    }
}
