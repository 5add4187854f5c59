//! One `GET` of any GitHub REST path ([`GetRequest`], served by [`crate::GithubClient::get`]): the path, its query,
//! GitHub's `page` / `per_page`, and the media type asked for ([`MediaType`]).
//!
//! Media types follow <https://docs.github.com/rest/using-the-rest-api/getting-started-with-the-rest-api#media-types>:
//! a commit or a pull request can be read as a unified diff or as a patch (`application/vnd.github.diff`,
//! `application/vnd.github.patch`), which GitHub answers as text under that same media type.

use http::{HeaderMap, HeaderValue, header};
use url::Url;

use crate::error::GithubError;
use crate::params::paging;

/// `Accept` of a JSON read, as GitHub recommends.
pub(crate) const ACCEPT_GITHUB_JSON: &str = "application/vnd.github+json";

/// The representation asked for in `Accept`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum MediaType {
    /// `application/vnd.github+json` (the default).
    #[default]
    Json,
    /// `application/vnd.github.diff`: a unified diff (commits, pull requests, comparisons).
    Diff,
    /// `application/vnd.github.patch`: the same change as a `git format-patch` mail.
    Patch,
}

impl MediaType {
    /// The `Accept` value.
    pub fn accept(self) -> &'static str {
        match self {
            MediaType::Json => ACCEPT_GITHUB_JSON,
            MediaType::Diff => "application/vnd.github.diff",
            MediaType::Patch => "application/vnd.github.patch",
        }
    }

    /// True when the answer is text whatever its `Content-Type` says (GitHub labels a diff
    /// `application/vnd.github.diff; charset=utf-8`, which is not a text type by its name).
    pub fn is_text(self) -> bool {
        matches!(self, MediaType::Diff | MediaType::Patch)
    }

    /// The headers this media type adds to the request (none for JSON: it is the client's default `Accept`).
    pub(crate) fn headers(self) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if self != MediaType::Json {
            headers.insert(header::ACCEPT, HeaderValue::from_static(self.accept()));
        }
        headers
    }
}

/// One `GET` of a REST path: [`GetRequest::new`], then the `with_*` methods.
#[non_exhaustive]
#[derive(Debug, Clone, Copy)]
pub struct GetRequest<'a> {
    /// Path relative to the API base (leading `/` optional), e.g. `/repos/o/r/commits/{sha}/pulls`, possibly with
    /// its own encoded query; or an absolute URL on the base's origin (a `Link` or `*_url` of an earlier answer).
    pub path: &'a str,
    /// Query parameters, each name and value percent-encoded exactly once.
    pub query: &'a [(String, String)],
    /// `per_page`, 1..=100.
    pub per_page: Option<u8>,
    /// `page`, >= 1.
    pub page: Option<u32>,
    /// What to ask for in `Accept`.
    pub media_type: MediaType,
}

impl<'a> GetRequest<'a> {
    /// A JSON `GET` of `path` (see [`GetRequest::path`]) without query or paging.
    pub fn new(path: &'a str) -> Self {
        Self {
            path,
            query: &[],
            per_page: None,
            page: None,
            media_type: MediaType::Json,
        }
    }

    /// With [`GetRequest::path`] set.
    #[must_use]
    pub fn with_path(mut self, path: &'a str) -> Self {
        self.path = path;
        self
    }

    /// With [`GetRequest::query`] set.
    #[must_use]
    pub fn with_query(mut self, query: &'a [(String, String)]) -> Self {
        self.query = query;
        self
    }

    /// With [`GetRequest::per_page`] set.
    #[must_use]
    pub fn with_per_page(mut self, per_page: Option<u8>) -> Self {
        self.per_page = per_page;
        self
    }

    /// With [`GetRequest::page`] set.
    #[must_use]
    pub fn with_page(mut self, page: Option<u32>) -> Self {
        self.page = page;
        self
    }

    /// With [`GetRequest::media_type`] set.
    #[must_use]
    pub fn with_media_type(mut self, media_type: MediaType) -> Self {
        self.media_type = media_type;
        self
    }
}

impl GetRequest<'_> {
    /// The request URL: `path` under `base` (see [`adapters_http::target::resolve`]) with `query`, then `per_page`
    /// and `page`.
    ///
    /// Errors: [`GithubError::InvalidArgument`] naming `perPage` / `page` when out of range, or when the path or
    /// `query` already sets `per_page` / `page` (one place only, so the page asked for is the page read).
    pub(crate) fn url(
        &self,
        resolve: impl FnOnce(&str, &[(String, String)]) -> Result<Url, GithubError>,
    ) -> Result<Url, GithubError> {
        let paging = paging(self.per_page, self.page)?;
        let mut url = resolve(self.path, self.query)?;
        for (name, value) in paging {
            if url.query_pairs().any(|(key, _)| key == name) {
                let argument = if name == "page" { "page" } else { "perPage" };
                return Err(GithubError::InvalidArgument {
                    name: argument.to_owned(),
                    detail: format!("`{name}` is already in path or queryParams: give it in one place only"),
                });
            }
            url.query_pairs_mut().append_pair(name, &value);
        }
        Ok(url)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(path: &str, query: &[(String, String)]) -> Result<Url, GithubError> {
        let mut url = Url::parse("https://api.github.com/")
            .and_then(|base| base.join(path.trim_start_matches('/')))
            .map_err(|e| GithubError::InvalidArgument {
                name: "path".to_owned(),
                detail: e.to_string(),
            })?;
        for (name, value) in query {
            url.query_pairs_mut().append_pair(name, value);
        }
        Ok(url)
    }

    fn request<'a>(path: &'a str, query: &'a [(String, String)]) -> GetRequest<'a> {
        GetRequest {
            path,
            query,
            per_page: Some(5),
            page: Some(2),
            media_type: MediaType::Json,
        }
    }

    #[test]
    fn paging_follows_the_query() {
        let query = [("state".to_owned(), "all".to_owned())];
        let url = request("/repos/o/r/pulls", &query).url(resolve).unwrap();
        assert_eq!(
            url.as_str(),
            "https://api.github.com/repos/o/r/pulls?state=all&per_page=5&page=2"
        );
    }

    #[test]
    fn paging_given_twice_is_refused() {
        let err = request("/repos/o/r/pulls?page=3", &[]).url(resolve).unwrap_err();
        assert!(
            matches!(&err, GithubError::InvalidArgument { name, .. } if name == "page"),
            "{err}"
        );
        let query = [("per_page".to_owned(), "9".to_owned())];
        let err = request("/repos/o/r/pulls", &query).url(resolve).unwrap_err();
        assert!(
            matches!(&err, GithubError::InvalidArgument { name, .. } if name == "perPage"),
            "{err}"
        );
        let err = GetRequest {
            per_page: Some(101),
            ..request("/x", &[])
        }
        .url(resolve)
        .unwrap_err();
        assert!(err.to_string().contains("between 1 and 100"), "{err}");
    }

    #[test]
    fn media_types() {
        assert!(MediaType::Json.headers().is_empty());
        assert_eq!(
            MediaType::Diff.headers().get(header::ACCEPT).unwrap(),
            "application/vnd.github.diff"
        );
        assert!(MediaType::Patch.is_text() && !MediaType::Json.is_text());
    }
}
