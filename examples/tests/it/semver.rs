//! Semver hygiene, seen from a crate downstream of the library crates.
//!
//! - Every config is built from outside with its builder (`Default`/`new` + `with_*`): this file compiles only
//!   because they exist, since `#[non_exhaustive]` forbids struct literals here. Each value is read back.
//! - The sources keep the policy: every public error type (`thiserror`) and every config listed in [`CONFIGS`] is
//!   `#[non_exhaustive]`, and no library crate reaches an item by two public paths (a `pub mod m` in a file that
//!   also has `pub use m::…`, or a `pub use crate::…` re-export).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use adapters_atlassian::AtlassianConfig;
use adapters_circleci::CircleciConfig;
use adapters_github::{GetRequest, GithubConfig, ListWorkflowJobsParams, ListWorkflowRunsParams, MediaType};
use adapters_http::cache::CacheConfig;
use adapters_http::cache::redis::RedisCacheConfig;
use adapters_http::tls::{TlsOptions, TlsSettingNames};
use adapters_http::{
    ClientOptions, HttpConfig, HttpOptions, Proxies, ProxyOptions, ProxyUrl, RetryPolicy, Secret, SettingNames, Vendor,
};
use mcp_artifacts::{Quota, S3Config, StoreConfig, StoreLimits};
use mcp_devtools_tools::logs::{Grep, Options};
use mcp_devtools_tools::{TasksConfig, ToolsConfig};
use mcp_projection::IsolatedConfig;
use mcp_results::tasks::RedisTaskStoreConfig;
use mcp_serve::http::{ConnectionLimits, FairShare, SessionLimits};
use mcp_serve::stdio::StdioConfig;

