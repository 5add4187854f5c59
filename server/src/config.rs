//! The server's typed settings and the one parser of raw setting values.
//!
//! [`Settings::from_lookup`] reads every setting through a `lookup` (the layered values of [`crate::cascade`] in the
//! binary, a map in tests) with a [`Reader`]: every number goes through [`Reader::whole`] (parse, clamp into range,
//! one warning naming the setting and the value used), every switch through [`Reader::switch`]. Nothing here fails:
//! a malformed or out-of-range value falls back or is clamped with one warning, except the few settings that stop
//! start-up ([`Settings::errors`]). The result is the tools' typed [`ToolsConfig`] and the [`DeploySettings`]:
//! library crates get typed configuration only; the names are in [`crate::registry`].

use std::net::SocketAddr;
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::time::Duration;

use adapters_atlassian::{AtlassianConfig, Deployment};
use adapters_circleci::CircleciConfig;
use adapters_github::GithubConfig;
use adapters_http::{
    ClientOptions, HttpOptions, Secret, SettingNames, cache::CacheConfig, cache::redis::RedisCacheConfig,
    tls::TlsOptions,
};
use mcp_artifacts::{Quota, S3Config, StoreConfig, StoreLimits};
use mcp_devtools_tools::{
    ArchiveLimits, ArtifactBackend, TasksConfig, ToolsConfig, WaitConfig, toolsets, toolsets::SelectionNames,
};
use mcp_envelope::SizeBound;
use mcp_projection::IsolatedConfig;
use mcp_results::tasks::RedisTaskStoreConfig;

use crate::deploy_settings::{self as deploy, DeploySettings, SessionLimits};
use crate::registry::*;
use crate::upstream::{Upstreams, describe_proxies};

/// The server's effective settings: the tools' typed configuration and the deployment.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Everything the tools are built from ([`mcp_devtools_tools::App::new`]).
    pub tools: ToolsConfig,
    /// Transport, authentication, limits and log filter.
    pub deploy: DeploySettings,
    /// Settings that stop start-up, one line each naming the setting and what to write instead (e.g. an
    /// `MCP_HTTP_ADDR` that is not `IP:PORT`, an unknown toolset). The binary refuses to start while this is not
    /// empty.
    pub errors: Vec<String>,
}

/// Reads raw setting values through a lookup into typed values, collecting one warning per value that was malformed
/// or clamped. The one place values are parsed: every number, switch, text and list setting goes through it.
pub struct Reader<'a> {
    lookup: &'a dyn Fn(&str) -> Option<String>,
    /// One line per malformed or clamped value, naming the setting, the value given and the value used.
    pub warnings: Vec<String>,
}

impl<'a> Reader<'a> {
    /// A reader over `lookup` (name → raw value), with no warnings yet.
    pub fn new(lookup: &'a dyn Fn(&str) -> Option<String>) -> Self {
        Reader {
            lookup,
            warnings: Vec::new(),
        }
    }

    /// The value of `name`, trimmed; `None` when unset or blank.
    pub fn text(&self, name: &str) -> Option<String> {
        (self.lookup)(name)
            .map(|v| v.trim().to_owned())
            .filter(|v| !v.is_empty())
    }

    /// The comma-separated items of `name`, trimmed, blanks dropped (empty when unset).
    pub fn list(&self, name: &str) -> Vec<String> {
        let raw = self.text(name).unwrap_or_default();
        raw.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect()
    }

    /// The switch `name`: `true/false/1/0/yes/no/on/off` in any case; `default` when unset, or (with a warning)
    /// when it is something else.
    pub fn switch(&mut self, name: &str, default: bool) -> bool {
        let Some(raw) = self.text(name) else { return default };
        parse_bool(&raw).unwrap_or_else(|| {
            let warning = format!("{name}={raw:?} is not one of true/false/1/0/yes/no/on/off; using {default}");
            self.warnings.push(warning);
            default
        })
    }

    /// The whole number `name` (the clamp helper): `default` when unset; clamped into `range` when outside it
    /// (all digits but past `u64` counts as very large); `default` when not a whole number; one warning each time
    /// the value given is not the value used.
    pub fn whole(&mut self, name: &str, default: u64, range: RangeInclusive<u64>) -> u64 {
        let Some(raw) = self.text(name) else { return default };
        let parsed = match raw.parse::<u64>() {
            Ok(n) => Some(n),
            Err(_) if raw.bytes().all(|b| b.is_ascii_digit()) => Some(u64::MAX),
            Err(_) => None,
        };
        let (used, warning) = match parsed {
            Some(n) if range.contains(&n) => return n,
            Some(n) => {
                let used = n.clamp(*range.start(), *range.end());
                (used, format!("{name}={raw} is outside {range:?}; using {used}"))
            }
            None => (
                default,
                format!("{name}={raw:?} is not a whole number; using {default}"),
            ),
        };
        self.warnings.push(warning);
        used
    }

    /// [`Reader::whole`] as a `usize` (saturating on 32-bit targets).
    pub fn whole_usize(&mut self, name: &str, default: u64, range: RangeInclusive<u64>) -> usize {
        usize::try_from(self.whole(name, default, range)).unwrap_or(usize::MAX)
    }
}

