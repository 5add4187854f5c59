//! The typed configuration of the tools ([`ToolsConfig`]): what [`crate::App::new`] builds the store, the vendor
//! clients, the policy and the result path from. No environment is read here: a host fills it from its own
//! settings (the bundled `mcp-devtools` server from its settings cascade), and names those settings in texts only
//! through [`ToolsConfig::selection_names`] and the adapters' `setting_names`.

use std::path::PathBuf;
use std::time::Duration;

use adapters_atlassian::AtlassianConfig;
use adapters_circleci::CircleciConfig;
use adapters_github::GithubConfig;
use adapters_http::{cache::CacheConfig, cache::redis::RedisCacheConfig};
use mcp_artifacts::{S3Config, StoreConfig, StoreLimits};
use mcp_envelope::SizeBound;
use mcp_projection::IsolatedConfig;
use mcp_results::tasks::RedisTaskStoreConfig;

use crate::toolsets::{SelectionNames, ToolSelection};

mod archive;
mod wait;

pub use archive::{ArchiveLimits, RATIO_FLOOR_BYTES};
pub use wait::WaitConfig;

/// Which artifact backend to use.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArtifactBackend {
    /// In memory: lost when the process stops.
    Memory,
    /// Files in this directory (created 0700 if missing).
    Fs(PathBuf),
    /// Objects in S3-compatible storage, shared by replicas (secrets masked in `Debug`).
    S3(S3Config),
}

impl ArtifactBackend {
    /// One line for logs and `--print-config`: the kind and where, without secrets.
    pub fn describe(&self) -> String {
        match self {
            Self::Memory => "memory (this process only)".to_owned(),
            Self::Fs(dir) => format!("fs {} (this host only)", dir.display()),
            Self::S3(s3) => format!(
                "s3 {} (endpoint {}, region {}, credentials {}; shared by replicas)",
                s3.url,
                s3.endpoint.as_deref().unwrap_or("AWS"),
                s3.region.as_deref().unwrap_or("us-east-1"),
                if s3.secret_access_key.is_some() {
                    "given"
                } else {
                    "from the environment/instance role"
                },
            ),
        }
    }
}

/// Everything the tools are built from. [`ToolsConfig::default`]: every toolset, structured output off, the default
/// bound, artifacts in memory, no credentials (each vendor's tools answer "no request sent: set …"), no policy.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct ToolsConfig {
    /// Whether tools advertise `outputSchema` and successful results carry `structuredContent`.
    pub structured_output: bool,
    /// The bound on the compact `structuredContent` value.
    pub max_bytes: SizeBound,
    /// Artifact backend.
    pub artifact_backend: ArtifactBackend,
    /// Artifact retention, sweep interval and quotas.
    pub artifact_store: StoreConfig,
    /// Concurrent artifact saves and reads, and the timeout of each (a hung store costs a save `artifactId: null`
    /// after it, and costs calls that save nothing nothing).
    pub artifact_limits: StoreLimits,
    /// GitHub adapter configuration (the token inside is masked in `Debug`).
    pub github: GithubConfig,
    /// CircleCI adapter configuration (the token inside is masked in `Debug`), with the hosts besides
    /// `circle-artifacts.com` whose job-artifact URLs get the token (`artifact_hosts`; the ci tools' downloads).
    pub circleci: CircleciConfig,
    /// The HTTP cache's bounds and default TTL.
    pub http_cache: CacheConfig,
    /// The shared Redis tier of the HTTP cache, if any (password masked in `Debug`).
    pub http_cache_redis: Option<RedisCacheConfig>,
    /// Jira, Confluence and Bitbucket settings (secrets masked in `Debug`).
    pub atlassian: AtlassianConfig,
    /// How `jq` projections run: pooled worker processes with a time and a memory limit (the worker program is the
    /// current executable unless set, see `mcp_projection::worker::run_if_requested`).
    pub jq: IsolatedConfig,
    /// Which tools are offered.
    pub selection: ToolSelection,
    /// How the refusal of a tool left out by [`ToolsConfig::selection`] names the host's settings.
    pub selection_names: SelectionNames,
    /// The call policy file (TOML, [`mcp_policy::Policy::load`]); `None`: every call is allowed.
    pub policy_file: Option<PathBuf>,
    /// Enterprise mode: `_meta["mcp-devtools/upstream"]` on every result.
    pub enterprise_mode: bool,
    /// How the wait tools poll.
    pub wait: WaitConfig,
    /// The tools that run as tasks (MCP Tasks extension): how long a task is kept, how often clients should poll
    /// it, and where tasks live.
    pub tasks: TasksConfig,
    /// The bounds on the zip archives the ci tools read (zip bombs), and where downloads are spooled.
    pub archive: ArchiveLimits,
}

