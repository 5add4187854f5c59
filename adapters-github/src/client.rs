//! The GitHub client: the shared [`adapters_http::HttpClient`] with GitHub's headers, and the two list calls.

use std::fmt;

use adapters_http::{Auth, HttpClient, HttpConfig, RetryPolicy, decode::Payload};
use http::{HeaderMap, HeaderValue, Method, header};
use url::Url;

use crate::config::{API_VERSION, GithubConfig, VENDOR_NAME};
use crate::error::GithubError;
use crate::get::{ACCEPT_GITHUB_JSON, GetRequest};
use crate::pagination::{next_link_from_headers, next_page_from_headers};
use crate::params::{ListWorkflowJobsParams, ListWorkflowRunsParams};
use crate::retry::github_verdict;

/// What the token setting must hold, in the text of a missing token.
const TOKEN_EXPECTED: &str = "a GitHub token with `actions:read` (or `repo`) scope";

/// One page of a list endpoint.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    /// The body as GitHub sent it (decoded by [`adapters_http::decode::Payload`]): JSON as parsed by
    /// `serde_json` (integers keep every digit, object keys their upstream order), text decoded per its charset as
    /// a JSON string, anything else (an `image/png`, an `application/octet-stream`) as bytes with its media type,
    /// never mangled into a string. GitHub's list endpoints answer JSON; the other forms come from proxies and
    /// misconfigured bases, and a tool should keep them as they are (e.g. as a binary artifact).
    pub body: Payload,
    /// The next page number (>= 1) from the response headers (`x-next-page`, else the `Link`
    /// entry with `rel="next"`), or `None` on the last page. See
    /// [`crate::next_page_from_headers`]. `None` too when the `next` link continues with a cursor (a non-empty
    /// `after` or `before`: GitHub's cursor lists, such as Dependabot and secret-scanning alerts or the audit
    /// log, whose `page` is not the continuation); [`Page::next_link`] continues those.
    pub next_page: Option<u64>,
    /// The `Link` header's `rel="next"` target resolved against the request URL ([`crate::next_link_from_headers`]),
    /// whatever its form: a page number (then also in `next_page`) or a cursor (`?after=…`, which `next_page`
    /// cannot hold). `None` on the last page.
    pub next_link: Option<String>,
}

impl Page {
    /// The JSON (or decoded text) body, `None` when the body is binary.
    pub fn data(&self) -> Option<&serde_json::Value> {
        self.body.as_data()
    }
}

/// A GitHub REST client for the Actions endpoints.
///
/// Holds one shared-layer [`HttpClient`] (connection pool) configured with the base URL, the bearer
/// token, `X-GitHub-Api-Version: 2022-11-28`, `Accept: application/vnd.github+json`, the user
/// agent, the timeout and the body cap. Cheap to clone. Reads are retried by the shared policy with
/// [`github_verdict`] (rate limits wait for GitHub's `retry-after` or reset, when that fits in the timeout).
/// `Debug` never shows the token.
#[derive(Clone)]
pub struct GithubClient {
    pub(crate) http: HttpClient,
}

impl fmt::Debug for GithubClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GithubClient")
            .field("base", &self.http.base().as_str())
            .field("token", &if self.http.has_credential() { "***" } else { "<none>" })
            .finish()
    }
}

impl GithubClient {
    /// Builds the client. Sends nothing.
    ///
    /// Errors: [`GithubError::Http`] with [`adapters_http::HttpError::InvalidSetting`] naming the base-URL setting
    /// ([`adapters_http::SettingNames::base`], `api_base` by default) when it is not an absolute `http`/`https`
    /// URL, the token setting when the token cannot be sent in an HTTP header (the value is never echoed), or
    /// `user_agent` for an invalid user agent; with [`adapters_http::HttpError::Transport`] when the TLS backend
    /// cannot be initialised.
    ///
    /// A missing token is not an error here: calls then fail with
    /// [`adapters_http::HttpError::MissingCredential`] without sending a request.
    pub fn new(config: GithubConfig) -> Result<Self, GithubError> {
        let mut default_headers = HeaderMap::new();
        default_headers.insert(header::ACCEPT, HeaderValue::from_static(ACCEPT_GITHUB_JSON));
        default_headers.insert("x-github-api-version", HeaderValue::from_static(API_VERSION));
        let credential = config.http.setting_names.credential;
        let http = HttpClient::new(
            HttpConfig::from_options(VENDOR_NAME, config.http, Auth::Bearer)
                .with_default_headers(default_headers)
                .with_retry(
                    RetryPolicy::default()
                        .with_classify(github_verdict)
                        .with_timer(config.retry_timer),
                )
                .with_login_check(crate::sso::sso_check(credential)),
        )?;
        Ok(Self { http })
    }

    /// The API base URL in use (with a trailing slash when it has no path).
    pub fn api_base(&self) -> &str {
        self.http.base().as_str()
    }

