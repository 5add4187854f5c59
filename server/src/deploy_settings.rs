//! Deployment settings: the transport (stdio or streamable HTTP), bearer-token authentication, the HTTP limits and
//! the log filter. Parsed by [`crate::config::Settings::from_lookup`].

use std::net::SocketAddr;
use std::path::PathBuf;

pub use crate::registry::{
    HTTP_ADDR, HTTP_ALLOWED_HOSTS, HTTP_ALLOWED_ORIGINS, HTTP_BODY_READ_TIMEOUT, HTTP_HEADER_READ_TIMEOUT,
    HTTP_MAX_CALLS_PER_PRINCIPAL, HTTP_MAX_CONNECTIONS, HTTP_MAX_SESSIONS, HTTP_MAX_SESSIONS_PER_PRINCIPAL,
    HTTP_NO_AUTH, HTTP_RATE_PER_PRINCIPAL, HTTP_SESSION_IDLE, HTTP_SHUTDOWN_GRACE, HTTP_STATELESS, HTTP_TOKENS_FILE,
    HTTP_WORKER_THREADS, LOG_FILTER, MAX_REQUEST_BYTES, OAUTH_ALGORITHMS, OAUTH_INTROSPECTION_CLIENT_ID,
    OAUTH_INTROSPECTION_CLIENT_SECRET, OAUTH_ISSUER, OAUTH_LEEWAY, OAUTH_PRINCIPAL_CLAIM, OAUTH_READ_SCOPE,
    OAUTH_RESOURCE, OAUTH_WRITE_SCOPE,
};
use adapters_http::Secret;

/// Default of [`HTTP_SHUTDOWN_GRACE`], seconds.
pub const DEFAULT_SHUTDOWN_GRACE_SECONDS: u64 = 30;
/// Default of [`MAX_REQUEST_BYTES`], bytes (4 MiB, rmcp's default HTTP body limit).
pub const DEFAULT_MAX_REQUEST_BYTES: usize = 4 * 1024 * 1024;
/// Default of [`HTTP_SESSION_IDLE`], seconds.
pub const DEFAULT_SESSION_IDLE_SECONDS: u64 = 600;
/// Default of [`HTTP_MAX_SESSIONS`].
pub const DEFAULT_MAX_SESSIONS: u64 = 1000;
/// Default of [`HTTP_MAX_SESSIONS_PER_PRINCIPAL`].
pub const DEFAULT_MAX_SESSIONS_PER_PRINCIPAL: u64 = 100;
/// Default of [`HTTP_MAX_CONNECTIONS`].
pub const DEFAULT_MAX_CONNECTIONS: u64 = 1024;
/// Default of [`HTTP_HEADER_READ_TIMEOUT`], seconds.
pub const DEFAULT_HEADER_READ_TIMEOUT_SECONDS: u64 = 10;
/// Default of [`HTTP_BODY_READ_TIMEOUT`], seconds.
pub const DEFAULT_BODY_READ_TIMEOUT_SECONDS: u64 = 30;
/// Default of [`HTTP_MAX_CALLS_PER_PRINCIPAL`].
pub const DEFAULT_MAX_CALLS_PER_PRINCIPAL: u64 = 32;
/// Default of [`OAUTH_LEEWAY`], seconds.
pub const DEFAULT_OAUTH_LEEWAY_SECONDS: u64 = 30;
/// The JWS algorithm names [`OAUTH_ALGORITHMS`] may list (and its default): the asymmetric ones.
pub const OAUTH_ALGORITHM_NAMES: &[&str] = &[
    "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "EdDSA",
];
/// Range [`MAX_REQUEST_BYTES`] is clamped to, bytes.
pub const MAX_REQUEST_BYTES_RANGE: std::ops::RangeInclusive<u64> = 1024..=16 * 1024 * 1024;

/// How the server is reached and who may call it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeploySettings {
    /// `Some(addr)`: streamable HTTP on `addr`; `None`: stdio.
    pub http_addr: Option<SocketAddr>,
    /// Serve HTTP without authentication (only accepted on a loopback address; see [`crate::http`]).
    pub no_auth: bool,
    /// The tokens file (required for HTTP unless `no_auth` or `oauth`; accepted beside `oauth`).
    pub tokens_file: Option<PathBuf>,
    /// OAuth 2.1 access tokens ([`OAUTH_ISSUER`] set).
    pub oauth: Option<OAuthSettings>,
    /// Extra accepted `Host` values (empty: loopback names plus the bound address).
    pub allowed_hosts: Vec<String>,
    /// Extra accepted `Origin` values (empty: loopback origins on a loopback bind, none otherwise).
    pub allowed_origins: Vec<String>,
    /// Serve HTTP without server-side sessions (`MCP_HTTP_STATELESS`).
    pub stateless: bool,
    /// Async worker threads serving HTTP ([`HTTP_WORKER_THREADS`], clamped 1..=1024); 0 (a `Default` value) means
    /// [`default_http_worker_threads`].
    pub http_worker_threads: usize,
    /// Grace period for calls in flight at SIGINT/SIGTERM, seconds (clamped 1..=600).
    pub shutdown_grace_seconds: u64,
    /// The largest JSON-RPC message accepted, bytes ([`MAX_REQUEST_BYTES`]; 0 in `Default` means the default).
    pub max_request_bytes: usize,
    /// Live HTTP sessions: idle expiry and caps ([`HTTP_SESSION_IDLE`], [`HTTP_MAX_SESSIONS`],
    /// [`HTTP_MAX_SESSIONS_PER_PRINCIPAL`]).
    pub sessions: SessionLimits,
    /// Open connections and client timeouts ([`HTTP_MAX_CONNECTIONS`], [`HTTP_HEADER_READ_TIMEOUT`],
    /// [`HTTP_BODY_READ_TIMEOUT`]).
    pub connections: ConnectionLimits,
    /// The share of one principal ([`HTTP_MAX_CALLS_PER_PRINCIPAL`], [`HTTP_RATE_PER_PRINCIPAL`]).
    pub fair: FairShare,
    /// The log filter (default `info`).
    pub log_filter: String,
}

