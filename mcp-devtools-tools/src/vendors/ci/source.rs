//! Where an artifact comes from (the arguments every ci tool takes) and its download: streamed to an unnamed
//! temporary file (removed by the system when closed, so nothing is left behind even by a crash), at most the
//! vendor's body cap (`HTTP_MAX_BODY_BYTES`), never held whole in memory.

use std::fs::File;

use adapters_circleci::GetRequest;
use adapters_github::ArtifactRef;
use adapters_http::Download;
use rmcp::model::CallToolResult;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use tokio::io::AsyncWriteExt;

use crate::Principal;
use crate::app::App;
use crate::args::ArgumentError;
use crate::tools::{unusable_client, upstream_failure};

/// Most pages of a CircleCI list read (artifacts, tests) before giving up: 100.
pub(super) const MAX_PAGES: usize = 100;

/// The artifact (or, for `ci_test_results`, the CircleCI job) a ci tool reads.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ArtifactArgs {
    /// GitHub repository owner.
    #[schemars(description = "", length(max = crate::args::MAX_NAME_CHARS))]
    pub owner: Option<String>,
    /// GitHub repository name.
    #[schemars(description = "", length(max = crate::args::MAX_NAME_CHARS))]
    pub repo: Option<String>,
    /// GitHub Actions artifact id.
    #[serde(default, deserialize_with = "crate::args::integer::optional")]
    pub artifact_id: Option<u64>,
    /// CircleCI, e.g. gh/ORG/REPO.
    #[schemars(length(max = 512))]
    pub project_slug: Option<String>,
    /// CircleCI job number.
    #[serde(default, deserialize_with = "crate::args::integer::optional")]
    pub job_number: Option<u64>,
    /// A CircleCI job artifact's path.
    #[schemars(length(max = crate::args::MAX_PATH_CHARS))]
    pub artifact_path: Option<String>,
}

/// [`ArtifactArgs`] checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Source {
    /// A GitHub Actions artifact (a zip).
    Github(ArtifactRef),
    /// A CircleCI job's artifact (any file) or, without a path, the job itself.
    Circleci {
        /// The project slug.
        slug: String,
        /// The job number.
        job_number: u64,
        /// The artifact's path; `None`: the job.
        path: Option<String>,
    },
}

impl ArtifactArgs {
    /// The source these arguments name; `job_allowed`: a CircleCI job without `artifactPath` is one.
    pub(super) fn source(self, tool: &'static str, job_allowed: bool) -> Result<Source, ArgumentError> {
        let either = if job_allowed {
            "give owner, repo and artifactId (GitHub Actions), or projectSlug and jobNumber (CircleCI: the job's \
             tests; with artifactPath, that artifact)"
        } else {
            "give owner, repo and artifactId (GitHub Actions), or projectSlug, jobNumber and artifactPath (CircleCI)"
        };
        let blank = |value: &Option<String>| value.as_deref().is_none_or(|v| v.trim().is_empty());
        let github = self.owner.is_some() || self.repo.is_some() || self.artifact_id.is_some();
        let circleci = self.project_slug.is_some() || self.job_number.is_some() || self.artifact_path.is_some();
        match (github, circleci) {
            (true, false) => match (self.owner, self.repo, self.artifact_id) {
                (Some(owner), Some(repo), Some(id)) if !owner.trim().is_empty() && !repo.trim().is_empty() => {
                    Ok(Source::Github(ArtifactRef::new(owner, repo, id)))
                }
                _ => Err(ArgumentError::new(tool, either)),
            },
            (false, true) => {
                let path_ok = if job_allowed {
                    self.artifact_path.is_none() || !blank(&self.artifact_path)
                } else {
                    !blank(&self.artifact_path)
                };
                match (self.project_slug, self.job_number) {
                    (Some(slug), Some(job_number)) if !slug.trim().is_empty() && path_ok => Ok(Source::Circleci {
                        slug: slug.trim().trim_matches('/').to_owned(),
                        job_number,
                        path: self.artifact_path,
                    }),
                    _ => Err(ArgumentError::new(tool, either)),
                }
            }
            _ => Err(ArgumentError::new(tool, either)),
        }
    }
}

impl Source {
    /// What it is, for results and errors: `GitHub artifact 28026001465 of octo-org/octo-repo`, `CircleCI artifact
    /// test-results/junit.xml of job 102 of gh/ORG/REPO`, `CircleCI job 102 of gh/ORG/REPO`.
    pub(super) fn describe(&self) -> String {
        match self {
            Source::Github(artifact) => format!(
                "GitHub artifact {} of {}/{}",
                artifact.artifact_id, artifact.owner, artifact.repo
            ),
            Source::Circleci {
                slug,
                job_number,
                path: Some(path),
            } => format!("CircleCI artifact {path} of job {job_number} of {slug}"),
            Source::Circleci {
                slug,
                job_number,
                path: None,
            } => format!("CircleCI job {job_number} of {slug}"),
        }
    }
}

/// A downloaded artifact in a temporary file (gone when dropped).
pub(super) struct Spooled {
    /// The file, at its start.
    pub file: File,
    /// Its size, bytes.
    pub bytes: u64,
}

