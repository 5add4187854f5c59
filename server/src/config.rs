//! The server's typed settings (CONTRACT §1, §3, §5).
//!
//! [`Settings::from_lookup`] is the one typed parser; its `lookup` is the configuration cascade
//! ([`crate::cascade::Cascade::lookup`]: flag > environment > `.env` > config file) in the binary, a map in tests.
//! Every setting has a row in [`crate::registry::SETTINGS`] (flag, help, secret). Every setting has a default; a
//! malformed or out-of-range value falls back or is clamped with one warning.

use std::path::PathBuf;
use std::time::Duration;

use adapters_atlassian::AtlassianConfig;
use adapters_circleci::CircleciConfig;
use adapters_github::{GithubConfig, Token};
use adapters_http::{CacheConfig, RedisCacheConfig, Secret, max_body_bytes_from_setting};
use mcp_artifacts::{Quota, S3Config, StoreConfig};
use mcp_envelope::SizeBound;

use crate::deploy_settings::DeploySettings;
use crate::toolsets::{self, ToolSelection, UnknownToolset};
use mcp_projection::IsolatedConfig;

/// `MCP_STRUCTURED_OUTPUT`: advertise `outputSchema` and return `structuredContent` (default off).
pub const STRUCTURED_OUTPUT: &str = "MCP_STRUCTURED_OUTPUT";
/// `MCP_STRUCTURED_MAX_BYTES`: bound on the compact `structuredContent` value, bytes (default 262144).
pub const STRUCTURED_MAX_BYTES: &str = "MCP_STRUCTURED_MAX_BYTES";
/// `STREAMING_ARTIFACT_STORE`: `fs` (default), `memory` or `s3`.
pub const ARTIFACT_STORE: &str = "STREAMING_ARTIFACT_STORE";
/// `STREAMING_ARTIFACT_S3_URL`: `s3://BUCKET/PREFIX` of the `s3` artifact store (CONTRACT §10).
pub const ARTIFACT_S3_URL: &str = "STREAMING_ARTIFACT_S3_URL";
/// `AWS_ENDPOINT_URL`: an S3-compatible endpoint (MinIO, ...); unset = AWS S3.
pub const AWS_ENDPOINT_URL: &str = "AWS_ENDPOINT_URL";
/// `AWS_REGION`: the bucket's region (default `us-east-1`).
pub const AWS_REGION: &str = "AWS_REGION";
/// `AWS_ACCESS_KEY_ID`: S3 access key id (unset: the instance's role credentials).
pub const AWS_ACCESS_KEY_ID: &str = "AWS_ACCESS_KEY_ID";
/// `AWS_SECRET_ACCESS_KEY`: S3 secret key (a secret: never logged or shown).
pub const AWS_SECRET_ACCESS_KEY: &str = "AWS_SECRET_ACCESS_KEY";
/// `AWS_SESSION_TOKEN`: session token of temporary S3 credentials (a secret).
pub const AWS_SESSION_TOKEN: &str = "AWS_SESSION_TOKEN";
/// `AWS_ALLOW_HTTP`: allow a plain-HTTP S3 endpoint, for a local server (default false).
pub const AWS_ALLOW_HTTP: &str = "AWS_ALLOW_HTTP";
/// `HTTP_CACHE_REDIS_URL`: keep the HTTP cache in this Redis (`redis://HOST:PORT/DB`), shared by replicas
/// (CONTRACT §10); unset = in this process.
pub const HTTP_CACHE_REDIS_URL: &str = "HTTP_CACHE_REDIS_URL";
/// `STREAMING_ARTIFACT_DIR`: the filesystem store's directory (default: the platform state dir).
pub const ARTIFACT_DIR: &str = "STREAMING_ARTIFACT_DIR";
/// `STREAMING_ARTIFACT_RETENTION_SECONDS`: how long an artifact stays readable, seconds (default 3600).
pub const ARTIFACT_RETENTION: &str = "STREAMING_ARTIFACT_RETENTION_SECONDS";
/// `STREAMING_ARTIFACT_SWEEP_INTERVAL_SECONDS`: how often expired artifacts are deleted, seconds (default 60).
pub const ARTIFACT_SWEEP: &str = "STREAMING_ARTIFACT_SWEEP_INTERVAL_SECONDS";
/// `STREAMING_ARTIFACT_MAX_STORE_BYTES`: most bytes of artifact data the whole store holds (default 1 GiB,
/// clamped 1024..=2^40); a put over it fails and the result carries `artifactId: null`.
pub const ARTIFACT_MAX_STORE_BYTES: &str = "STREAMING_ARTIFACT_MAX_STORE_BYTES";
/// `STREAMING_ARTIFACT_MAX_PRINCIPAL_BYTES`: most bytes of artifact data one principal holds (default 256 MiB,
/// clamped 1024..=2^40); a put over it fails and the result carries `artifactId: null`.
pub const ARTIFACT_MAX_PRINCIPAL_BYTES: &str = "STREAMING_ARTIFACT_MAX_PRINCIPAL_BYTES";
/// `GITHUB_API_BASE`: GitHub REST base URL (default `https://api.github.com`).
pub const GITHUB_API_BASE: &str = "GITHUB_API_BASE";
/// `GITHUB_TOKEN`: the GitHub token (a secret: never logged or shown).
pub const GITHUB_TOKEN: &str = "GITHUB_TOKEN";
/// `MCP_UPSTREAM_TIMEOUT_SECONDS`: timeout of one upstream call, seconds, covering every attempt and retry wait
/// (default 30, clamped 1..=300; see `adapters_http::retry`).
pub const UPSTREAM_TIMEOUT: &str = "MCP_UPSTREAM_TIMEOUT_SECONDS";
/// `CIRCLECI_API_BASE`: CircleCI API v2 base URL (default `https://circleci.com/api/v2`).
pub const CIRCLECI_API_BASE: &str = adapters_circleci::ENV_API_BASE;
/// `CIRCLECI_TOKEN`: the CircleCI personal API token, sent as `Circle-Token` (a secret: never logged or shown).
pub const CIRCLECI_TOKEN: &str = adapters_circleci::ENV_TOKEN;
/// `MCP_JQ_TIMEOUT_SECONDS`: wall-clock time one `jq` projection (in its worker process) may take, seconds
/// (default 10, clamped 1..=60).
pub const JQ_TIMEOUT: &str = "MCP_JQ_TIMEOUT_SECONDS";
/// `MCP_JQ_MAX_MEMORY_MIB`: memory one `jq` projection may use for its data, MiB (default 2048, clamped 64..=65536).
pub const JQ_MAX_MEMORY: &str = "MCP_JQ_MAX_MEMORY_MIB";
/// `HTTP_MAX_BODY_BYTES`: largest upstream response body, bytes (default 32 MiB, clamped 1024..=1 GiB).
pub const HTTP_MAX_BODY_BYTES: &str = adapters_http::ENV_MAX_BODY_BYTES;
/// `HTTP_CACHE_ENABLED`: use the HTTP cache for `circleci_get` and the Atlassian reads (default true).
pub const HTTP_CACHE_ENABLED: &str = adapters_http::cache::ENV_CACHE_ENABLED;
/// `HTTP_CACHE_MAX_ENTRIES`: most cache entries (default 512, clamped 1..=1000000).
pub const HTTP_CACHE_MAX_ENTRIES: &str = adapters_http::cache::ENV_CACHE_MAX_ENTRIES;
/// `HTTP_CACHE_MAX_BYTES`: most cached bytes (default 64 MiB, clamped 65536..=4 GiB).
pub const HTTP_CACHE_MAX_BYTES: &str = adapters_http::cache::ENV_CACHE_MAX_BYTES;
/// `HTTP_CACHE_DEFAULT_TTL_SECONDS`: freshness when a response gives none, seconds (default 60, clamped 1..=3600).
pub const HTTP_CACHE_DEFAULT_TTL: &str = adapters_http::cache::ENV_CACHE_DEFAULT_TTL;

