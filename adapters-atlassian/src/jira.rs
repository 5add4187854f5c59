//! Jira Cloud platform REST v3 (<https://developer.atlassian.com/cloud/jira/platform/rest/v3/>).
//!
//! Paths are used as given, relative to the Jira base: `/rest/api/3/search/jql`, `/rest/api/3/issue/EX-1`,
//! `/rest/agile/1.0/board`. Searches continue with the body's `nextPageToken`, passed back in the query (its
//! `+ / =` are percent-encoded exactly once by the HTTP layer). Error bodies are
//! `{"errorMessages": [...], "errors": {...}}`.

use url::Url;

/// `Accept` sent with every Jira request.
pub const ACCEPT: &str = "application/json";

/// The request path for `path` (a leading `/` is optional; absolute URLs unchanged).
pub fn request_path(_base: &Url, path: &str) -> String {
    let path = path.trim();
    if path.contains("://") || path.starts_with('/') {
        path.to_owned()
    } else {
        format!("/{path}")
    }
}