impl Settings {
    /// Reads every setting through `lookup` (the layered configuration in the binary, a map in tests).
    ///
    /// Returns the settings and one warning line per value that was malformed or clamped; settings that stop
    /// start-up are in [`Settings::errors`] (and [`Settings::tools`]).
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> (Settings, Vec<String>) {
        let mut r = Reader::new(&lookup);
        let mut errors = Vec::new();
        // The reader parses the number; SizeBound clamps it into its range (the one place that range is applied).
        let (max_bytes, clamped) = SizeBound::new(r.whole(
            STRUCTURED_MAX_BYTES,
            mcp_envelope::DEFAULT_MAX_BYTES as u64,
            0..=u64::MAX,
        ));
        if let Some(clamped) = clamped {
            let raw = r.text(STRUCTURED_MAX_BYTES).unwrap_or_default();
            r.warnings.push(format!("{STRUCTURED_MAX_BYTES}={raw}: {clamped}"));
        }
        let artifact_backend = match r.text(ARTIFACT_STORE).map(|kind| kind.to_ascii_lowercase()).as_deref() {
            Some("memory") => ArtifactBackend::Memory,
            Some("s3") => ArtifactBackend::S3(
                S3Config::default()
                    .with_url(r.text(ARTIFACT_S3_URL).unwrap_or_default())
                    .with_endpoint(r.text(AWS_ENDPOINT_URL))
                    .with_region(r.text(AWS_REGION))
                    .with_access_key_id(r.text(AWS_ACCESS_KEY_ID))
                    .with_secret_access_key(r.text(AWS_SECRET_ACCESS_KEY))
                    .with_session_token(r.text(AWS_SESSION_TOKEN))
                    .with_allow_http(r.switch(AWS_ALLOW_HTTP, false)),
            ),
            other => {
                if let Some(kind) = other.filter(|kind| *kind != "fs") {
                    r.warnings.push(format!(
                        "{ARTIFACT_STORE}={kind:?} is not `fs`, `memory` or `s3`; using fs"
                    ));
                }
                ArtifactBackend::Fs(r.text(ARTIFACT_DIR).map_or_else(default_artifact_dir, PathBuf::from))
            }
        };
        let artifact_store = StoreConfig::default()
            .with_retention(secs(r.whole(
                ARTIFACT_RETENTION,
                mcp_artifacts::DEFAULT_RETENTION_SECONDS,
                mcp_artifacts::RETENTION_SECONDS_RANGE,
            )))
            .with_sweep_interval(secs(r.whole(
                ARTIFACT_SWEEP,
                mcp_artifacts::DEFAULT_SWEEP_INTERVAL_SECONDS,
                mcp_artifacts::SWEEP_INTERVAL_SECONDS_RANGE,
            )))
            .with_quota(
                Quota::default()
                    .with_max_store_bytes(r.whole(
                        ARTIFACT_MAX_STORE_BYTES,
                        mcp_artifacts::DEFAULT_MAX_STORE_BYTES,
                        mcp_artifacts::QUOTA_BYTES_RANGE,
                    ))
                    .with_max_principal_bytes(r.whole(
                        ARTIFACT_MAX_PRINCIPAL_BYTES,
                        mcp_artifacts::DEFAULT_MAX_PRINCIPAL_BYTES,
                        mcp_artifacts::QUOTA_BYTES_RANGE,
                    )),
            );

        let artifact_limits = StoreLimits::default().with_timeout(secs(r.whole(
            ARTIFACT_TIMEOUT,
            mcp_artifacts::DEFAULT_STORE_TIMEOUT.as_secs(),
            1..=300,
        )));

        let timeout = secs(r.whole(UPSTREAM_TIMEOUT, 30, 1..=300));
        let max_body_bytes = r.whole(
            HTTP_MAX_BODY_BYTES,
            adapters_http::DEFAULT_MAX_BODY_BYTES,
            adapters_http::MIN_MAX_BODY_BYTES..=adapters_http::MAX_MAX_BODY_BYTES,
        );
        // The proxies, each upstream's TLS and the https-only rule.
        let network = Upstreams::read(&mut r, &mut errors);
        let client = ClientOptions::default()
            .with_timeout(timeout)
            .with_max_body_bytes(max_body_bytes)
            .with_proxy(network.proxy);
        // One upstream: its base (`default` unless set), its token, both named by their settings, and its TLS.
        let upstream = |base: &'static str, default: &str, credential: &'static str, tls: TlsOptions| {
            HttpOptions::new(r.text(base).unwrap_or_else(|| default.to_owned()))
                .with_credential(r.text(credential).map(Secret::new))
                .with_setting_names(
                    SettingNames::default()
                        .with_base(base)
                        .with_credential(credential)
                        .with_max_body(HTTP_MAX_BODY_BYTES),
                )
                .with_client(client.clone().with_tls(tls))
        };
        let github = GithubConfig::default().with_http(upstream(
            GITHUB_API_BASE,
            adapters_github::DEFAULT_API_BASE,
            GITHUB_TOKEN,
            network.github,
        ));
        let circleci = CircleciConfig::default()
            .with_http(upstream(
                CIRCLECI_API_BASE,
                adapters_circleci::DEFAULT_API_BASE,
                CIRCLECI_TOKEN,
                network.circleci,
            ))
            .with_artifact_hosts(r.list(CIRCLECI_ARTIFACT_HOSTS))
            .with_artifact_hosts_setting(CIRCLECI_ARTIFACT_HOSTS);
        let mut deployment = |name: &str| match r.text(name).map(|raw| raw.parse::<Deployment>()) {
            None => Deployment::Cloud,
            Some(Ok(deployment)) => deployment,
            Some(Err(err)) => {
                errors.push(format!("{name}: {err}"));
                Deployment::Cloud
            }
        };
        let deployments = (
            deployment(JIRA_DEPLOYMENT),
            deployment(CONFLUENCE_DEPLOYMENT),
            deployment(BITBUCKET_DEPLOYMENT),
        );
        let atlassian = AtlassianConfig::default()
            .with_site_name(r.text(ATLASSIAN_SITE_NAME))
            .with_jira_base_url(r.text(JIRA_BASE_URL))
            .with_confluence_base_url(r.text(CONFLUENCE_BASE_URL))
            .with_bitbucket_base_url(
                r.text(BITBUCKET_BASE_URL)
                    .unwrap_or_else(|| adapters_atlassian::DEFAULT_BITBUCKET_BASE_URL.to_owned()),
            )
            .with_user_email(r.text(ATLASSIAN_USER_EMAIL))
            .with_api_token(r.text(ATLASSIAN_API_TOKEN).map(Secret::new))
            .with_bitbucket_username(r.text(ATLASSIAN_BITBUCKET_USERNAME))
            .with_bitbucket_app_password(r.text(ATLASSIAN_BITBUCKET_APP_PASSWORD).map(Secret::new))
            .with_jira_deployment(deployments.0)
            .with_confluence_deployment(deployments.1)
            .with_bitbucket_deployment(deployments.2)
            .with_jira_personal_token(r.text(JIRA_PERSONAL_TOKEN).map(Secret::new))
            .with_confluence_personal_token(r.text(CONFLUENCE_PERSONAL_TOKEN).map(Secret::new))
            .with_bitbucket_access_token(r.text(BITBUCKET_ACCESS_TOKEN).map(Secret::new))
            .with_client(client.with_tls(network.atlassian))
            .with_setting_names(
                adapters_atlassian::SettingNames::default()
                    .with_site_name(ATLASSIAN_SITE_NAME)
                    .with_jira_base_url(JIRA_BASE_URL)
                    .with_confluence_base_url(CONFLUENCE_BASE_URL)
                    .with_bitbucket_base_url(BITBUCKET_BASE_URL)
                    .with_user_email(ATLASSIAN_USER_EMAIL)
                    .with_api_token(ATLASSIAN_API_TOKEN)
                    .with_bitbucket_username(ATLASSIAN_BITBUCKET_USERNAME)
                    .with_bitbucket_app_password(ATLASSIAN_BITBUCKET_APP_PASSWORD)
                    .with_jira_deployment(JIRA_DEPLOYMENT)
                    .with_confluence_deployment(CONFLUENCE_DEPLOYMENT)
                    .with_bitbucket_deployment(BITBUCKET_DEPLOYMENT)
                    .with_jira_personal_token(JIRA_PERSONAL_TOKEN)
                    .with_confluence_personal_token(CONFLUENCE_PERSONAL_TOKEN)
                    .with_bitbucket_access_token(BITBUCKET_ACCESS_TOKEN)
                    .with_max_body_bytes(HTTP_MAX_BODY_BYTES),
            );
        let http_cache = CacheConfig::default()
            .with_enabled(r.switch(HTTP_CACHE_ENABLED, true))
            .with_max_entries(r.whole(
                HTTP_CACHE_MAX_ENTRIES,
                adapters_http::cache::DEFAULT_MAX_ENTRIES,
                adapters_http::cache::MAX_ENTRIES_RANGE,
            ))
            .with_max_bytes(r.whole(
                HTTP_CACHE_MAX_BYTES,
                adapters_http::cache::DEFAULT_MAX_BYTES,
                adapters_http::cache::MAX_BYTES_RANGE,
            ))
            .with_default_ttl(secs(r.whole(
                HTTP_CACHE_DEFAULT_TTL,
                adapters_http::cache::DEFAULT_TTL.as_secs(),
                1..=adapters_http::cache::MAX_TTL.as_secs(),
            )));
        let jq = IsolatedConfig::default()
            .with_timeout(secs(r.whole(JQ_TIMEOUT, 10, 1..=60)))
            .with_max_memory_bytes(r.whole(JQ_MAX_MEMORY, 2048, 64..=65_536) << 20)
            .with_max_output_bytes(
                max_body_bytes
                    .saturating_mul(2)
                    .max(mcp_projection::DEFAULT_MAX_OUTPUT_BYTES),
            );
        let read_only = r.switch(READ_ONLY, false);
        let selection = mcp_devtools_tools::vendors::parse_toolsets(r.text(TOOLSETS).as_deref(), read_only);
        let http_addr = r.text(HTTP_ADDR).and_then(|raw| match raw.parse::<SocketAddr>() {
            Ok(addr) => Some(addr),
            Err(_) => {
                errors.push(format!(
                    "{HTTP_ADDR}={raw:?} is not IP:PORT: give an address such as 127.0.0.1:8080 (flag --http), or \
                     leave it unset to serve stdio"
                ));
                None
            }
        });
        let no_auth = r.switch(HTTP_NO_AUTH, false);
        let oauth = oauth_settings(&mut r, &mut errors);
        if no_auth && oauth.is_some() {
            errors.push(format!(
                "{HTTP_NO_AUTH} and {OAUTH_ISSUER} exclude each other: unset one (OAuth protects the server; --no-auth \
                 opens it)"
            ));
        }
        let deploy = DeploySettings {
            http_addr,
            no_auth,
            tokens_file: r.text(HTTP_TOKENS_FILE).map(PathBuf::from),
            oauth,
            allowed_hosts: r.list(HTTP_ALLOWED_HOSTS),
            allowed_origins: r.list(HTTP_ALLOWED_ORIGINS),
            stateless: r.switch(HTTP_STATELESS, false),
            http_worker_threads: r.whole_usize(
                HTTP_WORKER_THREADS,
                deploy::default_http_worker_threads() as u64,
                1..=1024,
            ),
            shutdown_grace_seconds: r.whole(HTTP_SHUTDOWN_GRACE, deploy::DEFAULT_SHUTDOWN_GRACE_SECONDS, 1..=600),
            max_request_bytes: r.whole_usize(
                MAX_REQUEST_BYTES,
                deploy::DEFAULT_MAX_REQUEST_BYTES as u64,
                deploy::MAX_REQUEST_BYTES_RANGE,
            ),
            sessions: SessionLimits {
                idle_seconds: r.whole(HTTP_SESSION_IDLE, deploy::DEFAULT_SESSION_IDLE_SECONDS, 1..=86_400),
                max_total: r.whole_usize(HTTP_MAX_SESSIONS, deploy::DEFAULT_MAX_SESSIONS, 1..=1_000_000),
                max_per_principal: r.whole_usize(
                    HTTP_MAX_SESSIONS_PER_PRINCIPAL,
                    deploy::DEFAULT_MAX_SESSIONS_PER_PRINCIPAL,
                    1..=1_000_000,
                ),
            },
            connections: deploy::ConnectionLimits {
                max_connections: r.whole_usize(HTTP_MAX_CONNECTIONS, deploy::DEFAULT_MAX_CONNECTIONS, 1..=1_000_000),
                header_read_timeout_seconds: r.whole(
                    HTTP_HEADER_READ_TIMEOUT,
                    deploy::DEFAULT_HEADER_READ_TIMEOUT_SECONDS,
                    1..=3600,
                ),
                body_read_timeout_seconds: r.whole(
                    HTTP_BODY_READ_TIMEOUT,
                    deploy::DEFAULT_BODY_READ_TIMEOUT_SECONDS,
                    1..=3600,
                ),
            },
            fair: deploy::FairShare {
                max_calls: r.whole_usize(
                    HTTP_MAX_CALLS_PER_PRINCIPAL,
                    deploy::DEFAULT_MAX_CALLS_PER_PRINCIPAL,
                    1..=1_000_000,
                ),
                rate_per_second: u32::try_from(r.whole(HTTP_RATE_PER_PRINCIPAL, 0, 0..=1_000_000)).unwrap_or(0),
            },
            log_filter: r.text(LOG_FILTER).unwrap_or_else(|| "info".to_owned()),
        };
        // An unknown toolset stops start-up; the tools get none meanwhile (an embedder ignoring `errors` gets none).
        let selection = selection.unwrap_or_else(|err| {
            errors.push(format!("{TOOLSETS}={:?}: {err}", err.raw));
            toolsets::ToolSelection {
                toolsets: Vec::new(),
                read_only,
            }
        });
        let redis_timeout = Duration::from_millis(r.whole(
            HTTP_CACHE_REDIS_TIMEOUT_MS,
            u64::try_from(adapters_http::cache::redis::DEFAULT_COMMAND_TIMEOUT.as_millis()).unwrap_or(50),
            5..=5000,
        ));
        let wait = WaitConfig::default()
            .with_intervals(
                Duration::from_millis(r.whole(WAIT_POLL_MS, 10_000, 10..=600_000)),
                Duration::from_millis(r.whole(WAIT_MAX_POLL_MS, 60_000, 10..=600_000)),
            )
            .with_settle(Duration::from_millis(r.whole(WAIT_SETTLE_MS, 20_000, 0..=600_000)))
            .with_heartbeat(Duration::from_millis(r.whole(WAIT_PROGRESS_MS, 10_000, 10..=15_000)));
        let tasks = TasksConfig::default()
            .with_ttl(Duration::from_millis(r.whole(
                TASKS_TTL_MS,
                3_600_000,
                1000..=86_400_000,
            )))
            .with_poll_interval(Duration::from_millis(r.whole(
                TASKS_POLL_INTERVAL_MS,
                5000,
                10..=600_000,
            )))
            .with_redis(r.text(TASKS_REDIS_URL).map(RedisTaskStoreConfig::new));
        let archive = ArchiveLimits::default()
            .with_max_entries(r.whole(CI_ARCHIVE_MAX_ENTRIES, 10_000, 1..=1_000_000))
            .with_max_uncompressed_bytes(r.whole(CI_ARCHIVE_MAX_UNCOMPRESSED_BYTES, 1 << 30, 1024..=1 << 40))
            .with_max_ratio(r.whole(CI_ARCHIVE_MAX_RATIO, 100, 1..=100_000));
        let tools = ToolsConfig::default()
            .with_archive(archive)
            .with_wait(wait)
            .with_tasks(tasks)
            .with_structured_output(r.switch(STRUCTURED_OUTPUT, false))
            .with_max_bytes(max_bytes)
            .with_artifact_backend(artifact_backend)
            .with_artifact_store(artifact_store)
            .with_artifact_limits(artifact_limits)
            .with_github(github)
            .with_circleci(circleci)
            .with_http_cache(http_cache)
            .with_http_cache_redis(
                r.text(HTTP_CACHE_REDIS_URL)
                    .map(|url| RedisCacheConfig::new(url).with_command_timeout(redis_timeout)),
            )
            .with_atlassian(atlassian)
            .with_jq(jq)
            .with_selection(selection)
            .with_selection_names(SelectionNames {
                toolsets: TOOLSETS,
                read_only: READ_ONLY,
            })
            .with_policy_file(r.text(POLICY_FILE).map(PathBuf::from))
            .with_enterprise_mode(r.switch(ENTERPRISE_MODE, false));
        let settings = Settings { tools, deploy, errors };
        (settings, r.warnings)
    }

