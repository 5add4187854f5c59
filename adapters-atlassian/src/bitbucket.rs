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
