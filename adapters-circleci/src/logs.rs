//! A job's details and its steps' output, for logs.
//!
//! API v2 has no step output; API v1.1's job details do: `GET /api/v1.1/project/{project-slug}/{job-number}`
//! lists `steps[].actions[]`, each with an `output_url` on another host (a signed URL), whose body is a JSON array
//! of `{message, time, type}`. The v1.1 URL is built on the v2 base's origin (its path's `v2` becomes `v1.1`); the
//! output URLs are fetched without the token ([`adapters_http::HttpClient::get_elsewhere`]).
//!
//! Redaction: the job details come back with the `output_url`s' signatures left in (they are fetched next) and
//! everything else redacted; the step output is redacted as one text across its messages, since CircleCI cuts a
//! step's output into messages wherever it likes and a secret may fall across two of them.

use adapters_http::HttpError;
use serde_json::Value;
use url::Url;

use crate::client::CircleciClient;
use crate::error::CircleciError;

impl CircleciClient {
    /// API v1.1's details of job `job_number` of the project `project_slug` (`gh/ORG/REPO`, `bb/…`, `circleci/…`),
    /// with `steps[].actions[].output_url`. Never cached (a job's state changes). Every string is redacted
    /// ([`adapters_http::Redactor`]) except the `output_url`s, whose signatures [`CircleciClient::step_log`] needs:
    /// they are for fetching, never to be passed on.
    ///
    /// Errors: [`CircleciError::Http`]: no token ([`HttpError::MissingCredential`], nothing sent), an empty or
    /// `.`/`..` slug segment ([`HttpError::InvalidPath`], nothing sent), CircleCI's status and message (404 `Build
    /// not found` and the like), a body that is not JSON, too large, transport.
    pub async fn job_details(&self, project_slug: &str, job_number: u64) -> Result<Value, CircleciError> {
        self.require_token()?;
        let url = v1_job_url(self.http.base(), project_slug, job_number)?;
        let mut response = self.http.send_keeping_signed_urls(http::Method::GET, url).await?;
        let redactor = self.http.redactor();
        if !response.status.is_success() {
            response = redactor.redact_response(response);
        }
        let response = self.http.check_status(response)?;
        let mut details = response.parse_json(self.http.vendor()).await?;
        redactor.redact_value_except(&mut details, &["output_url"]);
        Ok(details)
    }

    /// The log text of one step action: its `output_url` (another host), fetched without the token (https only),
    /// read under the body cap, parsed (CircleCI's JSON array of `{message, time, type}`), and its messages joined
    /// in order as they are (CircleCI cuts the output into messages by time, not always at line ends), redacted as
    /// one text, ending with a line break.
    ///
    /// Errors: [`CircleciError::Http`]: [`HttpError::RefusedHandoff`] for a URL that is not https (nothing
    /// sent), [`HttpError::InvalidPath`] for one that does not parse, the other host's status (an expired signature
    /// is its `403`), a body that is not JSON or too large, transport.
    pub async fn step_log(&self, output_url: &str) -> Result<Vec<u8>, CircleciError> {
        let url = Url::parse(output_url).map_err(|e| HttpError::InvalidPath {
            path: "output_url".to_owned(),
            detail: format!("is not a URL ({e})"),
        })?;
        let response = self.http.get_elsewhere(url).await?.into_response().await?;
        let response = self.http.check_status(response)?;
        let body = response.parse_json(self.http.vendor()).await?;
        let mut stream = self.http.redactor().stream();
        let mut text = Vec::new();
        for message in body
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|m| m["message"].as_str())
        {
            text.extend(stream.push(message.as_bytes()));
        }
        text.extend(stream.finish());
        if text.last().is_some_and(|&b| b != b'\n') {
            text.push(b'\n');
        }
        Ok(text)
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