/// The OAuth resource server's settings ([`OAUTH_ISSUER`] and the other `MCP_OAUTH_*`); see `mcp_serve::oauth`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OAuthSettings {
    /// The authorization server's issuer identifier.
    pub issuer: String,
    /// This server's resource URI; `None`: `http://<bound address>/mcp`, accepted on a loopback bind only.
    pub resource: Option<String>,
    /// The claim naming the principal.
    pub principal_claim: String,
    /// The scope read tools need.
    pub read_scope: String,
    /// The scope write tools need.
    pub write_scope: String,
    /// The JWS algorithms accepted, names of [`OAUTH_ALGORITHM_NAMES`].
    pub algorithms: Vec<String>,
    /// Clock skew tolerated on `exp`/`nbf`, seconds.
    pub leeway_seconds: u64,
    /// RFC 7662 introspection credentials (client id, secret), for opaque access tokens.
    pub introspection: Option<(String, Secret)>,
}

/// Bounds on live streamable-HTTP sessions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionLimits {
    /// A session with no request for this long is closed, seconds.
    pub idle_seconds: u64,
    /// Live sessions in all.
    pub max_total: usize,
    /// Live sessions of one principal.
    pub max_per_principal: usize,
}

impl Default for SessionLimits {
    fn default() -> Self {
        SessionLimits {
            idle_seconds: DEFAULT_SESSION_IDLE_SECONDS,
            max_total: DEFAULT_MAX_SESSIONS as usize,
            max_per_principal: DEFAULT_MAX_SESSIONS_PER_PRINCIPAL as usize,
        }
    }
}

/// Open HTTP connections and how long a client may take to send a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// Open connections at most.
    pub max_connections: usize,
    /// Time to send a whole request header, and the longest idle time of a keep-alive connection, seconds.
    pub header_read_timeout_seconds: u64,
    /// The longest pause while sending a request body, seconds.
    pub body_read_timeout_seconds: u64,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        ConnectionLimits {
            max_connections: DEFAULT_MAX_CONNECTIONS as usize,
            header_read_timeout_seconds: DEFAULT_HEADER_READ_TIMEOUT_SECONDS,
            body_read_timeout_seconds: DEFAULT_BODY_READ_TIMEOUT_SECONDS,
        }
    }
}

/// What one principal may use at once over HTTP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FairShare {
    /// `POST`s of one principal in flight at once.
    pub max_calls: usize,
    /// `POST`s of one principal per second; 0: no rate limit.
    pub rate_per_second: u32,
}

impl Default for FairShare {
    fn default() -> Self {
        FairShare {
            max_calls: DEFAULT_MAX_CALLS_PER_PRINCIPAL as usize,
            rate_per_second: 0,
        }
    }
}

/// Default of [`HTTP_WORKER_THREADS`]: one on a machine of one or two CPUs, else one per CPU (tokio's own default).
/// On two CPUs one async worker serves a call's tasks (hyper's connection, rmcp's session worker and service loop, the
/// handler) on one thread instead of waking the other CPU's worker between them: a cached read over HTTP costs about
/// 170 µs of CPU instead of 260, one session makes 1.6x the calls per second, and 32 or 256 sessions as many as with
/// two workers (issue 46, `BENCHMARKS.md`); the CPU-heavy work runs on the blocking pool either way. Larger machines
/// keep a worker per CPU, so that many sessions can use every core.
pub fn default_http_worker_threads() -> usize {
    match std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get) {
        ..=2 => 1,
        cpus => cpus,
    }
}

impl DeploySettings {
    /// The async worker threads serving HTTP: [`DeploySettings::http_worker_threads`], or
    /// [`default_http_worker_threads`] when it is 0 (a `Default` value).
    pub fn http_worker_threads(&self) -> usize {
        match self.http_worker_threads {
            0 => default_http_worker_threads(),
            n => n,
        }
    }

    /// The request-size limit, bytes: [`DeploySettings::max_request_bytes`], or [`DEFAULT_MAX_REQUEST_BYTES`]
    /// when it is 0 (a `Default` value).
    pub fn request_limit(&self) -> usize {
        match self.max_request_bytes {
            0 => DEFAULT_MAX_REQUEST_BYTES,
            n => n,
        }
    }
}
