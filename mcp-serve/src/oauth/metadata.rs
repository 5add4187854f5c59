//! What a client reads to find out how to authorize: the protected-resource metadata (RFC 9728) at
//! `/.well-known/oauth-protected-resource` and at the path-suffixed location of the resource (RFC 9728 §3.1,
//! `/.well-known/oauth-protected-resource/mcp`), and the `WWW-Authenticate: Bearer` challenges (RFC 6750 §3, with
//! RFC 9728 §5.1's `resource_metadata`) of every refusal.

use axum::Router;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use http::{HeaderValue, StatusCode, header};
use serde_json::json;
use std::sync::Arc;

use super::{Refusal, ResourceServer};

/// The well-known path of the protected-resource metadata (RFC 9728 §3).
pub const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// The metadata document: `resource`, `authorization_servers` (the issuer), `scopes_supported` (every scope a tool
/// needs), `bearer_methods_supported` (`header` only: a token in the query string or a form body is refused), and
/// `resource_name` when configured.
pub fn document(server: &ResourceServer) -> serde_json::Value {
    let config = &server.config;
    let mut doc = json!({
        "resource": config.resource,
        "authorization_servers": [config.issuer],
        "scopes_supported": config.scopes.supported(),
        "bearer_methods_supported": ["header"],
    });
    if let (Some(name), Some(map)) = (&config.resource_name, doc.as_object_mut()) {
        map.insert("resource_name".into(), json!(name));
    }
    doc
}

/// The URL of the metadata for `resource` (RFC 9728 §3.1): the well-known path inserted between the host and the
/// resource's path, `https://mcp.example.com/mcp` → `https://mcp.example.com/.well-known/oauth-protected-resource/mcp`.
pub fn metadata_url(resource: &str) -> String {
    match url::Url::parse(resource) {
        Ok(url) => {
            let origin = url.origin().ascii_serialization();
            let path = url.path().trim_end_matches('/');
            format!("{origin}{WELL_KNOWN}{path}")
        }
        Err(_) => WELL_KNOWN.to_string(),
    }
}

/// The paths the metadata is served at: the root well-known path, the one suffixed with the resource's path, and
/// the one suffixed with `mount` (where this server serves MCP, when a proxy maps another public path onto it).
fn paths(resource: &str, mount: &str) -> Vec<String> {
    let mut paths = vec![WELL_KNOWN.to_string(), format!("{WELL_KNOWN}{mount}")];
    if let Ok(url) = url::Url::parse(resource) {
        let path = url.path().trim_end_matches('/');
        if !path.is_empty() {
            paths.push(format!("{WELL_KNOWN}{path}"));
        }
    }
    paths.sort();
    paths.dedup();
    paths
}

/// A router serving the metadata (`GET`, JSON, `Access-Control-Allow-Origin: *`: it is public, and browser-based
/// clients read it) at [`WELL_KNOWN`] and its suffixed forms for MCP served at `mount` (e.g. `/mcp`).
pub fn router(server: Arc<ResourceServer>, mount: &str) -> Router {
    let mut router = Router::new();
    for path in paths(&server.config.resource, mount) {
        router = router.route(&path, get(serve_document));
    }
    router.with_state(server)
}

async fn serve_document(State(server): State<Arc<ResourceServer>>) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("application/json")),
            (header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*")),
            (header::CACHE_CONTROL, HeaderValue::from_static("max-age=300")),
        ],
        serde_json::to_vec(&document(&server)).unwrap_or_default(),
    )
        .into_response()
}

