//! Toolsets and read-only mode (CONTRACT §11), the settings of the binary: the flags `--toolsets` and `--read-only`
//! narrow `tools/list` as `MCP_TOOLSETS` and `MCP_READ_ONLY` do, an unknown toolset stops start-up naming the
//! setting, `--help` and `--print-config` show them, and the start-up log names the vendors and toolsets. What a
//! selection lists and refuses is tested in-process beside the tools (`mcp-devtools-tools/tests/it/toolsets.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{BIN, call, server_env, text};
use recorded_upstream::RecordedUpstream;
use serde_json::json;

async fn names(client: &rmcp::service::RunningService<rmcp::RoleClient, ()>) -> Vec<String> {
    let tools = client.list_all_tools().await.expect("tools/list");
    tools.iter().map(|tool| tool.name.to_string()).collect()
}

fn env(upstream: &RecordedUpstream) -> Vec<(String, String)> {
    let mut env = server_env(&upstream.uri(), &[]);
    for (name, value) in upstream.env() {
        if name != "GITHUB_TOKEN" {
            env.retain(|(k, _)| k != name);
            env.push((name.to_owned(), value));
        }
    }
    env
}

#[tokio::test]
async fn flags_select_too() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let command = tokio::process::Command::new(BIN);
    let mut command = command;
    command
        .args(["--toolsets", "bitbucket", "--read-only"])
        .env_clear()
        .envs(env(&upstream));
    let client = rmcp::ServiceExt::serve((), rmcp::transport::TokioChildProcess::new(command).unwrap())
        .await
        .unwrap();
    assert_eq!(names(&client).await, ["artifact_read", "bb_get"]);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn an_unknown_toolset_stops_start_up_naming_the_setting() {
    let output = tokio::process::Command::new(BIN)
        .env_clear()
        .envs(server_env("http://127.0.0.1:9", &[("MCP_TOOLSETS", "github,gitlab")]))
        .stdin(std::process::Stdio::null())
        .output()
        .await
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("MCP_TOOLSETS=\"github,gitlab\": unknown toolset \"gitlab\""),
        "{stderr}"
    );
}

#[tokio::test]
async fn help_and_print_config_show_the_settings() {
    let help = tokio::process::Command::new(BIN).arg("--help").output().await.unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    for needle in ["--toolsets", "MCP_TOOLSETS", "--read-only", "MCP_READ_ONLY"] {
        assert!(help.contains(needle), "{needle} missing from --help");
    }
    let printed = tokio::process::Command::new(BIN)
        .args(["--print-config", "--read-only"])
        .env_clear()
        .envs(server_env(
            "http://127.0.0.1:9",
            &[("MCP_TOOLSETS", "github"), ("HOME", "/nonexistent-home")],
        ))
        .output()
        .await
        .unwrap();
    let printed = String::from_utf8_lossy(&printed.stdout);
    assert!(printed.contains("MCP_TOOLSETS = github  # env"), "{printed}");
    assert!(printed.contains("MCP_READ_ONLY = true  # flag"), "{printed}");
    // Resolved paths, not placeholders.
    assert!(!printed.contains("<platform"), "{printed}");
    assert!(printed.contains("# config file: (none; looked for "), "{printed}");
}

/// Logs a person can act on: one start-up line naming the vendors with credentials and the
/// toolsets; a call without a credential logs "no request sent: set X", not "upstream call failed".
#[tokio::test]
async fn logs_name_the_vendors_toolsets_and_missing_credentials() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let mut env = server_env(
        &upstream.uri(),
        &[
            ("RUST_LOG", "info"),
            ("MCP_TOOLSETS", "github,circleci"),
            ("CIRCLECI_TOKEN", "test-circleci-token"),
        ],
    );
    env.retain(|(name, _)| name != "GITHUB_TOKEN");
    let dir = tempfile::tempdir().unwrap();
    let mut server = common::http::HttpServer::start(env, &["--no-auth"], dir).await;
    let client = server.client("unused").await;
    let result = call(&client, "github_list_workflow_runs", json!({"owner": "o", "repo": "r"})).await;
    assert_eq!(result.is_error, Some(true));
    assert!(text(&result).contains("GITHUB_TOKEN is not set"), "{}", text(&result));
    client.cancel().await.unwrap();
    server.terminate().await;
    let logs = server.logs();
    assert!(
        // `ci` reads through CircleCI's (or GitHub's) credentials: configured with either.
        logs.contains("vendors with credentials: circleci,ci; toolsets: github,circleci"),
        "{logs}"
    );
    assert!(logs.contains("no request sent: set GITHUB_TOKEN"), "{logs}");
    assert!(!logs.contains("upstream call failed"), "{logs}");
    assert!(!logs.contains("test-circleci-token"), "{logs}");
}
