//! Oversized values (CONTRACT §5): over the bound the result is the incomplete form, and `artifact_read` rebuilds
//! the exact bytes, with a chunk boundary inside a multibyte character.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use base64::Engine;
use common::{assert_valid, call, connect, fixture_json, github_config, repo_args, text};
use mcp_devtools_tools::{ArtifactBackend, ToolsConfig};
use recorded_upstream::RecordedUpstream;
use recorded_upstream::wiremock::matchers::{method, path};
use recorded_upstream::wiremock::{Mock, ResponseTemplate};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

const TITLE: &str = "Übergröße 🚀 naïve café — 漢字";

/// The 48 KB runs page with one multibyte display title, served with the recorded headers (Link: next page 2).
async fn upstream_with_multibyte_page() -> (RecordedUpstream, Value) {
    let upstream = RecordedUpstream::start().await;
    let mut body = fixture_json("github/actions-runs");
    body["workflow_runs"][0]["display_title"] = json!(TITLE);
    let fixture = recorded_upstream::fixture("github/actions-runs").unwrap();
    let response = fixture
        .headers
        .iter()
        .fold(ResponseTemplate::new(200), |r, (k, v)| {
            r.append_header(k.as_str(), v.as_str())
        })
        .set_body_bytes(serde_json::to_vec(&body).unwrap());
    Mock::given(method("GET"))
        .and(path("/repos/octo-org/octo-repo/actions/runs"))
        .respond_with(response)
        .mount(upstream.server())
        .await;
    (upstream, body)
}

#[tokio::test]
async fn over_the_bound_goes_to_an_artifact_that_reads_back_exactly() {
    let (upstream, body) = upstream_with_multibyte_page().await;
    let expected = serde_json::to_vec(&json!({"data": body, "nextPage": 2})).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let dir_path = dir.path().to_str().unwrap().to_string();
    let config = github_config(&upstream.uri())
        .with_structured_output(true)
        .with_artifact_backend(ArtifactBackend::Fs(dir.path().to_owned()));
    let client = connect(common::with_max_bytes(config, 16384)).await;
    let tools = client.list_all_tools().await.unwrap();
    let runs_tool = tools.iter().find(|t| t.name == "github_list_workflow_runs").unwrap();
    let chunk_tool = tools.iter().find(|t| t.name == "artifact_read").unwrap();

    let result = call(&client, "github_list_workflow_runs", repo_args("octo-repo", json!({}))).await;
    let structured = result.structured_content.clone().expect("structuredContent");
    assert_valid(runs_tool, &structured);
    assert_eq!(structured["data"], Value::Null);
    assert_eq!(structured["nextPage"], json!(2));
    let incomplete = &structured["incomplete"];
    assert_eq!(incomplete["reason"], "size");
    assert_eq!(incomplete["bytes"].as_u64(), Some(expected.len() as u64));
    assert_eq!(incomplete["limitBytes"], json!(16384));
    let artifact_id = incomplete["artifactId"].as_str().expect("an artifact id").to_string();
    assert!(
        !structured.to_string().contains(&dir_path),
        "no filesystem path in structuredContent"
    );
    assert!(
        text(&result).contains(TITLE),
        "the text block is rendered from the full value"
    );

    // A chunk size that puts the first boundary inside the 4-byte rocket.
    let rocket = expected.windows(4).position(|w| w == "🚀".as_bytes()).unwrap();
    let max_bytes = (rocket + 2) as u64;
    let mut rebuilt = Vec::new();
    let mut offset = 0u64;
    let mut boundary_inside_char = false;
    loop {
        let chunk = call(
            &client,
            "artifact_read",
            json!({"artifactId": artifact_id, "offset": offset, "maxBytes": max_bytes}),
        )
        .await;
        assert_ne!(chunk.is_error, Some(true), "{}", text(&chunk));
        let chunk = chunk.structured_content.expect("structured chunk");
        assert_valid(chunk_tool, &chunk);
        assert_eq!(chunk["offset"].as_u64(), Some(offset));
        assert_eq!(chunk["encoding"], "base64");
        assert_eq!(chunk["mimeType"], "application/json");
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(chunk["data"].as_str().unwrap())
            .unwrap();
        let next = chunk["nextOffset"].as_u64().unwrap();
        assert_eq!(
            bytes.len() as u64,
            next - offset,
            "each chunk decodes alone to [offset, nextOffset)"
        );
        boundary_inside_char |= std::str::from_utf8(&bytes).is_err();
        rebuilt.extend_from_slice(&bytes);
        offset = next;
        assert_eq!(
            chunk["eof"].as_bool(),
            Some(next == chunk["totalBytes"].as_u64().unwrap())
        );
        if chunk["eof"] == json!(true) {
            break;
        }
    }
    assert!(
        boundary_inside_char,
        "a chunk boundary fell inside a multibyte character"
    );
    assert_eq!(Sha256::digest(&rebuilt), Sha256::digest(&expected), "same SHA-256");

    // The artifact holds exactly what an inline structuredContent would have been.
    let past_end = call(
        &client,
        "artifact_read",
        json!({"artifactId": artifact_id, "offset": expected.len() as u64 + 1}),
    )
    .await;
    assert_eq!(past_end.is_error, Some(true));
    let unknown = call(
        &client,
        "artifact_read",
        json!({"artifactId": "ffffffffffffffffffffffffffffffff"}),
    )
    .await;
    assert_eq!(text(&unknown), "Artifact not found or expired");
    let traversal = call(&client, "artifact_read", json!({"artifactId": "../../etc/passwd"})).await;
    assert_eq!(text(&traversal), text(&unknown), "malformed ids look like unknown ones");
    client.cancel().await.unwrap();

    let wide = connect(github_config(&upstream.uri()).with_structured_output(true)).await;
    let inline = call(&wide, "github_list_workflow_runs", repo_args("octo-repo", json!({}))).await;
    assert_eq!(
        serde_json::to_vec(&inline.structured_content.unwrap()).unwrap(),
        expected
    );
    wide.cancel().await.unwrap();
}

