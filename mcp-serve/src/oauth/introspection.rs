//! Opaque access tokens, checked by the authorization server's introspection endpoint (RFC 7662) with this server's
//! client credentials (HTTP Basic, §2.1). An active token must name this server's resource URI in `aud` (RFC 8707),
//! the configured issuer in `iss` when it gives one, and not be past `exp` nor before `nbf` (with leeway).

use serde_json::Value;

use super::claims::{check_times, epoch_seconds};
use super::discovery::read_json;
use super::{IntrospectionClient, Refusal, ResourceServer, Verified, granted_scopes};

/// Whether `aud` (a string or a list) names `resource`.
fn audience_fits(aud: Option<&Value>, resource: &str) -> bool {
    match aud {
        Some(Value::String(one)) => one == resource,
        Some(Value::Array(many)) => many.iter().any(|item| item.as_str() == Some(resource)),
        _ => false,
    }
}

/// Introspects `token` at `endpoint`.
pub(super) async fn verify(
    server: &ResourceServer,
    client: &IntrospectionClient,
    endpoint: &str,
    token: &str,
) -> Result<Verified, Refusal> {
    let config = &server.config;
    let form = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("token", token)
        .append_pair("token_type_hint", "access_token")
        .finish();
    let response = server
        .http
        .post(endpoint)
        .basic_auth(&client.client_id, Some(&client.client_secret))
        .header("accept", "application/json")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(form)
        .send()
        .await
        .map_err(|err| {
            // reqwest's error names the URL, never the form body.
            tracing::warn!(error = %err, "token introspection failed");
            Refusal::Unavailable
        })?;
    let doc = read_json(response, endpoint).await.map_err(|err| {
        tracing::warn!(error = %err, "token introspection failed");
        Refusal::Unavailable
    })?;
    let Some(claims) = doc.as_object() else {
        return Err(Refusal::Unavailable);
    };
    if claims.get("active").and_then(Value::as_bool) != Some(true) {
        return Err(Refusal::Inactive);
    }
    if claims
        .get("iss")
        .is_some_and(|iss| iss.as_str() != Some(config.issuer.as_str()))
    {
        return Err(Refusal::WrongIssuer);
    }
    if !audience_fits(claims.get("aud"), &config.resource) {
        return Err(Refusal::WrongAudience);
    }
    // `exp` and `nbf` are optional here (RFC 7662 §2.2) but, when present, NumericDate values in any JSON number
    // form; `as_u64` read a fractional or exponent `exp` as absent, so such a token was never expired.
    check_times(
        claims,
        config.leeway,
        epoch_seconds(std::time::SystemTime::now()),
        false,
    )?;
    let principal = server.principal(claims)?;
    Ok(Verified {
        principal,
        scopes: granted_scopes(claims),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn audience_must_name_the_resource() {
        let me = "https://mcp.example.com/mcp";
        assert!(audience_fits(Some(&json!(me)), me));
        assert!(audience_fits(Some(&json!(["other", me])), me));
        assert!(!audience_fits(Some(&json!("other")), me));
        assert!(!audience_fits(None, me));
    }
}
