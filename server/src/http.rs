//! The server's wiring of [`mcp_serve::http`]: authentication and limits from the deployment settings
//! ([`crate::deploy_settings`]), one [`DevtoolsServer`] per session.

use std::net::SocketAddr;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use mcp_serve::http::{Auth, ConnectionLimits, Drain, FairShare, HttpConfig, SessionLimits};
use mcp_serve::oauth::{Algorithm, IntrospectionClient, OAuthConfig, OAuthSetupError, ResourceServer, ToolScopes};
use mcp_serve::tokens::{TokenTable, TokensError};
use rmcp::model::Tool;
use tokio::net::TcpListener;

use crate::deploy_settings::{DeploySettings, OAuthSettings};
use crate::registry::{HTTP_TOKENS_FILE, OAUTH_ISSUER, OAUTH_RESOURCE};
use crate::{App, DevtoolsServer, Principal};

/// Why the HTTP transport cannot start as configured.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HttpSetupError {
    /// `--no-auth` on an address other clients can reach.
    #[error(
        "--no-auth (MCP_HTTP_NO_AUTH) is only allowed on a loopback address, not {0}: bind 127.0.0.1 or configure a \
         tokens file"
    )]
    NoAuthOffLoopback(SocketAddr),
    /// Neither a tokens file, nor an OAuth issuer, nor `--no-auth`.
    #[error(
        "HTTP needs a tokens file (--tokens-file / MCP_HTTP_TOKENS_FILE), an OAuth authorization server \
         (--oauth-issuer / MCP_OAUTH_ISSUER), or --no-auth on a loopback address"
    )]
    NoTokens,
    /// The tokens file is unusable.
    #[error(transparent)]
    Tokens(#[from] TokensError),
    /// OAuth off loopback without the public resource URI.
    #[error(
        "{OAUTH_RESOURCE} must be set when serving OAuth on {0} (not a loopback address): give this server's public \
         MCP URL, e.g. https://mcp.example.com/mcp, the audience its access tokens carry"
    )]
    ResourceRequired(SocketAddr),
    /// The authorization server cannot be used.
    #[error("OAuth ({OAUTH_ISSUER}={issuer}): {source}")]
    OAuth {
        /// The configured issuer.
        issuer: String,
        /// What is wrong.
        source: OAuthSetupError,
    },
}

/// The scope each tool needs: `read_scope` for read tools (MCP `readOnlyHint`), `write_scope` for the others.
pub fn tool_scopes(tools: &[Tool], read_scope: &str, write_scope: &str) -> ToolScopes {
    tools
        .iter()
        .filter(|tool| tool.annotations.as_ref().and_then(|a| a.read_only_hint) != Some(true))
        .fold(ToolScopes::new(read_scope), |scopes, tool| {
            scopes.with_tool(tool.name.to_string(), write_scope)
        })
}

/// The resource server's configuration for a server bound at `bound` offering `tools`.
///
/// # Errors
/// [`HttpSetupError::ResourceRequired`]: no resource URI, and `bound` is not a loopback address.
pub fn oauth_config(oauth: &OAuthSettings, bound: SocketAddr, tools: &[Tool]) -> Result<OAuthConfig, HttpSetupError> {
    let resource = match &oauth.resource {
        Some(resource) => resource.clone(),
        None if bound.ip().is_loopback() => format!("http://{bound}/mcp"),
        None => return Err(HttpSetupError::ResourceRequired(bound)),
    };
    let mut config = OAuthConfig::new(oauth.issuer.clone(), resource);
    config.resource_name = Some("mcp-devtools".to_owned());
    config.principal_claim = oauth.principal_claim.clone();
    config.scopes = tool_scopes(tools, &oauth.read_scope, &oauth.write_scope);
    config.algorithms = oauth
        .algorithms
        .iter()
        .filter_map(|name| Algorithm::from_str(name).ok())
        .collect();
    config.leeway = Duration::from_secs(oauth.leeway_seconds);
    config.introspection = oauth.introspection.as_ref().map(|(id, secret)| IntrospectionClient {
        client_id: id.clone(),
        client_secret: secret.expose().to_owned(),
    });
    Ok(config)
}