    /// The `--print-config` lines naming the shared-state backends in use (no secrets): artifacts, HTTP cache,
    /// tasks, HTTP sessions, HTTP authentication, and the upstream proxies (passwords masked).
    pub fn backends(&self) -> Vec<String> {
        let cache = match (&self.tools.http_cache_redis, self.tools.http_cache.enabled) {
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
            format!("artifacts: {}", self.tools.artifact_backend.describe()),
            format!("http cache: {cache}"),
            format!("tasks: {}", self.tools.tasks.describe()),
            format!("http sessions: {sessions}"),
            format!("http auth: {}", self.auth_mode()),
            format!(
                "upstream proxies: {}",
                describe_proxies(&self.tools.github.http.client.proxy)
            ),
        ]
    }

    /// How HTTP callers authenticate, for `--print-config`: OAuth (issuer, resource, scopes) and/or the tokens
    /// file, or none.
    pub fn auth_mode(&self) -> String {
        let deploy = &self.deploy;
        let tokens = deploy
            .tokens_file
            .as_ref()
            .map(|path| format!("tokens file {}", path.display()));
        if deploy.no_auth {
            return "none (--no-auth: loopback only)".to_owned();
        }
        match (&deploy.oauth, tokens) {
            (Some(oauth), tokens) => format!(
                "oauth (issuer {}, resource {}, principal claim {}, scopes {} / {}{}){}",
                oauth.issuer,
                oauth.resource.as_deref().unwrap_or("http://<bound address>/mcp"),
                oauth.principal_claim,
                oauth.read_scope,
                oauth.write_scope,
                if oauth.introspection.is_some() {
                    ", introspection"
                } else {
                    ""
                },
                tokens.map(|t| format!(" + {t}")).unwrap_or_default()
            ),
            (None, Some(tokens)) => tokens,
            (None, None) => "not configured (HTTP needs a tokens file, an OAuth issuer or --no-auth)".to_owned(),
        }
    }

