//! A job's details and its steps' output, for logs.
//!
//! API v2 has no step output; API v1.1's job details do: `GET /api/v1.1/project/{project-slug}/{job-number}`
//! lists `steps[].actions[]`, each with an `output_url` on another host (a signed URL), whose body is a JSON array
//! of `{message, time, type}`. The v1.1 URL is built on the v2 base's origin (its path's `v2` becomes `v1.1`); the
//! output URLs are fetched without the token ([`adapters_http::HttpClient::get_elsewhere`]).

use adapters_http::HttpError;
use serde_json::Value;
use url::Url;

use crate::client::CircleciClient;
use crate::error::CircleciError;

impl CircleciClient {
    /// API v1.1's details of job `job_number` of the project `project_slug` (`gh/ORG/REPO`, `bb/…`, `circleci/…`),
    /// with `steps[].actions[].output_url`. Never cached (a job's state changes).
    ///
    /// Errors: [`CircleciError::MissingToken`] (nothing sent); [`CircleciError::Http`]: an empty or `.`/`..`
    /// slug segment ([`HttpError::InvalidPath`], nothing sent), CircleCI's status and message (404 `Build not
    /// found` and the like), a body that is not JSON, too large, transport.
    pub async fn job_details(&self, project_slug: &str, job_number: u64) -> Result<Value, CircleciError> {
        if !self.http.has_credential() {
            return Err(CircleciError::MissingToken {
                setting: self.http.vendor().credential_setting,
            });
        }
        let url = v1_job_url(self.http.base(), project_slug, job_number)?;
        let response = self.http.send(http::Method::GET, url, None).await?;
        let response = self.http.check_status(response)?;
        Ok(response.parse_json(self.http.vendor()).await?)
    }

    /// The output of one step action: its `output_url` (another host), fetched without the token (https only),
    /// read under the body cap and parsed: CircleCI's JSON array of `{message, time, type}`.
    ///
    /// Errors: [`CircleciError::Http`]: [`HttpError::RefusedHandoff`] for a URL that is not https (nothing
    /// sent), [`HttpError::InvalidPath`] for one that does not parse, the other host's status (an expired signature
    /// is its `403`), a body that is not JSON or too large, transport.
    pub async fn step_output(&self, output_url: &str) -> Result<Value, CircleciError> {
        let url = Url::parse(output_url).map_err(|e| HttpError::InvalidPath {
            path: "output_url".to_owned(),
            detail: format!("is not a URL ({e})"),
        })?;
        let response = self.http.get_elsewhere(url).await?.into_response().await?;
        let response = self.http.check_status(response)?;
        Ok(response.parse_json(self.http.vendor()).await?)
    }
}

/// `<origin>/<base path with v2 → v1.1>/project/<slug segments>/<number>`.
fn v1_job_url(base: &Url, project_slug: &str, job_number: u64) -> Result<Url, HttpError> {
    let invalid = |detail: &str| HttpError::InvalidPath {
        path: project_slug.to_owned(),
        detail: detail.to_owned(),
    };
    let slug: Vec<&str> = project_slug.trim().trim_matches('/').split('/').collect();
    if slug.len() < 3 || slug.iter().any(|s| s.is_empty() || *s == "." || *s == "..") {
        return Err(invalid("must be a project slug such as gh/ORG/REPO"));
    }
    let mut url = base.clone();
    let path = base.path().trim_end_matches('/');
    let v1 = match path.strip_suffix("/v2") {
        Some(prefix) => format!("{prefix}/v1.1"),
        None => format!("{path}/v1.1"),
    };
    url.set_path(&v1);
    let number = job_number.to_string();
    url.path_segments_mut()
        .map_err(|()| invalid("the API base cannot hold a path"))?
        .push("project")
        .extend(slug.iter().copied())
        .push(&number);
    Ok(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v1_urls() {
        let base = Url::parse("https://circleci.com/api/v2").unwrap();
        assert_eq!(
            v1_job_url(&base, "gh/CircleCI-Public/api-preview-docs", 42)
                .unwrap()
                .as_str(),
            "https://circleci.com/api/v1.1/project/gh/CircleCI-Public/api-preview-docs/42"
        );
        let local = Url::parse("http://127.0.0.1:9/api/v2/").unwrap();
        assert_eq!(
            v1_job_url(&local, "/gh/o r/x/", 7).unwrap().as_str(),
            "http://127.0.0.1:9/api/v1.1/project/gh/o%20r/x/7"
        );
        for bad in ["gh/org", "gh//x", "gh/../x", ""] {
            assert!(v1_job_url(&base, bad, 1).is_err(), "{bad}");
        }
    }
}