/// The truncated text (pretty JSON of the 48 KB page, over the 40,000-byte text limit) of an oversized result: the
/// result's `outputFormat: "json"` call with the config `more` makes, and its `incomplete.artifactId`.
async fn oversized_text(more: impl FnOnce(ToolsConfig) -> ToolsConfig) -> (String, Value) {
    let upstream = RecordedUpstream::github().await.unwrap();
    let config = common::with_max_bytes(github_config(&upstream.uri()).with_structured_output(true), 16384);
    let client = connect(more(config)).await;
    let args = repo_args("octo-repo", json!({"outputFormat": "json"}));
    let result = call(&client, "github_list_workflow_runs", args).await;
    client.cancel().await.unwrap();
    let structured = result.structured_content.clone().expect("structuredContent");
    assert_eq!(structured["data"], Value::Null);
    (text(&result), structured["incomplete"]["artifactId"].clone())
}

/// A harness that reads only the text (UTCP parses `content[0].text`) learns from it where the value is: the
/// artifact and how to read it back, or that saving failed; never "in structuredContent", where `data` is `null`.
#[tokio::test]
async fn the_truncated_text_of_an_oversized_result_names_its_artifact() {
    let (text, id) = oversized_text(|config| config).await;
    let id = id.as_str().expect("an artifact id");
    assert!(
        text.len() <= 40_000 && text.len() > 39_000,
        "truncated to the text limit: {}",
        text.len()
    );
    let marker = &text[text.find("\n\n[... ").unwrap()..text.find(" ...]\n\n").unwrap()];
    assert!(marker.contains(&format!("saved as artifact {id}")), "{marker}");
    assert!(
        marker.contains(&format!(r#"artifact_read with {{"artifactId": "{id}", "offset": 0}}"#)),
        "{marker}"
    );
    assert!(
        marker.contains("nextOffset") && marker.contains("eof is true"),
        "{marker}"
    );
    assert!(!text.contains("in structuredContent"), "{marker}");

    let (text, id) = oversized_text(|config| common::with_max_principal_bytes(config, 1024)).await;
    assert_eq!(id, Value::Null, "over the quota: not saved");
    let marker = &text[text.find("\n\n[... ").unwrap()..];
    assert!(marker.contains("could not be saved as an artifact"), "{marker}");
    assert!(!text.contains("in structuredContent"), "{marker}");
}

#[tokio::test]
async fn projection_keeps_a_large_page_inline() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let client = connect(github_config(&upstream.uri()).with_structured_output(true)).await;
    let plain = call(
        &client,
        "github_list_workflow_runs",
        repo_args("octo-repo", json!({"perPage": 100})),
    )
    .await;
    let plain = plain.structured_content.unwrap();
    assert!(
        plain["incomplete"]["bytes"].as_u64().unwrap() > 1_000_000,
        "the 1.2 MB page is over the default bound"
    );
    let projected = call(
        &client,
        "github_list_workflow_runs",
        repo_args(
            "octo-repo",
            json!({"perPage": 100, "jq": "[.workflow_runs[] | select(.conclusion == \"failure\") | .id]"}),
        ),
    )
    .await;
    let projected = projected.structured_content.unwrap();
    assert!(projected.get("incomplete").is_none());
    assert!(projected["data"].as_array().is_some_and(|ids| !ids.is_empty()));
    client.cancel().await.unwrap();
}
