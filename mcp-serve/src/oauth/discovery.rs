//! The authorization server's metadata, read once at start-up: RFC 8414 (`/.well-known/oauth-authorization-server`,
//! inserted before the issuer's path) first, then OpenID Connect Discovery (`/.well-known/openid-configuration`,
//! inserted, then appended), the order the MCP authorization specification gives clients. The `issuer` it names must
//! be the configured one, character for character (RFC 8414 §3.3).

use serde_json::Value;

use super::OAuthSetupError;

/// The most bytes read of a metadata, JWKS or introspection response.
pub(super) const MAX_RESPONSE_BYTES: usize = 1024 * 1024;

/// What the resource server uses of the authorization server's metadata.
#[derive(Debug, Clone)]
pub(super) struct AuthorizationServer {
    /// Where its signing keys are.
    pub jwks_uri: Option<String>,
    /// RFC 7662 introspection.
    pub introspection_endpoint: Option<String>,
    /// `code_challenge_methods_supported` lists `S256` (MCP clients refuse an authorization server that does not).
    pub supports_s256: bool,
}

/// `value` is an absolute `https` URL, or `http` on a loopback host.
pub(super) fn check_url(what: &'static str, value: &str) -> Result<url::Url, OAuthSetupError> {
    let bad = || OAuthSetupError::BadUrl {
        what,
        value: value.to_string(),
    };
    let url = url::Url::parse(value).map_err(|_| bad())?;
    let loopback = match url.host() {
        Some(url::Host::Domain(name)) => name == "localhost",
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    };
    match url.scheme() {
        "https" if url.host().is_some() => Ok(url),
        "http" if loopback => Ok(url),
        _ => Err(bad()),
    }
}

/// The metadata URLs to try for `issuer`, in order.
fn candidates(issuer: &url::Url) -> Vec<String> {
    let origin = issuer.origin().ascii_serialization();
    let path = issuer.path().trim_end_matches('/');
    let mut urls = vec![
        format!("{origin}/.well-known/oauth-authorization-server{path}"),
        format!("{origin}/.well-known/openid-configuration{path}"),
    ];
    if !path.is_empty() {
        urls.push(format!("{origin}{path}/.well-known/openid-configuration"));
    }
    urls
}

/// `GET url` as JSON, at most [`MAX_RESPONSE_BYTES`]; the error says what failed (status, transport, JSON).
pub(super) async fn get_json(http: &reqwest::Client, url: &str) -> Result<Value, String> {
    let response = http
        .get(url)
        .header("accept", "application/json")
        .send()
        .await
        .map_err(|err| format!("GET {url}: {err}"))?;
    read_json(response, url).await
}

/// The JSON body of `response` (status 2xx, at most [`MAX_RESPONSE_BYTES`]).
pub(super) async fn read_json(mut response: reqwest::Response, url: &str) -> Result<Value, String> {
    let status = response.status();
    if !status.is_success() {
        return Err(format!("{url} answered {status}"));
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|err| format!("{url}: {err}"))? {
        if body.len() + chunk.len() > MAX_RESPONSE_BYTES {
            return Err(format!("{url}: the response is larger than {MAX_RESPONSE_BYTES} bytes"));
        }
        body.extend_from_slice(&chunk);
    }
    serde_json::from_slice(&body).map_err(|err| format!("{url}: not JSON ({err})"))
}

impl AuthorizationServer {
    /// Reads the metadata of `issuer`.
    pub(super) async fn discover(http: &reqwest::Client, issuer: &str) -> Result<Self, OAuthSetupError> {
        let parsed = check_url("issuer", issuer)?;
        let urls = candidates(&parsed);
        let mut reason = String::new();
        for url in &urls {
            let doc = match get_json(http, url).await {
                Ok(doc) => doc,
                Err(err) => {
                    reason = err;
                    continue;
                }
            };
            let found = doc.get("issuer").and_then(Value::as_str).unwrap_or_default();
            if found != issuer {
                return Err(OAuthSetupError::IssuerMismatch {
                    url: url.clone(),
                    configured: issuer.to_string(),
                    found: found.to_string(),
                });
            }
            let text = |name: &str| doc.get(name).and_then(Value::as_str).map(String::from);
            let supports_s256 = doc
                .get("code_challenge_methods_supported")
                .and_then(Value::as_array)
                .is_some_and(|methods| methods.iter().any(|m| m == "S256"));
            tracing::info!(%issuer, metadata = %url, "read the authorization server's metadata");
            return Ok(AuthorizationServer {
                jwks_uri: text("jwks_uri"),
                introspection_endpoint: text("introspection_endpoint"),
                supports_s256,
            });
        }
        Err(OAuthSetupError::Unreachable {
            issuer: issuer.to_string(),
            tried: urls.join(", "),
            reason,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_locations_follow_rfc_8414_then_openid() {
        let root = url::Url::parse("https://as.example.com").unwrap();
        assert_eq!(
            candidates(&root),
            [
                "https://as.example.com/.well-known/oauth-authorization-server",
                "https://as.example.com/.well-known/openid-configuration"
            ]
        );
        let tenant = url::Url::parse("https://as.example.com/realms/acme/").unwrap();
        assert_eq!(
            candidates(&tenant)[2],
            "https://as.example.com/realms/acme/.well-known/openid-configuration"
        );
    }

    #[test]
    fn https_except_on_loopback() {
        assert!(check_url("issuer", "https://as.example.com").is_ok());
        assert!(check_url("issuer", "http://127.0.0.1:3000").is_ok());
        assert!(check_url("issuer", "http://localhost:3000").is_ok());
        assert!(check_url("issuer", "http://as.example.com").is_err());
        assert!(check_url("issuer", "as.example.com").is_err());
    }
}
