//! The official TypeScript and Python MCP SDK clients, each in its v1 and v2 major (`@modelcontextprotocol/sdk`
//! 1.x and `@modelcontextprotocol/client` 2.x; `mcp` 1.x and 2.x), drive the binary through every case in
//! `clients/cases.json` and must accept every result (they validate `structuredContent` against `outputSchema`
//! themselves) and read every linked artifact with `resources/read`; the MCP Inspector's CLI calls a tool whose
//! result links an artifact and reads it. The upstream serves the GitHub scenario, the CircleCI one (under
//! `/api/v2`) and the Atlassian one. `scripts/test` installs them (npm ci; venvs from the pinned requirements).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;

use recorded_upstream::RecordedUpstream;
use serde_json::json;

fn clients_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../clients")
}

async fn run(program: &Path, script: &Path, upstream: &str, env: &[(&str, &str)]) -> Output {
    tokio::process::Command::new(program)
        .arg(script)
        .envs(env.iter().copied())
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

/// The recorded upstream of every case: GitHub, CircleCI and Atlassian.
async fn upstream() -> RecordedUpstream {
    let upstream = RecordedUpstream::github().await.unwrap();
    upstream.mount_circleci().await.unwrap();
    upstream.mount_atlassian().await.unwrap();
    upstream
}

/// Runs `clients/ts/run.mjs` with TypeScript SDK major `sdk` (`v1` or `v2`).
async fn typescript(sdk: &str) {
    let dir = clients_dir().join("ts");
    assert!(
        dir.join("node_modules/@modelcontextprotocol/sdk").exists() && dir.join("node_modules/mcp-client-v2").exists(),
        "run scripts/test first: it runs npm ci in {}",
        dir.display()
    );
    let upstream = upstream().await;
    let output = run(
        Path::new("node"),
        &dir.join("run.mjs"),
        &upstream.uri(),
        &[("MCP_TS_SDK", sdk)],
    )
    .await;
    report(&format!("TypeScript SDK {sdk}"), &output);
}

#[tokio::test]
async fn typescript_sdk_client_accepts_every_result() {
    typescript("v1").await;
}

#[tokio::test]
async fn typescript_sdk_v2_client_accepts_every_result() {
    typescript("v2").await;
}

/// Runs `clients/python/run.py` with the Python of `venv` (under `clients/python`).
async fn python(venv: &str) {
    let dir = clients_dir().join("python");
    let python = dir.join(venv).join("bin/python");
    assert!(
        python.exists(),
        "run scripts/test first: it creates {}",
        python.display()
    );
    let upstream = upstream().await;
    let output = run(&python, &dir.join("run.py"), &upstream.uri(), &[]).await;
    report(&format!("Python SDK ({venv})"), &output);
}

#[tokio::test]
async fn python_sdk_client_accepts_every_result() {
    python(".venv").await;
}

#[tokio::test]
async fn python_sdk_v1_client_accepts_every_result() {
    python("v1/.venv").await;
}

/// One run of the MCP Inspector's CLI (`mcp-inspector --cli`) against a fresh server with `env`: its JSON output.
async fn inspector(env: &[(String, String)], method_args: &[&str]) -> serde_json::Value {
    let cli = clients_dir().join("ts/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");
    assert!(cli.exists(), "run scripts/test first: it runs npm ci in clients/ts");
    let mut command = tokio::process::Command::new("node");
    command.arg(&cli).arg("--cli");
    for (key, value) in env {
        command.arg("-e").arg(format!("{key}={value}"));
    }
    let output = command
        .arg(common::BIN)
        .arg("--method")
        .args(method_args)
        .output()
        .await
        .expect("node runs the Inspector CLI");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "Inspector CLI {method_args:?} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_str(&stdout).unwrap_or_else(|err| panic!("Inspector CLI output is not JSON ({err}): {stdout}"))
}

#[tokio::test]
async fn inspector_cli_accepts_a_linked_result_and_reads_the_artifact() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    // Each CLI run starts its own server: the artifact outlives the first in a file store.
    let env = common::server_env(
        &upstream.uri(),
        &[
            ("MCP_STRUCTURED_OUTPUT", "true"),
            ("MCP_STRUCTURED_MAX_BYTES", "16384"),
            ("STREAMING_ARTIFACT_STORE", "fs"),
            ("STREAMING_ARTIFACT_DIR", dir.path().to_str().unwrap()),
        ],
    );
    let env: Vec<_> = env.into_iter().filter(|(key, _)| key != "PATH").collect();
    let result = inspector(
        &env,
        &[
            "tools/call",
            "--tool-name",
            "github_list_workflow_runs",
            "--tool-arg",
            "owner=octo-org",
            "--tool-arg",
            "repo=octo-repo",
        ],
    )
    .await;
    let incomplete = &result["structuredContent"]["incomplete"];
    let id = incomplete["artifactId"].as_str().expect("an oversized result");
    let link = &result["content"][1];
    assert_eq!(link["type"], "resource_link", "{result}");
    assert_eq!(link["uri"], format!("artifact://{id}"));
    assert_eq!(link["size"], incomplete["bytes"]);

    let uri = link["uri"].as_str().unwrap();
    let whole = inspector(&env, &["resources/read", "--uri", uri]).await;
    let text = whole["contents"][0]["text"]
        .as_str()
        .expect("a JSON artifact reads as text");
    assert_eq!(Some(text.len() as u64), link["size"].as_u64());
    let envelope: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(envelope["data"]["total_count"], 593, "the whole envelope");
    assert_eq!(
        (&whole["cacheScope"], &whole["ttlMs"]),
        (&json!("private"), &json!(60_000))
    );

    let range = inspector(
        &env,
        &["resources/read", "--uri", &format!("{uri}?offset=0&maxBytes=100")],
    )
    .await;
    let part = &range["contents"][0];
    assert_eq!(
        part["_meta"],
        json!({"offset": 0, "nextOffset": 100, "totalBytes": link["size"], "eof": false})
    );
    assert_eq!(part["text"].as_str().unwrap(), &text[..100]);
}
