//! Bitbucket Cloud REST 2.0 (<https://developer.atlassian.com/cloud/bitbucket/rest/>) and Bitbucket Data Center
//! REST 1.0 (<https://developer.atlassian.com/server/bitbucket/rest/>).
//!
//! - **Cloud**: a path without a leading `/2.0` gets it (`/repositories/octo-org` → `/2.0/repositories/octo-org`);
//!   a base that already ends in `/2.0` is not doubled. Lists continue with the body's absolute `next` URL,
//!   accepted as `path` on the base's origin. Error bodies are `{"type": "error", "error": {"message", ...}}`.
//! - **Data Center**: a path under `/rest/` is used as given (`/rest/api/1.0/...`, `/rest/build-status/1.0/...`);
//!   any other gets `/rest/api/1.0` (`/projects/PRJ/repos` → `/rest/api/1.0/projects/PRJ/repos`). Lists continue
//!   with `start={nextPageStart}` while `isLastPage` is false. Error bodies are
//!   `{"errors": [{"context", "message", "exceptionName"}]}`.
//!
//! Some endpoints answer with text (`/diff/{spec}`, raw files): the body then becomes a JSON string.

use url::Url;

use crate::deployment::Deployment;
use crate::site::with_prefix_once;

/// `Accept` sent with every Bitbucket request: JSON first, text for diffs and raw files.
pub const ACCEPT: &str = "application/json, text/plain;q=0.9, */*;q=0.8";

/// Data Center's REST API prefix, added to a path not under `/rest/`.
pub const DATA_CENTER_API: &str = "/rest/api/1.0";

/// The request path for `path`: on Cloud with `/2.0` exactly once; on Data Center under `/rest/` (see the module
/// doc). Absolute URLs are returned unchanged (the HTTP layer checks their origin).
pub fn request_path(base: &Url, path: &str, deployment: Deployment) -> String {
    if deployment == Deployment::Cloud {
        return with_prefix_once(base, path, "2.0", true);
    }
    let path = path.trim();
    if path.contains("://") {
        return path.to_owned();
    }
    let relative = path.trim_start_matches('/');
    if relative == "rest" || relative.starts_with("rest/") {
        format!("/{relative}")
    } else {
        format!("{DATA_CENTER_API}/{relative}")
    }
}

/// The next page of a Bitbucket answer (see [`adapters_http::next_link`]): Cloud's `next` URL, else Data
/// Center's `nextPageStart` while `isLastPage` is false.
pub fn next_link(url: &Url, body: &serde_json::Value) -> Option<String> {
    adapters_http::next_link::body_link(url, body, "/next")
        .or_else(|| adapters_http::next_link::next_page_start(url, body))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn paths_of_each_deployment() {
        let cloud = Url::parse("https://api.bitbucket.org").unwrap();
        assert_eq!(
            request_path(&cloud, "repositories/o/r", Deployment::Cloud),
            "/2.0/repositories/o/r"
        );
        let dc = Url::parse("https://git.example.com/bitbucket").unwrap();
        for (given, sent) in [
            ("/rest/api/1.0/projects/PRJ/repos", "/rest/api/1.0/projects/PRJ/repos"),
            (
                "projects/PRJ/repos/r/pull-requests",
                "/rest/api/1.0/projects/PRJ/repos/r/pull-requests",
            ),
            (
                "/rest/build-status/1.0/commits/abc",
                "/rest/build-status/1.0/commits/abc",
            ),
            (
                "https://git.example.com/bitbucket/rest/api/1.0/x",
                "https://git.example.com/bitbucket/rest/api/1.0/x",
            ),
        ] {
            assert_eq!(request_path(&dc, given, Deployment::DataCenter), sent, "{given}");
        }
    }

    #[test]
    fn data_center_pages_continue_from_next_page_start() {
        let at = Url::parse("https://git.example.com/rest/api/1.0/projects/PRJ/repos?limit=25").unwrap();
        let more = serde_json::json!({"values": [{}], "isLastPage": false, "nextPageStart": 25, "start": 0});
        assert_eq!(
            next_link(&at, &more).as_deref(),
            Some("https://git.example.com/rest/api/1.0/projects/PRJ/repos?limit=25&start=25")
        );
        let last = serde_json::json!({"values": [{}], "isLastPage": true, "nextPageStart": 2154});
        assert_eq!(next_link(&at, &last), None);
    }
}