/// `ATLASSIAN_SITE_NAME`: the Atlassian Cloud site (`your-domain` for `https://your-domain.atlassian.net`).
pub const ATLASSIAN_SITE_NAME: &str = adapters_atlassian::config::ENV_SITE_NAME;
/// `JIRA_BASE_URL`: Jira base URL, overriding the site (Data Center, tests).
pub const JIRA_BASE_URL: &str = adapters_atlassian::config::ENV_JIRA_BASE_URL;
/// `CONFLUENCE_BASE_URL`: Confluence base URL, overriding the site's `/wiki` (Data Center, tests).
pub const CONFLUENCE_BASE_URL: &str = adapters_atlassian::config::ENV_CONFLUENCE_BASE_URL;
/// `BITBUCKET_BASE_URL`: Bitbucket API base URL (default `https://api.bitbucket.org`).
pub const BITBUCKET_BASE_URL: &str = adapters_atlassian::config::ENV_BITBUCKET_BASE_URL;
/// `ATLASSIAN_USER_EMAIL`: the Atlassian account e-mail (Basic-auth user).
pub const ATLASSIAN_USER_EMAIL: &str = adapters_atlassian::config::ENV_USER_EMAIL;
/// `ATLASSIAN_API_TOKEN`: the Atlassian API token (a secret: never logged or shown).
pub const ATLASSIAN_API_TOKEN: &str = adapters_atlassian::config::ENV_API_TOKEN;
/// `ATLASSIAN_BITBUCKET_USERNAME`: Bitbucket user name for an app password.
pub const ATLASSIAN_BITBUCKET_USERNAME: &str = adapters_atlassian::config::ENV_BITBUCKET_USERNAME;
/// `ATLASSIAN_BITBUCKET_APP_PASSWORD`: Bitbucket app password (a secret: never logged or shown).
pub const ATLASSIAN_BITBUCKET_APP_PASSWORD: &str = adapters_atlassian::config::ENV_BITBUCKET_APP_PASSWORD;