    /// Lists workflow runs of a repository, or of one workflow when `params.workflow_id` is set.
    ///
    /// `GET /repos/{owner}/{repo}/actions/runs` or
    /// `GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs`, with the query parameters
    /// `per_page`, `page`, `branch`, `status`, `event`, `actor` that are given. The body is
    /// `{"total_count": n, "workflow_runs": [...]}`.
    /// See <https://docs.github.com/rest/actions/workflow-runs#list-workflow-runs-for-a-repository>
    /// and <https://docs.github.com/rest/actions/workflow-runs#list-workflow-runs-for-a-workflow>.
    ///
    /// Errors: [`GithubError::Http`] with [`adapters_http::HttpError::MissingCredential`] (nothing sent),
    /// [`GithubError::InvalidArgument`] (nothing sent), the upstream-status variants, [`GithubError::BodyTooLarge`],
    /// [`GithubError::Http`] with `InvalidJson`, `LoginFailed` or `Transport`.
    pub async fn list_workflow_runs(&self, params: &ListWorkflowRunsParams) -> Result<Page, GithubError> {
        self.require_token()?;
        let url = params.url(self.http.base())?;
        self.get_page(url).await
    }

    /// Lists the jobs of a workflow run.
    ///
    /// `GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs`, with the query parameters
    /// `per_page`, `page`, `filter` that are given. The body is
    /// `{"total_count": n, "jobs": [...]}`.
    /// See <https://docs.github.com/rest/actions/workflow-jobs#list-jobs-for-a-workflow-run>.
    ///
    /// Errors: as [`GithubClient::list_workflow_runs`].
    pub async fn list_workflow_jobs(&self, params: &ListWorkflowJobsParams) -> Result<Page, GithubError> {
        self.require_token()?;
        let url = params.url(self.http.base())?;
        self.get_page(url).await
    }

    /// `GET` of any REST path: the body as data and the next page from the headers, exactly as for the list calls.
    ///
    /// The URL is `request.path` under the API base with `request.query`, then `per_page` and `page`; an absolute
    /// URL is accepted on the base's origin only. `Accept` is [`crate::MediaType::accept`]; a diff or patch answer is a JSON
    /// string decoded per its `charset` (UTF-8 when absent), a binary one (an archive) bytes with its media type. A
    /// redirect to another host (an artifact's or a log's download URL) is followed once without the token or any
    /// GitHub header ([`adapters_http::HttpClient::get_handoff`]).
    /// See <https://docs.github.com/rest/using-the-rest-api/getting-started-with-the-rest-api>.
    ///
    /// Errors: [`GithubError::Http`] with [`adapters_http::HttpError::MissingCredential`] (nothing sent);
    /// [`GithubError::InvalidArgument`] (nothing sent) naming `path` for an empty path, one leaving the base path, or an absolute URL on another host (refused before the
    /// token is sent), or `perPage` / `page` (out of range, or given twice); then as
    /// [`GithubClient::list_workflow_runs`].
    pub async fn get(&self, request: &GetRequest<'_>) -> Result<Page, GithubError> {
        self.require_token()?;
        let url = request.url(|path, query| self.http.url(path, query).map_err(GithubError::from))?;
        let download = self.http.get_handoff_with(url, &request.media_type.headers()).await?;
        let response = download.into_response().await?;
        let mut page = self.page_of(response).await?;
        if request.media_type.is_text() {
            page.body = as_text(page.body);
        }
        Ok(page)
    }

    /// A `GET` whose `302` to another host is followed without the token
    /// ([`adapters_http::HttpClient::get_handoff`]): the download on success, GitHub's (or the other host's) error
    /// answer mapped like any other.
    pub(crate) async fn handed_off(&self, url: Url) -> Result<adapters_http::Download, GithubError> {
        let download = self.http.get_handoff(url).await?;
        if download.status().is_success() {
            return Ok(download);
        }
        let response = download.into_response().await?;
        let credential = self.http.vendor().credential_setting;
        Err(GithubError::from_response(
            response.status.as_u16(),
            &response.headers,
            &response.body,
            credential,
        ))
    }

    /// [`adapters_http::HttpClient::require_credential`] with what GitHub's token must be.
    pub(crate) fn require_token(&self) -> Result<(), GithubError> {
        Ok(self.http.require_credential(TOKEN_EXPECTED)?)
    }

    /// Sends a GET, reads the body under the cap, and maps it to a [`Page`] or an error.
    pub(crate) async fn get_page(&self, url: Url) -> Result<Page, GithubError> {
        self.fetch(url, &HeaderMap::new()).await
    }

    /// [`GithubClient::get_page`] with `headers` added to the request.
    async fn fetch(&self, url: Url, headers: &HeaderMap) -> Result<Page, GithubError> {
        let response = self.http.send_with(Method::GET, url, None, headers).await?;
        self.page_of(response).await
    }

    /// An answer as a [`Page`] (a 2xx: the body and the next page from its headers) or an error.
    pub(crate) async fn page_of(&self, response: adapters_http::RawResponse) -> Result<Page, GithubError> {
        self.parse(self.downloaded(response)?).await
    }
}

