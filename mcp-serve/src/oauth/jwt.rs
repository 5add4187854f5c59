//! JWT access tokens (RFC 9068): the signature against the authorization server's keys, then `iss`, `aud` (this
//! server's resource URI, RFC 8707) with jsonwebtoken, then `exp` and `nbf` with the configured leeway (read as
//! NumericDate in all its JSON forms, [`super::claims`]). The header's
//! algorithm must be on the allow-list and fit the key; `typ`, when present, must be `at+jwt` or `JWT` (an ID token
//! or another kind of JWT is refused even when its audience would fit).

use std::time::SystemTime;

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, Validation, decode, decode_header};
use serde_json::{Map, Value};

use super::claims::{check_times, epoch_seconds};
use super::{OAuthConfig, Refusal, ResourceServer, Verified, granted_scopes};

/// Three base64url segments separated by dots, the first two non-empty (a JWS compact serialization; an unsecured
/// `alg: none` JWT has an empty signature, and is refused as such).
pub(super) fn looks_like_jwt(token: &str) -> bool {
    let segments: Vec<&str> = token.split('.').collect();
    segments.len() == 3
        && !segments[0].is_empty()
        && !segments[1].is_empty()
        && segments.iter().all(|segment| {
            segment
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
}

/// Why a header jsonwebtoken cannot read is refused: an `alg` it does not know (`none`, ...) is an algorithm
/// refusal, anything else a malformed token.
fn unreadable_header(token: &str) -> Refusal {
    use base64::Engine;
    let alg = token
        .split('.')
        .next()
        .and_then(|header| base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(header).ok())
        .and_then(|json| serde_json::from_slice::<Value>(&json).ok())
        .and_then(|header| header.get("alg").and_then(Value::as_str).map(String::from));
    match alg {
        Some(_) => Refusal::Algorithm,
        None => Refusal::Malformed,
    }
}

/// The `typ` values accepted: RFC 9068's `at+jwt` (with or without `application/`), and the generic `JWT` many
/// authorization servers put on access tokens.
fn typ_accepted(typ: Option<&str>) -> bool {
    match typ.map(str::to_ascii_lowercase).as_deref() {
        None | Some("at+jwt" | "application/at+jwt" | "jwt") => true,
        Some(_) => false,
    }
}

fn refusal(kind: &ErrorKind) -> Refusal {
    match kind {
        ErrorKind::ExpiredSignature => Refusal::Expired,
        ErrorKind::ImmatureSignature => Refusal::NotYetValid,
        ErrorKind::InvalidAudience => Refusal::WrongAudience,
        ErrorKind::InvalidIssuer => Refusal::WrongIssuer,
        ErrorKind::InvalidSignature => Refusal::BadSignature,
        ErrorKind::InvalidAlgorithm | ErrorKind::MissingAlgorithm => Refusal::Algorithm,
        ErrorKind::MissingRequiredClaim(claim) | ErrorKind::InvalidClaimFormat(claim) => Refusal::Claim(claim.clone()),
        _ => Refusal::Malformed,
    }
}

/// The checks of a token's shape and header that need no key (for the fuzz target): a JWS compact serialization,
/// a header jsonwebtoken reads, an accepted `typ`.
pub(super) fn read_unverified(token: &str) -> Result<(), Refusal> {
    if !looks_like_jwt(token) {
        return Err(Refusal::Malformed);
    }
    let header = decode_header(token).map_err(|_| unreadable_header(token))?;
    if !typ_accepted(header.typ.as_deref()) {
        return Err(Refusal::Malformed);
    }
    Ok(())
}

/// What jsonwebtoken checks after the signature: `iss` and `aud`, both required. `exp` and `nbf` are checked by
/// [`check_times`] instead: under the workspace's serde_json `arbitrary_precision`, jsonwebtoken cannot read a
/// non-integer NumericDate (RFC 7519 §2) and would refuse `"exp": 1300819380.5` as a missing claim.
fn validation(config: &OAuthConfig, alg: Algorithm) -> Validation {
    let mut validation = Validation::new(alg);
    validation.validate_exp = false;
    validation.validate_nbf = false;
    validation.set_audience(&[&config.resource]);
    validation.set_issuer(&[&config.issuer]);
    validation.set_required_spec_claims(&["iss", "aud"]);
    validation
}

/// Verifies the JWT `token`.
pub(super) async fn verify(server: &ResourceServer, token: &str) -> Result<Verified, Refusal> {
    let config = &server.config;
    let header = decode_header(token).map_err(|_| unreadable_header(token))?;
    if !config.algorithms.contains(&header.alg) {
        return Err(Refusal::Algorithm);
    }
    if !typ_accepted(header.typ.as_deref()) {
        return Err(Refusal::Malformed);
    }
    let key = server
        .keys
        .key(&server.http, header.kid.as_deref(), header.alg)
        .await
        .ok_or(Refusal::UnknownKey)?;
    let data = decode::<Map<String, Value>>(token, &key, &validation(config, header.alg))
        .map_err(|err| refusal(err.kind()))?;
    check_times(&data.claims, config.leeway, epoch_seconds(SystemTime::now()), true)?;
    let principal = server.principal(&data.claims)?;
    Ok(Verified {
        principal,
        scopes: granted_scopes(&data.claims),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jwt_shape() {
        assert!(looks_like_jwt("eyJh.eyJz.c2ln"));
        assert!(!looks_like_jwt("opaque-token"));
        assert!(!looks_like_jwt("a..b"));
        assert!(
            looks_like_jwt("eyJh.eyJz."),
            "an unsecured JWT is still a JWT, refused for its alg"
        );
        assert!(!looks_like_jwt("a.b.c.d"));
        assert!(!looks_like_jwt("a.b.c d"));
    }

    #[test]
    fn an_unknown_alg_is_an_algorithm_refusal() {
        use base64::Engine;
        let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        let none = format!("{}.e30.", b64.encode(br#"{"alg":"none"}"#));
        assert!(decode_header(&none).is_err());
        assert_eq!(unreadable_header(&none), Refusal::Algorithm);
        assert_eq!(unreadable_header("bm90IGpzb24.e30.c2ln"), Refusal::Malformed);
    }

    /// RFC 7519 §2: a NumericDate "can represent any UTC date/time ... non-integer values can be represented".
    /// jsonwebtoken alone refuses a fractional `exp` under the workspace's serde_json `arbitrary_precision`; the
    /// verification path reads it, and still refuses it once past. (jsonwebtoken reports it as missing: its reading
    /// fails, and the required-claims check comes first.)
    #[test]
    fn fractional_and_exponent_exp_under_the_workspace_features() {
        use jsonwebtoken::{DecodingKey, EncodingKey, Header, encode};
        let config = OAuthConfig::new("https://as.example", "https://mcp.example/mcp");
        let (encoding, decoding) = (
            EncodingKey::from_secret(b"secret").unwrap(),
            DecodingKey::from_secret(b"secret").unwrap(),
        );
        let now = epoch_seconds(SystemTime::now()).floor();
        let token = |exp: &str| {
            let text =
                format!(r#"{{"iss":"https://as.example","aud":"https://mcp.example/mcp","sub":"joe","exp":{exp}}}"#);
            let claims: Value = serde_json::from_str(&text).unwrap();
            encode(&Header::new(Algorithm::HS256), &claims, &encoding).unwrap()
        };
        let ours = |exp: &str| {
            let data = decode::<Map<String, Value>>(&token(exp), &decoding, &validation(&config, Algorithm::HS256))
                .map_err(|err| refusal(err.kind()))?;
            check_times(&data.claims, config.leeway, now, true)
        };
        let future = now + 3600.0;
        for exp in [
            format!("{future}"),
            format!("{future}.5"),
            format!("{future}.0"),
            "2e10".into(),
            "2E+10".into(),
        ] {
            assert_eq!(ours(&exp), Ok(()), "exp {exp}");
        }
        let past = now - 3600.0;
        for exp in [format!("{past}"), format!("{past}.5"), "1.3e9".into()] {
            assert_eq!(ours(&exp), Err(Refusal::Expired), "exp {exp}");
        }
        assert_eq!(ours(r#""2e10""#), Err(Refusal::Claim("exp".into())));
        let mut library = Validation::new(Algorithm::HS256);
        library.set_audience(&[&config.resource]);
        library.set_issuer(&[&config.issuer]);
        let read = |exp: &str| decode::<Map<String, Value>>(&token(exp), &decoding, &library).map(|_| ());
        assert!(read(&format!("{future}")).is_ok());
        assert_eq!(
            read(&format!("{future}.5")).map_err(|err| err.into_kind()),
            Err(ErrorKind::MissingRequiredClaim("exp".into())),
            "jsonwebtoken under arbitrary_precision (if this passes, the workspace features changed)"
        );
    }

    #[test]
    fn typ() {
        assert!(typ_accepted(Some("at+jwt")));
        assert!(typ_accepted(Some("application/at+JWT")));
        assert!(typ_accepted(None));
        assert!(!typ_accepted(Some("logout+jwt")));
    }
}