/// Which artifact backend to use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArtifactBackend {
    /// In memory: lost when the server stops.
    Memory,
    /// Files in this directory (created 0700 if missing).
    Fs(PathBuf),
    /// Objects in S3-compatible storage, shared by replicas (secrets masked in `Debug`).
    S3(S3Config),
}

impl ArtifactBackend {
    /// One line for `--print-config` and the start-up log: the kind and where, without secrets.
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
                    "from AWS_* settings"
                } else {
                    "from the environment/instance role"
                },
            ),
        }
    }
}

/// The server's effective settings.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Whether tools advertise `outputSchema` and successful results carry `structuredContent`.
    pub structured_output: bool,
    /// The bound on the compact `structuredContent` value.
    pub max_bytes: SizeBound,
    /// Artifact backend.
    pub artifact_backend: ArtifactBackend,
    /// Artifact retention and sweep interval.
    pub artifact_store: StoreConfig,
    /// GitHub adapter configuration (the token inside is masked in `Debug`).
    pub github: GithubConfig,
    /// CircleCI adapter configuration (the token inside is masked in `Debug`).
    pub circleci: CircleciConfig,
    /// The HTTP cache's bounds and default TTL (`HTTP_CACHE_*`).
    pub http_cache: CacheConfig,
    /// `HTTP_CACHE_REDIS_URL`: the shared cache tier, if any (password masked in `Debug`).
    pub http_cache_redis: Option<RedisCacheConfig>,
    /// Jira, Confluence and Bitbucket settings (`ATLASSIAN_*`, `*_BASE_URL`; secrets masked in `Debug`).
    pub atlassian: AtlassianConfig,
    /// Transport, authentication, policy file, enterprise mode and log filter.
    pub deploy: DeploySettings,
    /// How `jq` projections run: pooled worker processes with a time and a memory limit (`MCP_JQ_*`; the worker
    /// program is this executable, see `mcp_projection::worker::run_if_requested`).
    pub jq: IsolatedConfig,
    /// Which tools are offered (`MCP_TOOLSETS`, `MCP_READ_ONLY`; CONTRACT §11), or the unknown toolset name that
    /// stops start-up ([`crate::App::new`] fails with it).
    pub tools: Result<ToolSelection, UnknownToolset>,
}

impl Settings {
    /// Reads every setting through `lookup` (the process environment in production, a map in tests).
    ///
    /// Returns the settings and one warning line per value that was malformed or clamped; nothing here fails.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> (Settings, Vec<String>) {
        let mut warnings = Vec::new();
        let structured_output = match lookup(STRUCTURED_OUTPUT) {
            None => false,
            Some(raw) => parse_bool(&raw).unwrap_or_else(|| {
                warnings.push(format!(
                    "{STRUCTURED_OUTPUT}={raw:?} is not one of true/false/1/0/yes/no/on/off; using false"
                ));
                false
            }),
        };
        let (max_bytes, warning) = SizeBound::from_setting(lookup(STRUCTURED_MAX_BYTES).as_deref());
        warnings.extend(warning.map(|w| w.to_string()));