/// `value` as an RFC 9110 quoted-string: `"` and `\` escaped, anything but visible ASCII and spaces dropped.
fn quote(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars().filter(|c| *c == ' ' || c.is_ascii_graphic()) {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// A `Bearer` challenge with these parameters, always ending with `resource_metadata`.
fn challenge(server: &ResourceServer, params: &[(&str, &str)]) -> HeaderValue {
    let mut parts: Vec<String> = params.iter().map(|(k, v)| format!("{k}={}", quote(v))).collect();
    parts.push(format!(
        "resource_metadata={}",
        quote(&metadata_url(&server.config.resource))
    ));
    HeaderValue::from_str(&format!("Bearer {}", parts.join(", "))).unwrap_or(HeaderValue::from_static("Bearer"))
}

fn refusal(status: StatusCode, challenge: HeaderValue, error: &str, description: &str) -> Response {
    let body = json!({"error": error, "error_description": description});
    (
        status,
        [
            (header::WWW_AUTHENTICATE, challenge),
            (header::CONTENT_TYPE, HeaderValue::from_static("application/json")),
        ],
        serde_json::to_vec(&body).unwrap_or_default(),
    )
        .into_response()
}

/// `401` for a request without a token: where the metadata is, and the scopes to ask for (MCP authorization,
/// "Protected Resource Metadata Discovery Requirements"). Empty body: RFC 6750 §3.1 sends no error code here.
pub fn missing_token(server: &ResourceServer) -> Response {
    let scope = server.config.scopes.supported().join(" ");
    (
        StatusCode::UNAUTHORIZED,
        [(header::WWW_AUTHENTICATE, challenge(server, &[("scope", &scope)]))],
    )
        .into_response()
}

/// `401 invalid_token` (RFC 6750 §3.1) saying what was wrong, or `503` when the authorization server could not be
/// asked.
pub fn invalid_token(server: &ResourceServer, why: &Refusal) -> Response {
    if *why == Refusal::Unavailable {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::RETRY_AFTER, HeaderValue::from_static("5"))],
            why.description(),
        )
            .into_response();
    }
    let description = why.description();
    let scope = server.config.scopes.supported().join(" ");
    let params = [
        ("error", "invalid_token"),
        ("error_description", description.as_str()),
        ("scope", scope.as_str()),
    ];
    refusal(
        StatusCode::UNAUTHORIZED,
        challenge(server, &params),
        "invalid_token",
        &description,
    )
}

/// `403 insufficient_scope` naming the one scope the call needs (MCP authorization, "Scope Challenge Handling").
pub fn insufficient_scope(server: &ResourceServer, scope: &str) -> Response {
    let description = format!("this call needs the scope {scope}");
    let params = [
        ("error", "insufficient_scope"),
        ("scope", scope),
        ("error_description", description.as_str()),
    ];
    refusal(
        StatusCode::FORBIDDEN,
        challenge(server, &params),
        "insufficient_scope",
        &description,
    )
}

/// `400 invalid_request` for an access token in the URL's query (MCP authorization, "Token Requirements": never in
/// the query string; RFC 6750 §2.3 is not offered).
pub fn token_in_query(server: &ResourceServer) -> Response {
    let description = "send the access token in the Authorization header, never in the URL";
    let params = [("error", "invalid_request"), ("error_description", description)];
    refusal(
        StatusCode::BAD_REQUEST,
        challenge(server, &params),
        "invalid_request",
        description,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_url_inserts_the_well_known_path() {
        assert_eq!(
            metadata_url("https://mcp.example.com/mcp"),
            "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
        );
        assert_eq!(
            metadata_url("http://127.0.0.1:8080/"),
            "http://127.0.0.1:8080/.well-known/oauth-protected-resource"
        );
        assert_eq!(
            paths("https://mcp.example.com/tools/mcp", "/mcp"),
            [
                "/.well-known/oauth-protected-resource",
                "/.well-known/oauth-protected-resource/mcp",
                "/.well-known/oauth-protected-resource/tools/mcp"
            ]
        );
    }

    #[test]
    fn quoted_strings_are_escaped() {
        assert_eq!(quote("a \"b\" \\ c\u{7}"), "\"a \\\"b\\\" \\\\ c\"");
    }
}
