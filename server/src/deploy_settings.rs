//! Deployment settings: the transport (stdio or streamable HTTP), bearer-token authentication, the policy file,
//! enterprise mode and the log filter. Parsed by [`DeploySettings::from_lookup`], which
//! [`crate::config::Settings::from_lookup`] calls with the same configuration-cascade lookup.

use std::net::SocketAddr;
use std::path::PathBuf;

use crate::config::parse_bool;

/// `MCP_HTTP_ADDR`: serve streamable HTTP at `/mcp` on this `IP:PORT` instead of stdio (default: unset = stdio).
pub const HTTP_ADDR: &str = "MCP_HTTP_ADDR";
/// `MCP_HTTP_NO_AUTH`: serve HTTP without bearer tokens; refused unless the address is loopback (default false).
pub const HTTP_NO_AUTH: &str = "MCP_HTTP_NO_AUTH";
/// `MCP_HTTP_TOKENS_FILE`: TOML file mapping SHA-256 hex of each bearer token to a principal name.
pub const HTTP_TOKENS_FILE: &str = "MCP_HTTP_TOKENS_FILE";
/// `MCP_HTTP_ALLOWED_HOSTS`: comma-separated `Host` header values accepted (DNS-rebinding guard).
pub const HTTP_ALLOWED_HOSTS: &str = "MCP_HTTP_ALLOWED_HOSTS";
/// `MCP_HTTP_ALLOWED_ORIGINS`: comma-separated browser origins (`scheme://host[:port]`, port `*` for any) accepted in
/// an `Origin` header, beside the loopback origins a loopback bind allows (CONTRACT §9).
pub const HTTP_ALLOWED_ORIGINS: &str = "MCP_HTTP_ALLOWED_ORIGINS";
/// `MCP_HTTP_STATELESS`: serve streamable HTTP without server-side sessions, so any replica answers any request
/// (CONTRACT §9; default false).
pub const HTTP_STATELESS: &str = "MCP_HTTP_STATELESS";
/// `MCP_HTTP_SHUTDOWN_GRACE_SECONDS`: how long SIGINT/SIGTERM waits for calls in flight, seconds (default 30).
pub const HTTP_SHUTDOWN_GRACE: &str = "MCP_HTTP_SHUTDOWN_GRACE_SECONDS";
/// `MCP_MAX_REQUEST_BYTES`: the largest JSON-RPC message accepted, bytes: one stdio line or one HTTP `POST` body
/// (default 4 MiB, clamped 1 KiB..=16 MiB; 16 MiB is rmcp's own stdio line limit).
pub const MAX_REQUEST_BYTES: &str = "MCP_MAX_REQUEST_BYTES";
/// `MCP_HTTP_SESSION_IDLE_SECONDS`: an HTTP session with no request for this long is closed, seconds (default 600,
/// clamped 1..=86400); a later request naming it gets `404` (the client initializes again).
pub const HTTP_SESSION_IDLE: &str = "MCP_HTTP_SESSION_IDLE_SECONDS";
/// `MCP_HTTP_MAX_SESSIONS`: live HTTP sessions in all (default 1000, clamped 1..=1000000); a new one past it gets
/// `503` with `Retry-After`.
pub const HTTP_MAX_SESSIONS: &str = "MCP_HTTP_MAX_SESSIONS";
/// `MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL`: live HTTP sessions of one principal (default 100, clamped 1..=1000000); a
/// new one past it gets `503` with `Retry-After`.
pub const HTTP_MAX_SESSIONS_PER_PRINCIPAL: &str = "MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL";
/// `MCP_POLICY_FILE`: TOML policy file (rules allow / deny / approval_required); unset = every call allowed.
pub const POLICY_FILE: &str = "MCP_POLICY_FILE";
/// `MCP_ENTERPRISE_MODE`: every result carries `_meta["mcp-devtools/upstream"]` (default false).
pub const ENTERPRISE_MODE: &str = "MCP_ENTERPRISE_MODE";
/// `RUST_LOG`: the log filter (`tracing_subscriber::EnvFilter` syntax, default `info`); logs go to stderr.
pub const LOG_FILTER: &str = "RUST_LOG";

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
/// Range [`MAX_REQUEST_BYTES`] is clamped to, bytes.
pub const MAX_REQUEST_BYTES_RANGE: std::ops::RangeInclusive<usize> = 1024..=16 * 1024 * 1024;