        let text = |name: &str| lookup(name).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
        let artifact_backend = match lookup(ARTIFACT_STORE).as_deref().map(str::trim) {
            Some(kind) if kind.eq_ignore_ascii_case("memory") => ArtifactBackend::Memory,
            Some(kind) if kind.eq_ignore_ascii_case("s3") => ArtifactBackend::S3(S3Config {
                url: text(ARTIFACT_S3_URL).unwrap_or_default(),
                endpoint: text(AWS_ENDPOINT_URL),
                region: text(AWS_REGION),
                access_key_id: text(AWS_ACCESS_KEY_ID),
                secret_access_key: text(AWS_SECRET_ACCESS_KEY),
                session_token: text(AWS_SESSION_TOKEN),
                allow_http: match text(AWS_ALLOW_HTTP) {
                    None => false,
                    Some(raw) => parse_bool(&raw).unwrap_or_else(|| {
                        warnings.push(format!(
                            "{AWS_ALLOW_HTTP}={raw:?} is not one of true/false/1/0/yes/no/on/off; using false"
                        ));
                        false
                    }),
                },
            }),
            other => {
                if let Some(kind) = other.filter(|k| !k.eq_ignore_ascii_case("fs")) {
                    warnings.push(format!(
                        "{ARTIFACT_STORE}={kind:?} is not `fs`, `memory` or `s3`; using fs"
                    ));
                }
                ArtifactBackend::Fs(
                    lookup(ARTIFACT_DIR)
                        .map(PathBuf::from)
                        .unwrap_or_else(default_artifact_dir),
                )
            }
        };
        let retention = seconds(&lookup, ARTIFACT_RETENTION, &mut warnings);
        let sweep = seconds(&lookup, ARTIFACT_SWEEP, &mut warnings);
        let (artifact_store, store_warnings) = StoreConfig::from_seconds(retention, sweep);
        warnings.extend(store_warnings);
        let max_store_bytes = whole_bytes(&lookup, ARTIFACT_MAX_STORE_BYTES, &mut warnings);
        let max_principal_bytes = whole_bytes(&lookup, ARTIFACT_MAX_PRINCIPAL_BYTES, &mut warnings);
        let (quota, quota_warnings) = Quota::from_bytes(max_store_bytes, max_principal_bytes);
        warnings.extend(quota_warnings);
        let artifact_store = artifact_store.with_quota(quota);

        let timeout = match seconds(&lookup, UPSTREAM_TIMEOUT, &mut warnings) {
            None => 30,
            Some(s) if (1..=300).contains(&s) => s,
            Some(s) => {
                let used = s.clamp(1, 300);
                warnings.push(format!("{UPSTREAM_TIMEOUT}={s} is outside 1..=300; using {used}"));
                used
            }
        };
        let mut github = GithubConfig::default();
        if let Some(base) = lookup(GITHUB_API_BASE).filter(|b| !b.trim().is_empty()) {
            github.api_base = base.trim().to_string();
        }
        github.token = lookup(GITHUB_TOKEN)
            .filter(|t| !t.trim().is_empty())
            .map(|t| Token::new(t.trim().to_string()));
        github.timeout = Duration::from_secs(timeout);
        let (max_body_bytes, warning) = max_body_bytes_from_setting(lookup(HTTP_MAX_BODY_BYTES).as_deref());
        warnings.extend(warning);
        github.max_body_bytes = max_body_bytes;
        let mut circleci = CircleciConfig {
            timeout: github.timeout,
            max_body_bytes,
            ..CircleciConfig::default()
        };
        if let Some(base) = lookup(CIRCLECI_API_BASE).filter(|b| !b.trim().is_empty()) {
            circleci.api_base = base.trim().to_string();
        }
        circleci.token = lookup(CIRCLECI_TOKEN)
            .filter(|t| !t.trim().is_empty())
            .map(|t| Secret::new(t.trim()));
        let atlassian = AtlassianConfig {
            site_name: text(ATLASSIAN_SITE_NAME),
            jira_base_url: text(JIRA_BASE_URL),
            confluence_base_url: text(CONFLUENCE_BASE_URL),
            bitbucket_base_url: text(BITBUCKET_BASE_URL)
                .unwrap_or_else(|| adapters_atlassian::config::DEFAULT_BITBUCKET_BASE_URL.to_owned()),
            user_email: text(ATLASSIAN_USER_EMAIL),
            api_token: text(ATLASSIAN_API_TOKEN).map(Secret::new),
            bitbucket_username: text(ATLASSIAN_BITBUCKET_USERNAME),
            bitbucket_app_password: text(ATLASSIAN_BITBUCKET_APP_PASSWORD).map(Secret::new),
            timeout: github.timeout,
            max_body_bytes,
            ..AtlassianConfig::default()
        };
        let cache_enabled = match lookup(HTTP_CACHE_ENABLED) {
            None => true,
            Some(raw) => parse_bool(&raw).unwrap_or_else(|| {
                warnings.push(format!(
                    "{HTTP_CACHE_ENABLED}={raw:?} is not one of true/false/1/0/yes/no/on/off; using true"
                ));
                true
            }),
        };
        let (http_cache, cache_warnings) = CacheConfig::from_lookup(cache_enabled, &lookup);
        warnings.extend(cache_warnings);
        let http_cache_redis = text(HTTP_CACHE_REDIS_URL).map(|url| RedisCacheConfig { url });