/// Downloads the artifact of `source` (a CircleCI source with a path) for `tool`.
///
/// Errors: the tool's `isError` result naming the artifact: not configured, the upstream's answer (an unknown
/// artifact is its 404), a CircleCI path the job does not list, a body past the cap, a temporary-file failure.
pub(super) async fn download(
    app: &App,
    principal: &Principal,
    tool: &str,
    source: &Source,
) -> Result<Spooled, CallToolResult> {
    let what = source.describe();
    let (download, cap, setting) = match source {
        Source::Github(artifact) => {
            let github = app.github.as_ref().map_err(|setup| unusable_client(tool, setup))?;
            let download = github
                .artifact_zip(artifact)
                .await
                .map_err(|err| upstream_failure(tool, &what, &err, err.status(), err.info()))?;
            let http = &app.config.github.http;
            (download, http.client.max_body_bytes, http.setting_names.max_body)
        }
        Source::Circleci { slug, job_number, path } => {
            let path = path.as_deref().unwrap_or_default();
            let download = circleci_artifact(app, principal, tool, &what, slug, *job_number, path).await?;
            let http = &app.config.circleci.http;
            (download, http.client.max_body_bytes, http.setting_names.max_body)
        }
    };
    spool(download, cap, setting, app.config.archive.temp_dir.as_deref())
        .await
        .map_err(|err| mcp_results::error(format!("{tool} failed: {what}: {err}")))
}

/// The CircleCI artifact `path` of a job: its URL from the job's artifacts list (every page), fetched.
async fn circleci_artifact(
    app: &App,
    principal: &Principal,
    tool: &str,
    what: &str,
    slug: &str,
    job_number: u64,
    path: &str,
) -> Result<Download, CallToolResult> {
    let circleci = app.circleci.as_ref().map_err(|setup| unusable_client(tool, setup))?;
    let upstream = |err: adapters_circleci::CircleciError| upstream_failure(tool, what, &err, err.status(), err.info());
    let list = format!("project/{slug}/{job_number}/artifacts");
    let mut listed = Vec::new();
    let mut url = None;
    for_each_item(circleci, principal, &list, |item| {
        let item_path = item["path"].as_str().unwrap_or_default();
        if url.is_none() && item_path == path {
            url = item["url"].as_str().map(str::to_owned);
        }
        listed.push(item_path.to_owned());
        url.is_none()
    })
    .await
    .map_err(upstream)?;
    let Some(url) = url else {
        let shown: Vec<&str> = listed.iter().take(20).map(String::as_str).collect();
        let more = listed.len().saturating_sub(shown.len());
        let text = if listed.is_empty() {
            format!("{tool} failed: {what}: the job has no artifacts")
        } else {
            format!(
                "{tool} failed: {what}: the job lists no artifact at that path; its artifacts: {}{}",
                shown.join(", "),
                if more > 0 {
                    format!(" (and {more} more)")
                } else {
                    String::new()
                }
            )
        };
        return Err(mcp_results::coded_error(text, "not_found"));
    };
    circleci.artifact(&url).await.map_err(upstream)
}

/// Calls `visit` with every item of the CircleCI list at `path` (every page, at most [`MAX_PAGES`]; cached in
/// `principal`'s partition, always read fresh) until it answers false.
pub(super) async fn for_each_item(
    circleci: &adapters_circleci::CircleciClient,
    principal: &Principal,
    path: &str,
    mut visit: impl FnMut(&Value) -> bool,
) -> Result<(), adapters_circleci::CircleciError> {
    let mut token: Option<String> = None;
    for _ in 0..MAX_PAGES {
        let query: Vec<(String, String)> = token
            .iter()
            .map(|token| ("page-token".to_owned(), token.clone()))
            .collect();
        let request = GetRequest::new(path, principal.as_str())
            .with_query(&query)
            .with_fresh(true);
        let response = circleci.get(&request).await?;
        let body = response.body.as_data().cloned().unwrap_or(Value::Null);
        for item in body["items"].as_array().into_iter().flatten() {
            if !visit(item) {
                return Ok(());
            }
        }
        token = body["next_page_token"]
            .as_str()
            .filter(|token| !token.is_empty())
            .map(str::to_owned);
        if token.is_none() {
            break;
        }
    }
    Ok(())
}

/// Why a download could not be spooled.
#[derive(Debug, thiserror::Error)]
pub(super) enum SpoolError {
    /// Past the cap.
    #[error("the artifact is larger than {setting} ({limit} bytes); nothing was read from it")]
    TooLarge {
        /// The cap's setting.
        setting: &'static str,
        /// The cap, bytes.
        limit: u64,
    },
    /// Reading the body failed.
    #[error("{0}")]
    Http(#[from] adapters_http::HttpError),
    /// The temporary file failed.
    #[error("the temporary file for the download failed: {0}")]
    Io(#[from] std::io::Error),
}

/// Streams `download`'s body into an unnamed temporary file in `dir` (the system's when `None`), at most `cap`
/// bytes.
async fn spool(
    mut download: Download,
    cap: u64,
    setting: &'static str,
    dir: Option<&std::path::Path>,
) -> Result<Spooled, SpoolError> {
    let file = match dir {
        Some(dir) => tempfile::tempfile_in(dir)?,
        None => tempfile::tempfile()?,
    };
    let mut out = tokio::fs::File::from_std(file);
    let mut bytes: u64 = 0;
    while let Some(chunk) = download.chunk().await? {
        bytes = bytes.saturating_add(chunk.len() as u64);
        if bytes > cap {
            return Err(SpoolError::TooLarge { setting, limit: cap });
        }
        out.write_all(&chunk).await?;
    }
    out.flush().await?;
    let mut file = out.into_std().await;
    std::io::Seek::rewind(&mut file)?;
    Ok(Spooled { file, bytes })
}
