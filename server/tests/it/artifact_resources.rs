//! Artifacts as MCP resources through the whole chain (CONTRACT §5): the `resource_link` block of an oversized
//! result, `resources/read` of its `artifact://` URI (byte for byte what `artifact_read` gives, for its owner only),
//! `resources/templates/list`, and no resources at all with the structured-output switch off.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::http::{HttpServer, tokens_file};
use recorded_upstream::RecordedUpstream;
use rmcp::RoleClient;
use rmcp::model::{CacheScope, ErrorCode, ReadResourceRequestParams, ResourceContents};
use rmcp::service::{RunningService, ServiceError};
use serde_json::json;

const ALICE: &str = "alice-token-4c0e19";
const BOB: &str = "bob-token-77d2a0";

/// `github_list_workflow_runs` over a 16 KiB bound: an oversized result, saved as a JSON artifact.
async fn oversized(client: &RunningService<RoleClient, ()>) -> (String, rmcp::model::Resource) {
    let args = json!({"owner": "octo-org", "repo": "octo-repo"});
    let result = common::call(client, "github_list_workflow_runs", args).await;
    assert_eq!(result.is_error, Some(false));
    let sc = result.structured_content.as_ref().unwrap();
    let id = sc["incomplete"]["artifactId"].as_str().expect("an artifact").to_owned();
    let links: Vec<_> = result.content.iter().filter_map(|c| c.as_resource_link()).collect();
    assert_eq!(links.len(), 1, "one resource_link block: {:?}", result.content);
    assert!(result.content[0].as_text().is_some(), "the text block stays first");
    (id, links[0].clone())
}

/// The artifact's bytes through `artifact_read`.
async fn artifact_read(client: &RunningService<RoleClient, ()>, id: &str) -> Vec<u8> {
    common::faults::read_artifact(client, id)
        .await
        .expect("artifact_read reads it")
}

async fn read(
    client: &RunningService<RoleClient, ()>,
    uri: &str,
) -> Result<rmcp::model::ReadResourceResult, ServiceError> {
    client.read_resource(ReadResourceRequestParams::new(uri)).await
}

