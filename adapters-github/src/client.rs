//! The HTTP client: one `reqwest::Client` with GitHub's headers, and the two list calls.

use std::fmt;
use std::time::Duration;

use http::{HeaderMap, HeaderValue, header};
use url::Url;

use crate::config::{API_VERSION, ENV_API_BASE, ENV_TOKEN, GithubConfig, Token};
use crate::error::GithubError;
use crate::pagination::next_page_from_headers;
use crate::params::{ListWorkflowJobsParams, ListWorkflowRunsParams};

/// Media type GitHub recommends in `Accept`.
const ACCEPT_GITHUB_JSON: &str = "application/vnd.github+json";

/// One page of a list endpoint.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    /// The upstream JSON body as parsed by `serde_json`: integers stay exact (`u64`/`i64`, so run
    /// ids above 2^53 keep every digit) and object keys keep their upstream order.
    pub body: serde_json::Value,
    /// The next page number (>= 1) from the response headers (`x-next-page`, else the `Link`
    /// entry with `rel="next"`), or `None` on the last page. See
    /// [`crate::next_page_from_headers`].
    pub next_page: Option<u64>,
}

/// A GitHub REST client for the Actions endpoints.
///
/// Holds one `reqwest::Client` (connection pool) configured with the base URL, the bearer
/// token, `X-GitHub-Api-Version: 2022-11-28`, `Accept: application/vnd.github+json`, the user
/// agent and the timeout. Cheap to clone. Does not retry. `Debug` never shows the token.
#[derive(Clone)]
pub struct GithubClient {
    http: reqwest::Client,
    base: Url,
    has_token: bool,
    timeout: Duration,
}

impl fmt::Debug for GithubClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GithubClient")
            .field("base", &self.base.as_str())
            .field("token", &if self.has_token { "***" } else { "<none>" })
            .finish()
    }
}

impl GithubClient {
    /// Builds the client. Sends nothing.
    ///
    /// Errors: [`GithubError::InvalidArgument`] named `GITHUB_API_BASE` when `api_base` is not an
    /// absolute `http`/`https` URL, or named `GITHUB_TOKEN` when the token cannot be sent in an
    /// HTTP header (the value is never echoed); [`GithubError::InvalidArgument`] named
    /// `user_agent` for an invalid user agent; [`GithubError::Transport`] when the TLS backend
    /// cannot be initialised.
    ///
    /// A missing token is not an error here: calls then fail with
    /// [`GithubError::MissingToken`] without sending a request.
    pub fn new(config: GithubConfig) -> Result<Self, GithubError> {
        let base = parse_base(&config.api_base)?;

        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT, HeaderValue::from_static(ACCEPT_GITHUB_JSON));
        headers.insert("x-github-api-version", HeaderValue::from_static(API_VERSION));
        if let Some(token) = &config.token {
            headers.insert(header::AUTHORIZATION, bearer(token)?);
        }
        let user_agent = HeaderValue::from_str(&config.user_agent).map_err(|_| GithubError::InvalidArgument {
            name: "user_agent".to_owned(),
            detail: "contains characters not allowed in an HTTP header".to_owned(),
        })?;

