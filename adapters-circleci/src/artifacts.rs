//! A job's artifact body: the `url` of an item of `GET /project/{project-slug}/{job-number}/artifacts`
//! (<https://circleci.com/docs/api/v2/index.html#operation/getJobArtifacts>), on another host than the API.

use adapters_http::{Download, HttpError};
use url::Url;

use crate::client::CircleciClient;
use crate::error::CircleciError;

impl CircleciClient {
    /// The artifact at `url` (an artifact's `url` as CircleCI lists it) as a stream of bytes ([`Download::chunk`];
    /// the caller bounds what it keeps), fetched without the token ([`adapters_http::HttpClient::get_elsewhere`]:
    /// `https` only, `http` to loopback for tests). A non-2xx answer is an error.
    ///
    /// Errors: [`CircleciError::Http`]: [`HttpError::InvalidPath`] for a URL that does not parse,
    /// [`HttpError::RefusedHandoff`] for one that is not `https` (nothing sent), the other host's status (a private
    /// project's artifact refused without credentials is its `401`/`403`/`404`), transport.
    pub async fn artifact(&self, url: &str) -> Result<Download, CircleciError> {
        let url = Url::parse(url).map_err(|e| HttpError::InvalidPath {
            path: "artifact url".to_owned(),
            detail: format!("is not a URL ({e})"),
        })?;
        let download = self.http.get_elsewhere(url).await?;
        if download.status().is_success() {
            return Ok(download);
        }
        let response = download.into_response().await?;
        // Not a success: `check_status` names the status and CircleCI's message.
        let response = self.http.check_status(response)?;
        Err(HttpError::InvalidPath {
            path: "artifact url".to_owned(),
            detail: format!("answered {}", response.status),
        }
        .into())
    }
}
