//! Jira Cloud platform REST v3 (<https://developer.atlassian.com/cloud/jira/platform/rest/v3/>).
//!
//! Paths are used as given, relative to the Jira base: `/rest/api/3/search/jql`, `/rest/api/3/issue/EX-1`,
//! `/rest/agile/1.0/board`. Searches continue with the body's `nextPageToken`, passed back in the query (its
//! `+ / =` are percent-encoded exactly once by the HTTP layer). Error bodies are
//! `{"errorMessages": [...], "errors": {...}}`.

use adapters_http::{HttpError, next_link};
use url::Url;

/// `Accept` sent with every Jira request.
pub const ACCEPT: &str = "application/json";

/// Refuses a `url` outside Jira's REST API (`<base>/rest/…`): on a Cloud site Confluence shares the host (under
/// `/wiki`), so a Jira read must not reach it, nor a policy rule on one product be got around through the other.
///
/// Errors: [`HttpError::InvalidPath`] saying where Jira's API is and which tool reads Confluence.
pub fn check_prefix(base: &Url, url: &Url, path: &str) -> Result<(), HttpError> {
    let prefix = format!("{}/rest/", base.path().trim_end_matches('/'));
    if url.path().starts_with(&prefix) {
        return Ok(());
    }
    Err(HttpError::InvalidPath {
        path: path.trim().to_owned(),
        detail: format!(
            "is not under Jira's REST API ({prefix}…, e.g. {prefix}api/3/issue/KEY-1); Confluence is read with \
             conf_get"
        ),
    })
}

/// The request path for `path` (a leading `/` is optional; absolute URLs unchanged).
pub fn request_path(_base: &Url, path: &str) -> String {
    let path = path.trim();
    if path.contains("://") || path.starts_with('/') {
        path.to_owned()
    } else {
        format!("/{path}")
    }
}

/// The next page of a Jira answer (see [`adapters_http::next_link`]): `nextPageToken` unless `isLast`
/// (`/rest/api/3/search/jql`), else a `nextPage` URL (`/project/search`), else `startAt` + the page's items
/// against `isLast` or `total` (`/search`, `/issue/{key}/comment`, …).
pub fn next_link(url: &Url, body: &serde_json::Value) -> Option<String> {
    next_link::token(url, body, "nextPageToken", "nextPageToken", Some("isLast"))
        .or_else(|| next_link::body_link(url, body, "/nextPage"))
        .or_else(|| next_link::StartIndex::JIRA.next(url, body))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn next_links_of_each_form() {
        let at = Url::parse("https://x.atlassian.net/rest/api/3/search/jql?jql=project%3DEX").unwrap();
        let token = serde_json::json!({"issues": [{}], "nextPageToken": "Cg0j+=", "isLast": false});
        assert_eq!(
            next_link(&at, &token).as_deref(),
            Some("https://x.atlassian.net/rest/api/3/search/jql?jql=project%3DEX&nextPageToken=Cg0j%2B%3D")
        );
        assert_eq!(next_link(&at, &serde_json::json!({"issues": [], "isLast": true})), None);
        let at = Url::parse("https://x.atlassian.net/rest/api/3/project/search").unwrap();
        let linked = serde_json::json!({"nextPage": "https://x.atlassian.net/rest/api/3/project/search?startAt=2&maxResults=2", "startAt": 0, "maxResults": 2, "isLast": false, "values": [{}, {}]});
        assert!(
            next_link(&at, &linked)
                .unwrap()
                .ends_with("search?startAt=2&maxResults=2")
        );
    }
}
