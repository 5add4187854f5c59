//! The next page's URL from each form of "next" the vendors document, for the envelope's `nextLink`: a link (a
//! `Link` header's or a body's, absolute or relative), a token to send back as a query parameter, or a start index.
//! Each answer is an absolute URL: the request's URL with the next page's parameters, or the vendor's link resolved
//! against it (RFC 3986 §5), so a program passes it as the free-path tool's `path` with nothing else.
//!
//! Forms (each vendor adapter picks its own): GitHub's `Link: <…>; rel="next"` (page numbers or cursors); CircleCI
//! v2's `next_page_token` sent back as `page-token`; Jira's `nextPageToken` (`/search/jql`), `nextPage` (a URL)
//! and `startAt` + `maxResults` against `total` / `isLast`; Confluence's `_links.next` (relative to the site, or
//! in v1 to `_links.base`); Bitbucket Cloud's `next` (a URL) and Bitbucket Data Center's `nextPageStart` while
//! `isLastPage` is false.

use serde_json::Value;
use url::Url;

/// `url` with the query parameter `name` set to `value`: every earlier `name` removed, the others kept in order,
/// the new one last (each name and value percent-encoded once, as [`crate::target`] does).
pub fn with_param(url: &Url, name: &str, value: &str) -> String {
    let kept: Vec<(String, String)> = url
        .query_pairs()
        .filter(|(key, _)| key != name)
        .map(|(key, value)| (key.into_owned(), value.into_owned()))
        .collect();
    let mut next = url.clone();
    next.set_fragment(None);
    next.query_pairs_mut()
        .clear()
        .extend_pairs(kept)
        .append_pair(name, value);
    next.to_string()
}

/// `reference` (absolute, or relative to `url`) as an absolute `http`/`https` URL; `None` when it does not resolve
/// or is blank.
pub fn resolve(url: &Url, reference: &str) -> Option<String> {
    let reference = reference.trim();
    if reference.is_empty() {
        return None;
    }
    let next = url.join(reference).ok()?;
    matches!(next.scheme(), "http" | "https").then(|| next.to_string())
}

/// A next-page token at the body's top-level `field` (a non-empty string), sent back as `param`; none when
/// `last_field` is `true` (Jira's `isLast`).
pub fn token(url: &Url, body: &Value, field: &str, param: &str, last_field: Option<&str>) -> Option<String> {
    if last_field.is_some_and(|last| body.get(last) == Some(&Value::Bool(true))) {
        return None;
    }
    let token = body.get(field)?.as_str().filter(|t| !t.is_empty())?;
    Some(with_param(url, param, token))
}

/// A link at the body's JSON pointer `pointer` (a non-empty string), resolved against `url`.
pub fn body_link(url: &Url, body: &Value, pointer: &str) -> Option<String> {
    resolve(url, body.pointer(pointer)?.as_str()?)
}

/// Where a start-index form keeps its numbers: Jira's `startAt`, `maxResults`, `total`, `isLast`, and its lists.
#[derive(Debug, Clone, Copy)]
pub struct StartIndex {
    /// The index of this page's first item, e.g. `startAt`.
    pub start: &'static str,
    /// The page size asked for, e.g. `maxResults`.
    pub limit: &'static str,
    /// The number of items in all, when given, e.g. `total`.
    pub total: &'static str,
    /// `true` on the last page, when given, e.g. `isLast`.
    pub is_last: &'static str,
    /// The lists that may hold the page's items (the first present counts).
    pub lists: &'static [&'static str],
    /// The query parameter of the next start, e.g. `startAt`.
    pub param: &'static str,
}

impl StartIndex {
    /// Jira's form (`/rest/api/3/search`, `/project/search`, `/issue/{key}/comment`, `/worklog`, …).
    pub const JIRA: Self = Self {
        start: "startAt",
        limit: "maxResults",
        total: "total",
        is_last: "isLast",
        lists: &["issues", "values", "comments", "worklogs", "histories"],
        param: "startAt",
    };

    /// The next page's URL: `start` + the items on this page (or `limit` when no list is found), while `is_last`
    /// is `false`, or, without it, while that is below `total`. `None` on the last page, when the numbers are
    /// missing, or when the page is empty (no progress).
    pub fn next(&self, url: &Url, body: &Value) -> Option<String> {
        let start = body.get(self.start)?.as_u64()?;
        let count = self
            .lists
            .iter()
            .find_map(|list| body.get(*list).and_then(Value::as_array))
            .map(|items| items.len() as u64)
            .or_else(|| body.get(self.limit).and_then(Value::as_u64))?;
        if count == 0 {
            return None;
        }
        let next = start.checked_add(count)?;
        let more = match body.get(self.is_last).and_then(Value::as_bool) {
            Some(last) => !last,
            None => body
                .get(self.total)
                .and_then(Value::as_u64)
                .is_some_and(|total| next < total),
        };
        more.then(|| with_param(url, self.param, &next.to_string()))
    }
}