#[test]
fn every_config_is_built_from_outside_with_its_builder() {
    let store = StoreConfig::default()
        .with_retention(Duration::from_secs(600))
        .with_quota(Quota::default().with_max_principal_bytes(1024));
    assert_eq!(store.retention, Duration::from_secs(600));
    assert_eq!(store.quota.max_principal_bytes, 1024);
    let limits = StoreLimits::default()
        .with_max_concurrent(2)
        .with_timeout(Duration::from_secs(1));
    assert_eq!((limits.max_concurrent, limits.timeout), (2, Duration::from_secs(1)));

    let s3 = S3Config::default()
        .with_url("s3://bucket/prefix")
        .with_region(Some("eu-west-1".to_owned()))
        .with_allow_http(true);
    assert_eq!(
        (s3.url.as_str(), s3.region.as_deref(), s3.allow_http),
        ("s3://bucket/prefix", Some("eu-west-1"), true)
    );

    let jq = IsolatedConfig::default()
        .with_workers(3)
        .with_timeout(Duration::from_secs(2));
    assert_eq!((jq.workers, jq.timeout), (3, Duration::from_secs(2)));

    let http = mcp_serve::http::HttpConfig::default()
        .with_stateless(true)
        .with_sessions(SessionLimits::default().with_max_total(7))
        .with_connections(ConnectionLimits::default().with_max_connections(9))
        .with_fair(FairShare::default().with_max_concurrent_per_principal(2));
    assert!(http.stateless);
    assert_eq!(
        (
            http.sessions.max_total,
            http.connections.max_connections,
            http.fair.max_concurrent_per_principal
        ),
        (7, 9, 2)
    );
    let stdio = StdioConfig::default().with_max_request_bytes(4096);
    assert_eq!(stdio.max_request_bytes, 4096);

    let client = HttpConfig::new(
        Vendor::new("Example", SettingNames::default()),
        "https://api.example.com",
    )
    .with_client(ClientOptions::default().with_timeout(Duration::from_secs(5)))
    .with_retry(RetryPolicy::default().with_max_attempts(1));
    assert_eq!(
        (client.client.timeout, client.retry.max_attempts),
        (Duration::from_secs(5), 1)
    );
    let names = TlsSettingNames::default().with_ca_bundle("EXAMPLE_CA_BUNDLE");
    let proxy = ProxyUrl::parse("http://proxy.example:3128", "EXAMPLE_PROXY").unwrap();
    let proxies = Proxies::default().with_https(Some(proxy)).with_no_proxy("localhost");
    let reach = ClientOptions::default()
        .with_tls(TlsOptions::default().with_names(names))
        .with_proxy(ProxyOptions::Explicit(proxies));
    assert_eq!(reach.tls.names.ca_bundle, "EXAMPLE_CA_BUNDLE");
    assert!(matches!(&reach.proxy, ProxyOptions::Explicit(p) if p.no_proxy == "localhost"));
    let cache = CacheConfig::default().with_enabled(false).with_max_entries(10);
    assert_eq!((cache.enabled, cache.max_entries), (false, 10));
    let redis = RedisCacheConfig::new("redis://127.0.0.1:6379/0")
        .with_command_timeout(Duration::from_millis(20))
        .with_reconnect_interval(Duration::from_secs(3));
    assert_eq!(
        (redis.url.as_str(), redis.command_timeout, redis.reconnect_interval),
        (
            "redis://127.0.0.1:6379/0",
            Duration::from_millis(20),
            Duration::from_secs(3)
        )
    );

    let github = GithubConfig::default().with_http(
        HttpOptions::new("http://127.0.0.1:9")
            .with_credential(Some(Secret::new("ghp_example")))
            .with_setting_names(SettingNames::default().with_credential("GITHUB_TOKEN"))
            .with_client(ClientOptions::default().with_max_body_bytes(1 << 20)),
    );
    assert_eq!(
        (
            github.http.api_base.as_str(),
            github.http.setting_names.credential,
            github.http.client.max_body_bytes
        ),
        ("http://127.0.0.1:9", "GITHUB_TOKEN", 1 << 20)
    );
    let runs = ListWorkflowRunsParams::new("octo-org", "octo-repo").with_branch(Some("main".to_owned()));
    assert_eq!(
        (runs.owner.as_str(), runs.branch.as_deref()),
        ("octo-org", Some("main"))
    );
    let jobs = ListWorkflowJobsParams::new("octo-org", "octo-repo", 42).with_per_page(Some(10));
    assert_eq!((jobs.run_id, jobs.per_page), (42, Some(10)));
    let query = [("state".to_owned(), "all".to_owned())];
    let get = GetRequest::new("/repos/o/r/pulls")
        .with_query(&query)
        .with_page(Some(2))
        .with_media_type(MediaType::Diff);
    assert_eq!(
        (get.path, get.query.len(), get.per_page, get.page, get.media_type),
        ("/repos/o/r/pulls", 1, None, Some(2), MediaType::Diff)
    );
    let circleci = CircleciConfig::default().with_http(
        HttpOptions::new(adapters_circleci::DEFAULT_API_BASE)
            .with_client(ClientOptions::default().with_timeout(Duration::from_secs(3))),
    );
    assert_eq!(circleci.http.client.timeout, Duration::from_secs(3));
    let circleci_get = adapters_circleci::GetRequest::new("/me", "alice")
        .with_query(&query)
        .with_fresh(true);
    assert_eq!(
        (
            circleci_get.path,
            circleci_get.partition,
            circleci_get.query.len(),
            circleci_get.fresh
        ),
        ("/me", "alice", 1, true)
    );
    let atlassian = AtlassianConfig::default()
        .with_site_name(Some("example".to_owned()))
        .with_setting_names(adapters_atlassian::SettingNames::default().with_site_name("ATLASSIAN_SITE_NAME"))
        .with_client(ClientOptions::default().with_user_agent("my-agent/1.0"));
    assert_eq!(
        (atlassian.setting_names.site_name, atlassian.client.user_agent.as_str()),
        ("ATLASSIAN_SITE_NAME", "my-agent/1.0")
    );

    let tools = ToolsConfig::default()
        .with_structured_output(true)
        .with_artifact_store(store)
        .with_github(github)
        .with_jq(jq)
        .with_artifact_limits(limits);
    assert!(tools.structured_output);
    assert_eq!(
        (
            tools.artifact_store.retention,
            tools.jq.workers,
            tools.artifact_limits.max_concurrent
        ),
        (Duration::from_secs(600), 3, 2)
    );

    let redis = RedisTaskStoreConfig::new("redis://127.0.0.1:6379/1")
        .with_command_timeout(Duration::from_millis(500))
        .with_reconnect_interval(Duration::from_secs(2))
        .with_cancel_poll_interval(Duration::from_millis(100))
        .with_key_prefix("my-server:tasks");
    let tasks = TasksConfig::default()
        .with_ttl(Duration::from_secs(600))
        .with_poll_interval(Duration::from_millis(2000))
        .with_redis(Some(redis));
    assert_eq!(
        (tasks.ttl, tasks.poll_interval),
        (Duration::from_secs(600), Duration::from_millis(2000))
    );
    let redis = tasks.redis.as_ref().expect("set");
    assert_eq!(
        (
            redis.command_timeout,
            redis.cancel_poll_interval,
            redis.key_prefix.as_str()
        ),
        (
            Duration::from_millis(500),
            Duration::from_millis(100),
            "my-server:tasks"
        )
    );
    let tools = ToolsConfig::default().with_tasks(tasks.clone());
    assert_eq!(tools.tasks, tasks);

    let logs = Options::new(4096)
        .with_tail(Some(20))
        .with_grep(Some(Grep::new("error").unwrap()))
        .with_context(1)
        .with_raw(true);
    assert_eq!(
        (logs.keep_limit, logs.tail, logs.context, logs.raw, logs.grep.is_some()),
        (4096, Some(20), 1, true, true)
    );
}

