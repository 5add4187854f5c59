//! The server's wiring of [`mcp_serve::http`]: authentication and limits from the deployment settings
//! ([`crate::deploy_settings`]), one [`DevtoolsServer`] per session.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use mcp_serve::http::{Auth, ConnectionLimits, Drain, FairShare, HttpConfig, SessionLimits};
use mcp_serve::tokens::{TokenTable, TokensError};
use tokio::net::TcpListener;

use crate::deploy_settings::DeploySettings;
use crate::{App, DevtoolsServer, Principal};

/// Why the HTTP transport cannot start as configured.
#[derive(Debug, thiserror::Error)]
pub enum HttpSetupError {
    /// `--no-auth` on an address other clients can reach.
    #[error(
        "--no-auth (MCP_HTTP_NO_AUTH) is only allowed on a loopback address, not {0}: bind 127.0.0.1 or configure a \
         tokens file"
    )]
    NoAuthOffLoopback(SocketAddr),
    /// Neither a tokens file nor `--no-auth`.
    #[error("HTTP needs a tokens file (--tokens-file / MCP_HTTP_TOKENS_FILE), or --no-auth on a loopback address")]
    NoTokens,
    /// The tokens file is unusable.
    #[error(transparent)]
    Tokens(#[from] TokensError),
}

/// The authentication the deployment settings ask for on `addr`.
///
/// # Errors
/// [`HttpSetupError`]: `--no-auth` off loopback, no tokens file, or a tokens file that cannot be loaded.
pub fn auth(deploy: &DeploySettings, addr: SocketAddr) -> Result<Auth, HttpSetupError> {
    if deploy.no_auth {
        return Auth::open(addr, Principal::local_user()).map_err(|_| HttpSetupError::NoAuthOffLoopback(addr));
    }
    let path = deploy.tokens_file.as_deref().ok_or(HttpSetupError::NoTokens)?;
    Ok(Auth::Tokens(Arc::new(TokenTable::load(path)?)))
}

/// The transport's configuration from the deployment settings.
pub fn config(deploy: &DeploySettings) -> HttpConfig {
    HttpConfig {
        allowed_hosts: deploy.allowed_hosts.clone(),
        allowed_origins: deploy.allowed_origins.clone(),
        stateless: deploy.stateless,
        max_request_bytes: deploy.request_limit(),
        shutdown_grace: Duration::from_secs(deploy.shutdown_grace_seconds),
        sessions: SessionLimits {
            idle: Duration::from_secs(deploy.sessions.idle_seconds),
            max_total: deploy.sessions.max_total,
            max_per_principal: deploy.sessions.max_per_principal,
            ..SessionLimits::default()
        },
        connections: ConnectionLimits {
            max_connections: deploy.connections.max_connections,
            header_read_timeout: Duration::from_secs(deploy.connections.header_read_timeout_seconds),
            body_read_timeout: Duration::from_secs(deploy.connections.body_read_timeout_seconds),
        },
        fair: FairShare {
            max_concurrent_per_principal: deploy.fair.max_calls,
            rate_per_principal: std::num::NonZeroU32::new(deploy.fair.rate_per_second),
        },
    }
}

/// Serves `app` on `listener` until SIGINT/SIGTERM ([`mcp_serve::http::serve`]), as `deploy` asks.
///
/// # Errors
/// The listener fails.
pub async fn serve(app: Arc<App>, listener: TcpListener, auth: Auth, deploy: &DeploySettings) -> anyhow::Result<()> {
    let config = config(deploy);
    let drain = Drain::default();
    let in_flight = drain.in_flight.clone();
    // Built once: every session clones it, sharing the dispatch table and the tools/list entries.
    let server = DevtoolsServer::new(app).with_in_flight(in_flight);
    let new_handler = move || server.clone();
    mcp_serve::http::serve(
        new_handler,
        listener,
        auth,
        &config,
        drain,
        mcp_serve::shutdown_signal(),
    )
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_auth_only_on_loopback() {
        let deploy = DeploySettings {
            no_auth: true,
            ..DeploySettings::default()
        };
        assert!(auth(&deploy, "127.0.0.1:1".parse().unwrap()).is_ok());
        assert!(auth(&deploy, "[::1]:1".parse().unwrap()).is_ok());
        let err = auth(&deploy, "0.0.0.0:1".parse().unwrap()).unwrap_err();
        assert!(matches!(err, HttpSetupError::NoAuthOffLoopback(_)));
        let err = auth(&DeploySettings::default(), "127.0.0.1:1".parse().unwrap()).unwrap_err();
        assert!(matches!(err, HttpSetupError::NoTokens));
    }
}