/// Default of [`TasksConfig::ttl`]: a task and its result are kept for 1 hour after its creation.
pub const DEFAULT_TASK_TTL: Duration = Duration::from_secs(3600);
/// Default of [`TasksConfig::poll_interval`]: clients are asked to poll `tasks/get` every 5000 ms.
pub const DEFAULT_TASK_POLL_INTERVAL: Duration = Duration::from_millis(5000);

/// The MCP Tasks extension (`io.modelcontextprotocol/tasks`): a call of a tool that runs as a task, from a client
/// that declared the extension, is answered at once with a task (`ttlMs` [`TasksConfig::ttl`], `pollIntervalMs`
/// [`TasksConfig::poll_interval`]) kept in memory, or in Redis ([`TasksConfig::redis`]) so that any replica answers
/// `tasks/get` and `tasks/cancel`. [`TasksConfig::default`]: 1 hour, 5000 ms, in memory.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TasksConfig {
    /// How long a task (and its result) is kept after its creation: its `ttlMs`.
    pub ttl: Duration,
    /// How often a client should poll the task: its `pollIntervalMs`.
    pub poll_interval: Duration,
    /// Where tasks live: `None` in this process; `Some`: in Redis, shared by replicas (password masked in `Debug`).
    pub redis: Option<RedisTaskStoreConfig>,
}

impl Default for TasksConfig {
    fn default() -> Self {
        TasksConfig {
            ttl: DEFAULT_TASK_TTL,
            poll_interval: DEFAULT_TASK_POLL_INTERVAL,
            redis: None,
        }
    }
}

impl TasksConfig {
    /// This config with [`TasksConfig::ttl`] set.
    #[must_use]
    pub fn with_ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// This config with [`TasksConfig::poll_interval`] set.
    #[must_use]
    pub fn with_poll_interval(mut self, poll_interval: Duration) -> Self {
        self.poll_interval = poll_interval;
        self
    }

    /// This config with [`TasksConfig::redis`] set.
    #[must_use]
    pub fn with_redis(mut self, redis: Option<RedisTaskStoreConfig>) -> Self {
        self.redis = redis;
        self
    }

    /// One line for logs and `--print-config`: where tasks live, without secrets.
    pub fn describe(&self) -> String {
        match &self.redis {
            Some(redis) => format!("redis {} (shared by replicas)", redis.masked_url()),
            None => "memory (this process only)".to_owned(),
        }
    }
}

impl ToolsConfig {
    /// This config with [`ToolsConfig::structured_output`] set.
    #[must_use]
    pub fn with_structured_output(mut self, structured_output: bool) -> Self {
        self.structured_output = structured_output;
        self
    }

    /// This config with [`ToolsConfig::max_bytes`] set.
    #[must_use]
    pub fn with_max_bytes(mut self, max_bytes: SizeBound) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// This config with [`ToolsConfig::artifact_backend`] set.
    #[must_use]
    pub fn with_artifact_backend(mut self, artifact_backend: ArtifactBackend) -> Self {
        self.artifact_backend = artifact_backend;
        self
    }

    /// This config with [`ToolsConfig::artifact_store`] set.
    #[must_use]
    pub fn with_artifact_store(mut self, artifact_store: StoreConfig) -> Self {
        self.artifact_store = artifact_store;
        self
    }

    /// This config with [`ToolsConfig::artifact_limits`] set.
    #[must_use]
    pub fn with_artifact_limits(mut self, artifact_limits: StoreLimits) -> Self {
        self.artifact_limits = artifact_limits;
        self
    }

    /// This config with [`ToolsConfig::github`] set.
    #[must_use]
    pub fn with_github(mut self, github: GithubConfig) -> Self {
        self.github = github;
        self
    }

    /// This config with [`ToolsConfig::circleci`] set.
    #[must_use]
    pub fn with_circleci(mut self, circleci: CircleciConfig) -> Self {
        self.circleci = circleci;
        self
    }

    /// This config with [`ToolsConfig::http_cache`] set.
    #[must_use]
    pub fn with_http_cache(mut self, http_cache: CacheConfig) -> Self {
        self.http_cache = http_cache;
        self
    }

    /// This config with [`ToolsConfig::http_cache_redis`] set.
    #[must_use]
    pub fn with_http_cache_redis(mut self, http_cache_redis: Option<RedisCacheConfig>) -> Self {
        self.http_cache_redis = http_cache_redis;
        self
    }

    /// This config with [`ToolsConfig::atlassian`] set.
    #[must_use]
    pub fn with_atlassian(mut self, atlassian: AtlassianConfig) -> Self {
        self.atlassian = atlassian;
        self
    }

