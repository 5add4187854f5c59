//! Bitbucket Cloud REST 2.0 (<https://developer.atlassian.com/cloud/bitbucket/rest/>).
//!
//! A path without a leading `/2.0` gets it (`/repositories/octo-org` → `/2.0/repositories/octo-org`); a base that
//! already ends in `/2.0` is not doubled. Lists continue with the body's absolute `next` URL, accepted as `path`
//! on the base's origin. Some endpoints answer with text (`/diff/{spec}`, `/src/...` raw files): the body then
//! becomes a JSON string. Error bodies are `{"type": "error", "error": {"message", ...}}`.

use url::Url;

use crate::site::with_prefix_once;

/// `Accept` sent with every Bitbucket request: JSON first, text for diffs and raw files.
pub const ACCEPT: &str = "application/json, text/plain;q=0.9, */*;q=0.8";

/// The request path for `path`, with `/2.0` exactly once.
pub fn request_path(base: &Url, path: &str) -> String {
    with_prefix_once(base, path, "2.0", true)
}

/// The next page of a Bitbucket answer (see [`adapters_http::next_link`]): Cloud's `next` URL, else Data
/// Center's `nextPageStart` while `isLastPage` is false.
pub fn next_link(url: &Url, body: &serde_json::Value) -> Option<String> {
    adapters_http::next_link::body_link(url, body, "/next")
        .or_else(|| adapters_http::next_link::next_page_start(url, body))
}