#[tokio::test]
async fn stdio_owner_reads_the_linked_artifact_byte_for_byte_and_the_template_is_listed() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let env = common::server_env(
        &upstream.uri(),
        &[("MCP_STRUCTURED_OUTPUT", "true"), ("MCP_STRUCTURED_MAX_BYTES", "16384")],
    );
    let client = common::connect(env).await;
    let capabilities = &client.peer_info().unwrap().capabilities;
    assert!(
        capabilities.resources.is_some(),
        "resources capability with the switch on"
    );

    let (id, link) = oversized(&client).await;
    assert_eq!(link.uri, format!("artifact://{id}"));
    assert_eq!(link.mime_type.as_deref(), Some("application/json"));
    let expected = artifact_read(&client, &id).await;
    assert_eq!(link.size, Some(expected.len() as u64));

    let result = read(&client, &link.uri).await.unwrap();
    assert_eq!(result.contents.len(), 1);
    match &result.contents[0] {
        ResourceContents::TextResourceContents {
            uri, mime_type, text, ..
        } => {
            assert_eq!(uri, &link.uri);
            assert_eq!(mime_type.as_deref(), Some("application/json"));
            assert_eq!(
                text.as_bytes(),
                expected.as_slice(),
                "resources/read == artifact_read, byte for byte"
            );
        }
        other => panic!("a JSON artifact is read as text: {other:?}"),
    }

    // Cache hints (MCP 2026-07-28 "Caching"): a read is the caller's own, the template list everyone's.
    assert_eq!(result.cache_scope, Some(CacheScope::Private));
    assert_eq!(result.ttl_ms, Some(60_000));

    // The same bytes in two ranges of the URI template: the first ends where the second starts (_meta.nextOffset).
    let half = expected.len() / 2;
    let first = read(&client, &format!("{}?maxBytes={half}", link.uri)).await.unwrap();
    let first_meta = serde_json::to_value(&first.contents[0]).unwrap();
    assert_eq!(first_meta["_meta"]["nextOffset"], half);
    assert_eq!(first_meta["_meta"]["eof"], false);
    let second = read(&client, &format!("{}?offset={half}", link.uri)).await.unwrap();
    let second_meta = serde_json::to_value(&second.contents[0]).unwrap();
    assert_eq!(second_meta["_meta"]["eof"], true);
    let ranges = format!(
        "{}{}",
        first_meta["text"].as_str().unwrap(),
        second_meta["text"].as_str().unwrap()
    );
    assert_eq!(ranges.as_bytes(), expected.as_slice(), "two ranges == artifact_read");

    let templates = client.list_resource_templates(None).await.unwrap();
    assert_eq!(templates.cache_scope, Some(CacheScope::Public));
    assert_eq!(templates.ttl_ms, Some(3_600_000));
    let templates = templates.resource_templates;
    assert_eq!(templates.len(), 1);
    assert_eq!(templates[0].uri_template, "artifact://{artifactId}{?offset,maxBytes}");
    assert!(
        client.list_all_resources().await.unwrap().is_empty(),
        "artifacts are not listed"
    );

    let unknown = read(&client, &format!("artifact://{}", "0".repeat(32)))
        .await
        .unwrap_err();
    let ServiceError::McpError(unknown) = unknown else {
        panic!("{unknown:?}")
    };
    assert_eq!(unknown.message, "Artifact not found or expired");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn switch_off_no_capability_no_links_no_resources() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let env = common::server_env(&upstream.uri(), &[("MCP_STRUCTURED_MAX_BYTES", "16384")]);
    let client = common::connect(env).await;
    assert!(
        client.peer_info().unwrap().capabilities.resources.is_none(),
        "no resources capability with the switch off"
    );
    // A binary body is saved as an artifact even with the switch off: still no link.
    let args = json!({"path": "/repos/octo-org/octo-repo/actions/artifacts/28026001465/zip"});
    let result = common::call(&client, "github_get", args).await;
    assert_eq!(result.is_error, Some(false));
    assert!(
        result.content.iter().all(|c| c.as_resource_link().is_none()),
        "{:?}",
        result.content
    );
    let err = read(&client, "artifact://00000000000000000000000000000000")
        .await
        .unwrap_err();
    let ServiceError::McpError(err) = err else {
        panic!("{err:?}")
    };
    assert_eq!(err.code, ErrorCode::METHOD_NOT_FOUND);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn http_another_principal_gets_not_found() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let tokens = tokens_file(&dir, &[(ALICE, "alice"), (BOB, "bob")]);
    let env = common::server_env(
        &upstream.uri(),
        &[("MCP_STRUCTURED_OUTPUT", "true"), ("MCP_STRUCTURED_MAX_BYTES", "16384")],
    );
    let server = HttpServer::start(env, &["--tokens-file", tokens.to_str().unwrap()], dir).await;
    let alice = server.client(ALICE).await;
    let bob = server.client(BOB).await;
    let (id, link) = oversized(&alice).await;
    let expected = artifact_read(&alice, &id).await;
    match &read(&alice, &link.uri).await.unwrap().contents[0] {
        ResourceContents::TextResourceContents { text, .. } => assert_eq!(text.as_bytes(), expected.as_slice()),
        other => panic!("{other:?}"),
    }
    let unknown = read(&bob, &format!("artifact://{}", "0".repeat(32))).await.unwrap_err();
    let other = read(&bob, &link.uri).await.unwrap_err();
    // The URI is a handle, not a credential: a ranged read of another's artifact is not found either.
    let ranged = read(&bob, &format!("{}?offset=0&maxBytes=10", link.uri))
        .await
        .unwrap_err();
    let (ServiceError::McpError(unknown), ServiceError::McpError(other), ServiceError::McpError(ranged)) =
        (unknown, other, ranged)
    else {
        panic!("JSON-RPC errors expected")
    };
    assert_eq!((ranged.code, &ranged.message), (unknown.code, &unknown.message));
    assert_eq!(other.message, "Artifact not found or expired");
    assert_eq!(
        (other.code, &other.message),
        (unknown.code, &unknown.message),
        "another's id reads as an unknown one"
    );
    alice.cancel().await.unwrap();
    bob.cancel().await.unwrap();
}
