//! A local fake upstream for tests and examples: a [`wiremock`] server on 127.0.0.1 that serves the recorded vendor
//! responses in `fixtures/` (embedded at compile time, so it works from any working directory).
//!
//! [`RecordedUpstream::github`] mounts a GitHub Actions scenario (see [`github`]), [`RecordedUpstream::circleci`] a
//! CircleCI one (under `/api/v2`, see [`circleci`]), [`RecordedUpstream::atlassian`] the Jira, Confluence and
//! Bitbucket one (see [`atlassian`]), and [`RecordedUpstream::all`] all three on one server, where they tell one
//! consistent story (the GitHub runs' commits have CircleCI pipelines and name Jira issues). Tests mount their own
//! routes on [`RecordedUpstream::server`] with [`fixture`] responses when they need something else. The
//! job logs and CircleCI step output come from another origin, [`RecordedUpstream::downloads`] (see [`logs`]). The
//! `recorded-upstream` binary serves [`RecordedUpstream::all`] and prints [`RecordedUpstream::env`].

pub mod atlassian;
pub mod atlassian_dc;
#[cfg(feature = "check")]
pub mod check;
pub mod circleci;
pub mod circleci_job;
mod fixture;
pub mod github;
pub mod live;
pub mod logs;
mod runs;

pub use fixture::{Fixture, fixture, names};
pub use wiremock;

use wiremock::MockServer;

/// A running fake upstream. Dropping it stops the server.
pub struct RecordedUpstream {
    server: MockServer,
    /// Another origin that serves what the API hands out (job logs, step output), never with a credential.
    downloads: MockServer,
}

impl RecordedUpstream {
    /// Starts an empty fake upstream on 127.0.0.1 (a random free port).
    pub async fn start() -> Self {
        let downloads = MockServer::start().await;
        logs::guard(&downloads).await;
        Self {
            server: MockServer::start().await,
            downloads,
        }
    }

    /// Starts a fake upstream serving the GitHub Actions scenario described in the `github` module.
    ///
    /// # Errors
    /// A fixture that does not load (a build defect).
    pub async fn github() -> anyhow::Result<Self> {
        let upstream = Self::start().await;
        github::mount(&upstream.server).await?;
        logs::mount_github(&upstream.server, &upstream.downloads).await?;
        Ok(upstream)
    }

    /// Starts a fake upstream serving the CircleCI scenario described in [`circleci`] (base `<uri>/api/v2`).
    ///
    /// # Errors
    /// A fixture that does not load (a build defect).
    pub async fn circleci() -> anyhow::Result<Self> {
        let upstream = Self::start().await;
        upstream.mount_circleci().await?;
        Ok(upstream)
    }

    /// Adds the CircleCI scenario (paths under `/api/v2`) to this upstream, e.g. beside the GitHub one.
    ///
    /// # Errors
    /// A fixture that does not load (a build defect).
    pub async fn mount_circleci(&self) -> anyhow::Result<()> {
        circleci::mount(&self.server).await?;
        circleci_job::mount(&self.server, &self.downloads).await?;
        logs::mount_circleci(&self.server, &self.downloads).await
    }

    /// Starts a fake upstream serving the Atlassian scenario described in [`atlassian`] (Jira and Bitbucket base
    /// `<uri>`, Confluence base `<uri>/wiki`).
    ///
    /// # Errors
    /// A fixture that does not load (a build defect).
    pub async fn atlassian() -> anyhow::Result<Self> {
        let upstream = Self::start().await;
        upstream.mount_atlassian().await?;
        Ok(upstream)
    }

    /// Starts a fake upstream serving the Atlassian Data Center scenario described in [`atlassian_dc`] (Jira at
    /// `<uri>/jira`, Confluence at `<uri>/confluence`, Bitbucket at `<uri>/bitbucket`).
    ///
    /// # Errors
    /// A fixture that does not load (a build defect).
    pub async fn atlassian_data_center() -> anyhow::Result<Self> {
        let upstream = Self::start().await;
        atlassian_dc::mount(&upstream.server).await?;
        Ok(upstream)
    }

    /// Adds the Atlassian scenario to this upstream, e.g. beside the GitHub and CircleCI ones.
    ///
    /// # Errors
    /// A fixture that does not load (a build defect).
    pub async fn mount_atlassian(&self) -> anyhow::Result<()> {
        atlassian::mount(&self.server).await
    }

    /// Starts a fake upstream serving every scenario at once (GitHub, CircleCI under `/api/v2`, Jira and Bitbucket
    /// at the root, Confluence under `/wiki`). Their data agree: the CircleCI pipelines and the per-run GitHub jobs
    /// are derived from the same runs (same commit SHAs), and the Jira keys the runs' commit messages name are
    /// served by Jira (`EX-404`, named once, is missing on purpose).
    ///
    /// # Errors
    /// A fixture that does not load (a build defect).
    pub async fn all() -> anyhow::Result<Self> {
        let upstream = Self::github().await?;
        upstream.mount_circleci().await?;
        upstream.mount_atlassian().await?;
        Ok(upstream)
    }

    /// The settings that point the `mcp-devtools` server at this upstream, as (name, value) pairs: the base URLs of
    /// every vendor and placeholder credentials (this upstream does not check them, except the GitHub token
    /// `bad-token`, which gets a 401).
    pub fn env(&self) -> Vec<(&'static str, String)> {
        let uri = self.uri();
        vec![
            ("GITHUB_API_BASE", uri.clone()),
            ("GITHUB_TOKEN", "recorded-upstream-token".into()),
            ("CIRCLECI_API_BASE", format!("{uri}/api/v2")),
            ("CIRCLECI_TOKEN", "recorded-upstream-token".into()),
            ("JIRA_BASE_URL", uri.clone()),
            ("CONFLUENCE_BASE_URL", format!("{uri}/wiki")),
            ("BITBUCKET_BASE_URL", uri),
            ("ATLASSIAN_USER_EMAIL", "mia@example.com".into()),
            ("ATLASSIAN_API_TOKEN", "recorded-upstream-token".into()),
        ]
    }

    /// The base URL, e.g. `http://127.0.0.1:41234` (no trailing slash).
    pub fn uri(&self) -> String {
        self.server.uri()
    }

    /// The downloads server: another origin (another 127.0.0.1 port) serving what the API hands out (GitHub job
    /// logs behind a `302`, CircleCI step output), which answers `403` to a credential and then fails the test
    /// when dropped ([`logs`]). Mount more handed-out bodies on it.
    pub fn downloads(&self) -> &MockServer {
        &self.downloads
    }

    /// The underlying wiremock server, to mount more routes or inspect received requests.
    pub fn server(&self) -> &MockServer {
        &self.server
    }
}
