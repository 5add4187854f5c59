//! An OAuth 2.1 resource server for streamable HTTP, as the MCP specification's authorization section asks
//! (revisions 2025-11-25 and later): the server names its authorization server in its protected-resource metadata
//! (RFC 9728), refuses a request without a usable access token with `401` and a `WWW-Authenticate: Bearer` challenge
//! pointing at that metadata, and a call the token's scopes do not cover with `403 insufficient_scope`.
//!
//! - [`OAuthConfig`]: the issuer, this server's resource URI (the audience tokens must name, RFC 8707), the claim that
//!   names the principal, the scope each tool needs ([`ToolScopes`]), the algorithm allow-list, the clock leeway and
//!   optional RFC 7662 introspection credentials for opaque tokens.
//! - [`ResourceServer::discover`]: reads the authorization server's metadata (RFC 8414, or OpenID Connect
//!   discovery) and its JWKS at start-up, failing clearly when the issuer is unreachable or inconsistent.
//! - [`ResourceServer::verify`]: a JWT access token checked against the JWKS (`kid` lookup, refreshed at most once per
//!   [`OAuthConfig::key_refresh_interval`] on an unknown `kid`), `iss`, `aud`, `exp`/`nbf`, the algorithm; or an
//!   opaque token introspected. The principal is `oauth:` + the configured claim, so an OAuth subject never shares
//!   state with a tokens-file principal of the same name.
//! - [`metadata`]: the `/.well-known/oauth-protected-resource` document and the challenges.
//!
//! Wired into the HTTP transport by [`crate::http::Auth::OAuth`]; the bearer token is never logged and never passed on.

mod claims;
mod discovery;
mod introspection;
mod jwt;
mod keys;
pub mod metadata;
mod scopes;

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

pub use jsonwebtoken::Algorithm;
pub use scopes::{Granted, ToolScopes};

use crate::principal::Principal;
use discovery::AuthorizationServer;
use keys::KeyCache;

/// The asymmetric JWS algorithms accepted by default: every RSA, RSA-PSS, ECDSA and EdDSA algorithm jsonwebtoken
/// verifies. HMAC (`HS*`) and `none` are never accepted: a resource server holds no shared secret with the
/// authorization server, and an HMAC "verified" with a public key is a forgery anyone can make.
pub const DEFAULT_ALGORITHMS: &[Algorithm] = &[
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::ES384,
    Algorithm::EdDSA,
];

/// Default of [`OAuthConfig::leeway`]: clock skew tolerated on `exp` and `nbf`.
pub const DEFAULT_LEEWAY: Duration = Duration::from_secs(30);
/// Default of [`OAuthConfig::key_refresh_interval`].
pub const DEFAULT_KEY_REFRESH_INTERVAL: Duration = Duration::from_secs(30);
/// The prefix of every OAuth principal: `oauth:<claim value>`.
pub const PRINCIPAL_PREFIX: &str = "oauth:";

/// The client credentials this server presents to the authorization server's introspection endpoint (RFC 7662 §2.1,
/// HTTP Basic). The secret prints as `***`.
#[derive(Clone)]
pub struct IntrospectionClient {
    /// The client id registered for this resource server.
    pub client_id: String,
    /// Its secret.
    pub client_secret: String,
}

impl std::fmt::Debug for IntrospectionClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "IntrospectionClient({}, ***)", self.client_id)
    }
}

/// How the resource server checks access tokens. Build with [`OAuthConfig::new`], then adjust the fields.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct OAuthConfig {
    /// The authorization server's issuer identifier (`https://login.example.com/realms/acme`), exactly as its
    /// metadata and its tokens' `iss` say. `http` only for a loopback host.
    pub issuer: String,
    /// This server's resource URI (`https://mcp.example.com/mcp`): the audience tokens must carry (RFC 8707) and the
    /// `resource` of the protected-resource metadata.
    pub resource: String,
    /// A human-readable name in the protected-resource metadata (`resource_name`).
    pub resource_name: Option<String>,
    /// The claim naming the principal (`sub` by default; `email`, `preferred_username`, ...). A string or number.
    pub principal_claim: String,
    /// The scope each tool call needs.
    pub scopes: ToolScopes,
    /// The JWS algorithms accepted ([`DEFAULT_ALGORITHMS`]); HMAC and `none` are refused by [`ResourceServer::discover`].
    pub algorithms: Vec<Algorithm>,
    /// Clock skew tolerated on `exp` and `nbf`.
    pub leeway: Duration,
    /// Introspect tokens that are not JWTs (RFC 7662) with these credentials; `None`: opaque tokens are refused.
    pub introspection: Option<IntrospectionClient>,
    /// The shortest time between two JWKS fetches caused by an unknown `kid` (a flood of forged `kid`s costs the
    /// authorization server at most one fetch per interval).
    pub key_refresh_interval: Duration,
    /// The timeout of each request to the authorization server.
    pub timeout: Duration,
}

