//! The OAuth resource server's reading of outside data (`mcp_serve::oauth::fuzzing`): a JWKS document (the
//! authorization server's keys, RFC 7517), an access token's shape, header and claims (RFC 7519, RFC 9068), and the
//! `exp`/`nbf` NumericDate checks, under the workspace's serde_json features (`arbitrary_precision`).
//!
//! Input: the first byte picks the mode, the rest is the data. 0: JWKS JSON. 1: the token text. 2: a claims set
//! (JSON), also wrapped into an unsigned JWT. Other: the token text with a fixed valid header.
//!
//! Checked: no panic; a NumericDate read is finite and, for an integer `u64`, equal to it; `exp`/`nbf` decisions
//! follow the rules (expired iff now ≥ exp + leeway; not yet valid iff now + leeway < nbf); a claims set reads the
//! same from JSON and from a token.
#![no_main]

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use libfuzzer_sys::fuzz_target;
use mcp_serve::oauth::Refusal;
use mcp_serve::oauth::fuzzing::{check_times, jwks_keys, numeric_date, read_token};
use serde_json::{Map, Value};

const NOW: f64 = 1_700_000_000.5;
const LEEWAY: u64 = 60;

fuzz_target!(|input: &[u8]| {
    let Some((&mode, data)) = input.split_first() else {
        return;
    };
    match mode {
        0 => {
            if let Ok(doc) = serde_json::from_slice::<Value>(data) {
                let _ = jwks_keys(&doc);
            }
        }
        1 => {
            let _ = read_token(&String::from_utf8_lossy(data), LEEWAY, NOW);
        }
        2 => {
            let Ok(claims) = serde_json::from_slice::<Map<String, Value>>(data) else {
                return;
            };
            let verdict = check_times(&claims, LEEWAY, NOW, true);
            check_rules(&claims, &verdict);
            let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"RS256","typ":"at+jwt"}"#);
            let token = format!("{header}.{}.c2ln", URL_SAFE_NO_PAD.encode(data));
            match read_token(&token, LEEWAY, NOW) {
                Ok(read) => assert_eq!(verdict, Ok(()), "{read:?}"),
                Err(Refusal::Malformed) => {}
                Err(other) => assert_eq!(verdict, Err(other)),
            }
        }
        _ => {
            let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"ES256","typ":"JWT","kid":"k"}"#);
            let _ = read_token(&format!("{header}.{}", String::from_utf8_lossy(data)), LEEWAY, NOW);
        }
    }
});

/// The `exp`/`nbf` rules, on the claims' own numbers.
fn check_rules(claims: &Map<String, Value>, verdict: &Result<(), Refusal>) {
    let leeway = LEEWAY as f64;
    let date = |name: &str| claims.get(name).map(numeric_date);
    for name in ["exp", "nbf"] {
        if let Some(value) = claims.get(name)
            && let Some(secs) = numeric_date(value)
        {
            assert!(secs.is_finite());
            if let Some(int) = value.as_u64() {
                assert_eq!(secs, int as f64, "{name} {value}");
            }
        }
    }
    let expected = match (date("exp"), date("nbf")) {
        (None, _) | (Some(None), _) => Err(Refusal::Claim("exp".into())),
        (Some(Some(exp)), _) if NOW >= exp + leeway => Err(Refusal::Expired),
        (_, Some(None)) => Err(Refusal::Claim("nbf".into())),
        (_, Some(Some(nbf))) if NOW + leeway < nbf => Err(Refusal::NotYetValid),
        _ => Ok(()),
    };
    assert_eq!(verdict, &expected, "{claims:?}");
}
