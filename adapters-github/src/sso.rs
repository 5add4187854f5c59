//! GitHub's SAML single sign-on answer (`X-GitHub-SSO: required; url=…`) as a login failure.
//!
//! An organization that enforces SAML SSO answers a token not yet authorized for it with `403` and
//! `X-GitHub-SSO: required; url=<where to authorize it>`
//! (<https://docs.github.com/rest/using-the-rest-api/troubleshooting-the-rest-api#resource-protected-by-saml-enforcement>,
//! <https://docs.github.com/authentication/authenticating-with-saml-single-sign-on/authorizing-a-personal-access-token-for-use-with-saml-single-sign-on>).
//! No retry or other token scope helps: a person must authorize the token once, in a browser, at that URL.

use adapters_http::{LoginCheck, RawResponse};

/// The [`LoginCheck`] of GitHub: `X-GitHub-SSO: required` (any status) names the URL to authorize the token at and
/// the token's setting, `credential` (the host's name).
pub(crate) fn sso_check(credential: &'static str) -> LoginCheck {
    LoginCheck::new(move |response: &RawResponse| sso_required(response, credential))
}

fn sso_required(response: &RawResponse, credential: &str) -> Option<String> {
    let value = response.headers.get("x-github-sso")?.to_str().ok()?;
    let mut parts = value.split(';').map(str::trim);
    if !parts.next()?.eq_ignore_ascii_case("required") {
        return None;
    }
    let url = parts
        .find_map(|part| part.strip_prefix("url="))
        .filter(|url| !url.is_empty());
    let where_ = match url {
        Some(url) => format!("open {url} in a browser to authorize it"),
        None => "authorize it for the organization in GitHub's token settings (Configure SSO)".to_owned(),
    };
    Some(format!(
        "the token set by {credential} is not authorized for this organization's SAML single sign-on \
         (X-GitHub-SSO: required): {where_} (a person signed in to the organization must do it once), then try again"
    ))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use http::{HeaderMap, HeaderValue, StatusCode};

    fn response(sso: Option<&'static str>) -> RawResponse {
        let mut headers = HeaderMap::new();
        if let Some(sso) = sso {
            headers.insert("x-github-sso", HeaderValue::from_static(sso));
        }
        RawResponse {
            status: StatusCode::FORBIDDEN,
            headers,
            body: bytes::Bytes::new(),
            url: url::Url::parse("https://api.github.com/x").unwrap(),
        }
    }

    #[test]
    fn names_the_url_and_the_setting() {
        let url = "https://github.com/orgs/octo-org/sso?authorization_request=AZSCKtL4U8yX1H3sCQIV";
        let sso = format!("required; url={url}");
        let cause = sso_required(&response(Some(Box::leak(sso.into_boxed_str()))), "GITHUB_TOKEN").unwrap();
        assert!(cause.contains(url) && cause.contains("GITHUB_TOKEN"), "{cause}");
        assert!(
            sso_required(&response(Some("required")), "T")
                .unwrap()
                .contains("Configure SSO")
        );
        assert_eq!(
            sso_required(&response(Some("partial-results; organizations=1,2")), "T"),
            None
        );
        assert_eq!(sso_required(&response(None), "T"), None);
    }
}
