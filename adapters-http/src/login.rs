//! [`LoginCheck`]: an answer that says the login failed is an error, whatever its status, and is never cached (private module: its items are at the
//! crate root; the details are on [`LoginCheck`]).

use std::fmt;
use std::sync::Arc;

use http::header;

use crate::response::RawResponse;
use crate::vendor::Vendor;

/// A vendor's rule: `Some(cause)` when `response` says the login failed; `cause` says why and which setting to fix
/// (never a secret). Cheap to clone; [`Default`]: no rule.
///
/// [`LoginCheck`]: an answer that says the login failed is an error, whatever its status, and is never cached.
///
/// Some upstreams answer a failed login with data: Jira and Confluence answer a rejected Basic login anonymously
/// (`200 {"issues": []}` with `X-Seraph-LoginReason: AUTHENTICATED_FAILED`), a single-sign-on proxy answers `200`
/// with its HTML login page. A program would read "no issues". Every [`crate::HttpClient`] therefore runs two
/// checks on each answer before anything else reads it (and before the cache stores it):
///
/// - the vendor's own [`LoginCheck`] ([`crate::HttpConfig::login_check`]; Atlassian's reads `X-Seraph-LoginReason`
///   and `X-Authentication-Denied-Reason`, GitHub's `X-GitHub-SSO: required`);
/// - [`html_login_page`], for every vendor: a `2xx` HTML page that looks like a login form, where the request's
///   `Accept` asked for JSON.
///
/// Either gives [`crate::HttpError::LoginFailed`] naming the cause and the setting to fix.
#[derive(Clone, Default)]
pub struct LoginCheck(Option<Arc<Rule>>);

/// The rule's function: the cause of a failed login, or `None`.
type Rule = dyn Fn(&RawResponse) -> Option<String> + Send + Sync;

impl LoginCheck {
    /// The rule `check`.
    pub fn new(check: impl Fn(&RawResponse) -> Option<String> + Send + Sync + 'static) -> Self {
        Self(Some(Arc::new(check)))
    }

    /// What the rule says of `response` (`None` without a rule).
    pub fn failure(&self, response: &RawResponse) -> Option<String> {
        self.0.as_ref().and_then(|check| check(response))
    }
}

impl fmt::Debug for LoginCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() {
            "LoginCheck(vendor rule)"
        } else {
            "LoginCheck(none)"
        })
    }
}

/// Longest prefix of an HTML body looked at, in bytes: 64 KiB (a login page's form is near its top).
const HTML_SCAN_BYTES: usize = 64 * 1024;

/// `Some(cause)` when `response` is a `2xx` `text/html` page that looks like a login or single-sign-on page (a
/// password field, or a title or form about logging in) while `accept` (the request's `Accept`) asked for JSON.
/// The cause names the page's title and the settings to check.
pub fn html_login_page(vendor: Vendor, accept: &str, response: &RawResponse) -> Option<String> {
    if !response.status.is_success() || !accept.to_ascii_lowercase().contains("json") {
        return None;
    }
    let media = response.headers.get(header::CONTENT_TYPE)?.to_str().ok()?;
    let media = media.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    if media != "text/html" && media != "application/xhtml+xml" {
        return None;
    }
    let head = &response.body[..response.body.len().min(HTML_SCAN_BYTES)];
    let page = String::from_utf8_lossy(head).to_lowercase();
    let password_field = ["type=\"password\"", "type='password'", "type=password"]
        .iter()
        .any(|field| page.contains(field));
    let title = title(&page);
    let about_login = [
        "log in",
        "login",
        "log on",
        "sign in",
        "signin",
        "sign-in",
        "single sign-on",
        "sso",
        "saml",
    ];
    let login_title = title
        .as_deref()
        .is_some_and(|title| about_login.iter().any(|word| title.contains(word)));
    if !password_field && !login_title {
        return None;
    }
    let shown = title.map(|t| format!(" (\"{}\")", t.chars().take(80).collect::<String>()));
    Some(format!(
        "answered {} with an HTML login page{} where JSON was asked for: the credential was not accepted, or a \
         single-sign-on proxy sits in front of the API. Check {} (it must be the API's URL) and {}",
        response.status.as_u16(),
        shown.unwrap_or_default(),
        vendor.base_setting,
        vendor.credential_setting
    ))
}

/// The text of the page's `<title>`, white space collapsed (already lower-cased).
fn title(page: &str) -> Option<String> {
    let start = page.find("<title")?;
    let after = page[start..].find('>')? + start + 1;
    let end = page[after..].find("</title")? + after;
    let text: Vec<&str> = page[after..end].split_whitespace().collect();
    Some(text.join(" ")).filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use bytes::Bytes;
    use http::{HeaderMap, HeaderValue, StatusCode};

    const V: Vendor = Vendor {
        name: "Jira",
        base_setting: "JIRA_BASE_URL",
        credential_setting: "ATLASSIAN_API_TOKEN",
        max_body_setting: "X",
    };

    fn page(status: u16, content_type: &'static str, body: &'static str) -> RawResponse {
        let mut headers = HeaderMap::new();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
        RawResponse {
            status: StatusCode::from_u16(status).unwrap(),
            headers,
            body: Bytes::from_static(body.as_bytes()),
            url: url::Url::parse("https://h.example/x").unwrap(),
        }
    }

    #[test]
    fn login_pages_are_failures_only_where_json_was_asked_for() {
        let login = page(
            200,
            "text/html; charset=utf-8",
            "<html><head><title>\n Log in to continue </title></head><form><input type=\"password\"></form>",
        );
        let cause = html_login_page(V, "application/json", &login).unwrap();
        assert!(cause.contains("HTML login page (\"log in to continue\")"), "{cause}");
        assert!(
            cause.contains("JIRA_BASE_URL") && cause.contains("ATLASSIAN_API_TOKEN"),
            "{cause}"
        );
        assert_eq!(html_login_page(V, "text/html", &login), None, "HTML was asked for");
        let sso = page(200, "text/html", "<title>Sign in - Okta</title><div id=app></div>");
        assert!(html_login_page(V, "application/vnd.github+json", &sso).is_some());
        for not_login in [
            page(200, "text/html", "<title>Release notes</title><p>diff</p>"),
            page(404, "text/html", "<title>Log in</title>"),
            page(200, "application/json", "{\"title\":\"<title>login</title>\"}"),
        ] {
            assert_eq!(html_login_page(V, "application/json", &not_login), None);
        }
    }
}