        let jq = jq_config(&lookup, max_body_bytes, &mut warnings);
        let read_only = match lookup(toolsets::READ_ONLY) {
            None => false,
            Some(raw) => parse_bool(&raw).unwrap_or_else(|| {
                warnings.push(format!(
                    "{}={raw:?} is not one of true/false/1/0/yes/no/on/off; using false",
                    toolsets::READ_ONLY
                ));
                false
            }),
        };
        let tools = ToolSelection::parse(lookup(toolsets::TOOLSETS).as_deref(), read_only);

        let settings = Settings {
            structured_output,
            max_bytes,
            artifact_backend,
            artifact_store,
            github,
            circleci,
            http_cache,
            http_cache_redis,
            atlassian,
            deploy: DeploySettings::from_lookup(&lookup, &mut warnings),
            jq,
            tools,
        };
        (settings, warnings)
    }

    /// The vendors with credentials set (`github`, `circleci`, `jira`, `confluence`, `bitbucket`), for the start-up
    /// log line; a vendor without them answers every call "no request sent: set ...".
    pub fn configured_vendors(&self) -> Vec<&'static str> {
        let atlassian = &self.atlassian;
        let account = atlassian.user_email.is_some() && atlassian.api_token.is_some();
        let mut vendors = Vec::new();
        if self.github.token.is_some() {
            vendors.push("github");
        }
        if self.circleci.token.is_some() {
            vendors.push("circleci");
        }
        if account && (atlassian.site_name.is_some() || atlassian.jira_base_url.is_some()) {
            vendors.push("jira");
        }
        if account && (atlassian.site_name.is_some() || atlassian.confluence_base_url.is_some()) {
            vendors.push("confluence");
        }
        if account || (atlassian.bitbucket_username.is_some() && atlassian.bitbucket_app_password.is_some()) {
            vendors.push("bitbucket");
        }
        vendors
    }

    /// The `--print-config` lines naming the shared-state backends in use (no secrets): artifacts, HTTP cache and
    /// HTTP sessions.
    pub fn backends(&self) -> Vec<String> {
        let cache = match (&self.http_cache_redis, self.http_cache.enabled) {
            (_, false) => "off".to_owned(),
            (Some(redis), true) => format!(
                "redis {} (shared by replicas)",
                adapters_http::cache::redis::masked_url(&redis.url)
            ),
            (None, true) => "in-process (this process only)".to_owned(),
        };
        let sessions = if self.deploy.stateless {
            "stateless (any replica answers any request)"
        } else {
            "stateful (sessions live in this process)"
        };
        vec![
            format!("artifacts: {}", self.artifact_backend.describe()),
            format!("http cache: {cache}"),
            format!("http sessions: {sessions}"),
        ]
    }

    /// Reads every setting from the process environment.
    pub fn from_env() -> (Settings, Vec<String>) {
        Self::from_lookup(|name| std::env::var(name).ok())
    }
}

/// Parses `true/false/1/0/yes/no/on/off`, case-insensitive, surrounding white space ignored.
pub fn parse_bool(raw: &str) -> Option<bool> {
    match raw.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Some(true),
        "false" | "0" | "no" | "off" => Some(false),
        _ => None,
    }
}

fn seconds(lookup: &impl Fn(&str) -> Option<String>, name: &str, warnings: &mut Vec<String>) -> Option<u64> {
    let raw = lookup(name)?;
    match raw.trim().parse::<u64>() {
        Ok(value) => Some(value),
        Err(_) => {
            warnings.push(format!(
                "{name}={raw:?} is not a whole number of seconds; using the default"
            ));
            None
        }
    }
}

