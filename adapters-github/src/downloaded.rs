//! [`Downloaded`]: a page of a list in two steps, its answer downloaded and then parsed, so that a caller reading
//! page after page can ask for the next page (named by the `Link` header) while this one's body is parsed. The
//! requests stay one after another, as GitHub asks of a client
//! (<https://docs.github.com/rest/using-the-rest-api/best-practices-for-using-the-rest-api#avoid-concurrent-requests>);
//! only the parse of one page overlaps the download of the next.

use http::{HeaderMap, Method};
use url::Url;

use crate::client::{GithubClient, Page, next_of};
use crate::error::GithubError;
use crate::params::{ListWorkflowJobsParams, ListWorkflowRunsParams};

/// A successful answer of a list, its body downloaded (under the body cap) but not yet parsed, and its next page
/// read from its `Link` header.
#[derive(Debug)]
pub struct Downloaded {
    response: adapters_http::RawResponse,
    next_page: Option<u64>,
    next_link: Option<String>,
}

impl Downloaded {
    /// The next page's number from the `Link` header: `None` on the last page, and when the next link continues with
    /// a cursor (as [`Page::next_page`]).
    pub fn next_page(&self) -> Option<u64> {
        self.next_page
    }
}

impl GithubClient {
    /// [`GithubClient::list_workflow_runs`]'s answer, downloaded; [`GithubClient::parse`] makes it the same
    /// [`Page`].
    ///
    /// Errors: as [`GithubClient::list_workflow_runs`], but for the body's own (invalid JSON), which
    /// [`GithubClient::parse`] reports.
    pub async fn download_workflow_runs(&self, params: &ListWorkflowRunsParams) -> Result<Downloaded, GithubError> {
        self.require_token()?;
        self.download(params.url(self.http.base())?).await
    }

    /// [`GithubClient::list_workflow_jobs`]'s answer, downloaded; see [`GithubClient::download_workflow_runs`].
    ///
    /// Errors: as [`GithubClient::download_workflow_runs`].
    pub async fn download_workflow_jobs(&self, params: &ListWorkflowJobsParams) -> Result<Downloaded, GithubError> {
        self.require_token()?;
        self.download(params.url(self.http.base())?).await
    }

    /// The page of `downloaded`: its body parsed (off the async workers when it is large) and its next page.
    ///
    /// Errors: [`GithubError::Http`] with `InvalidJson`.
    pub async fn parse(&self, downloaded: Downloaded) -> Result<Page, GithubError> {
        let body = downloaded.response.parse_payload(self.http.vendor()).await?;
        Ok(Page {
            body,
            next_page: downloaded.next_page,
            next_link: downloaded.next_link,
        })
    }

    async fn download(&self, url: Url) -> Result<Downloaded, GithubError> {
        let response = self.http.send_with(Method::GET, url, None, &HeaderMap::new()).await?;
        self.downloaded(response)
    }

    /// A 2xx answer as [`Downloaded`] (its next page read from its headers), or the error of any other (its status,
    /// rate-limit headers and GitHub's message).
    pub(crate) fn downloaded(&self, response: adapters_http::RawResponse) -> Result<Downloaded, GithubError> {
        if !response.status.is_success() {
            let credential = self.http.vendor().credential_setting;
            return Err(GithubError::from_response(
                response.status.as_u16(),
                &response.headers,
                &response.body,
                credential,
            ));
        }
        let (next_page, next_link) = next_of(&response);
        Ok(Downloaded {
            response,
            next_page,
            next_link,
        })
    }
}
