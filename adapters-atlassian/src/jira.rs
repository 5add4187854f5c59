//! Jira Cloud platform REST v3 (<https://developer.atlassian.com/cloud/jira/platform/rest/v3/>).
//!
//! Paths are used as given, relative to the Jira base: `/rest/api/3/search/jql`, `/rest/api/3/issue/EX-1`,
//! `/rest/agile/1.0/board`. Searches continue with the body's `nextPageToken`, passed back in the query (its
//! `+ / =` are percent-encoded exactly once by the HTTP layer). Error bodies are
//! `{"errorMessages": [...], "errors": {...}}`.

use adapters_http::HttpError;
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