/// The library crates (not the vendored jaq forks, the server or the examples).
const LIBRARY_CRATES: [&str; 11] = [
    "mcp-envelope",
    "mcp-artifacts",
    "mcp-projection",
    "mcp-results",
    "mcp-policy",
    "mcp-serve",
    "adapters-http",
    "adapters-github",
    "adapters-circleci",
    "adapters-atlassian",
    "mcp-devtools-tools",
];

/// The config types that will grow, each `#[non_exhaustive]`: structs with builder methods (request parameters
/// too: GitHub's and CircleCI's `GetRequest`; `Options`: the job-log scanner's), and the enums among their settings.
const CONFIGS: [&str; 35] = [
    "StoreConfig",
    "StoreLimits",
    "Quota",
    "S3Config",
    "IsolatedConfig",
    "StdioConfig",
    "SessionLimits",
    "ConnectionLimits",
    "FairShare",
    "HttpConfig",
    "HttpOptions",
    "ClientOptions",
    "TlsOptions",
    "TlsSettingNames",
    "ProxyOptions",
    "Proxies",
    "RetryPolicy",
    "CacheConfig",
    "RedisCacheConfig",
    "GithubConfig",
    "ListWorkflowRunsParams",
    "ListWorkflowJobsParams",
    "GetRequest",
    "CircleciConfig",
    "AtlassianConfig",
    "SettingNames",
    "ToolsConfig",
    "TasksConfig",
    "RedisTaskStoreConfig",
    "Options",
    "OAuthConfig",
    "ArtifactBackend",
    "WorkerProgram",
    "RedirectPolicy",
    "Auth",
];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read a source folder") {
        let path = entry.expect("folder entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// `(file, line number, item name, attributes above it)` for every top-level `pub enum` / `pub struct`.
fn public_types(file: &Path, text: &str) -> Vec<(String, usize, String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        let Some(rest) = line
            .strip_prefix("pub enum ")
            .or_else(|| line.strip_prefix("pub struct "))
        else {
            continue;
        };
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        let mut attrs = String::new();
        for above in lines[..at].iter().rev() {
            let above = above.trim_start();
            if above.starts_with("#[") || above.starts_with("///") || above.starts_with(')') || above.starts_with('"') {
                attrs.push_str(above);
            } else {
                break;
            }
        }
        found.push((file.display().to_string(), at + 1, name, attrs));
    }
    found
}

#[test]
fn errors_and_configs_are_non_exhaustive_and_each_item_has_one_public_path() {
    let mut problems = Vec::new();
    let mut errors_seen = 0;
    let mut configs_seen = std::collections::BTreeSet::new();
    for krate in LIBRARY_CRATES {
        let mut files = Vec::new();
        rust_files(&workspace().join(krate).join("src"), &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).expect("read a source file");
            for (path, line, name, attrs) in public_types(&file, &text) {
                // Tuple and unit error structs have no fields to add: a new case is a new type.
                let shape_fixed =
                    text.contains(&format!("pub struct {name}(")) || text.contains(&format!("pub struct {name};"));
                let is_error = attrs.contains("thiserror::Error") && !shape_fixed;
                let is_config = CONFIGS.contains(&name.as_str());
                errors_seen += usize::from(is_error);
                if is_config {
                    configs_seen.insert(name.clone());
                }
                if (is_error || is_config) && !attrs.contains("#[non_exhaustive]") {
                    problems.push(format!("{path}:{line}: `{name}` is not #[non_exhaustive]"));
                }
            }
            for (at, line) in text.lines().enumerate() {
                let trimmed = line.trim_start();
                if trimmed.starts_with("pub use crate::") || trimmed.starts_with("pub use self::") {
                    problems.push(format!(
                        "{}:{}: re-export inside the crate: {trimmed}",
                        file.display(),
                        at + 1
                    ));
                }
                let Some(module) = trimmed.strip_prefix("pub mod ") else {
                    continue;
                };
                let module = module.trim_end_matches([';', ' ', '{']);
                if text.contains(&format!("pub use {module}::")) {
                    problems.push(format!(
                        "{}:{}: `{module}` is public and its items are re-exported beside it (two paths)",
                        file.display(),
                        at + 1
                    ));
                }
            }
        }
    }
    assert!(
        errors_seen >= 20,
        "only {errors_seen} public error types found: is the scan still reading the sources?"
    );
    let missing: Vec<_> = CONFIGS.iter().filter(|name| !configs_seen.contains(**name)).collect();
    assert!(
        missing.is_empty(),
        "configs no longer found (renamed? update CONFIGS): {missing:?}"
    );
    assert!(problems.is_empty(), "semver hygiene:\n{}", problems.join("\n"));
}