/// The authentication the deployment settings ask for on the bound address `bound`, for a server offering `tools`
/// (their scopes under OAuth). With OAuth this reads the authorization server's metadata and keys.
///
/// # Errors
/// [`HttpSetupError`]: `--no-auth` off loopback, neither a tokens file nor OAuth, a tokens file that cannot be
/// loaded, OAuth off loopback without a resource URI, an unreachable or inconsistent authorization server.
pub async fn auth(deploy: &DeploySettings, bound: SocketAddr, tools: &[Tool]) -> Result<Auth, HttpSetupError> {
    if deploy.no_auth {
        return Auth::open(bound, Principal::local_user()).map_err(|_| HttpSetupError::NoAuthOffLoopback(bound));
    }
    let tokens = match &deploy.tokens_file {
        Some(path) => Some(Arc::new(TokenTable::load(path)?)),
        None => None,
    };
    let Some(oauth) = &deploy.oauth else {
        return tokens.map(Auth::Tokens).ok_or(HttpSetupError::NoTokens);
    };
    let config = oauth_config(oauth, bound, tools)?;
    let server = ResourceServer::discover(config)
        .await
        .map_err(|source| HttpSetupError::OAuth {
            issuer: oauth.issuer.clone(),
            source,
        })?;
    tracing::info!(
        issuer = %oauth.issuer,
        resource = %server.config().resource,
        tokens_file = tokens.is_some(),
        "HTTP accepts OAuth access tokens{}",
        if tokens.is_some() { format!(" and the tokens of {HTTP_TOKENS_FILE}") } else { String::new() }
    );
    Ok(Auth::OAuth { server, tokens })
}

/// The transport's configuration from the deployment settings.
pub fn config(deploy: &DeploySettings) -> HttpConfig {
    HttpConfig::default()
        .with_allowed_hosts(deploy.allowed_hosts.clone())
        .with_allowed_origins(deploy.allowed_origins.clone())
        .with_stateless(deploy.stateless)
        .with_max_request_bytes(deploy.request_limit())
        .with_shutdown_grace(Duration::from_secs(deploy.shutdown_grace_seconds))
        .with_sessions(
            SessionLimits::default()
                .with_idle(Duration::from_secs(deploy.sessions.idle_seconds))
                .with_max_total(deploy.sessions.max_total)
                .with_max_per_principal(deploy.sessions.max_per_principal),
        )
        .with_connections(
            ConnectionLimits::default()
                .with_max_connections(deploy.connections.max_connections)
                .with_header_read_timeout(Duration::from_secs(deploy.connections.header_read_timeout_seconds))
                .with_body_read_timeout(Duration::from_secs(deploy.connections.body_read_timeout_seconds)),
        )
        .with_fair(
            FairShare::default()
                .with_max_concurrent_per_principal(deploy.fair.max_calls)
                .with_rate_per_principal(std::num::NonZeroU32::new(deploy.fair.rate_per_second)),
        )
}

/// Serves `app` on `listener` until SIGINT/SIGTERM ([`mcp_serve::http::serve`]), as `deploy` asks.
///
/// # Errors
/// The listener fails.
pub async fn serve(app: Arc<App>, listener: TcpListener, auth: Auth, deploy: &DeploySettings) -> anyhow::Result<()> {
    let config = config(deploy);
    let drain = Drain::default();
    let in_flight = drain.in_flight.clone();
    let shutdown = crate::draining(&app);
    // Built once: every session clones it, sharing the catalogue (the router and the tools/list entries).
    let server = DevtoolsServer::new(app).with_in_flight(in_flight);
    let new_handler = move || server.clone();
    mcp_serve::http::serve(new_handler, listener, auth, &config, drain, shutdown).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn no_auth_only_on_loopback() {
        let deploy = DeploySettings {
            no_auth: true,
            ..DeploySettings::default()
        };
        assert!(auth(&deploy, "127.0.0.1:1".parse().unwrap(), &[]).await.is_ok());
        assert!(auth(&deploy, "[::1]:1".parse().unwrap(), &[]).await.is_ok());
        let err = auth(&deploy, "0.0.0.0:1".parse().unwrap(), &[]).await.unwrap_err();
        assert!(matches!(err, HttpSetupError::NoAuthOffLoopback(_)));
        let err = auth(&DeploySettings::default(), "127.0.0.1:1".parse().unwrap(), &[])
            .await
            .unwrap_err();
        assert!(matches!(err, HttpSetupError::NoTokens));
    }

    #[test]
    fn oauth_resource_defaults_to_the_loopback_address_only() {
        let oauth = OAuthSettings {
            issuer: "https://login.example.com".into(),
            resource: None,
            principal_claim: "sub".into(),
            read_scope: "r".into(),
            write_scope: "w".into(),
            algorithms: vec!["RS256".into()],
            leeway_seconds: 5,
            introspection: None,
        };
        let config = oauth_config(&oauth, "127.0.0.1:8080".parse().unwrap(), &[]).unwrap();
        assert_eq!(config.resource, "http://127.0.0.1:8080/mcp");
        assert_eq!(config.algorithms, [Algorithm::RS256]);
        let err = oauth_config(&oauth, "0.0.0.0:8080".parse().unwrap(), &[]).unwrap_err();
        assert!(err.to_string().contains("MCP_OAUTH_RESOURCE"), "{err}");
    }
}