/// The next page of an answer, from its `Link` header: its number (none when the link continues with a cursor) and
/// the link itself, absolute.
pub(crate) fn next_of(response: &adapters_http::RawResponse) -> (Option<u64>, Option<String>) {
    let next_link = next_link_from_headers(&response.headers)
        .and_then(|link| adapters_http::next_link::resolve(&response.url, &link));
    let next_page = if next_link.as_deref().is_some_and(is_cursor_link) {
        None
    } else {
        next_page_from_headers(&response.headers)
    };
    (next_page, next_link)
}

/// Whether a next link continues with a cursor: a non-empty `after` or `before` query parameter.
fn is_cursor_link(link: &str) -> bool {
    let Some((_, query)) = link.split_once('?') else {
        return false;
    };
    url::form_urlencoded::parse(query.as_bytes())
        .any(|(key, value)| (key == "after" || key == "before") && !value.is_empty())
}

/// A diff or patch kept as bytes (GitHub's `application/vnd.github.diff` is not a text type by its name) as the text
/// its `charset` says (UTF-8 when absent); bytes invalid in that charset stay bytes.
fn as_text(body: Payload) -> Payload {
    let Payload::Binary(binary) = body else {
        return body;
    };
    let charset = binary
        .media_type
        .parse::<mime::Mime>()
        .ok()
        .and_then(|media| media.get_param(mime::CHARSET).map(|c| c.as_str().to_owned()))
        .unwrap_or_else(|| "utf-8".to_owned());
    match adapters_http::decode::decode_text(&charset, &binary.bytes) {
        Some(text) => Payload::Data(serde_json::Value::String(text)),
        None => Payload::Binary(binary),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use adapters_http::{HttpError, HttpOptions, Secret};

    use crate::config::DEFAULT_API_BASE;

    fn config(api_base: &str, token: Option<&str>) -> GithubConfig {
        GithubConfig::default().with_http(HttpOptions::new(api_base).with_credential(token.map(Secret::new)))
    }

    #[test]
    fn cursors_are_told_apart() {
        assert!(is_cursor_link("/a?page=1&after=MS4&before="));
        assert!(is_cursor_link("/a?before=X"));
        assert!(!is_cursor_link("/a?page=2&after=&before="));
        assert!(!is_cursor_link("/a?page=2"));
        assert!(!is_cursor_link("/after"));
    }

    #[test]
    fn base_validation() {
        for bad in ["", "api.github.com", "ftp://x", "mailto:a@b", "https://x/?a=1"] {
            assert!(
                matches!(
                    GithubClient::new(config(bad, None)),
                    Err(GithubError::Http(HttpError::InvalidSetting { ref setting, .. })) if setting == "api_base"
                ),
                "{bad}"
            );
        }
        let err = GithubClient::new(config("https://user:pw-secret@x/", None))
            .err()
            .map(|e| e.to_string());
        assert!(err.as_deref().is_some_and(|e| !e.contains("pw-secret")), "{err:?}");
    }

    /// GitHub Enterprise Cloud with data residency (GHE.com): the API is `https://api.SUBDOMAIN.ghe.com`, with no
    /// path prefix, like api.github.com's; paths and absolute URLs resolve under it, other hosts (the web host
    /// `SUBDOMAIN.ghe.com`, api.github.com) are refused before anything is sent.
    #[test]
    fn ghe_com_base() {
        let client = GithubClient::new(config("https://api.octocorp.ghe.com", Some("ghp_x"))).expect("client");
        assert_eq!(client.api_base(), "https://api.octocorp.ghe.com/");
        let runs = crate::ListWorkflowRunsParams::new("octo-org", "octo-repo")
            .url(client.http.base())
            .expect("url");
        assert_eq!(
            runs.as_str(),
            "https://api.octocorp.ghe.com/repos/octo-org/octo-repo/actions/runs"
        );
        let none: &[(&str, &str)] = &[];
        for path in [
            "/repos/o/r/commits/abc/status",
            "repos/o/r/commits/abc/status",
            "https://api.octocorp.ghe.com/repos/o/r/commits/abc/status",
        ] {
            let url = client.http.url(path, none).expect(path);
            assert_eq!(
                url.as_str(),
                "https://api.octocorp.ghe.com/repos/o/r/commits/abc/status"
            );
        }
        for foreign in [
            "https://octocorp.ghe.com/repos/o/r/commits/abc/status",
            "https://api.github.com/repos/o/r/commits/abc/status",
        ] {
            assert!(
                matches!(client.http.url(foreign, none), Err(HttpError::ForeignHost { .. })),
                "{foreign}"
            );
        }
    }

    #[test]
    fn bad_token_is_not_echoed() {
        let err = GithubClient::new(config(DEFAULT_API_BASE, Some("ghp_secret\nvalue"))).err();
        let text = format!("{err:?} {}", err.as_ref().map(ToString::to_string).unwrap_or_default());
        assert!(text.contains("invalid token"), "{text}");
        assert!(!text.contains("ghp_secret"), "{text}");
    }

    #[test]
    fn debug_hides_token() {
        let client = GithubClient::new(config(DEFAULT_API_BASE, Some("ghp_secret"))).expect("client");
        let debug = format!("{client:?}");
        assert!(!debug.contains("ghp_secret"), "{debug}");
        assert_eq!(client.api_base(), "https://api.github.com/");
    }
}