/// How the server is reached and who may call it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeploySettings {
    /// `Some(addr)`: streamable HTTP on `addr`; `None`: stdio.
    pub http_addr: Option<SocketAddr>,
    /// Serve HTTP without authentication (only accepted on a loopback address; see [`crate::http`]).
    pub no_auth: bool,
    /// The tokens file (required for HTTP unless `no_auth`).
    pub tokens_file: Option<PathBuf>,
    /// Extra accepted `Host` values (empty: loopback names plus the bound address).
    pub allowed_hosts: Vec<String>,
    /// Extra accepted `Origin` values (empty: loopback origins on a loopback bind, none otherwise).
    pub allowed_origins: Vec<String>,
    /// Serve HTTP without server-side sessions (`MCP_HTTP_STATELESS`).
    pub stateless: bool,
    /// Grace period for calls in flight at SIGINT/SIGTERM, seconds (clamped 1..=600).
    pub shutdown_grace_seconds: u64,
    /// The largest JSON-RPC message accepted, bytes ([`MAX_REQUEST_BYTES`]; 0 in `Default` means the default).
    pub max_request_bytes: usize,
    /// Live HTTP sessions: idle expiry and caps ([`HTTP_SESSION_IDLE`], [`HTTP_MAX_SESSIONS`],
    /// [`HTTP_MAX_SESSIONS_PER_PRINCIPAL`]).
    pub sessions: SessionLimits,
    /// The policy file, if any.
    pub policy_file: Option<PathBuf>,
    /// Enterprise mode: `_meta["mcp-devtools/upstream"]` on every result.
    pub enterprise_mode: bool,
    /// The log filter (default `info`).
    pub log_filter: String,
}

/// Bounds on live streamable-HTTP sessions (CONTRACT §9.1).
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

/// A whole number read through `present`: `default` when unset, clamped into `range` (with a warning), `default`
/// (with a warning) when not a whole number.
pub(crate) fn whole(
    name: &str,
    raw: Option<String>,
    default: u64,
    range: std::ops::RangeInclusive<u64>,
    warnings: &mut Vec<String>,
) -> u64 {
    match raw.map(|raw| (raw.parse::<u64>(), raw)) {
        None => default,
        Some((Ok(n), _)) if range.contains(&n) => n,
        Some((Ok(n), _)) => {
            let used = n.clamp(*range.start(), *range.end());
            warnings.push(format!(
                "{name}={n} is outside {}..={}; using {used}",
                range.start(),
                range.end()
            ));
            used
        }
        Some((Err(_), raw)) => {
            warnings.push(format!("{name}={raw:?} is not a whole number; using {default}"));
            default
        }
    }
}

impl DeploySettings {
    /// The request-size limit, bytes: [`DeploySettings::max_request_bytes`], or [`DEFAULT_MAX_REQUEST_BYTES`]
    /// when it is 0 (a `Default` value).
    pub fn request_limit(&self) -> usize {
        match self.max_request_bytes {
            0 => DEFAULT_MAX_REQUEST_BYTES,
            n => n,
        }
    }

