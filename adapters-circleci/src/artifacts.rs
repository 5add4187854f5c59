//! A job's artifact body: the `url` of an item of `GET /project/{project-slug}/{job-number}/artifacts`
//! (<https://circleci.com/docs/api/v2/index.html#operation/getJobArtifacts>), on another host than the API.
//!
//! A private project's artifacts are read with the API token: CircleCI sends `Circle-Token` to the artifact URLs
//! ("Downloading all artifacts for a build on CircleCI", <https://circleci.com/docs/artifacts/>: `wget --header
//! "Circle-Token: $CIRCLE_TOKEN"`; API v1.1 "Download an artifact file",
//! <https://circleci.com/docs/api/v1/#download-an-artifact-file>: `curl -L -H "Circle-Token: …"`, and "make sure
//! your HTTP client is configured to follow redirects as the artifact URLs can respond with an HTTP `3xx`"). The
//! artifact host answers most artifacts with a `302 Found` to a short-lived signed S3 URL ("Non-HTML artifacts will
//! usually be (`302 FOUND`) redirected to an S3 URL", <https://circleci.com/docs/security/>, Artifacts), which must
//! not get the token. So the token goes to CircleCI's artifact hosts only ([`crate::ARTIFACTS_DOMAIN`] and its
//! subdomains, the API base's origin, [`crate::CircleciConfig::artifact_hosts`]), and a redirect elsewhere is
//! followed without it ([`adapters_http::HttpClient::get_vouched`]).

use adapters_http::status::StatusError;
use adapters_http::{Download, HttpError};
use url::Url;

use crate::client::CircleciClient;
use crate::error::CircleciError;

impl CircleciClient {
    /// The artifact at `url` (an artifact's `url` as CircleCI lists it) as a stream of bytes ([`Download::chunk`];
    /// the caller bounds what it keeps). The token is sent when `url`'s host is one of CircleCI's artifact hosts
    /// (see the module doc), and nowhere else; a redirect to another host (the signed S3 URL) is followed without
    /// it ([`adapters_http::HttpClient::get_vouched`]: `https` only, `http` to loopback for tests). A non-2xx
    /// answer is an error.
    ///
    /// Errors: [`CircleciError::ArtifactRefused`] for a `401`, `403` or `404`, saying whether the token was sent
    /// to the host that answered (then it could not read the artifact) or not (and how to have it sent);
    /// [`CircleciError::Http`]: [`HttpError::InvalidPath`] for a URL that does not parse,
    /// [`HttpError::RefusedHandoff`] for one that is not `https` (nothing sent), the host's other statuses,
    /// transport.
    pub async fn artifact(&self, url: &str) -> Result<Download, CircleciError> {
        let url = Url::parse(url).map_err(|e| HttpError::InvalidPath {
            path: "artifact url".to_owned(),
            detail: format!("is not a URL ({e})"),
        })?;
        let download = self.http.get_vouched(url.clone(), &self.artifact_hosts).await?;
        if download.status().is_success() {
            return Ok(download);
        }
        let token_sent = download.credential_sent();
        let answered = download.url().clone();
        let response = download.into_response().await?;
        // Not a success: `check_status` names the status and the host's message.
        let answer = match self.http.check_status(response) {
            Err(answer) => answer,
            Ok(response) => HttpError::InvalidPath {
                path: "artifact url".to_owned(),
                detail: format!("answered {}", response.status),
            },
        };
        let HttpError::Status(status) = &answer else {
            return Err(answer.into());
        };
        if !matches!(status.status, 401 | 403 | 404) {
            return Err(answer.into());
        }
        let text = self.refusal_text(status, &url, &answered, token_sent);
        Err(CircleciError::ArtifactRefused {
            text,
            answer: Box::new(answer),
        })
    }

    /// What a refused artifact download says: who answered, what, and whether (and why not) it had the token.
    fn refusal_text(&self, status: &StatusError, asked: &Url, answered: &Url, token_sent: bool) -> String {
        let token = status.vendor.credential_setting;
        let origin = answered.origin().unicode_serialization();
        let code = http::StatusCode::from_u16(status.status).ok();
        let reason = code.and_then(|c| c.canonical_reason()).unwrap_or_default();
        let said = format!("{} {reason}: {}", status.status, status.message);
        let gone = if status.status == 404 {
            " (or the artifact is no longer stored: CircleCI keeps artifacts 30 days by default)"
        } else {
            ""
        };
        let redirected = !adapters_http::target::same_origin(answered, asked);
        if token_sent {
            format!(
                "the artifact host {origin} answered {said} — {token} was sent and could not read this artifact: \
                 check that it is a valid token whose user can see the project{gone}"
            )
        } else if redirected {
            format!(
                "the artifact host redirected the download to {origin}, which answered {said} — that host gets no \
                 token (it is not a CircleCI artifact host: a signed URL stands for it); try again for a fresh URL{gone}"
            )
        } else if !self.http.has_credential() {
            format!("the artifact host {origin} answered {said} — no token was sent: {token} is not set")
        } else {
            let host = asked.host_str().unwrap_or_default();
            let hosts = self.artifact_hosts_setting;
            format!(
                "the artifact host {origin} answered {said} — it was sent no token: {token} goes only to \
                 circle-artifacts.com and its subdomains, the API's origin and the hosts named in {hosts}; if \
                 `{host}` serves this project's artifacts, add it to {hosts}"
            )
        }
    }
}