    /// This config with [`ToolsConfig::jq`] set.
    #[must_use]
    pub fn with_jq(mut self, jq: IsolatedConfig) -> Self {
        self.jq = jq;
        self
    }

    /// This config with [`ToolsConfig::selection`] set.
    #[must_use]
    pub fn with_selection(mut self, selection: ToolSelection) -> Self {
        self.selection = selection;
        self
    }

    /// This config with [`ToolsConfig::selection_names`] set.
    #[must_use]
    pub fn with_selection_names(mut self, selection_names: SelectionNames) -> Self {
        self.selection_names = selection_names;
        self
    }

    /// This config with [`ToolsConfig::policy_file`] set.
    #[must_use]
    pub fn with_policy_file(mut self, policy_file: Option<PathBuf>) -> Self {
        self.policy_file = policy_file;
        self
    }

    /// This config with [`ToolsConfig::wait`] set.
    #[must_use]
    pub fn with_wait(mut self, wait: WaitConfig) -> Self {
        self.wait = wait;
        self
    }

    /// This config with [`ToolsConfig::enterprise_mode`] set.
    #[must_use]
    pub fn with_enterprise_mode(mut self, enterprise_mode: bool) -> Self {
        self.enterprise_mode = enterprise_mode;
        self
    }

    /// This config with [`ToolsConfig::tasks`] set.
    #[must_use]
    pub fn with_tasks(mut self, tasks: TasksConfig) -> Self {
        self.tasks = tasks;
        self
    }

    /// This config with [`ToolsConfig::archive`] set.
    #[must_use]
    pub fn with_archive(mut self, archive: ArchiveLimits) -> Self {
        self.archive = archive;
        self
    }
}

impl ToolsConfig {
    /// The defaults (see [`ToolsConfig`]'s `Default`, which the vendor registry gives: every toolset) with these
    /// toolsets offered.
    pub(crate) fn defaults_with(toolsets: Vec<crate::Vendor>) -> Self {
        ToolsConfig {
            structured_output: false,
            max_bytes: SizeBound::default(),
            artifact_backend: ArtifactBackend::Memory,
            artifact_store: StoreConfig::default(),
            artifact_limits: StoreLimits::default(),
            github: GithubConfig::default(),
            circleci: CircleciConfig::default(),
            http_cache: CacheConfig::default(),
            http_cache_redis: None,
            atlassian: AtlassianConfig::default(),
            jq: IsolatedConfig::default(),
            selection: ToolSelection {
                toolsets,
                read_only: false,
            },
            selection_names: SelectionNames::default(),
            policy_file: None,
            enterprise_mode: false,
            wait: WaitConfig::default(),
            tasks: TasksConfig::default(),
            archive: ArchiveLimits::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use adapters_http::Secret;

    #[test]
    fn the_redactor_holds_every_configured_credential() {
        let mut config = ToolsConfig::default();
        config.github.http.credential = Some(Secret::new("ghp_configured-0001"));
        config.circleci.http.credential = Some(Secret::new("circle-configured-0002"));
        config.atlassian.user_email = Some("mia@example.com".to_owned());
        config.atlassian.api_token = Some(Secret::new("ATATT-configured-0003"));
        config.atlassian.bitbucket_username = Some("bb".to_owned());
        config.atlassian.bitbucket_app_password = Some(Secret::new("bb-configured-0004"));
        config.artifact_backend = ArtifactBackend::S3(
            S3Config::default()
                .with_secret_access_key(Some("s3-secret-configured-0005".to_owned()))
                .with_session_token(Some("s3-session-configured-0006".to_owned())),
        );
        config.http_cache_redis = Some(RedisCacheConfig::new(
            "redis://:redis%2Fconfigured-0007@cache:6379/0".to_owned(),
        ));
        config.tasks.redis = Some(RedisTaskStoreConfig::new("redis://:tasks-configured-0008@tasks:6379/0"));
        let text = "ghp_configured-0001 circle-configured-0002 ATATT-configured-0003 bb-configured-0004 \
                    s3-secret-configured-0005 s3-session-configured-0006 redis/configured-0007 tasks-configured-0008";
        assert_eq!(
            config.redactor().redact(text),
            "[redacted token] [redacted token] [redacted api_token] [redacted bitbucket_app_password] \
             [redacted S3 secret access key] [redacted S3 session token] [redacted Redis password] \
             [redacted Redis password]"
        );
        // No credential set: only the toy vendor's (the tests' registry has it, and its token is a constant).
        let unset = ToolsConfig::default().redactor();
        assert_eq!(unset.redact(text), text);
        assert_eq!(unset.redact(crate::vendors::toy::TOKEN), "[redacted TOY_TOKEN]");
    }
}