    /// Reads the deployment settings through `lookup`, pushing one warning per malformed or clamped value.
    /// A malformed `MCP_HTTP_ADDR` is a warning too and leaves the server on stdio.
    pub fn from_lookup(lookup: &impl Fn(&str) -> Option<String>, warnings: &mut Vec<String>) -> DeploySettings {
        let present = |name: &str| lookup(name).map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
        let flag = |name: &str, warnings: &mut Vec<String>| match present(name) {
            None => false,
            Some(raw) => parse_bool(&raw).unwrap_or_else(|| {
                warnings.push(format!(
                    "{name}={raw:?} is not one of true/false/1/0/yes/no/on/off; using false"
                ));
                false
            }),
        };
        let list = |name: &str| -> Vec<String> {
            present(name)
                .map(|raw| {
                    raw.split(',')
                        .map(str::trim)
                        .filter(|h| !h.is_empty())
                        .map(String::from)
                        .collect()
                })
                .unwrap_or_default()
        };
        let http_addr = present(HTTP_ADDR).and_then(|raw| match raw.parse::<SocketAddr>() {
            Ok(addr) => Some(addr),
            Err(_) => {
                warnings.push(format!(
                    "{HTTP_ADDR}={raw:?} is not IP:PORT (e.g. 127.0.0.1:8080); serving stdio"
                ));
                None
            }
        });
        let shutdown_grace_seconds = match present(HTTP_SHUTDOWN_GRACE).map(|raw| (raw.parse::<u64>(), raw)) {
            None => DEFAULT_SHUTDOWN_GRACE_SECONDS,
            Some((Ok(s), _)) if (1..=600).contains(&s) => s,
            Some((Ok(s), _)) => {
                let used = s.clamp(1, 600);
                warnings.push(format!("{HTTP_SHUTDOWN_GRACE}={s} is outside 1..=600; using {used}"));
                used
            }
            Some((Err(_), raw)) => {
                warnings.push(format!(
                    "{HTTP_SHUTDOWN_GRACE}={raw:?} is not a whole number of seconds; using {DEFAULT_SHUTDOWN_GRACE_SECONDS}"
                ));
                DEFAULT_SHUTDOWN_GRACE_SECONDS
            }
        };
        let max_request_bytes = match present(MAX_REQUEST_BYTES).map(|raw| (raw.parse::<usize>(), raw)) {
            None => DEFAULT_MAX_REQUEST_BYTES,
            Some((Ok(n), _)) if MAX_REQUEST_BYTES_RANGE.contains(&n) => n,
            Some((Ok(n), _)) => {
                let used = n.clamp(*MAX_REQUEST_BYTES_RANGE.start(), *MAX_REQUEST_BYTES_RANGE.end());
                warnings.push(format!(
                    "{MAX_REQUEST_BYTES}={n} is outside {}..={}; using {used}",
                    MAX_REQUEST_BYTES_RANGE.start(),
                    MAX_REQUEST_BYTES_RANGE.end()
                ));
                used
            }
            Some((Err(_), raw)) => {
                warnings.push(format!(
                    "{MAX_REQUEST_BYTES}={raw:?} is not a whole number of bytes; using {DEFAULT_MAX_REQUEST_BYTES}"
                ));
                DEFAULT_MAX_REQUEST_BYTES
            }
        };
        let sessions = SessionLimits {
            idle_seconds: whole(
                HTTP_SESSION_IDLE,
                present(HTTP_SESSION_IDLE),
                DEFAULT_SESSION_IDLE_SECONDS,
                1..=86_400,
                warnings,
            ),
            max_total: whole(
                HTTP_MAX_SESSIONS,
                present(HTTP_MAX_SESSIONS),
                DEFAULT_MAX_SESSIONS,
                1..=1_000_000,
                warnings,
            ) as usize,
            max_per_principal: whole(
                HTTP_MAX_SESSIONS_PER_PRINCIPAL,
                present(HTTP_MAX_SESSIONS_PER_PRINCIPAL),
                DEFAULT_MAX_SESSIONS_PER_PRINCIPAL,
                1..=1_000_000,
                warnings,
            ) as usize,
        };
        DeploySettings {
            http_addr,
            sessions,
            max_request_bytes,
            no_auth: flag(HTTP_NO_AUTH, warnings),
            tokens_file: present(HTTP_TOKENS_FILE).map(PathBuf::from),
            allowed_hosts: list(HTTP_ALLOWED_HOSTS),
            allowed_origins: list(HTTP_ALLOWED_ORIGINS),
            stateless: flag(HTTP_STATELESS, warnings),
            shutdown_grace_seconds,
            policy_file: present(POLICY_FILE).map(PathBuf::from),
            enterprise_mode: flag(ENTERPRISE_MODE, warnings),
            log_filter: present(LOG_FILTER).unwrap_or_else(|| "info".to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn deploy(pairs: &[(&str, &str)]) -> (DeploySettings, Vec<String>) {
        let map: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let mut warnings = Vec::new();
        let settings = DeploySettings::from_lookup(&|name: &str| map.get(name).cloned(), &mut warnings);
        (settings, warnings)
    }

    #[test]
    fn defaults_are_stdio_without_policy() {
        let (s, warnings) = deploy(&[]);
        assert_eq!(s.http_addr, None);
        assert!(!s.no_auth && !s.enterprise_mode);
        assert_eq!(s.shutdown_grace_seconds, 30);
        assert_eq!(s.log_filter, "info");
        assert_eq!(s.sessions, SessionLimits::default());
        assert!(warnings.is_empty());
    }

    #[test]
    fn malformed_and_out_of_range_values_warn_once_each() {
        let (s, warnings) = deploy(&[
            (HTTP_ADDR, "localhost"),
            (HTTP_SHUTDOWN_GRACE, "9999"),
            (ENTERPRISE_MODE, "y"),
        ]);
        assert_eq!(s.http_addr, None);
        assert_eq!(s.shutdown_grace_seconds, 600);
        assert!(!s.enterprise_mode);
        assert_eq!(warnings.len(), 3, "{warnings:?}");
    }

    #[test]
    fn session_limits_parse_and_clamp() {
        let (s, warnings) = deploy(&[
            (HTTP_SESSION_IDLE, "0"),
            (HTTP_MAX_SESSIONS, "50"),
            (HTTP_MAX_SESSIONS_PER_PRINCIPAL, "many"),
        ]);
        assert_eq!(s.sessions.idle_seconds, 1);
        assert_eq!(s.sessions.max_total, 50);
        assert_eq!(s.sessions.max_per_principal, 100);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
    }

    #[test]
    fn parses_http_settings() {
        let (s, _) = deploy(&[
            (HTTP_ADDR, "127.0.0.1:8080"),
            (HTTP_NO_AUTH, "true"),
            (HTTP_ALLOWED_HOSTS, "mcp.example.com, mcp.example.com:443"),
            (HTTP_ALLOWED_ORIGINS, "https://app.example.com, ,http://localhost:*"),
        ]);
        assert_eq!(s.http_addr, Some("127.0.0.1:8080".parse().unwrap()));
        assert!(s.no_auth);
        assert_eq!(s.allowed_hosts, vec!["mcp.example.com", "mcp.example.com:443"]);
        assert_eq!(s.allowed_origins, vec!["https://app.example.com", "http://localhost:*"]);
    }
}
