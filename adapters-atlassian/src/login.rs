//! Atlassian's answers to a failed login, as errors (whatever the status, never cached).
//!
//! - `X-Seraph-LoginReason` (Jira and Confluence; Seraph is their authentication layer): `AUTHENTICATED_FAILED`
//!   means the Basic credentials were rejected and the request was answered *anonymously* (a `200` with what an
//!   anonymous user may see: often nothing); `AUTHENTICATION_DENIED` means the login was refused outright (after
//!   too many failures, until a CAPTCHA is solved).
//! - `X-Authentication-Denied-Reason` (e.g. `CAPTCHA_CHALLENGE; login-url=https://…/login.jsp`): the account
//!   must pass a CAPTCHA, so API logins fail until a person logs in once in a browser.
//!
//! See <https://confluence.atlassian.com/jirakb/rest-api-calls-with-a-bad-password-return-an-anonymous-response-1236925127.html>
//! and <https://developer.atlassian.com/cloud/jira/platform/basic-auth-for-rest-apis/> ("CAPTCHA").

use adapters_http::{LoginCheck, RawResponse};

use crate::product::Product;

/// The [`LoginCheck`] of `product`, naming the user setting `user` (none for a Bearer token) and the credential
/// setting `credential` (the host's names) in its causes.
pub fn login_check(product: Product, user: Option<&'static str>, credential: &'static str) -> LoginCheck {
    LoginCheck::new(move |response: &RawResponse| login_failure(product, user, credential, response))
}

fn login_failure(product: Product, user: Option<&str>, credential: &str, response: &RawResponse) -> Option<String> {
    let header = |name: &str| {
        response
            .headers
            .get(name)
            .map(|value| String::from_utf8_lossy(value.as_bytes()).trim().to_owned())
            .filter(|value| !value.is_empty())
    };
    let check = match user {
        Some(user) => format!("check {user} and {credential}"),
        None => format!("check {credential}"),
    };
    if let Some(denied) = header("x-authentication-denied-reason") {
        let login_url = denied
            .split(';')
            .find_map(|part| part.trim().strip_prefix("login-url="))
            .map(|url| format!(" at {url}"))
            .unwrap_or_default();
        return Some(format!(
            "{product} refused the login (X-Authentication-Denied-Reason: {denied}): after failed logins it asks for \
             a CAPTCHA, so a person must log in once in a browser{login_url}; then {check}"
        ));
    }
    let reason = header("x-seraph-loginreason")?;
    let upper = reason.to_ascii_uppercase();
    if upper.contains("AUTHENTICATION_DENIED") {
        Some(format!(
            "{product} denied the login (X-Seraph-LoginReason: {reason}), usually after too many failed attempts: a \
             person must log in once in a browser (and pass the CAPTCHA); then {check}"
        ))
    } else if upper.contains("AUTHENTICATED_FAILED") {
        Some(format!(
            "{product} rejected the credentials (X-Seraph-LoginReason: {reason}) and answered anonymously, so this \
             answer is not your data: {check}"
        ))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use http::{HeaderMap, HeaderValue, StatusCode};

    fn response(headers: &[(&'static str, &'static str)]) -> RawResponse {
        let mut map = HeaderMap::new();
        for (name, value) in headers {
            map.insert(*name, HeaderValue::from_static(value));
        }
        RawResponse {
            status: StatusCode::OK,
            headers: map,
            body: bytes::Bytes::from_static(b"{\"issues\":[]}"),
            url: url::Url::parse("https://x.atlassian.net/rest").unwrap(),
        }
    }

    #[test]
    fn each_reason_names_the_cause_and_the_settings() {
        let check = |headers| login_failure(Product::Jira, Some("EMAIL"), "TOKEN", &response(headers));
        let failed = check(&[("x-seraph-loginreason", "AUTHENTICATED_FAILED")]).unwrap();
        assert!(
            failed.contains("answered anonymously") && failed.contains("check EMAIL and TOKEN"),
            "{failed}"
        );
        let denied = check(&[("X-Seraph-LoginReason", "AUTHENTICATION_DENIED")]).unwrap();
        assert!(denied.contains("log in once in a browser"), "{denied}");
        let captcha = check(&[
            ("x-seraph-loginreason", "AUTHENTICATION_DENIED"),
            (
                "x-authentication-denied-reason",
                "CAPTCHA_CHALLENGE; login-url=https://x.atlassian.net/login.jsp",
            ),
        ])
        .unwrap();
        assert!(
            captcha.contains("CAPTCHA") && captcha.contains("at https://x.atlassian.net/login.jsp"),
            "{captcha}"
        );
        assert_eq!(check(&[("x-seraph-loginreason", "OK")]), None);
        assert_eq!(check(&[]), None);
    }
}