        let http = reqwest::Client::builder()
            .default_headers(headers)
            .user_agent(user_agent)
            .timeout(config.timeout)
            .build()
            .map_err(GithubError::transport)?;
        Ok(Self {
            http,
            base,
            has_token: config.token.is_some(),
            timeout: config.timeout,
        })
    }

    /// The API base URL in use (with a trailing slash when it has no path).
    pub fn api_base(&self) -> &str {
        self.base.as_str()
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
    /// Errors: [`GithubError::MissingToken`] (nothing sent), [`GithubError::InvalidArgument`]
    /// (nothing sent), the upstream-status variants, [`GithubError::InvalidBody`],
    /// [`GithubError::Transport`].
    pub async fn list_workflow_runs(&self, params: &ListWorkflowRunsParams) -> Result<Page, GithubError> {
        self.require_token()?;
        let url = params.url(&self.base)?;
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
        let url = params.url(&self.base)?;
        self.get_page(url).await
    }

    fn require_token(&self) -> Result<(), GithubError> {
        if self.has_token {
            Ok(())
        } else {
            Err(GithubError::MissingToken)
        }
    }

    /// Sends a GET, reads the whole body, and maps it to a [`Page`] or an error.
    async fn get_page(&self, url: Url) -> Result<Page, GithubError> {
        let path = url.path().to_owned();
        tracing::debug!(target: "adapters_github", method = "GET", %path, "GitHub request");
        let response = self
            .http
            .get(url)
            .send()
            .await
            .map_err(|e| GithubError::transport_after(e, self.timeout))?;
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let body = response
            .bytes()
            .await
            .map_err(|e| GithubError::transport_after(e, self.timeout))?;
        tracing::debug!(target: "adapters_github", %path, status, bytes = body.len(), "GitHub response");

        if !(200..300).contains(&status) {
            return Err(GithubError::from_response(status, &headers, &body));
        }
        let body: serde_json::Value = serde_json::from_slice(&body).map_err(|e| GithubError::InvalidBody {
            status,
            detail: e.to_string(),
        })?;
        Ok(Page {
            body,
            next_page: next_page_from_headers(&headers),
        })
    }
}

/// Parses and checks the API base URL.
fn parse_base(raw: &str) -> Result<Url, GithubError> {
    let invalid = |detail: String| GithubError::InvalidArgument {
        name: ENV_API_BASE.to_owned(),
        detail,
    };
    let url = Url::parse(raw.trim()).map_err(|e| invalid(format!("`{raw}` is not an absolute URL ({e})")))?;
    if !matches!(url.scheme(), "http" | "https") || url.cannot_be_a_base() {
        return Err(invalid(format!("`{raw}` must be an http or https URL")));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(invalid(format!("`{raw}` must not have a query or fragment")));
    }
    if !url.username().is_empty() || url.password().is_some() {
        // Never echo credentials embedded in the URL.
        return Err(invalid(
            "must not contain credentials; set GITHUB_TOKEN instead".to_owned(),
        ));
    }
    Ok(url)
}

/// `Bearer <token>`, marked sensitive so it is never printed by `http`'s Debug.
fn bearer(token: &Token) -> Result<HeaderValue, GithubError> {
    let mut value =
        HeaderValue::from_str(&format!("Bearer {}", token.expose())).map_err(|_| GithubError::InvalidArgument {
            name: ENV_TOKEN.to_owned(),
            detail: "contains characters not allowed in an HTTP header (check for a stray newline)".to_owned(),
        })?;
    value.set_sensitive(true);
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_validation() {
        for bad in ["", "api.github.com", "ftp://x", "mailto:a@b", "https://x/?a=1"] {
            let config = GithubConfig {
                api_base: bad.to_owned(),
                ..GithubConfig::default()
            };
            assert!(
                matches!(
                    GithubClient::new(config),
                    Err(GithubError::InvalidArgument { ref name, .. }) if name == "GITHUB_API_BASE"
                ),
                "{bad}"
            );
        }
        let config = GithubConfig {
            api_base: "https://user:pw-secret@x/".to_owned(),
            ..GithubConfig::default()
        };
        let err = GithubClient::new(config).err().map(|e| e.to_string());
        assert!(err.as_deref().is_some_and(|e| !e.contains("pw-secret")), "{err:?}");
    }

    #[test]
    fn bad_token_is_not_echoed() {
        let config = GithubConfig {
            token: Some(Token::new("ghp_secret\nvalue".to_owned())),
            ..GithubConfig::default()
        };
        let err = GithubClient::new(config).err();
        let text = format!("{err:?} {}", err.as_ref().map(ToString::to_string).unwrap_or_default());
        assert!(text.contains("GITHUB_TOKEN"), "{text}");
        assert!(!text.contains("ghp_secret"), "{text}");
    }

    #[test]
    fn debug_hides_token() {
        let config = GithubConfig {
            token: Some(Token::new("ghp_secret".to_owned())),
            ..GithubConfig::default()
        };
        let client = GithubClient::new(config).expect("client");
        let debug = format!("{client:?}");
        assert!(!debug.contains("ghp_secret"), "{debug}");
        assert_eq!(client.api_base(), "https://api.github.com/");
    }
}
