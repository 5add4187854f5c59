//! The one table of every setting: its name (the environment variable and config-file key), its command-line flag,
//! whether it is a secret or a switch, the default shown by `--help` and `--print-config`, and its help text.
//!
//! This is the only place setting names are written: the clap arguments ([`crate::cli`], with `Arg::env`), the
//! config-file key check ([`crate::cascade`]), `--print-config` and the typed parser ([`crate::config`]) all read it.
//! Library crates never see these names: they take typed configuration.

/// What kind of value a setting holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A flag with a value.
    Value,
    /// A flag with a value that is a secret: masked as `***` by `--print-config`, never logged.
    Secret,
    /// A switch: the flag alone means `true`; the environment and files may say `true/false/1/0/yes/no/on/off`.
    Switch,
}

/// One setting's row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SettingDef {
    /// The environment-variable name, also the config-file key (e.g. `MCP_STRUCTURED_OUTPUT`).
    pub name: &'static str,
    /// The long command-line flag without dashes (e.g. `structured-output`).
    pub flag: &'static str,
    /// Value, secret or switch.
    pub kind: Kind,
    /// The default as shown to people (`None`: unset by default).
    pub default: Option<&'static str>,
    /// One-line help, with units and range.
    pub help: &'static str,
}

impl SettingDef {
    /// A secret: masked as `***` by `--print-config`, never logged.
    pub fn secret(&self) -> bool {
        self.kind == Kind::Secret
    }
}