/// Default of [`JQ_TIMEOUT`], seconds.
pub const DEFAULT_JQ_TIMEOUT_SECONDS: u64 = 10;
/// Default of [`JQ_MAX_MEMORY`], MiB.
pub const DEFAULT_JQ_MAX_MEMORY_MIB: u64 = 2048;

/// The isolated projection runner's configuration from [`JQ_TIMEOUT`] (clamped 1..=60 s) and [`JQ_MAX_MEMORY`]
/// (clamped 64..=65536 MiB); the answer cap is the larger of 64 MiB and twice `max_body_bytes` (the effective
/// `HTTP_MAX_BODY_BYTES`). The worker program is this executable (`main` calls the worker hook first); the pool has
/// one worker per CPU (at least two), as many as result pipelines run at once.
fn jq_config(
    lookup: &impl Fn(&str) -> Option<String>,
    max_body_bytes: u64,
    warnings: &mut Vec<String>,
) -> IsolatedConfig {
    let raw = |name: &str| {
        lookup(name)
            .map(|raw| raw.trim().to_owned())
            .filter(|raw| !raw.is_empty())
    };
    let seconds = crate::deploy_settings::whole(
        JQ_TIMEOUT,
        raw(JQ_TIMEOUT),
        DEFAULT_JQ_TIMEOUT_SECONDS,
        1..=60,
        warnings,
    );
    let mib = crate::deploy_settings::whole(
        JQ_MAX_MEMORY,
        raw(JQ_MAX_MEMORY),
        DEFAULT_JQ_MAX_MEMORY_MIB,
        64..=65_536,
        warnings,
    );
    IsolatedConfig {
        timeout: std::time::Duration::from_secs(seconds),
        max_memory_bytes: mib * 1024 * 1024,
        max_output_bytes: max_body_bytes
            .saturating_mul(2)
            .max(mcp_projection::isolated::DEFAULT_MAX_OUTPUT_BYTES),
        ..IsolatedConfig::default()
    }
}

/// A whole number of bytes from setting `name`; a malformed value gives `None` (the default) and one warning.
fn whole_bytes(lookup: &impl Fn(&str) -> Option<String>, name: &str, warnings: &mut Vec<String>) -> Option<u64> {
    let raw = lookup(name)?;
    raw.trim().parse::<u64>().map_or_else(
        |_| {
            warnings.push(format!(
                "{name}={raw:?} is not a whole number of bytes; using the default"
            ));
            None
        },
        Some,
    )
}

