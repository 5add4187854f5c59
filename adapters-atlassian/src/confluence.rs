//! Confluence Cloud REST (<https://developer.atlassian.com/cloud/confluence/rest/v2/>): v2 under `/wiki/api/v2`,
//! v1 under `/wiki/rest/api`.
//!
//! The default base is the site's `/wiki` context. A path may name it or not: `/wiki/api/v2/pages` and
//! `/api/v2/pages` reach the same URL, with exactly one `/wiki`, so the relative `_links.next` of a list
//! (`/wiki/api/v2/pages?cursor=…`) works as `path` as is (its already-encoded cursor is kept). With a
//! `confluence_base_url` that does not end in `/wiki`, paths are used as given. Error bodies are
//! `{"errors": [{"status", "code", "title", "detail"}]}` (v2) or `{"statusCode", "message", ...}` (v1).
//!
//! Data Center (<https://developer.atlassian.com/server/confluence/rest/>) has the v1 API only, under its own
//! context path (the base: `https://wiki.example.com/confluence`), never under `/wiki`: a Cloud-style `/wiki/...`
//! path loses its `/wiki`, and `_links.next` (relative to the server's context, or absolute on its public URL,
//! `_links.base`) continues under the configured base.

use url::Url;

use crate::deployment::Deployment;
use crate::site::with_prefix_once;

/// `Accept` sent with every Confluence request.
pub const ACCEPT: &str = "application/json";

/// The request path for `path`, with the base's `/wiki` not repeated (Cloud), or without `/wiki` (Data Center).
pub fn request_path(base: &Url, path: &str, deployment: Deployment) -> String {
    let cloud = with_prefix_once(base, path, "wiki", false);
    if deployment == Deployment::Cloud || cloud.contains("://") {
        return cloud;
    }
    match cloud.strip_prefix("/wiki") {
        Some(rest) if rest.is_empty() || rest.starts_with(['/', '?']) => format!("/{}", rest.trim_start_matches('/')),
        _ => cloud,
    }
}

/// The next page of a Confluence answer (see [`adapters_http::next_link`]): `_links.next`. In v2 it is relative
/// to the site and holds the context path (`/wiki/api/v2/pages?cursor=…`); in v1 it is relative to `_links.base`
/// (`/rest/api/content?start=25` under `https://site/wiki`), so it is put under the base's path when it does not
/// already start with it. The host is always the request's (the body's `base` names the public site). On Data
/// Center the context is the configured `base`'s path: the server's own `_links.base` names its public URL, which
/// a proxy in front of it may not share.
pub fn next_link(url: &Url, body: &serde_json::Value, deployment: Deployment, base: &Url) -> Option<String> {
    let next = body.pointer("/_links/next")?.as_str()?;
    let public = body.pointer("/_links/base").and_then(|b| b.as_str());
    let (next, context) = match deployment {
        Deployment::Cloud => {
            let context = public
                .and_then(|b| Url::parse(b).ok())
                .map(|b| b.path().trim_end_matches('/').to_owned())
                .unwrap_or_default();
            (next, context)
        }
        _ => (
            after_public_base(next, public),
            base.path().trim_end_matches('/').to_owned(),
        ),
    };
    if next.starts_with('/') && !context.is_empty() && !(next == context || next.starts_with(&format!("{context}/"))) {
        return adapters_http::next_link::resolve(url, &format!("{context}{next}"));
    }
    adapters_http::next_link::resolve(url, next)
}

/// A Data Center `next` given absolute on the server's own public URL (`public`, its `_links.base`), which a proxy
/// in front of it need not share, as the part after that URL (to continue under the configured base); any other
/// `next` as it is.
fn after_public_base<'a>(next: &'a str, public: Option<&str>) -> &'a str {
    public
        .filter(|_| next.contains("://"))
        .and_then(|public| next.strip_prefix(public.trim_end_matches('/')))
        .filter(|rest| rest.starts_with(['/', '?']))
        .unwrap_or(next)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn next_links_of_v1_and_v2() {
        let at = Url::parse("http://127.0.0.1:9/wiki/api/v2/pages?limit=3").unwrap();
        let v2 = serde_json::json!({"_links": {"next": "/wiki/api/v2/pages?cursor=eyJ%3D&limit=3", "base": "https://your-domain.atlassian.net/wiki"}});
        assert_eq!(
            next_link(&at, &v2, Deployment::Cloud, &at).as_deref(),
            Some("http://127.0.0.1:9/wiki/api/v2/pages?cursor=eyJ%3D&limit=3")
        );
        let at = Url::parse("http://127.0.0.1:9/wiki/rest/api/content?limit=25").unwrap();
        let v1 = serde_json::json!({"_links": {"next": "/rest/api/content?limit=25&start=25", "base": "https://your-domain.atlassian.net/wiki", "context": "/wiki"}});
        assert_eq!(
            next_link(&at, &v1, Deployment::Cloud, &at).as_deref(),
            Some("http://127.0.0.1:9/wiki/rest/api/content?limit=25&start=25")
        );
        assert_eq!(
            next_link(&at, &serde_json::json!({"_links": {}}), Deployment::Cloud, &at),
            None
        );
    }

    #[test]
    fn data_center_paths_and_next_links_stay_under_the_context_path() {
        let base = Url::parse("https://wiki.example.com/confluence").unwrap();
        let dc = Deployment::DataCenter;
        assert_eq!(
            request_path(&base, "/wiki/rest/api/content/1", dc),
            "/rest/api/content/1"
        );
        assert_eq!(request_path(&base, "/rest/api/content/1", dc), "/rest/api/content/1");
        assert_eq!(request_path(&base, "/wikis/x", dc), "/wikis/x");
        let at = Url::parse("https://wiki.example.com/confluence/rest/api/content?limit=2").unwrap();
        let page = serde_json::json!({"_links": {"next": "/rest/api/content?limit=2&start=2", "base": "http://localhost:8090/other", "context": "/other"}});
        assert_eq!(
            next_link(&at, &page, dc, &base).as_deref(),
            Some("https://wiki.example.com/confluence/rest/api/content?limit=2&start=2")
        );
        // Absolute, on the server's public URL: continued under the configured base.
        let absolute = serde_json::json!({"_links": {"next": "http://localhost:8090/other/rest/api/content?limit=2&start=2", "base": "http://localhost:8090/other"}});
        assert_eq!(
            next_link(&at, &absolute, dc, &base).as_deref(),
            Some("https://wiki.example.com/confluence/rest/api/content?limit=2&start=2")
        );
        let at_root = Url::parse("http://127.0.0.1:9/rest/api/content?limit=2").unwrap();
        let root = Url::parse("http://127.0.0.1:9").unwrap();
        assert_eq!(
            next_link(&at_root, &page, dc, &root).as_deref(),
            Some("http://127.0.0.1:9/rest/api/content?limit=2&start=2")
        );
    }
}
