//! The one table of every setting: its name (the environment variable and config-file key), its command-line flag,
//! help text, whether it is a secret, and the default shown in `--help` and `--print-config`.
//!
//! The clap arguments ([`crate::cli`]), the config-file key check ([`crate::cascade`]) and `--print-config` are all
//! generated from [`SETTINGS`]: adding a setting means adding one row here and parsing it in
//! [`crate::config::Settings::from_lookup`].

use crate::config;
use crate::deploy_settings as deploy;
use crate::toolsets;

/// One setting's row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SettingDef {
    /// The environment-variable name, also the config-file key (e.g. `MCP_STRUCTURED_OUTPUT`).
    pub name: &'static str,
    /// The long command-line flag without dashes (e.g. `structured-output`).
    pub flag: &'static str,
    /// One-line help, with units and range.
    pub help: &'static str,
    /// A secret: masked as `***` by `--print-config`, never logged.
    pub secret: bool,
    /// The default as shown to people (`None`: unset by default).
    pub default: Option<&'static str>,
    /// A switch: the flag takes no value and means `true` (e.g. `--no-auth`).
    pub switch: bool,
}

impl SettingDef {
    /// A setting whose flag takes a value.
    pub const fn value(
        name: &'static str,
        flag: &'static str,
        help: &'static str,
        default: Option<&'static str>,
    ) -> Self {
        SettingDef {
            name,
            flag,
            help,
            secret: false,
            default,
            switch: false,
        }
    }

    /// This row, marked secret (masked in `--print-config`).
    pub const fn secret(mut self) -> Self {
        self.secret = true;
        self
    }

    /// This row, as a switch (`--flag` alone means `true`).
    pub const fn switch(mut self) -> Self {
        self.switch = true;
        self
    }
}