    /// Reads every setting from the process environment alone (no flags, `.env` or config file); the proxies also
    /// from their lower-case names ([`LOWER_CASE_ENV`]).
    pub fn from_env() -> (Settings, Vec<String>) {
        Self::from_lookup(|name| {
            std::env::var(name).ok().or_else(|| {
                let (_, lower) = LOWER_CASE_ENV.iter().find(|(upper, _)| *upper == name)?;
                std::env::var(lower).ok()
            })
        })
    }
}

/// The `MCP_OAUTH_*` settings when [`OAUTH_ISSUER`] is set; an unknown or symmetric algorithm, or introspection
/// credentials given by halves, stop start-up.
fn oauth_settings(r: &mut Reader<'_>, errors: &mut Vec<String>) -> Option<deploy::OAuthSettings> {
    let issuer = r.text(OAUTH_ISSUER)?;
    let algorithms = match r.list(OAUTH_ALGORITHMS) {
        given if given.is_empty() => deploy::OAUTH_ALGORITHM_NAMES.iter().map(|n| n.to_string()).collect(),
        given => given,
    };
    for name in &algorithms {
        if !deploy::OAUTH_ALGORITHM_NAMES.contains(&name.as_str()) {
            errors.push(format!(
                "{OAUTH_ALGORITHMS}: {name:?} is not accepted; choose among {} (HS* and none never verify an \
                 authorization server's token)",
                deploy::OAUTH_ALGORITHM_NAMES.join(", ")
            ));
        }
    }
    let introspection = match (
        r.text(OAUTH_INTROSPECTION_CLIENT_ID),
        r.text(OAUTH_INTROSPECTION_CLIENT_SECRET),
    ) {
        (Some(id), Some(secret)) => Some((id, Secret::new(secret))),
        (None, None) => None,
        _ => {
            errors.push(format!(
                "{OAUTH_INTROSPECTION_CLIENT_ID} and {OAUTH_INTROSPECTION_CLIENT_SECRET} go together: set both \
                 (introspection of opaque tokens) or neither"
            ));
            None
        }
    };
    Some(deploy::OAuthSettings {
        issuer,
        resource: r.text(OAUTH_RESOURCE),
        principal_claim: r.text(OAUTH_PRINCIPAL_CLAIM).unwrap_or_else(|| "sub".to_owned()),
        read_scope: r.text(OAUTH_READ_SCOPE).unwrap_or_else(|| "devtools:read".to_owned()),
        write_scope: r.text(OAUTH_WRITE_SCOPE).unwrap_or_else(|| "devtools:write".to_owned()),
        algorithms,
        leeway_seconds: r.whole(OAUTH_LEEWAY, deploy::DEFAULT_OAUTH_LEEWAY_SECONDS, 0..=300),
        introspection,
    })
}