impl OAuthConfig {
    /// Defaults for `issuer` and `resource`: principal claim `sub`, one scope `devtools:read` for every tool,
    /// [`DEFAULT_ALGORITHMS`], [`DEFAULT_LEEWAY`], no introspection.
    pub fn new(issuer: impl Into<String>, resource: impl Into<String>) -> Self {
        OAuthConfig {
            issuer: issuer.into(),
            resource: resource.into(),
            resource_name: None,
            principal_claim: "sub".into(),
            scopes: ToolScopes::new("devtools:read"),
            algorithms: DEFAULT_ALGORITHMS.to_vec(),
            leeway: DEFAULT_LEEWAY,
            introspection: None,
            key_refresh_interval: DEFAULT_KEY_REFRESH_INTERVAL,
            timeout: Duration::from_secs(10),
        }
    }
}

/// Why the resource server cannot start; each message names what to fix. None quotes a secret.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OAuthSetupError {
    /// The issuer or resource is not an absolute `https` URL (`http` allowed for loopback hosts only).
    #[error("{what} {value:?} is not an absolute https URL (http is allowed for 127.0.0.1, [::1] and localhost only)")]
    BadUrl {
        /// `issuer` or `resource`.
        what: &'static str,
        /// The value given.
        value: String,
    },
    /// An algorithm that is not asymmetric (`HS*`) was allowed.
    #[error(
        "algorithm {0:?} cannot be accepted: only asymmetric algorithms (RS*, PS*, ES*, EdDSA) verify a token with public keys"
    )]
    SymmetricAlgorithm(Algorithm),
    /// No algorithm allowed.
    #[error("no JWS algorithm is allowed")]
    NoAlgorithm,
    /// The authorization server's metadata could not be fetched from any well-known location.
    #[error("the authorization server {issuer} is unreachable or serves no metadata ({tried}): {reason}")]
    Unreachable {
        /// The issuer.
        issuer: String,
        /// The URLs tried.
        tried: String,
        /// The last failure.
        reason: String,
    },
    /// The metadata names another issuer (RFC 8414 §3.3: they must be identical).
    #[error(
        "the authorization server's metadata at {url} names issuer {found:?}, not the configured {configured:?}: configure the issuer exactly as the server names itself"
    )]
    IssuerMismatch {
        /// Where the metadata was read.
        url: String,
        /// The configured issuer.
        configured: String,
        /// The issuer in the metadata.
        found: String,
    },
    /// The metadata has neither a `jwks_uri` nor (with introspection configured) an `introspection_endpoint`.
    #[error("the authorization server {issuer} publishes no {missing} in its metadata")]
    MissingEndpoint {
        /// The issuer.
        issuer: String,
        /// `jwks_uri` or `introspection_endpoint`.
        missing: &'static str,
    },
    /// The JWKS could not be fetched or holds no usable key.
    #[error("the authorization server's keys at {url}: {reason}")]
    Keys {
        /// The `jwks_uri`.
        url: String,
        /// What went wrong.
        reason: String,
    },
}