/// The platform state directory's `mcp-devtools/artifacts` (e.g. `~/.local/state/mcp-devtools/artifacts`), else the
/// data-local directory, else `./.mcp-devtools/artifacts`.
pub fn default_artifact_dir() -> PathBuf {
    directories::ProjectDirs::from("dev", "mcp-devtools", "mcp-devtools")
        .map(|dirs| dirs.state_dir().unwrap_or(dirs.data_local_dir()).join("artifacts"))
        .unwrap_or_else(|| PathBuf::from(".mcp-devtools/artifacts"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn settings(pairs: &[(&str, &str)]) -> (Settings, Vec<String>) {
        let map: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Settings::from_lookup(|name| map.get(name).cloned())
    }

    #[test]
    fn defaults() {
        let (s, warnings) = settings(&[]);
        assert!(!s.structured_output);
        assert_eq!(s.max_bytes.bytes(), 262_144);
        assert!(matches!(s.artifact_backend, ArtifactBackend::Fs(_)));
        assert!(s.github.token.is_none());
        assert!(warnings.is_empty());
    }

    #[test]
    fn jq_settings_have_defaults_and_are_clamped_with_one_warning() {
        let (s, warnings) = settings(&[]);
        assert_eq!(s.jq, jq_config(&|_: &str| None, 32 * 1024 * 1024, &mut Vec::new()));
        assert_eq!(s.jq.timeout, std::time::Duration::from_secs(10));
        assert_eq!(s.jq.max_memory_bytes, 2048 * 1024 * 1024);
        assert_eq!(
            s.jq.max_output_bytes,
            64 * 1024 * 1024,
            "64 MiB: more than twice the 32 MiB body cap"
        );
        assert!(warnings.is_empty());
        let (s, warnings) = settings(&[(JQ_TIMEOUT, "2"), (JQ_MAX_MEMORY, " 512 ")]);
        assert_eq!(s.jq.timeout, std::time::Duration::from_secs(2));
        assert_eq!(s.jq.max_memory_bytes, 512 * 1024 * 1024);
        assert!(warnings.is_empty(), "{warnings:?}");
        let (s, warnings) = settings(&[(JQ_TIMEOUT, "0"), (JQ_MAX_MEMORY, "lots")]);
        assert_eq!(s.jq.timeout, std::time::Duration::from_secs(1));
        assert_eq!(s.jq.max_memory_bytes, 2048 * 1024 * 1024);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        let (s, _) = settings(&[(JQ_TIMEOUT, "600"), (HTTP_MAX_BODY_BYTES, "1073741824")]);
        assert_eq!(s.jq.timeout, std::time::Duration::from_secs(60));
        assert_eq!(s.jq.cpu_seconds(), 62);
        assert_eq!(s.jq.max_output_bytes, 2 << 30, "twice the body cap");
    }

    #[test]
    fn shared_state_backends() {
        let (s, warnings) = settings(&[
            (ARTIFACT_STORE, "S3"),
            (ARTIFACT_S3_URL, "s3://bucket/mcp"),
            (AWS_ENDPOINT_URL, "http://127.0.0.1:9000"),
            (AWS_ACCESS_KEY_ID, "AKID"),
            (AWS_SECRET_ACCESS_KEY, "wJalrXUtnFEMI-secret"),
            (AWS_ALLOW_HTTP, "true"),
            (HTTP_CACHE_REDIS_URL, "redis://:pa55word@cache:6379/1"),
            (crate::deploy_settings::HTTP_STATELESS, "true"),
        ]);
        assert!(warnings.is_empty(), "{warnings:?}");
        let ArtifactBackend::S3(s3) = &s.artifact_backend else {
            panic!("{:?}", s.artifact_backend);
        };
        assert_eq!(s3.url, "s3://bucket/mcp");
        assert!(s3.allow_http);
        let lines = s.backends().join("\n");
        assert!(
            lines.contains("artifacts: s3 s3://bucket/mcp (endpoint http://127.0.0.1:9000"),
            "{lines}"
        );
        assert!(lines.contains("http cache: redis redis://:***@cache:6379/1"), "{lines}");
        assert!(lines.contains("http sessions: stateless"), "{lines}");
        let shown = format!("{lines} {s:?}");
        assert!(
            !shown.contains("wJalrXUtnFEMI-secret") && !shown.contains("pa55word"),
            "{shown}"
        );
        let (s, _) = settings(&[]);
        assert!(s.backends().join("\n").contains("http cache: in-process"));
        assert!(!s.deploy.stateless);
    }

    #[test]
    fn switch_accepts_every_spelling() {
        for (raw, want) in [
            ("TRUE", true),
            ("1", true),
            ("Yes", true),
            ("on", true),
            ("false", false),
            ("0", false),
            ("NO", false),
            ("Off", false),
        ] {
            assert_eq!(settings(&[(STRUCTURED_OUTPUT, raw)]).0.structured_output, want, "{raw}");
        }
        let (s, warnings) = settings(&[(STRUCTURED_OUTPUT, "maybe")]);
        assert!(!s.structured_output);
        assert_eq!(warnings.len(), 1);
    }

    #[test]
    fn bound_is_clamped_with_one_warning() {
        let (s, warnings) = settings(&[(STRUCTURED_MAX_BYTES, "10")]);
        assert_eq!(s.max_bytes.bytes(), 16_384);
        assert_eq!(warnings.len(), 1);
        let (s, warnings) = settings(&[(STRUCTURED_MAX_BYTES, "lots")]);
        assert_eq!(s.max_bytes.bytes(), 262_144);
        assert_eq!(warnings.len(), 1);
    }

    #[test]
    fn token_is_masked_in_debug() {
        let (s, _) = settings(&[(GITHUB_TOKEN, "ghp_secret123")]);
        assert!(!format!("{s:?}").contains("ghp_secret123"));
    }

    #[test]
    fn artifact_quotas() {
        let (s, warnings) = settings(&[]);
        assert_eq!(s.artifact_store.quota, Quota::default());
        assert!(warnings.is_empty());
        let (s, warnings) = settings(&[
            (ARTIFACT_MAX_STORE_BYTES, "5000000"),
            (ARTIFACT_MAX_PRINCIPAL_BYTES, "2048"),
        ]);
        assert_eq!(s.artifact_store.quota.max_store_bytes, 5_000_000);
        assert_eq!(s.artifact_store.quota.max_principal_bytes, 2048);
        assert!(warnings.is_empty());
        let (s, warnings) = settings(&[(ARTIFACT_MAX_STORE_BYTES, "lots"), (ARTIFACT_MAX_PRINCIPAL_BYTES, "1")]);
        assert_eq!(
            s.artifact_store.quota.max_store_bytes,
            mcp_artifacts::DEFAULT_MAX_STORE_BYTES
        );
        assert_eq!(s.artifact_store.quota.max_principal_bytes, 1024);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
    }

    #[test]
    fn circleci_and_http_cache_settings() {
        let (s, warnings) = settings(&[]);
        assert_eq!(s.circleci.api_base, "https://circleci.com/api/v2");
        assert!(s.circleci.token.is_none());
        assert_eq!(s.http_cache, CacheConfig::default());
        assert_eq!(s.github.max_body_bytes, 32 * 1024 * 1024);
        assert!(warnings.is_empty());
        let (s, warnings) = settings(&[
            (CIRCLECI_TOKEN, " cci-secret "),
            (CIRCLECI_API_BASE, "http://127.0.0.1:9/api/v2"),
            (HTTP_CACHE_ENABLED, "off"),
            (HTTP_CACHE_DEFAULT_TTL, "99999"),
            (HTTP_MAX_BODY_BYTES, "4096"),
        ]);
        assert_eq!(s.circleci.token.as_ref().map(Secret::expose), Some("cci-secret"));
        assert_eq!(s.circleci.api_base, "http://127.0.0.1:9/api/v2");
        assert!(!s.http_cache.enabled);
        assert_eq!(s.http_cache.default_ttl, Duration::from_secs(3600));
        assert_eq!((s.circleci.max_body_bytes, s.github.max_body_bytes), (4096, 4096));
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(!format!("{s:?}").contains("cci-secret"));
        let (s, warnings) = settings(&[(HTTP_CACHE_ENABLED, "sometimes")]);
        assert!(s.http_cache.enabled);
        assert_eq!(warnings.len(), 1);
    }

    #[test]
    fn atlassian_settings() {
        let (s, warnings) = settings(&[]);
        assert_eq!(s.atlassian.bitbucket_base_url, "https://api.bitbucket.org");
        assert!(s.atlassian.site_name.is_none() && s.atlassian.api_token.is_none());
        assert!(warnings.is_empty());
        let (s, _) = settings(&[
            (ATLASSIAN_SITE_NAME, " your-domain "),
            (JIRA_BASE_URL, "http://127.0.0.1:9"),
            (CONFLUENCE_BASE_URL, ""),
            (ATLASSIAN_USER_EMAIL, "mia@example.com"),
            (ATLASSIAN_API_TOKEN, " atl-secret "),
            (ATLASSIAN_BITBUCKET_APP_PASSWORD, "bb-secret"),
            (UPSTREAM_TIMEOUT, "7"),
        ]);
        assert_eq!(s.atlassian.site_name.as_deref(), Some("your-domain"));
        assert_eq!(s.atlassian.jira_base_url.as_deref(), Some("http://127.0.0.1:9"));
        assert_eq!(s.atlassian.confluence_base_url, None);
        assert_eq!(s.atlassian.api_token.as_ref().map(Secret::expose), Some("atl-secret"));
        assert_eq!(s.atlassian.timeout, Duration::from_secs(7));
        let debug = format!("{s:?}");
        assert!(!debug.contains("atl-secret") && !debug.contains("bb-secret"));
        for name in [ATLASSIAN_API_TOKEN, ATLASSIAN_BITBUCKET_APP_PASSWORD] {
            assert!(crate::registry::find(name).is_some_and(|d| d.secret), "{name}");
        }
    }

    #[test]
    fn memory_store_and_dir() {
        let (s, _) = settings(&[(ARTIFACT_STORE, "memory")]);
        assert_eq!(s.artifact_backend, ArtifactBackend::Memory);
        let (s, _) = settings(&[(ARTIFACT_DIR, "/tmp/x")]);
        assert_eq!(s.artifact_backend, ArtifactBackend::Fs(PathBuf::from("/tmp/x")));
    }
}