/// Bitbucket Data Center's form: `nextPageStart` while `isLastPage` is `false`, sent back as `start`.
pub fn next_page_start(url: &Url, body: &Value) -> Option<String> {
    if body.get("isLastPage")?.as_bool()? {
        return None;
    }
    let start = body.get("nextPageStart")?.as_u64()?;
    Some(with_param(url, "start", &start.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn url(text: &str) -> Url {
        Url::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn a_token_replaces_the_earlier_one_and_keeps_the_other_parameters() {
        let at = url("https://circleci.com/api/v2/project/gh/o/r/pipeline?branch=main&page-token=old");
        let body = json!({"items": [], "next_page_token": "AAR+w/V0="});
        assert_eq!(
            token(&at, &body, "next_page_token", "page-token", None).as_deref(),
            Some("https://circleci.com/api/v2/project/gh/o/r/pipeline?branch=main&page-token=AAR%2Bw%2FV0%3D")
        );
        assert_eq!(
            token(
                &at,
                &json!({"next_page_token": null}),
                "next_page_token",
                "page-token",
                None
            ),
            None
        );
        assert_eq!(
            token(
                &at,
                &json!({"next_page_token": ""}),
                "next_page_token",
                "page-token",
                None
            ),
            None
        );
        let jira = json!({"nextPageToken": "Cg0j", "isLast": true});
        assert_eq!(
            token(&at, &jira, "nextPageToken", "nextPageToken", Some("isLast")),
            None
        );
    }

    #[test]
    fn links_resolve_against_the_request() {
        let at = url("https://x.atlassian.net/wiki/api/v2/pages?limit=3");
        let body = json!({"_links": {"next": "/wiki/api/v2/pages?cursor=eyJ%3D&limit=3"}});
        assert_eq!(
            body_link(&at, &body, "/_links/next").as_deref(),
            Some("https://x.atlassian.net/wiki/api/v2/pages?cursor=eyJ%3D&limit=3")
        );
        assert_eq!(resolve(&at, "javascript:alert(1)"), None);
        assert_eq!(resolve(&at, "  "), None);
        assert_eq!(
            resolve(&at, "https://api.bitbucket.org/2.0/repositories/w?page=2").as_deref(),
            Some("https://api.bitbucket.org/2.0/repositories/w?page=2")
        );
    }

    #[test]
    fn start_indexes() {
        let at = url("https://x.atlassian.net/rest/api/3/issue/EX-1/comment?maxResults=2");
        let page = |start: u64, n: usize, total: u64| json!({"startAt": start, "maxResults": 2, "total": total, "comments": vec![json!({}); n]});
        assert_eq!(
            StartIndex::JIRA.next(&at, &page(0, 2, 5)).as_deref(),
            Some("https://x.atlassian.net/rest/api/3/issue/EX-1/comment?maxResults=2&startAt=2")
        );
        assert_eq!(StartIndex::JIRA.next(&at, &page(4, 1, 5)), None);
        assert_eq!(
            StartIndex::JIRA.next(&at, &page(2, 0, 5)),
            None,
            "an empty page makes no progress"
        );
        // A page shorter than maxResults (the server's own cap) still continues from what it held.
        let capped = json!({"startAt": 0, "maxResults": 100, "isLast": false, "values": [1, 2, 3]});
        assert!(StartIndex::JIRA.next(&at, &capped).unwrap().ends_with("startAt=3"));
        let last = json!({"startAt": 0, "maxResults": 100, "isLast": true, "values": [1]});
        assert_eq!(StartIndex::JIRA.next(&at, &last), None);
    }

    #[test]
    fn bitbucket_data_center_pages() {
        let at = url("https://bitbucket.example.com/rest/api/1.0/projects/P/repos?limit=25");
        let body = json!({"size": 25, "limit": 25, "isLastPage": false, "start": 0, "nextPageStart": 25, "values": []});
        assert_eq!(
            next_page_start(&at, &body).as_deref(),
            Some("https://bitbucket.example.com/rest/api/1.0/projects/P/repos?limit=25&start=25")
        );
        assert_eq!(
            next_page_start(&at, &json!({"isLastPage": true, "nextPageStart": 25})),
            None
        );
    }
}