fn secs(seconds: u64) -> Duration {
    Duration::from_secs(seconds)
}

/// Parses `true/false/1/0/yes/no/on/off`, case-insensitive, surrounding white space ignored.
pub fn parse_bool(raw: &str) -> Option<bool> {
    match raw.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Some(true),
        "false" | "0" | "no" | "off" => Some(false),
        _ => None,
    }
}

/// The platform state directory's `mcp-devtools/artifacts` (e.g. `~/.local/state/mcp-devtools/artifacts`), else the
/// data-local directory, else `./.mcp-devtools/artifacts`.
pub fn default_artifact_dir() -> PathBuf {
    directories::ProjectDirs::from("dev", "mcp-devtools", "mcp-devtools")
        .map(|dirs| dirs.state_dir().unwrap_or(dirs.data_local_dir()).join("artifacts"))
        .unwrap_or_else(|| PathBuf::from(".mcp-devtools/artifacts"))
}

/// The settings (and warnings) of the setting `pairs` alone, for the tests of this crate.
#[cfg(test)]
pub(crate) fn settings_of(pairs: &[(&str, &str)]) -> (Settings, Vec<String>) {
    let map: std::collections::HashMap<String, String> =
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    Settings::from_lookup(|name| map.get(name).cloned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(pairs: &[(&str, &str)]) -> (Settings, Vec<String>) {
        settings_of(pairs)
    }

    #[test]
    fn defaults() {
        let (s, warnings) = settings(&[]);
        assert!(!s.tools.structured_output);
        assert_eq!(s.tools.max_bytes.bytes(), 262_144);
        assert!(matches!(s.tools.artifact_backend, ArtifactBackend::Fs(_)));
        assert!(s.tools.github.http.credential.is_none());
        assert!(warnings.is_empty());
    }

    #[test]
    fn jq_settings_have_defaults_and_are_clamped_with_one_warning() {
        let (s, warnings) = settings(&[]);
        assert_eq!(s.tools.jq.timeout, Duration::from_secs(10));
        assert_eq!(s.tools.jq.max_memory_bytes, 2048 * 1024 * 1024);
        assert_eq!(
            s.tools.jq.max_output_bytes,
            64 * 1024 * 1024,
            "64 MiB: more than twice the 32 MiB body cap"
        );
        assert!(warnings.is_empty());
        let (s, warnings) = settings(&[(JQ_TIMEOUT, "2"), (JQ_MAX_MEMORY, " 512 ")]);
        assert_eq!(s.tools.jq.timeout, Duration::from_secs(2));
        assert_eq!(s.tools.jq.max_memory_bytes, 512 * 1024 * 1024);
        assert!(warnings.is_empty(), "{warnings:?}");
        let (s, warnings) = settings(&[(JQ_TIMEOUT, "0"), (JQ_MAX_MEMORY, "lots")]);
        assert_eq!(s.tools.jq.timeout, Duration::from_secs(1));
        assert_eq!(s.tools.jq.max_memory_bytes, 2048 * 1024 * 1024);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        let (s, _) = settings(&[(JQ_TIMEOUT, "600"), (HTTP_MAX_BODY_BYTES, "1073741824")]);
        assert_eq!(s.tools.jq.timeout, Duration::from_secs(60));
        assert_eq!(s.tools.jq.cpu_seconds(), 62);
        assert_eq!(s.tools.jq.max_output_bytes, 2 << 30, "twice the body cap");
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
            (TASKS_REDIS_URL, "redis://:tasks-pa55@tasks:6379/2"),
            (TASKS_TTL_MS, "600000"),
            (TASKS_POLL_INTERVAL_MS, "250"),
            (HTTP_STATELESS, "true"),
        ]);
        assert!(warnings.is_empty(), "{warnings:?}");
        let ArtifactBackend::S3(s3) = &s.tools.artifact_backend else {
            panic!("{:?}", s.tools.artifact_backend);
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
        assert!(
            lines.contains("tasks: redis redis://:***@tasks:6379/2 (shared by replicas)"),
            "{lines}"
        );
        let tasks = &s.tools.tasks;
        assert_eq!(
            (tasks.ttl, tasks.poll_interval),
            (Duration::from_secs(600), Duration::from_millis(250))
        );
        assert_eq!(
            tasks.redis.as_ref().map(|redis| redis.url.as_str()),
            Some("redis://:tasks-pa55@tasks:6379/2")
        );
        let shown = format!("{lines} {s:?}");
        assert!(
            !shown.contains("wJalrXUtnFEMI-secret") && !shown.contains("pa55word") && !shown.contains("tasks-pa55"),
            "{shown}"
        );
        let (s, _) = settings(&[]);
        assert!(s.backends().join("\n").contains("http cache: in-process"));
        assert!(s.backends().join("\n").contains("tasks: memory (this process only)"));
        let tasks = &s.tools.tasks;
        assert_eq!(
            (tasks.ttl, tasks.poll_interval),
            (Duration::from_secs(3600), Duration::from_millis(5000))
        );
        let (s, warnings) = settings(&[(TASKS_TTL_MS, "5"), (TASKS_POLL_INTERVAL_MS, "never")]);
        assert_eq!(s.tools.tasks.ttl, Duration::from_secs(1), "clamped");
        assert_eq!(s.tools.tasks.poll_interval, Duration::from_millis(5000), "the default");
        assert_eq!(warnings.len(), 2, "{warnings:?}");
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
            assert_eq!(
                settings(&[(STRUCTURED_OUTPUT, raw)]).0.tools.structured_output,
                want,
                "{raw}"
            );
        }
        let (s, warnings) = settings(&[(STRUCTURED_OUTPUT, "maybe")]);
        assert!(!s.tools.structured_output);
        assert_eq!(warnings.len(), 1);
    }

    #[test]
    fn bound_is_clamped_with_one_warning() {
        let (s, warnings) = settings(&[(STRUCTURED_MAX_BYTES, "10")]);
        assert_eq!(s.tools.max_bytes.bytes(), 16_384);
        assert_eq!(
            warnings,
            [
                "MCP_STRUCTURED_MAX_BYTES=10: a structured-content bound of 10 bytes is outside 16384..=15728640; using \
              16384 bytes"
            ]
        );
        let (s, warnings) = settings(&[(STRUCTURED_MAX_BYTES, "99999999999999999999999")]);
        assert_eq!(s.tools.max_bytes.bytes(), 15_728_640);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].starts_with("MCP_STRUCTURED_MAX_BYTES=99999999999999999999999: "),
            "{warnings:?}"
        );
        let (s, warnings) = settings(&[(STRUCTURED_MAX_BYTES, "15728640")]);
        assert_eq!(s.tools.max_bytes.bytes(), 15_728_640);
        assert!(warnings.is_empty(), "{warnings:?}");
        let (s, warnings) = settings(&[(STRUCTURED_MAX_BYTES, "lots")]);
        assert_eq!(s.tools.max_bytes.bytes(), 262_144);
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
        assert_eq!(s.tools.artifact_store.quota, Quota::default());
        assert!(warnings.is_empty());
        let (s, warnings) = settings(&[
            (ARTIFACT_MAX_STORE_BYTES, "5000000"),
            (ARTIFACT_MAX_PRINCIPAL_BYTES, "2048"),
        ]);
        assert_eq!(s.tools.artifact_store.quota.max_store_bytes, 5_000_000);
        assert_eq!(s.tools.artifact_store.quota.max_principal_bytes, 2048);
        assert!(warnings.is_empty());
        let (s, warnings) = settings(&[(ARTIFACT_MAX_STORE_BYTES, "lots"), (ARTIFACT_MAX_PRINCIPAL_BYTES, "1")]);
        assert_eq!(
            s.tools.artifact_store.quota.max_store_bytes,
            mcp_artifacts::DEFAULT_MAX_STORE_BYTES
        );
        assert_eq!(s.tools.artifact_store.quota.max_principal_bytes, 1024);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
    }

    #[test]
    fn circleci_and_http_cache_settings() {
        let (s, warnings) = settings(&[]);
        assert_eq!(s.tools.circleci.http.api_base, "https://circleci.com/api/v2");
        assert!(s.tools.circleci.http.credential.is_none());
        assert!(s.tools.circleci.artifact_hosts.is_empty());
        assert_eq!(s.tools.circleci.artifact_hosts_setting, CIRCLECI_ARTIFACT_HOSTS);
        assert_eq!(s.tools.http_cache, CacheConfig::default());
        assert_eq!(s.tools.github.http.client.max_body_bytes, 32 * 1024 * 1024);
        assert!(warnings.is_empty());
        let (s, warnings) = settings(&[
            (CIRCLECI_TOKEN, " cci-secret "),
            (CIRCLECI_API_BASE, "http://127.0.0.1:9/api/v2"),
            (CIRCLECI_ARTIFACT_HOSTS, " artifacts.example.com, ,127.0.0.1 "),
            (HTTP_CACHE_ENABLED, "off"),
            (HTTP_CACHE_DEFAULT_TTL, "99999"),
            (HTTP_MAX_BODY_BYTES, "4096"),
        ]);
        assert_eq!(
            s.tools.circleci.http.credential.as_ref().map(Secret::expose),
            Some("cci-secret")
        );
        assert_eq!(s.tools.circleci.http.api_base, "http://127.0.0.1:9/api/v2");
        assert_eq!(s.tools.circleci.artifact_hosts, ["artifacts.example.com", "127.0.0.1"]);
        assert!(!s.tools.http_cache.enabled);
        assert_eq!(s.tools.http_cache.default_ttl, Duration::from_secs(3600));
        assert_eq!(
            (
                s.tools.circleci.http.client.max_body_bytes,
                s.tools.github.http.client.max_body_bytes
            ),
            (4096, 4096)
        );
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(!format!("{s:?}").contains("cci-secret"));
        let (s, warnings) = settings(&[(HTTP_CACHE_ENABLED, "sometimes")]);
        assert!(s.tools.http_cache.enabled);
        assert_eq!(warnings.len(), 1);
    }

    #[test]
    fn atlassian_settings() {
        let (s, warnings) = settings(&[]);
        assert_eq!(s.tools.atlassian.bitbucket_base_url, "https://api.bitbucket.org");
        assert!(s.tools.atlassian.site_name.is_none() && s.tools.atlassian.api_token.is_none());
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
        assert_eq!(s.tools.atlassian.site_name.as_deref(), Some("your-domain"));
        assert_eq!(s.tools.atlassian.jira_base_url.as_deref(), Some("http://127.0.0.1:9"));
        assert_eq!(s.tools.atlassian.confluence_base_url, None);
        assert_eq!(
            s.tools.atlassian.api_token.as_ref().map(Secret::expose),
            Some("atl-secret")
        );
        assert_eq!(s.tools.atlassian.client.timeout, Duration::from_secs(7));
        let debug = format!("{s:?}");
        assert!(!debug.contains("atl-secret") && !debug.contains("bb-secret"));
        for name in [ATLASSIAN_API_TOKEN, ATLASSIAN_BITBUCKET_APP_PASSWORD] {
            assert!(crate::registry::find(name).is_some_and(SettingDef::secret), "{name}");
        }
    }

    #[test]
    fn memory_store_and_dir() {
        let (s, _) = settings(&[(ARTIFACT_STORE, "memory")]);
        assert_eq!(s.tools.artifact_backend, ArtifactBackend::Memory);
        let (s, _) = settings(&[(ARTIFACT_DIR, "/tmp/x")]);
        assert_eq!(s.tools.artifact_backend, ArtifactBackend::Fs(PathBuf::from("/tmp/x")));
    }

    #[test]
    fn deploy_defaults_are_stdio_without_policy() {
        let (s, warnings) = settings(&[]);
        assert_eq!(s.deploy.http_addr, None);
        assert!(!s.deploy.no_auth && !s.tools.enterprise_mode);
        assert_eq!(s.deploy.shutdown_grace_seconds, 30);
        assert_eq!(s.deploy.log_filter, "info");
        assert_eq!(s.deploy.sessions, SessionLimits::default());
        assert!(warnings.is_empty() && s.errors.is_empty());
    }

    #[test]
    fn http_worker_threads_are_one_on_a_small_machine_and_the_runtime_has_them() {
        let cpus = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        let (s, warnings) = settings(&[(HTTP_ADDR, "127.0.0.1:0")]);
        assert!(warnings.is_empty(), "{warnings:?}");
        let expected = if cpus <= 2 { 1 } else { cpus };
        assert_eq!(s.deploy.http_worker_threads(), expected);
        let workers = |s: &Settings| crate::runtime_for(s).unwrap().metrics().num_workers();
        assert_eq!(workers(&s), expected);
        let (s, _) = settings(&[(HTTP_ADDR, "127.0.0.1:0"), (HTTP_WORKER_THREADS, "3")]);
        assert_eq!(workers(&s), 3);
        let (s, warnings) = settings(&[(HTTP_ADDR, "127.0.0.1:0"), (HTTP_WORKER_THREADS, "0")]);
        assert_eq!(workers(&s), 1, "clamped");
        assert!(
            warnings[0].contains("MCP_HTTP_WORKER_THREADS=0 is outside 1..=1024"),
            "{warnings:?}"
        );
        let (s, _) = settings(&[(HTTP_WORKER_THREADS, "3")]);
        assert_eq!(workers(&s), 1, "stdio serves one session on one worker");
    }

    #[test]
    fn malformed_http_addr_is_an_error_and_others_warn_once_each() {
        let (s, warnings) = settings(&[
            (HTTP_ADDR, "localhost"),
            (HTTP_SHUTDOWN_GRACE, "9999"),
            (ENTERPRISE_MODE, "y"),
        ]);
        assert_eq!(s.deploy.http_addr, None);
        assert_eq!(s.errors.len(), 1, "{:?}", s.errors);
        assert!(
            s.errors[0].contains("MCP_HTTP_ADDR=\"localhost\" is not IP:PORT"),
            "{:?}",
            s.errors
        );
        assert_eq!(s.deploy.shutdown_grace_seconds, 600);
        assert!(!s.tools.enterprise_mode);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings[0].contains("MCP_HTTP_SHUTDOWN_GRACE_SECONDS=9999 is outside 1..=600; using 600"));
    }

    #[test]
    fn an_unknown_toolset_is_an_error_naming_the_setting_and_offers_nothing() {
        let (s, _) = settings(&[(TOOLSETS, "github,gitlab")]);
        assert_eq!(
            s.errors,
            [
                "MCP_TOOLSETS=\"github,gitlab\": unknown toolset \"gitlab\"; use a comma-separated list of github, \
              circleci, ci, jira, confluence, bitbucket"
            ]
        );
        assert!(s.tools.selection.toolsets.is_empty());
        let (s, _) = settings(&[(TOOLSETS, "jira"), (READ_ONLY, "1")]);
        assert!(s.errors.is_empty() && s.tools.selection.read_only);
        assert_eq!(s.tools.selection_names.toolsets, TOOLSETS);
    }

    #[test]
    fn deployments_are_read_per_product_and_an_unknown_one_stops_start_up() {
        let (s, _) = settings(&[
            (JIRA_DEPLOYMENT, "data-center"),
            (BITBUCKET_DEPLOYMENT, "Server"),
            (JIRA_PERSONAL_TOKEN, "pat-123"),
        ]);
        assert!(s.errors.is_empty(), "{:?}", s.errors);
        let atlassian = &s.tools.atlassian;
        assert_eq!(atlassian.jira_deployment, Deployment::DataCenter);
        assert_eq!(atlassian.confluence_deployment, Deployment::Cloud);
        assert_eq!(atlassian.bitbucket_deployment, Deployment::DataCenter);
        assert_eq!(
            atlassian.jira_personal_token.as_ref().map(|t| t.expose()),
            Some("pat-123")
        );
        assert_eq!(atlassian.setting_names.jira_personal_token, JIRA_PERSONAL_TOKEN);
        let (s, _) = settings(&[(CONFLUENCE_DEPLOYMENT, "on-prem")]);
        assert_eq!(
            s.errors,
            [
                "CONFLUENCE_DEPLOYMENT: `on-prem` is not a deployment: use cloud or data-center (server and dc are \
              accepted for data-center)"
            ]
        );
    }

    /// The `MCP_TOOLSETS` row (a constant, for `--help`) names the vendor registry's toolsets, in its order: a
    /// vendor added to the registry fails this until its name is in the row's default and help.
    #[test]
    fn the_toolsets_setting_names_every_vendor_of_the_registry() {
        let names: Vec<&str> = mcp_devtools_tools::vendors::names().collect();
        let row = crate::registry::SETTINGS
            .iter()
            .find(|row| row.name == TOOLSETS)
            .expect("the MCP_TOOLSETS row");
        assert_eq!(row.default, Some(names.join(",").as_str()));
        assert!(row.help.contains(&names.join(", ")), "{}", row.help);
    }

    #[test]
    fn session_limits_parse_and_clamp() {
        let (s, warnings) = settings(&[
            (HTTP_SESSION_IDLE, "0"),
            (HTTP_MAX_SESSIONS, "50"),
            (HTTP_MAX_SESSIONS_PER_PRINCIPAL, "many"),
        ]);
        assert_eq!(s.deploy.sessions.idle_seconds, 1);
        assert_eq!(s.deploy.sessions.max_total, 50);
        assert_eq!(s.deploy.sessions.max_per_principal, 100);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
    }

    #[test]
    fn connection_and_fair_share_settings_parse_and_clamp() {
        let (s, warnings) = settings(&[]);
        assert_eq!(s.deploy.connections, deploy::ConnectionLimits::default());
        assert_eq!(s.deploy.connections.max_connections, 1024);
        assert_eq!(s.deploy.fair.max_calls, 32);
        assert_eq!(s.deploy.fair.rate_per_second, 0);
        assert!(warnings.is_empty(), "{warnings:?}");
        let (s, warnings) = settings(&[
            (HTTP_MAX_CONNECTIONS, "0"),
            (HTTP_HEADER_READ_TIMEOUT, "3"),
            (HTTP_BODY_READ_TIMEOUT, "99999"),
            (HTTP_MAX_CALLS_PER_PRINCIPAL, "256"),
            (HTTP_RATE_PER_PRINCIPAL, "20"),
        ]);
        assert_eq!(s.deploy.connections.max_connections, 1);
        assert_eq!(s.deploy.connections.header_read_timeout_seconds, 3);
        assert_eq!(s.deploy.connections.body_read_timeout_seconds, 3600);
        assert_eq!(s.deploy.fair.max_calls, 256);
        assert_eq!(s.deploy.fair.rate_per_second, 20);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
    }

    #[test]
    fn parses_http_settings() {
        let (s, _) = settings(&[
            (HTTP_ADDR, " 127.0.0.1:8080 "),
            (HTTP_NO_AUTH, "true"),
            (HTTP_ALLOWED_HOSTS, "mcp.example.com, mcp.example.com:443"),
            (HTTP_ALLOWED_ORIGINS, "https://app.example.com, ,http://localhost:*"),
        ]);
        assert_eq!(s.deploy.http_addr, Some("127.0.0.1:8080".parse().unwrap()));
        assert!(s.deploy.no_auth);
        assert_eq!(s.deploy.allowed_hosts, vec!["mcp.example.com", "mcp.example.com:443"]);
        assert_eq!(
            s.deploy.allowed_origins,
            vec!["https://app.example.com", "http://localhost:*"]
        );
    }

    #[test]
    fn oauth_settings_and_the_auth_mode() {
        let (s, warnings) = settings(&[]);
        assert!(s.deploy.oauth.is_none() && warnings.is_empty());
        assert!(s.auth_mode().starts_with("not configured"), "{}", s.auth_mode());
        let (s, warnings) = settings(&[
            (OAUTH_ISSUER, "https://login.example.com/realms/acme"),
            (OAUTH_RESOURCE, "https://mcp.example.com/mcp"),
            (OAUTH_INTROSPECTION_CLIENT_ID, "mcp"),
            (OAUTH_INTROSPECTION_CLIENT_SECRET, "s3cr3t-introspection"),
            (HTTP_TOKENS_FILE, "/etc/mcp/tokens.toml"),
        ]);
        assert!(
            warnings.is_empty() && s.errors.is_empty(),
            "{warnings:?} {:?}",
            s.errors
        );
        let oauth = s.deploy.oauth.as_ref().unwrap();
        assert_eq!(oauth.principal_claim, "sub");
        assert_eq!(
            (oauth.read_scope.as_str(), oauth.write_scope.as_str()),
            ("devtools:read", "devtools:write")
        );
        assert_eq!(oauth.algorithms.len(), deploy::OAUTH_ALGORITHM_NAMES.len());
        assert_eq!(oauth.leeway_seconds, 30);
        let mode = s.auth_mode();
        assert!(
            mode.starts_with(
                "oauth (issuer https://login.example.com/realms/acme, resource https://mcp.example.com/mcp"
            ) && mode.contains("introspection")
                && mode.ends_with(" + tokens file /etc/mcp/tokens.toml"),
            "{mode}"
        );
        assert!(!format!("{s:?} {mode}").contains("s3cr3t-introspection"));
        let (s, _) = settings(&[
            (OAUTH_ISSUER, "https://login.example.com"),
            (OAUTH_ALGORITHMS, "RS256,HS256"),
            (OAUTH_INTROSPECTION_CLIENT_ID, "mcp"),
            (HTTP_NO_AUTH, "true"),
        ]);
        assert_eq!(s.errors.len(), 3, "{:?}", s.errors);
        assert!(s.errors[0].contains("\"HS256\" is not accepted"), "{:?}", s.errors);
    }

    #[test]
    fn the_clamp_helper_names_the_setting_and_the_value_used() {
        let lookup = |name: &str| (name == "N").then(|| " 99999999999999999999999 ".to_owned());
        let mut r = Reader::new(&lookup);
        assert_eq!(r.whole("N", 5, 1..=10), 10);
        assert_eq!(r.whole("UNSET", 5, 1..=10), 5);
        assert_eq!(r.warnings, ["N=99999999999999999999999 is outside 1..=10; using 10"]);
        let lookup = |_: &str| Some("12k".to_owned());
        let mut r = Reader::new(&lookup);
        assert_eq!(r.whole("N", 5, 1..=10), 5);
        assert!(!r.switch("S", false));
        assert_eq!(r.warnings.len(), 2);
        assert_eq!(r.warnings[0], "N=\"12k\" is not a whole number; using 5");
    }
}
