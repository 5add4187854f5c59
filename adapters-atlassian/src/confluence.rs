//! Confluence Cloud REST (<https://developer.atlassian.com/cloud/confluence/rest/v2/>): v2 under `/wiki/api/v2`,
//! v1 under `/wiki/rest/api`.
//!
//! The default base is the site's `/wiki` context. A path may name it or not: `/wiki/api/v2/pages` and
//! `/api/v2/pages` reach the same URL, with exactly one `/wiki`, so the relative `_links.next` of a list
//! (`/wiki/api/v2/pages?cursor=…`) works as `path` as is (its already-encoded cursor is kept). With a
//! `confluence_base_url` that does not end in `/wiki` (Data Center), paths are used as given. Error bodies are
//! `{"errors": [{"status", "code", "title", "detail"}]}` (v2) or `{"statusCode", "message", ...}` (v1).

use url::Url;

use crate::site::with_prefix_once;

/// `Accept` sent with every Confluence request.
pub const ACCEPT: &str = "application/json";

/// The request path for `path`, with the base's `/wiki` not repeated.
pub fn request_path(base: &Url, path: &str) -> String {
    with_prefix_once(base, path, "wiki", false)
}
