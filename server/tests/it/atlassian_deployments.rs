//! Issue 44, points 2 and 6: the Data Center recipe of docs/server.md ("Atlassian Data Center and Server") through the
//! binary: its settings, read from the environment, reach `recorded_upstream::atlassian_dc` (Jira, Confluence and
//! Bitbucket Data Center answering only the access token) for each product; `--print-config` masks the tokens and
//! shows the deployments; a deployment that is neither stops start-up naming the setting.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{call, server_env, text};
use recorded_upstream::RecordedUpstream;
use recorded_upstream::atlassian_dc::DC_TOKEN;
use serde_json::json;

/// The recipe's settings, with the bases on `uri` (each product under its context path).
fn recipe(uri: &str) -> Vec<(String, String)> {
    let jira = format!("{uri}/jira");
    let confluence = format!("{uri}/confluence");
    let bitbucket = format!("{uri}/bitbucket");
    server_env(
        uri,
        &[
            ("MCP_STRUCTURED_OUTPUT", "true"),
            ("JIRA_DEPLOYMENT", "data-center"),
            ("JIRA_BASE_URL", &jira),
            ("JIRA_PERSONAL_TOKEN", DC_TOKEN),
            ("CONFLUENCE_DEPLOYMENT", "data-center"),
            ("CONFLUENCE_BASE_URL", &confluence),
            ("CONFLUENCE_PERSONAL_TOKEN", DC_TOKEN),
            ("BITBUCKET_DEPLOYMENT", "data-center"),
            ("BITBUCKET_BASE_URL", &bitbucket),
            ("BITBUCKET_ACCESS_TOKEN", DC_TOKEN),
        ],
    )
}

#[tokio::test]
async fn the_data_center_recipe_reaches_each_product_with_its_token() {
    let upstream = RecordedUpstream::atlassian_data_center().await.unwrap();
    let client = common::connect(recipe(&upstream.uri())).await;
    for (tool, path, pointer, expected) in [
        ("jira_get", "/rest/api/2/issue/EX-1", "/data/key", json!("EX-1")),
        ("conf_get", "/rest/api/content/1234", "/data/id", json!("1234")),
        (
            "bb_get",
            "/projects/PRJ/repos/my-repo/pull-requests/1",
            "/data/title",
            json!("Talking Nerdy"),
        ),
    ] {
        let result = call(&client, tool, json!({"path": path})).await;
        assert_ne!(result.is_error, Some(true), "{tool}: {}", text(&result));
        let value = result.structured_content.clone().expect("structuredContent");
        assert_eq!(value.pointer(pointer), Some(&expected), "{tool}: {value}");
        assert!(!text(&result).contains(DC_TOKEN));
    }
    client.cancel().await.unwrap();
    let requests = upstream.server().received_requests().await.unwrap();
    assert_eq!(requests.len(), 3);
    for request in requests {
        let auth = request.headers.get("authorization").unwrap().to_str().unwrap();
        assert_eq!(auth, format!("Bearer {DC_TOKEN}"), "{}", request.url);
    }
}

#[tokio::test]
async fn print_config_masks_the_tokens_and_a_wrong_deployment_stops_start_up() {
    let env = recipe("http://127.0.0.1:9");
    let output = tokio::process::Command::new(common::BIN)
        .env_clear()
        .envs(env.clone())
        .arg("--print-config")
        .output()
        .await
        .unwrap();
    let printed = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{printed}");
    for line in [
        "JIRA_DEPLOYMENT = data-center  # env",
        "JIRA_PERSONAL_TOKEN = ***",
        "CONFLUENCE_PERSONAL_TOKEN = ***",
        "BITBUCKET_ACCESS_TOKEN = ***",
    ] {
        assert!(printed.contains(line), "missing {line:?} in:\n{printed}");
    }
    assert!(!printed.contains(DC_TOKEN), "{printed}");

    let output = tokio::time::timeout(
        std::time::Duration::from_secs(20),
        tokio::process::Command::new(common::BIN)
            .env_clear()
            .envs(env)
            .env("BITBUCKET_DEPLOYMENT", "on-premises")
            .stdin(std::process::Stdio::null())
            .output(),
    )
    .await
    .expect("start-up stops instead of serving")
    .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("BITBUCKET_DEPLOYMENT: `on-premises` is not a deployment: use cloud or data-center"),
        "{stderr}"
    );
}