/// Why an access token was refused. [`Refusal::description`] is the `error_description` sent to the client: it says
/// what was wrong with the token, never echoes it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// Not a JWT, or a JWT that does not parse, and no introspection.
    #[error("the access token is not a well-formed JWT")]
    Malformed,
    /// `exp` (plus leeway) is past.
    #[error("the access token has expired")]
    Expired,
    /// `nbf` (minus leeway) is in the future.
    #[error("the access token is not valid yet")]
    NotYetValid,
    /// `aud` does not name this server's resource URI.
    #[error("the access token is not issued for this resource (its audience must be the resource URI)")]
    WrongAudience,
    /// `iss` is not the configured issuer.
    #[error("the access token is not issued by the configured authorization server")]
    WrongIssuer,
    /// The signature does not verify.
    #[error("the access token's signature does not verify")]
    BadSignature,
    /// No key of the JWKS has the token's `kid` (after a refresh).
    #[error("the access token is signed with a key the authorization server does not publish")]
    UnknownKey,
    /// The algorithm is not allowed, or does not fit the key.
    #[error("the access token's signing algorithm is not accepted")]
    Algorithm,
    /// A required claim is missing or of the wrong type.
    #[error("the access token has no usable `{0}` claim")]
    Claim(String),
    /// Introspection said the token is not active.
    #[error("the access token is not active")]
    Inactive,
    /// The authorization server could not be asked (introspection failed).
    #[error("the authorization server could not be reached to check the access token")]
    Unavailable,
}

impl Refusal {
    /// The `error_description` text of the challenge.
    pub fn description(&self) -> String {
        self.to_string()
    }
}

/// An accepted access token: who it is for and what it grants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// `oauth:` + the principal claim.
    pub principal: Principal,
    /// The granted scopes (`scope`, space-separated, or `scp`).
    pub scopes: BTreeSet<String>,
}

/// The resource server: configuration, the authorization server's metadata and the cached keys. Cheap to share
/// (`Arc`).
#[derive(Debug)]
pub struct ResourceServer {
    config: OAuthConfig,
    server: AuthorizationServer,
    keys: KeyCache,
    http: reqwest::Client,
}

impl ResourceServer {
    /// Checks `config`, reads the authorization server's metadata and (when it has one) its JWKS.
    ///
    /// # Errors
    /// [`OAuthSetupError`]: a URL that is not https (off loopback), an HMAC algorithm, an unreachable issuer, metadata
    /// naming another issuer, no `jwks_uri` (nor introspection), keys that cannot be fetched.
    pub async fn discover(config: OAuthConfig) -> Result<Arc<ResourceServer>, OAuthSetupError> {
        discovery::check_url("issuer", &config.issuer)?;
        discovery::check_url("resource", &config.resource)?;
        if config.algorithms.is_empty() {
            return Err(OAuthSetupError::NoAlgorithm);
        }
        if let Some(alg) = config
            .algorithms
            .iter()
            .find(|alg| alg.family() == jsonwebtoken::AlgorithmFamily::Hmac)
        {
            return Err(OAuthSetupError::SymmetricAlgorithm(*alg));
        }
        let http = reqwest::Client::builder()
            .timeout(config.timeout)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|err| OAuthSetupError::Unreachable {
                issuer: config.issuer.clone(),
                tried: String::new(),
                reason: err.to_string(),
            })?;
        let server = AuthorizationServer::discover(&http, &config.issuer).await?;
        if config.introspection.is_some() && server.introspection_endpoint.is_none() {
            return Err(OAuthSetupError::MissingEndpoint {
                issuer: config.issuer.clone(),
                missing: "introspection_endpoint",
            });
        }
        let keys = match &server.jwks_uri {
            Some(uri) => KeyCache::load(&http, uri, config.key_refresh_interval).await?,
            None if config.introspection.is_some() => KeyCache::empty(),
            None => {
                return Err(OAuthSetupError::MissingEndpoint {
                    issuer: config.issuer.clone(),
                    missing: "jwks_uri",
                });
            }
        };
        if !server.supports_s256 {
            tracing::warn!(
                issuer = %config.issuer,
                "the authorization server's metadata does not list S256 in code_challenge_methods_supported: MCP \
                 clients refuse to authorize with it"
            );
        }
        Ok(Arc::new(ResourceServer {
            config,
            server,
            keys,
            http,
        }))
    }

    /// The configuration in use.
    pub fn config(&self) -> &OAuthConfig {
        &self.config
    }

    /// Checks `token`: a JWT against the keys and claims, anything else by introspection when configured.
    ///
    /// # Errors
    /// [`Refusal`]: why the token is not accepted.
    pub async fn verify(&self, token: &str) -> Result<Verified, Refusal> {
        if jwt::looks_like_jwt(token) {
            return jwt::verify(self, token).await;
        }
        match (&self.config.introspection, &self.server.introspection_endpoint) {
            (Some(client), Some(endpoint)) => introspection::verify(self, client, endpoint, token).await,
            _ => Err(Refusal::Malformed),
        }
    }

    /// `oauth:` + the principal claim of `claims`, refusing values with control characters (they would reach
    /// logs). A token without a `sub` (RFC 7662 makes it optional: `client_credentials` tokens often have none)
    /// stands for its `client_id` when the principal claim is `sub`.
    fn principal(&self, claims: &serde_json::Map<String, serde_json::Value>) -> Result<Principal, Refusal> {
        let name = &self.config.principal_claim;
        let claim = || Refusal::Claim(name.clone());
        let value = match claims.get(name) {
            None if name == "sub" => claims.get("client_id").ok_or_else(claim)?,
            None => return Err(claim()),
            Some(value) => value,
        };
        let text = match value {
            serde_json::Value::String(text) => text.clone(),
            serde_json::Value::Number(number) => number.to_string(),
            _ => return Err(claim()),
        };
        if text.is_empty() || text.chars().any(char::is_control) {
            return Err(claim());
        }
        Ok(Principal::named(format!("{PRINCIPAL_PREFIX}{text}")))
    }
}

