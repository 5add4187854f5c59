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

/// A successful answer of a list, its body downloaded (under the body cap) but not yet parsed.
#[derive(Debug)]
pub struct Downloaded {
    response: adapters_http::RawResponse,
}

impl Downloaded {
    /// The next page's number from the `Link` header: `None` on the last page, and when the next link continues with
    /// a cursor (as [`Page::next_page`]).
    pub fn next_page(&self) -> Option<u64> {
        next_of(&self.response).0
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
        self.page_of(downloaded.response).await
    }

    async fn download(&self, url: Url) -> Result<Downloaded, GithubError> {
        let response = self.http.send_with(Method::GET, url, None, &HeaderMap::new()).await?;
        if !response.status.is_success() {
            return Err(self.error_of(&response));
        }
        Ok(Downloaded { response })
    }
}