macro_rules! settings {
    ($($id:ident = $name:literal, $flag:literal, $kind:ident, $default:expr, $help:literal;)*) => {
        $(#[doc = concat!("`", $name, "` (its flag, default and help: [`SETTINGS`]).")] pub const $id: &str = $name;)*
        /// Every setting, in `--help` and `--print-config` order.
        pub const SETTINGS: &[SettingDef] = &[
            $(SettingDef { name: $name, flag: $flag, kind: Kind::$kind, default: $default, help: $help }),*
        ];
    };
}

settings! {
    STRUCTURED_OUTPUT = "MCP_STRUCTURED_OUTPUT", "structured-output", Value, Some("false"), "Advertise outputSchema and return structuredContent: true/false/1/0/yes/no/on/off";
    STRUCTURED_MAX_BYTES = "MCP_STRUCTURED_MAX_BYTES", "structured-max-bytes", Value, Some("262144"), "Bound on the compact structuredContent, bytes; clamped 16384..=15728640";
    TOOLSETS = "MCP_TOOLSETS", "toolsets", Value, Some("github,circleci,ci,jira,confluence,bitbucket"), "Comma-separated toolsets to offer: github, circleci, ci, jira, confluence, bitbucket (ci: ci_status, ci_test_results and the artifact reads, across GitHub and CircleCI; artifact_read comes with them)";
    READ_ONLY = "MCP_READ_ONLY", "read-only", Switch, Some("false"), "Offer only read tools (no jira_write, conf_write, bb_write); env values true/false/1/0/yes/no/on/off";
    GITHUB_TOKEN = "GITHUB_TOKEN", "github-token", Secret, None, "GitHub token (actions:read or repo); prefer the environment or a file over this flag";
    GITHUB_API_BASE = "GITHUB_API_BASE", "github-api-base", Value, Some("https://api.github.com"), "GitHub REST base URL (GHES: https://HOST/api/v3)";
    GITHUB_CA_BUNDLE = "GITHUB_CA_BUNDLE", "github-ca-bundle", Value, None, "PEM file of the CA certificate(s) that issued the GitHub server's certificate (GHES behind a private CA), trusted besides the system's; unset = MCP_CA_BUNDLE";
    GITHUB_CLIENT_CERT = "GITHUB_CLIENT_CERT", "github-client-cert", Value, None, "PEM file of the client certificate (then any intermediates) presented to GitHub when it asks for one (mutual TLS); with GITHUB_CLIENT_KEY";
    GITHUB_CLIENT_KEY = "GITHUB_CLIENT_KEY", "github-client-key", Value, None, "PEM file of GITHUB_CLIENT_CERT's private key, unencrypted PKCS#8 (BEGIN PRIVATE KEY); readable by the server's user only";
    UPSTREAM_TIMEOUT = "MCP_UPSTREAM_TIMEOUT_SECONDS", "upstream-timeout-seconds", Value, Some("30"), "Timeout of one upstream call (every attempt and retry wait), seconds; clamped 1..=300";
    ARTIFACT_STORE = "STREAMING_ARTIFACT_STORE", "artifact-store", Value, Some("fs"), "Artifact backend: fs, memory or s3 (shared by replicas)";
    ARTIFACT_S3_URL = "STREAMING_ARTIFACT_S3_URL", "artifact-s3-url", Value, None, "Where the s3 artifact store keeps objects: s3://BUCKET or s3://BUCKET/PREFIX";
    AWS_ENDPOINT_URL = "AWS_ENDPOINT_URL", "aws-endpoint-url", Value, None, "S3-compatible endpoint for the s3 artifact store (MinIO, ...); unset = AWS S3";
    AWS_REGION = "AWS_REGION", "aws-region", Value, Some("us-east-1"), "Region of the S3 bucket";
    AWS_ACCESS_KEY_ID = "AWS_ACCESS_KEY_ID", "aws-access-key-id", Value, None, "S3 access key id; unset with AWS_SECRET_ACCESS_KEY = no static credentials";
    AWS_SECRET_ACCESS_KEY = "AWS_SECRET_ACCESS_KEY", "aws-secret-access-key", Secret, None, "S3 secret access key; prefer the environment or a file over this flag";
    AWS_SESSION_TOKEN = "AWS_SESSION_TOKEN", "aws-session-token", Secret, None, "Session token of temporary S3 credentials";
    AWS_ALLOW_HTTP = "AWS_ALLOW_HTTP", "aws-allow-http", Value, Some("false"), "Allow a plain-HTTP S3 endpoint (a local server): true/false";
    ARTIFACT_DIR = "STREAMING_ARTIFACT_DIR", "artifact-dir", Value, Some("<platform state dir>/mcp-devtools/artifacts"), "Directory of the fs artifact store";
    ARTIFACT_RETENTION = "STREAMING_ARTIFACT_RETENTION_SECONDS", "artifact-retention-seconds", Value, Some("3600"), "How long an artifact stays readable, seconds; clamped 300..=604800";
    ARTIFACT_SWEEP = "STREAMING_ARTIFACT_SWEEP_INTERVAL_SECONDS", "artifact-sweep-interval-seconds", Value, Some("60"), "How often expired artifacts are deleted, seconds; clamped 5..=3600";
    ARTIFACT_MAX_STORE_BYTES = "STREAMING_ARTIFACT_MAX_STORE_BYTES", "artifact-max-store-bytes", Value, Some("1073741824"), "Most bytes of artifact data the whole store holds; clamped 1024..=2^40";
    ARTIFACT_TIMEOUT = "STREAMING_ARTIFACT_TIMEOUT_SECONDS", "artifact-timeout-seconds", Value, Some("5"), "Longest one artifact save or artifact_read chunk may take (its wait for a turn included), seconds; past it an oversized result gets artifactId null and artifact_read an error; clamped 1..=300";
    ARTIFACT_MAX_PRINCIPAL_BYTES = "STREAMING_ARTIFACT_MAX_PRINCIPAL_BYTES", "artifact-max-principal-bytes", Value, Some("268435456"), "Most bytes of artifact data one principal holds; clamped 1024..=2^40";
    CIRCLECI_TOKEN = "CIRCLECI_TOKEN", "circleci-token", Secret, None, "CircleCI personal API token (sent as Circle-Token); prefer the environment or a file over this flag";
    CIRCLECI_API_BASE = "CIRCLECI_API_BASE", "circleci-api-base", Value, Some("https://circleci.com/api/v2"), "CircleCI API v2 base URL";
    CIRCLECI_ARTIFACT_HOSTS = "CIRCLECI_ARTIFACT_HOSTS", "circleci-artifact-hosts", Value, None, "Comma-separated host names (no scheme, port or path) whose CircleCI job-artifact URLs get CIRCLECI_TOKEN, besides circle-artifacts.com and its subdomains and the API base's origin (a CircleCI server install's artifact host); any other host is sent no token";
    CIRCLECI_CA_BUNDLE = "CIRCLECI_CA_BUNDLE", "circleci-ca-bundle", Value, None, "PEM file of the CA certificate(s) that issued the CircleCI server's certificate (a CircleCI server install behind a private CA), trusted besides the system's; unset = MCP_CA_BUNDLE";
    CIRCLECI_CLIENT_CERT = "CIRCLECI_CLIENT_CERT", "circleci-client-cert", Value, None, "PEM file of the client certificate presented to CircleCI when it asks for one (mutual TLS); with CIRCLECI_CLIENT_KEY";
    CIRCLECI_CLIENT_KEY = "CIRCLECI_CLIENT_KEY", "circleci-client-key", Value, None, "PEM file of CIRCLECI_CLIENT_CERT's private key, unencrypted PKCS#8 (BEGIN PRIVATE KEY)";
    HTTP_MAX_BODY_BYTES = "HTTP_MAX_BODY_BYTES", "http-max-body-bytes", Value, Some("33554432"), "Largest upstream response body, bytes; clamped 1024..=1073741824";
    CA_BUNDLE = "MCP_CA_BUNDLE", "ca-bundle", Value, None, "PEM file of CA certificate(s) trusted besides the system's for every upstream without its own (GITHUB_CA_BUNDLE, CIRCLECI_CA_BUNDLE, ATLASSIAN_CA_BUNDLE); SSL_CERT_FILE / SSL_CERT_DIR still replace the system's";
    ALLOW_INSECURE_HTTP = "MCP_ALLOW_INSECURE_HTTP", "allow-insecure-http", Switch, Some("false"), "Allow a plain http:// upstream base URL on a host that is not loopback (credentials then cross the network unencrypted); without it such a base stops start-up; env values true/false/1/0/yes/no/on/off";
    HTTPS_PROXY = "HTTPS_PROXY", "https-proxy", Secret, None, "Proxy of the https upstreams, http://[user:password@]host:port (CONNECT tunnels); also read from https_proxy; unset = ALL_PROXY (may hold a password: masked)";
    HTTP_PROXY = "HTTP_PROXY", "http-proxy", Secret, None, "Proxy of the plain-http upstreams, http://[user:password@]host:port; also read from http_proxy; unset = ALL_PROXY (may hold a password: masked)";
    ALL_PROXY = "ALL_PROXY", "all-proxy", Secret, None, "Proxy of the upstreams of either scheme without their own (HTTPS_PROXY, HTTP_PROXY); also read from all_proxy (may hold a password: masked)";
    NO_PROXY = "NO_PROXY", "no-proxy", Value, None, "Comma-separated hosts reached without the proxy (curl's rules: a domain and its subdomains, an IP address or CIDR block, * for all; loopback is not exempt unless listed); also read from no_proxy";
    JQ_TIMEOUT = "MCP_JQ_TIMEOUT_SECONDS", "jq-timeout-seconds", Value, Some("10"), "Wall-clock limit of one jq projection (run in a child process, killed then), seconds; clamped 1..=60";
    JQ_MAX_MEMORY = "MCP_JQ_MAX_MEMORY_MIB", "jq-max-memory-mib", Value, Some("2048"), "Memory one jq projection may use for its data, MiB; clamped 64..=65536";
    WAIT_POLL_MS = "MCP_WAIT_POLL_MS", "wait-poll-ms", Value, Some("10000"), "The wait tools' poll interval after a change (and the first), milliseconds; it backs off by half while nothing changes up to MCP_WAIT_MAX_POLL_MS, and is never shorter than GitHub's X-Poll-Interval; clamped 10..=600000";
    WAIT_MAX_POLL_MS = "MCP_WAIT_MAX_POLL_MS", "wait-max-poll-ms", Value, Some("60000"), "The wait tools' longest poll interval while nothing changes, milliseconds; clamped 10..=600000";
    WAIT_SETTLE_MS = "MCP_WAIT_SETTLE_MS", "wait-settle-ms", Value, Some("20000"), "github_wait_for_checks: how long every check must stay finished and unchanged before the wait ends (a check appearing late is waited for), milliseconds; clamped 0..=600000";
    WAIT_PROGRESS_MS = "MCP_WAIT_PROGRESS_MS", "wait-progress-ms", Value, Some("10000"), "The longest a wait tool stays silent: its last progress notification is sent again after this long without a change (clients that abort a call without progress keep waiting), milliseconds; clamped 10..=15000";
    CI_ARCHIVE_MAX_ENTRIES = "CI_ARCHIVE_MAX_ENTRIES", "ci-archive-max-entries", Value, Some("10000"), "The ci tools: most entries a zip artifact may list (more: refused as a zip bomb); clamped 1..=1000000";
    CI_ARCHIVE_MAX_UNCOMPRESSED_BYTES = "CI_ARCHIVE_MAX_UNCOMPRESSED_BYTES", "ci-archive-max-uncompressed-bytes", Value, Some("1073741824"), "The ci tools: most bytes a zip artifact's entries may hold uncompressed (more: refused as a zip bomb); clamped 1024..=2^40";
    CI_ARCHIVE_MAX_RATIO = "CI_ARCHIVE_MAX_RATIO", "ci-archive-max-ratio", Value, Some("100"), "The ci tools: largest uncompressed / compressed size of one zip entry over 64 KiB (more: refused as a zip bomb); clamped 1..=100000";
    HTTP_CACHE_ENABLED = "HTTP_CACHE_ENABLED", "http-cache-enabled", Value, Some("true"), "Use the HTTP cache for circleci_get and the Atlassian reads: true/false/1/0/yes/no/on/off";
    HTTP_CACHE_MAX_ENTRIES = "HTTP_CACHE_MAX_ENTRIES", "http-cache-max-entries", Value, Some("512"), "Most HTTP cache entries; clamped 1..=1000000";
    HTTP_CACHE_MAX_BYTES = "HTTP_CACHE_MAX_BYTES", "http-cache-max-bytes", Value, Some("67108864"), "Most cached bytes; clamped 65536..=4294967296";
    HTTP_CACHE_DEFAULT_TTL = "HTTP_CACHE_DEFAULT_TTL_SECONDS", "http-cache-default-ttl-seconds", Value, Some("60"), "Cache freshness when a response gives none, seconds; clamped 1..=3600";
    HTTP_CACHE_REDIS_TIMEOUT_MS = "HTTP_CACHE_REDIS_TIMEOUT_MS", "http-cache-redis-timeout-ms", Value, Some("50"), "Longest one Redis cache command may take, milliseconds; past it (or on any Redis error) the cache is bypassed until a background probe finds Redis back; clamped 5..=5000";
    HTTP_CACHE_REDIS_URL = "HTTP_CACHE_REDIS_URL", "http-cache-redis-url", Secret, None, "Keep the HTTP cache in Redis, shared by replicas: redis://HOST:PORT/DB (may hold a password: masked)";
    TASKS_TTL_MS = "MCP_TASKS_TTL_MS", "tasks-ttl-ms", Value, Some("3600000"), "MCP Tasks extension: how long a task (a wait tool's call from a client that declared the extension) and its result are kept after its creation (its ttlMs), milliseconds; clamped 1000..=86400000";
    TASKS_POLL_INTERVAL_MS = "MCP_TASKS_POLL_INTERVAL_MS", "tasks-poll-interval-ms", Value, Some("5000"), "MCP Tasks extension: how often clients are asked to poll tasks/get (a task's pollIntervalMs), milliseconds; clamped 10..=600000";
    TASKS_REDIS_URL = "MCP_TASKS_REDIS_URL", "tasks-redis-url", Secret, None, "Keep tasks in Redis, so that any replica answers tasks/get and tasks/cancel: redis://HOST:PORT/DB (may hold a password: masked); unset = in this process";
    ATLASSIAN_SITE_NAME = "ATLASSIAN_SITE_NAME", "atlassian-site-name", Value, None, "Atlassian Cloud site name: your-domain for https://your-domain.atlassian.net (Jira and Confluence base)";
    JIRA_BASE_URL = "JIRA_BASE_URL", "jira-base-url", Value, Some("https://<ATLASSIAN_SITE_NAME>.atlassian.net"), "Jira base URL, overriding the site (Data Center)";
    CONFLUENCE_BASE_URL = "CONFLUENCE_BASE_URL", "confluence-base-url", Value, Some("https://<ATLASSIAN_SITE_NAME>.atlassian.net/wiki"), "Confluence base URL, overriding the site (Data Center)";
    BITBUCKET_BASE_URL = "BITBUCKET_BASE_URL", "bitbucket-base-url", Value, Some("https://api.bitbucket.org"), "Bitbucket API base URL";
    ATLASSIAN_USER_EMAIL = "ATLASSIAN_USER_EMAIL", "atlassian-user-email", Value, None, "Atlassian account e-mail: the Basic-auth user for Jira, Confluence (and Bitbucket by default)";
    ATLASSIAN_API_TOKEN = "ATLASSIAN_API_TOKEN", "atlassian-api-token", Secret, None, "Atlassian API token for ATLASSIAN_USER_EMAIL; prefer the environment or a file over this flag";
    ATLASSIAN_BITBUCKET_USERNAME = "ATLASSIAN_BITBUCKET_USERNAME", "atlassian-bitbucket-username", Value, None, "Bitbucket user name for an app password (used instead of the e-mail and API token when set)";
    ATLASSIAN_BITBUCKET_APP_PASSWORD = "ATLASSIAN_BITBUCKET_APP_PASSWORD", "atlassian-bitbucket-app-password", Secret, None, "Bitbucket app password for ATLASSIAN_BITBUCKET_USERNAME; prefer the environment or a file over this flag";
    JIRA_DEPLOYMENT = "JIRA_DEPLOYMENT", "jira-deployment", Value, Some("cloud"), "Where Jira runs: cloud or data-center (Data Center / Server: JIRA_BASE_URL required, REST v2 paths, JIRA_PERSONAL_TOKEN)";
    CONFLUENCE_DEPLOYMENT = "CONFLUENCE_DEPLOYMENT", "confluence-deployment", Value, Some("cloud"), "Where Confluence runs: cloud or data-center (Data Center / Server: CONFLUENCE_BASE_URL required with its context path, no /wiki, CONFLUENCE_PERSONAL_TOKEN)";
    BITBUCKET_DEPLOYMENT = "BITBUCKET_DEPLOYMENT", "bitbucket-deployment", Value, Some("cloud"), "Where Bitbucket runs: cloud or data-center (Data Center / Server: BITBUCKET_BASE_URL required, /rest/api/1.0 paths, BITBUCKET_ACCESS_TOKEN)";
    JIRA_PERSONAL_TOKEN = "JIRA_PERSONAL_TOKEN", "jira-personal-token", Secret, None, "Jira Data Center personal access token, sent as Bearer instead of ATLASSIAN_USER_EMAIL and ATLASSIAN_API_TOKEN; needs JIRA_DEPLOYMENT=data-center";
    CONFLUENCE_PERSONAL_TOKEN = "CONFLUENCE_PERSONAL_TOKEN", "confluence-personal-token", Secret, None, "Confluence Data Center personal access token, sent as Bearer instead of ATLASSIAN_USER_EMAIL and ATLASSIAN_API_TOKEN; needs CONFLUENCE_DEPLOYMENT=data-center";
    BITBUCKET_ACCESS_TOKEN = "BITBUCKET_ACCESS_TOKEN", "bitbucket-access-token", Secret, None, "Bitbucket access token sent as Bearer (Data Center HTTP access token; Cloud repository, project or workspace access token), instead of any Basic pair";
    ATLASSIAN_CA_BUNDLE = "ATLASSIAN_CA_BUNDLE", "atlassian-ca-bundle", Value, None, "PEM file of the CA certificate(s) that issued the Jira, Confluence and Bitbucket servers' certificates (Data Center behind a private CA), trusted besides the system's; unset = MCP_CA_BUNDLE";
    ATLASSIAN_CLIENT_CERT = "ATLASSIAN_CLIENT_CERT", "atlassian-client-cert", Value, None, "PEM file of the client certificate presented to Jira, Confluence and Bitbucket when they ask for one (mutual TLS); with ATLASSIAN_CLIENT_KEY";
    ATLASSIAN_CLIENT_KEY = "ATLASSIAN_CLIENT_KEY", "atlassian-client-key", Value, None, "PEM file of ATLASSIAN_CLIENT_CERT's private key, unencrypted PKCS#8 (BEGIN PRIVATE KEY)";
    HTTP_ADDR = "MCP_HTTP_ADDR", "http", Value, None, "Serve streamable HTTP at /mcp on IP:PORT (e.g. 127.0.0.1:8080) instead of stdio; a value that is not IP:PORT stops start-up";
    HTTP_NO_AUTH = "MCP_HTTP_NO_AUTH", "no-auth", Switch, Some("false"), "Serve HTTP without bearer tokens; refused unless the address is loopback";
    HTTP_TOKENS_FILE = "MCP_HTTP_TOKENS_FILE", "tokens-file", Value, None, "TOML file: [tokens] \"<sha256 hex of token>\" = \"principal\"";
    OAUTH_ISSUER = "MCP_OAUTH_ISSUER", "oauth-issuer", Value, None, "OAuth 2.1 over HTTP: the authorization server's issuer URL (https://login.example.com/realms/acme, exactly as its metadata names it); set, HTTP accepts its access tokens (a tokens file still works beside it); an unreachable or inconsistent issuer stops start-up";
    OAUTH_RESOURCE = "MCP_OAUTH_RESOURCE", "oauth-resource", Value, Some("http://<bound address>/mcp on a loopback bind"), "This server's public MCP URL (https://mcp.example.com/mcp): the audience access tokens must carry (RFC 8707) and the resource of /.well-known/oauth-protected-resource; required off loopback";
    OAUTH_PRINCIPAL_CLAIM = "MCP_OAUTH_PRINCIPAL_CLAIM", "oauth-principal-claim", Value, Some("sub"), "The access-token claim naming the principal; the principal is oauth:<value> (policy rules, artifacts, sessions)";
    OAUTH_READ_SCOPE = "MCP_OAUTH_READ_SCOPE", "oauth-read-scope", Value, Some("devtools:read"), "The scope an access token needs to call a read tool (and artifact_read)";
    OAUTH_WRITE_SCOPE = "MCP_OAUTH_WRITE_SCOPE", "oauth-write-scope", Value, Some("devtools:write"), "The scope an access token needs to call a write tool (jira_write, conf_write, bb_write); a call without it gets 403 insufficient_scope";
    OAUTH_ALGORITHMS = "MCP_OAUTH_ALGORITHMS", "oauth-algorithms", Value, Some("RS256,RS384,RS512,PS256,PS384,PS512,ES256,ES384,EdDSA"), "Comma-separated JWS algorithms accepted on access tokens; HS* and none are never accepted";
    OAUTH_LEEWAY = "MCP_OAUTH_LEEWAY_SECONDS", "oauth-leeway-seconds", Value, Some("30"), "Clock skew tolerated on an access token's exp and nbf, seconds; clamped 0..=300";
    OAUTH_INTROSPECTION_CLIENT_ID = "MCP_OAUTH_INTROSPECTION_CLIENT_ID", "oauth-introspection-client-id", Value, None, "Client id this server introspects opaque access tokens with (RFC 7662, with the secret); unset = only JWT access tokens";
    OAUTH_INTROSPECTION_CLIENT_SECRET = "MCP_OAUTH_INTROSPECTION_CLIENT_SECRET", "oauth-introspection-client-secret", Secret, None, "Client secret for MCP_OAUTH_INTROSPECTION_CLIENT_ID; prefer the environment or a file over this flag";
    HTTP_ALLOWED_HOSTS = "MCP_HTTP_ALLOWED_HOSTS", "allowed-hosts", Value, None, "Comma-separated Host header values accepted over HTTP (default: loopback names and the bound address)";
    HTTP_ALLOWED_ORIGINS = "MCP_HTTP_ALLOWED_ORIGINS", "allowed-origins", Value, None, "Comma-separated browser origins (scheme://host[:port|:*]) accepted in an Origin header; loopback origins are always accepted on a loopback bind; other origins get 403";
    HTTP_STATELESS = "MCP_HTTP_STATELESS", "http-stateless", Switch, Some("false"), "Serve HTTP without server-side sessions, so any replica answers any request";
    HTTP_WORKER_THREADS = "MCP_HTTP_WORKER_THREADS", "http-worker-threads", Value, Some("1 on a machine of 1-2 CPUs, else one per CPU"), "Async worker threads serving HTTP (jq, large results and large upstream bodies run on other threads); clamped 1..=1024";
    HTTP_SHUTDOWN_GRACE = "MCP_HTTP_SHUTDOWN_GRACE_SECONDS", "shutdown-grace-seconds", Value, Some("30"), "On SIGINT/SIGTERM, wait this long for calls in flight, seconds; clamped 1..=600";
    HTTP_SESSION_IDLE = "MCP_HTTP_SESSION_IDLE_SECONDS", "session-idle-seconds", Value, Some("600"), "Close an HTTP session after this long without a request, seconds (a later request naming it gets 404); clamped 1..=86400";
    HTTP_MAX_SESSIONS = "MCP_HTTP_MAX_SESSIONS", "max-sessions", Value, Some("1000"), "Live HTTP sessions in all; a new session past it closes the caller's least recently used idle session, else gets 503 with Retry-After; clamped 1..=1000000";
    HTTP_MAX_SESSIONS_PER_PRINCIPAL = "MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL", "max-sessions-per-principal", Value, Some("100"), "Live HTTP sessions of one principal; a new session past it closes that principal's least recently used idle session, else gets 503 with Retry-After; clamped 1..=1000000";
    HTTP_MAX_CONNECTIONS = "MCP_HTTP_MAX_CONNECTIONS", "max-connections", Value, Some("1024"), "Open HTTP connections at most; more wait in the listen backlog until one closes; clamped 1..=1000000";
    HTTP_HEADER_READ_TIMEOUT = "MCP_HTTP_HEADER_READ_TIMEOUT_SECONDS", "header-read-timeout-seconds", Value, Some("10"), "Close an HTTP connection that has not sent a whole request header within this time, also an idle keep-alive connection, seconds; clamped 1..=3600";
    HTTP_BODY_READ_TIMEOUT = "MCP_HTTP_BODY_READ_TIMEOUT_SECONDS", "body-read-timeout-seconds", Value, Some("30"), "Answer 408 to an HTTP request body that sends nothing for this long, seconds; clamped 1..=3600";
    HTTP_MAX_CALLS_PER_PRINCIPAL = "MCP_HTTP_MAX_CALLS_PER_PRINCIPAL", "max-calls-per-principal", Value, Some("32"), "HTTP POSTs of one principal in flight at once; past it (after waiting up to 100 ms for one to end) 429 with Retry-After, other principals unaffected; clamped 1..=1000000";
    HTTP_RATE_PER_PRINCIPAL = "MCP_HTTP_RATE_PER_PRINCIPAL", "rate-per-principal", Value, Some("0"), "HTTP POSTs of one principal per second (bursts up to the same number); past it 429 with Retry-After; 0 = no rate limit; clamped 0..=1000000";
    MAX_REQUEST_BYTES = "MCP_MAX_REQUEST_BYTES", "max-request-bytes", Value, Some("4194304"), "Largest JSON-RPC message accepted, bytes, on stdio (one line) and HTTP (one POST body) alike; clamped 1024..=16777216";
    POLICY_FILE = "MCP_POLICY_FILE", "policy", Value, None, "TOML policy file (allow / deny / approval_required rules); unset = every call allowed";
    ENTERPRISE_MODE = "MCP_ENTERPRISE_MODE", "enterprise-mode", Value, Some("false"), "Every result carries _meta[\"mcp-devtools/upstream\"] = {vendor, credentialLabel, authority}";
    LOG_FILTER = "RUST_LOG", "log", Value, Some("info"), "Log filter (tracing EnvFilter syntax, e.g. info or mcp_devtools_server=debug); logs go to stderr";
}

/// The settings also read from a lower-case environment variable when the upper-case one is unset, as curl and
/// reqwest read them: the proxies.
pub const LOWER_CASE_ENV: &[(&str, &str)] = &[
    (HTTPS_PROXY, "https_proxy"),
    (HTTP_PROXY, "http_proxy"),
    (ALL_PROXY, "all_proxy"),
    (NO_PROXY, "no_proxy"),
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
        assert!(find(GITHUB_TOKEN).is_some_and(SettingDef::secret));
    }
}