/// The scopes of a token's `scope` (space-separated, RFC 9068 §2.2.3) or `scp` (a list or a string) claim.
fn granted_scopes(claims: &serde_json::Map<String, serde_json::Value>) -> BTreeSet<String> {
    let mut scopes = BTreeSet::new();
    for name in ["scope", "scp"] {
        match claims.get(name) {
            Some(serde_json::Value::String(text)) => scopes.extend(text.split_whitespace().map(String::from)),
            Some(serde_json::Value::Array(items)) => {
                scopes.extend(items.iter().filter_map(|item| item.as_str()).map(String::from));
            }
            _ => {}
        }
    }
    scopes
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn scopes_come_from_scope_or_scp() {
        let claims = json!({"scope": "devtools:read  devtools:write", "scp": ["extra"]});
        let scopes = granted_scopes(claims.as_object().unwrap());
        assert_eq!(
            scopes.into_iter().collect::<Vec<_>>(),
            ["devtools:read", "devtools:write", "extra"]
        );
        assert!(granted_scopes(json!({"scope": 3}).as_object().unwrap()).is_empty());
    }
}

/// What the fuzz targets (`fuzz/`, FUZZING.md) call: the reading of a JWKS document and of a token's header and
/// claims, without a key or the network. Not a stable interface.
#[doc(hidden)]
pub mod fuzzing {
    use serde_json::{Map, Value};

    pub use super::claims::numeric_date;
    use super::{Refusal, claims, jwt, keys};

    /// The usable signature keys of the JWKS document `doc`.
    pub fn jwks_keys(doc: &Value) -> usize {
        keys::parse(doc).len()
    }

    /// `token` read as the verification path reads it before the signature: its shape, its header (algorithm,
    /// `typ`), then, without checking the signature, its claims (`exp`/`nbf` at `now` with `leeway_secs`).
    pub fn read_token(token: &str, leeway_secs: u64, now: f64) -> Result<Map<String, Value>, Refusal> {
        jwt::read_unverified(token)?;
        let data =
            jsonwebtoken::dangerous::insecure_decode::<Map<String, Value>>(token).map_err(|_| Refusal::Malformed)?;
        claims::check_times(&data.claims, std::time::Duration::from_secs(leeway_secs), now, true)?;
        Ok(data.claims)
    }

    /// `exp`/`nbf` of `claims` checked at `now` (seconds since the epoch).
    pub fn check_times(
        claims: &Map<String, Value>,
        leeway_secs: u64,
        now: f64,
        exp_required: bool,
    ) -> Result<(), Refusal> {
        claims::check_times(claims, std::time::Duration::from_secs(leeway_secs), now, exp_required)
    }
}
