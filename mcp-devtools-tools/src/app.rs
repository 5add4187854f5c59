//! The composed state of the tools: configuration, the artifact store, the vendor clients, the policy and the
//! result path.

use std::sync::Arc;

use adapters_atlassian::Atlassian;
use adapters_circleci::CircleciClient;
use adapters_github::GithubClient;
use adapters_http::cache::HttpCache;
use mcp_artifacts::{ArtifactStore, Bounded, FsStore, MemoryStore, S3Store, spawn_sweeper};
use mcp_projection::Isolated;
use mcp_results::Responder;
use mcp_results::tasks::{MemoryTaskStore, RedisTaskStore, TaskStore};

use crate::config::{ArtifactBackend, ToolsConfig};
use crate::vendor::Vendor;

/// Why [`App::new`] cannot build the tools from their configuration.
#[non_exhaustive]
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// The filesystem artifact directory cannot be created or read.
    #[error("cannot open the artifact directory {dir}: {source}")]
    ArtifactDir {
        /// The directory ([`ArtifactBackend::Fs`]).
        dir: std::path::PathBuf,
        /// What failed.
        source: mcp_artifacts::ArtifactError,
    },
    /// The S3 bucket cannot be opened (invalid configuration, or listing it failed: wrong URL, endpoint or
    /// credentials).
    #[error(transparent)]
    S3(#[from] mcp_artifacts::S3OpenError),
    /// The Redis tier of the HTTP cache is not a Redis URL (an unreachable Redis is not an error).
    #[error(transparent)]
    Redis(#[from] adapters_http::cache::redis::RedisConfigError),
    /// The policy file is unreadable or malformed.
    #[error(transparent)]
    Policy(#[from] mcp_policy::PolicyError),
    /// A policy rule names a tool this server no longer has (a rule that matched it would silently match nothing).
    #[error(
        "policy rule {rule}: tool {tool:?} is gone: the Atlassian writes are one tool per product since 0.2; \
         write tool = \"{replacement}\" with arguments = {{ method = \"{method}\" }}"
    )]
    RetiredTool {
        /// The rule's id.
        rule: String,
        /// The retired name, e.g. `jira_delete`.
        tool: String,
        /// The tool that does it now, e.g. `jira_write`.
        replacement: &'static str,
        /// Its `method`, e.g. `DELETE`.
        method: &'static str,
    },
    /// The task store's Redis URL is not a Redis URL (an unreachable Redis is not an error).
    #[error(transparent)]
    TaskStore(#[from] mcp_results::tasks::RedisTaskConfigError),
}

/// Everything a tool call needs, shared by every call.
pub struct App {
    /// The configuration the tools were built from.
    pub config: ToolsConfig,
    /// Where oversized structured values go.
    pub store: Arc<dyn ArtifactStore>,
    /// The GitHub adapter, or why it could not be built from its configuration (e.g. a malformed API base):
    /// then only the GitHub tools fail, at call time, with this text.
    pub github: Result<GithubClient, String>,
    /// The CircleCI adapter, using [`App::http_cache`], or why it could not be built (only `circleci_get` fails).
    pub circleci: Result<CircleciClient, String>,
    /// The Jira, Confluence and Bitbucket clients, using [`App::http_cache`] (a product missing a setting fails at
    /// call time).
    pub atlassian: Atlassian,
    /// The HTTP cache shared by the vendor clients (entries partitioned by principal and credential).
    pub http_cache: HttpCache,
    /// The call policy ([`ToolsConfig::policy_file`]; an embedder may set one before building the
    /// [`crate::DevtoolsServer`], which guards every vendor's tools with it); `None`: every call is allowed.
    pub policy: Option<Arc<mcp_policy::Policy<Vendor>>>,
    /// The result path ([`mcp_results::Responder`]): the store, the bound ([`ToolsConfig::max_bytes`]), the
    /// structured-output switch and where `jq` projections run ([`mcp_projection::Isolated`], a pool of limited
    /// worker processes built from [`ToolsConfig::jq`], pre-started in the background), with one pipeline permit per
    /// CPU (at least two), so large results queue instead of all competing for the cores.
    pub results: Responder,
    /// Where the tasks of the tools that run as tasks live ([`ToolsConfig::tasks`]): in this process, or in Redis.
    pub tasks: Arc<dyn TaskStore>,
    /// Fired when the server drains (its host cancels it on shutdown): every wait tool ends at once with
    /// `stoppedBy: shutdown` instead of holding the drain for up to an hour.
    pub shutdown: tokio_util::sync::CancellationToken,
    /// The wait tools' shared poll loops.
    pub(crate) waits: crate::tools::wait::shared::Watches,
}

impl App {
    /// Opens the artifact store (re-indexing a filesystem store), starts its sweeper task, builds the vendor
    /// clients, loads the policy file and starts the `jq` workers in the background. Must run inside a tokio runtime.
    ///
    /// # Errors
    /// [`AppError`]: the artifact directory cannot be created or read, the S3 bucket cannot be listed, a Redis URL
    /// (the HTTP cache's or the task store's) is not a Redis URL (an unreachable Redis is not an error: calls go
    /// uncached, and answer without tasks), or the policy file is unreadable or malformed. A vendor client that
    /// cannot be built from its configuration does not stop the tools: it is logged once and that vendor's tools fail
    /// at call time naming the setting.
    pub async fn new(config: ToolsConfig) -> Result<Self, AppError> {
        let store: Arc<dyn ArtifactStore> = match &config.artifact_backend {
            ArtifactBackend::Memory => Arc::new(MemoryStore::new(config.artifact_store)),
            ArtifactBackend::Fs(dir) => Arc::new(FsStore::open(dir.clone(), config.artifact_store).await.map_err(
                |source| AppError::ArtifactDir {
                    dir: dir.clone(),
                    source,
                },
            )?),
            ArtifactBackend::S3(s3) => Arc::new(S3Store::open(s3, config.artifact_store).await?),
        };
        tracing::info!(backend = %config.artifact_backend.describe(), "artifact store open");
        // Saves and reads are bounded (turns and a timeout) and run outside the result pipelines' permits.
        let store: Arc<dyn ArtifactStore> = Arc::new(Bounded::new(store, config.artifact_limits));
        spawn_sweeper(store.clone(), config.artifact_store.sweep_interval);
        // Every credential held, taken out of every vendor's answers (adapters-http `redact`).
        let redact = config.redactor();
        let mut github = config.github.clone();
        github.http.client.redact = redact.clone();
        let github = GithubClient::new(github).map_err(|err| unusable("GitHub", err));
        let mut http_cache = HttpCache::new(config.http_cache);
        if let Some(redis) = &config.http_cache_redis {
            http_cache = http_cache.with_redis(redis)?;
        }
        let mut circleci = config.circleci.clone();
        circleci.http.client.redact = redact.clone();
        let circleci = CircleciClient::new(circleci, Some(http_cache.clone())).map_err(|err| unusable("CircleCI", err));
        let mut atlassian = config.atlassian.clone();
        atlassian.client.redact = redact;
        let atlassian = Atlassian::new(&atlassian, Some(http_cache.clone()));
        let policy = config
            .policy_file
            .as_deref()
            .map(mcp_policy::Policy::load)
            .transpose()?
            .map(|policy| crate::vendors::atlassian::refuse_retired_tools(&policy).map(|()| Arc::new(policy)))
            .transpose()?;
        let projection = Isolated::new(config.jq.clone());
        let prestarting = projection.clone();
        tokio::spawn(async move {
            if let Err(err) = prestarting.prestart().await {
                tracing::warn!(error = %err, "the jq workers did not start; calls with `jq` will fail");
            }
        });
        // The owner of a call's artifacts (and the policy's principal) is the caller the server resolved.
        let results = Responder::new(store.clone(), config.max_bytes, Arc::new(projection))
            .with_structured_output(config.structured_output)
            .with_owner(Arc::new(|cx| crate::tools::caller(cx).as_str().to_owned()));
        let tasks: Arc<dyn TaskStore> = match &config.tasks.redis {
            Some(redis) => Arc::new(RedisTaskStore::new(redis)?),
            None => Arc::new(MemoryTaskStore::new()),
        };
        tracing::info!(backend = %config.tasks.describe(), "task store open");
        Ok(App {
            config,
            store,
            github,
            circleci,
            atlassian,
            http_cache,
            policy,
            results,
            tasks,
            shutdown: tokio_util::sync::CancellationToken::new(),
            waits: Default::default(),
        })
    }
}

impl App {
    /// How many poll loops of the wait tools are running (one per distinct run, commit or pipeline waited on).
    pub fn wait_loops(&self) -> usize {
        self.waits.running()
    }
}

/// Logs (once, at start-up) that a vendor's client cannot be built, and keeps the text for its tools' errors.
fn unusable(vendor: &str, err: impl std::fmt::Display) -> String {
    tracing::warn!(vendor, error = %err, "the {vendor} tools are unavailable until the settings are fixed");
    err.to_string()
}