/// Every setting, in `--help` and `--print-config` order.
pub const SETTINGS: &[SettingDef] = &[
    SettingDef::value(
        config::STRUCTURED_OUTPUT,
        "structured-output",
        "Advertise outputSchema and return structuredContent: true/false/1/0/yes/no/on/off",
        Some("false"),
    ),
    SettingDef::value(
        config::STRUCTURED_MAX_BYTES,
        "structured-max-bytes",
        "Bound on the compact structuredContent, bytes; clamped 16384..=15728640",
        Some("262144"),
    ),
    SettingDef::value(
        toolsets::TOOLSETS,
        "toolsets",
        "Comma-separated toolsets to offer: github, circleci, jira, confluence, bitbucket (artifact_read comes with them)",
        Some("github,circleci,jira,confluence,bitbucket"),
    ),
    SettingDef::value(
        toolsets::READ_ONLY,
        "read-only",
        "Offer only read tools (no *_post/_put/_patch/_delete); env values true/false/1/0/yes/no/on/off",
        Some("false"),
    )
    .switch(),
    SettingDef::value(
        config::GITHUB_TOKEN,
        "github-token",
        "GitHub token (actions:read or repo); prefer the environment or a file over this flag",
        None,
    )
    .secret(),
    SettingDef::value(
        config::GITHUB_API_BASE,
        "github-api-base",
        "GitHub REST base URL (GHES: https://HOST/api/v3)",
        Some("https://api.github.com"),
    ),
    SettingDef::value(
        config::UPSTREAM_TIMEOUT,
        "upstream-timeout-seconds",
        "Timeout of one upstream call (every attempt and retry wait), seconds; clamped 1..=300",
        Some("30"),
    ),
    SettingDef::value(
        config::ARTIFACT_STORE,
        "artifact-store",
        "Artifact backend: fs, memory or s3 (shared by replicas)",
        Some("fs"),
    ),
    SettingDef::value(
        config::ARTIFACT_S3_URL,
        "artifact-s3-url",
        "Where the s3 artifact store keeps objects: s3://BUCKET or s3://BUCKET/PREFIX",
        None,
    ),
    SettingDef::value(
        config::AWS_ENDPOINT_URL,
        "aws-endpoint-url",
        "S3-compatible endpoint for the s3 artifact store (MinIO, ...); unset = AWS S3",
        None,
    ),
    SettingDef::value(
        config::AWS_REGION,
        "aws-region",
        "Region of the S3 bucket",
        Some("us-east-1"),
    ),
    SettingDef::value(
        config::AWS_ACCESS_KEY_ID,
        "aws-access-key-id",
        "S3 access key id; unset with AWS_SECRET_ACCESS_KEY = no static credentials",
        None,
    ),
    SettingDef::value(
        config::AWS_SECRET_ACCESS_KEY,
        "aws-secret-access-key",
        "S3 secret access key; prefer the environment or a file over this flag",
        None,
    )
    .secret(),
    SettingDef::value(
        config::AWS_SESSION_TOKEN,
        "aws-session-token",
        "Session token of temporary S3 credentials",
        None,
    )
    .secret(),
    SettingDef::value(
        config::AWS_ALLOW_HTTP,
        "aws-allow-http",
        "Allow a plain-HTTP S3 endpoint (a local server): true/false",
        Some("false"),
    ),
    SettingDef::value(
        config::ARTIFACT_DIR,
        "artifact-dir",
        "Directory of the fs artifact store",
        Some("<platform state dir>/mcp-devtools/artifacts"),
    ),
    SettingDef::value(
        config::ARTIFACT_RETENTION,
        "artifact-retention-seconds",
        "How long an artifact stays readable, seconds; clamped 300..=604800",
        Some("3600"),
    ),
    SettingDef::value(
        config::ARTIFACT_SWEEP,
        "artifact-sweep-interval-seconds",
        "How often expired artifacts are deleted, seconds; clamped 5..=3600",
        Some("60"),
    ),
    SettingDef::value(
        config::ARTIFACT_MAX_STORE_BYTES,
        "artifact-max-store-bytes",
        "Most bytes of artifact data the whole store holds; clamped 1024..=2^40",
        Some("1073741824"),
    ),
    SettingDef::value(
        config::ARTIFACT_MAX_PRINCIPAL_BYTES,
        "artifact-max-principal-bytes",
        "Most bytes of artifact data one principal holds; clamped 1024..=2^40",
        Some("268435456"),
    ),
    SettingDef::value(
        config::CIRCLECI_TOKEN,
        "circleci-token",
        "CircleCI personal API token (sent as Circle-Token); prefer the environment or a file over this flag",
        None,
    )
    .secret(),
    SettingDef::value(
        config::CIRCLECI_API_BASE,
        "circleci-api-base",
        "CircleCI API v2 base URL",
        Some("https://circleci.com/api/v2"),
    ),
    SettingDef::value(
        config::HTTP_MAX_BODY_BYTES,
        "http-max-body-bytes",
        "Largest upstream response body, bytes; clamped 1024..=1073741824",
        Some("33554432"),
    ),
    SettingDef::value(
        config::JQ_TIMEOUT,
        "jq-timeout-seconds",
        "Wall-clock limit of one jq projection (run in a child process, killed then), seconds; clamped 1..=60",
        Some("10"),
    ),
    SettingDef::value(
        config::JQ_MAX_MEMORY,
        "jq-max-memory-mib",
        "Memory one jq projection may use for its data, MiB; clamped 64..=65536",
        Some("2048"),
    ),
    SettingDef::value(
        config::HTTP_CACHE_ENABLED,
        "http-cache-enabled",
        "Use the HTTP cache for circleci_get and the Atlassian reads: true/false/1/0/yes/no/on/off",
        Some("true"),
    ),
    SettingDef::value(
        config::HTTP_CACHE_MAX_ENTRIES,
        "http-cache-max-entries",
        "Most HTTP cache entries; clamped 1..=1000000",
        Some("512"),
    ),
    SettingDef::value(
        config::HTTP_CACHE_MAX_BYTES,
        "http-cache-max-bytes",
        "Most cached bytes; clamped 65536..=4294967296",
        Some("67108864"),
    ),
    SettingDef::value(
        config::HTTP_CACHE_DEFAULT_TTL,
        "http-cache-default-ttl-seconds",
        "Cache freshness when a response gives none, seconds; clamped 1..=3600",
        Some("60"),
    ),
    SettingDef::value(
        config::HTTP_CACHE_REDIS_URL,
        "http-cache-redis-url",
        "Keep the HTTP cache in Redis, shared by replicas: redis://HOST:PORT/DB (may hold a password: masked)",
        None,
    )
    .secret(),
    SettingDef::value(
        config::ATLASSIAN_SITE_NAME,
        "atlassian-site-name",
        "Atlassian Cloud site name: your-domain for https://your-domain.atlassian.net (Jira and Confluence base)",
        None,
    ),
    SettingDef::value(
        config::JIRA_BASE_URL,
        "jira-base-url",
        "Jira base URL, overriding the site (Data Center)",
        Some("https://<ATLASSIAN_SITE_NAME>.atlassian.net"),
    ),
    SettingDef::value(
        config::CONFLUENCE_BASE_URL,
        "confluence-base-url",
        "Confluence base URL, overriding the site (Data Center)",
        Some("https://<ATLASSIAN_SITE_NAME>.atlassian.net/wiki"),
    ),
    SettingDef::value(
        config::BITBUCKET_BASE_URL,
        "bitbucket-base-url",
        "Bitbucket API base URL",
        Some("https://api.bitbucket.org"),
    ),
    SettingDef::value(
        config::ATLASSIAN_USER_EMAIL,
        "atlassian-user-email",
        "Atlassian account e-mail: the Basic-auth user for Jira, Confluence (and Bitbucket by default)",
        None,
    ),
    SettingDef::value(
        config::ATLASSIAN_API_TOKEN,
        "atlassian-api-token",
        "Atlassian API token for ATLASSIAN_USER_EMAIL; prefer the environment or a file over this flag",
        None,
    )
    .secret(),
    SettingDef::value(
        config::ATLASSIAN_BITBUCKET_USERNAME,
        "atlassian-bitbucket-username",
        "Bitbucket user name for an app password (used instead of the e-mail and API token when set)",
        None,
    ),
    SettingDef::value(
        config::ATLASSIAN_BITBUCKET_APP_PASSWORD,
        "atlassian-bitbucket-app-password",
        "Bitbucket app password for ATLASSIAN_BITBUCKET_USERNAME; prefer the environment or a file over this flag",
        None,
    )
    .secret(),
    SettingDef::value(
        deploy::HTTP_ADDR,
        "http",
        "Serve streamable HTTP at /mcp on IP:PORT (e.g. 127.0.0.1:8080) instead of stdio",
        None,
    ),
    SettingDef::value(
        deploy::HTTP_NO_AUTH,
        "no-auth",
        "Serve HTTP without bearer tokens; refused unless the address is loopback",
        Some("false"),
    )
    .switch(),
    SettingDef::value(
        deploy::HTTP_TOKENS_FILE,
        "tokens-file",
        "TOML file: [tokens] \"<sha256 hex of token>\" = \"principal\"",
        None,
    ),
    SettingDef::value(
        deploy::HTTP_ALLOWED_HOSTS,
        "allowed-hosts",
        "Comma-separated Host header values accepted over HTTP (default: loopback names and the bound address)",
        None,
    ),
    SettingDef::value(
        deploy::HTTP_ALLOWED_ORIGINS,
        "allowed-origins",
        "Comma-separated browser origins (scheme://host[:port|:*]) accepted in an Origin header; loopback origins \
         are always accepted on a loopback bind; other origins get 403",
        None,
    ),
    SettingDef::value(
        deploy::HTTP_STATELESS,
        "http-stateless",
        "Serve HTTP without server-side sessions, so any replica answers any request",
        Some("false"),
    )
    .switch(),
    SettingDef::value(
        deploy::HTTP_SHUTDOWN_GRACE,
        "shutdown-grace-seconds",
        "On SIGINT/SIGTERM, wait this long for calls in flight, seconds; clamped 1..=600",
        Some("30"),
    ),
    SettingDef::value(
        deploy::HTTP_SESSION_IDLE,
        "session-idle-seconds",
        "Close an HTTP session after this long without a request, seconds (a later request naming it gets 404); \
         clamped 1..=86400",
        Some("600"),
    ),
    SettingDef::value(
        deploy::HTTP_MAX_SESSIONS,
        "max-sessions",
        "Live HTTP sessions in all; a new session past it gets 503 with Retry-After; clamped 1..=1000000",
        Some("1000"),
    ),
    SettingDef::value(
        deploy::HTTP_MAX_SESSIONS_PER_PRINCIPAL,
        "max-sessions-per-principal",
        "Live HTTP sessions of one principal; a new session past it gets 503 with Retry-After; clamped 1..=1000000",
        Some("100"),
    ),
    SettingDef::value(
        deploy::MAX_REQUEST_BYTES,
        "max-request-bytes",
        "Largest JSON-RPC message accepted, bytes, on stdio (one line) and HTTP (one POST body) alike; \
         clamped 1024..=16777216",
        Some("4194304"),
    ),
    SettingDef::value(
        deploy::POLICY_FILE,
        "policy",
        "TOML policy file (allow / deny / approval_required rules); unset = every call allowed",
        None,
    ),
    SettingDef::value(
        deploy::ENTERPRISE_MODE,
        "enterprise-mode",
        "Every result carries _meta[\"mcp-devtools/upstream\"] = {vendor, credentialLabel, authority}",
        Some("false"),
    ),
    SettingDef::value(
        deploy::LOG_FILTER,
        "log",
        "Log filter (tracing EnvFilter syntax, e.g. info or mcp_devtools_server=debug); logs go to stderr",
        Some("info"),
    ),
];

/// The row named `name` (exact, case-sensitive).
pub fn find(name: &str) -> Option<&'static SettingDef> {
    SETTINGS.iter().find(|def| def.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn names_and_flags_are_unique() {
        let names: HashSet<_> = SETTINGS.iter().map(|d| d.name).collect();
        let flags: HashSet<_> = SETTINGS.iter().map(|d| d.flag).collect();
        assert_eq!(names.len(), SETTINGS.len());
        assert_eq!(flags.len(), SETTINGS.len());
        assert!(find(config::GITHUB_TOKEN).is_some_and(|d| d.secret));
    }
}
