//! The official TypeScript and Python MCP SDK clients drive the binary through every case in
//! `clients/cases.json` and must accept every result (they validate `structuredContent` against
//! `outputSchema` themselves). The upstream serves the GitHub scenario, the CircleCI one (under `/api/v2`) and the Atlassian one.
//! `scripts/test` installs both SDKs (npm ci; a venv from the pinned requirements).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;

use recorded_upstream::RecordedUpstream;

fn clients_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../clients")
}

async fn run(program: &Path, script: &Path, upstream: &str) -> Output {
    tokio::process::Command::new(program)
        .arg(script)
        .env("MCP_DEVTOOLS_BIN", common::BIN)
        .env("UPSTREAM_URL", upstream)
        .env_remove("GITHUB_TOKEN")
        .env_remove("CIRCLECI_TOKEN")
        .env_remove("ATLASSIAN_API_TOKEN")
        .env_remove("ATLASSIAN_BITBUCKET_APP_PASSWORD")
        .output()
        .await
        .unwrap_or_else(|err| {
            panic!(
                "cannot run {}: {err} (run scripts/test, which installs the clients)",
                program.display()
            )
        })
}

fn report(name: &str, output: &Output) {
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{name} client failed:\n{stdout}\n{stderr}");
    assert!(
        stdout.contains(" passed, 0 failed"),
        "{name} client ran no cases:\n{stdout}"
    );
}

#[tokio::test]
async fn typescript_sdk_client_accepts_every_result() {
    let dir = clients_dir().join("ts");
    assert!(
        dir.join("node_modules/@modelcontextprotocol/sdk").exists(),
        "run scripts/test first: it runs npm ci in {}",
        dir.display()
    );
    let upstream = RecordedUpstream::github().await.unwrap();
    upstream.mount_circleci().await.unwrap();
    upstream.mount_atlassian().await.unwrap();
    let output = run(Path::new("node"), &dir.join("run.mjs"), &upstream.uri()).await;
    report("TypeScript SDK", &output);
}

#[tokio::test]
async fn python_sdk_client_accepts_every_result() {
    let dir = clients_dir().join("python");
    let python = dir.join(".venv/bin/python");
    assert!(
        python.exists(),
        "run scripts/test first: it creates {}",
        python.display()
    );
    let upstream = RecordedUpstream::github().await.unwrap();
    upstream.mount_circleci().await.unwrap();
    upstream.mount_atlassian().await.unwrap();
    let output = run(&python, &dir.join("run.py"), &upstream.uri()).await;
    report("Python SDK", &output);
}
