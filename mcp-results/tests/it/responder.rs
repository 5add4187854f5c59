//! The result path through the public API: a memory store, the in-process runner and `artifact_read::call`.

use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use bytes::Bytes;
use mcp_artifacts::{ArtifactError, ArtifactId, ArtifactStore, Chunk, MemoryStore, StoreConfig};
use mcp_envelope::{NoMeta, OutputFormat, PageMeta, SizeBound, TextSource};
use mcp_projection::{InProcess, ProjectionRunner, Unprojected};
use mcp_results::{Responder, TextOutcome, View, artifact_read};
use rmcp::model::CallToolResult;
use serde_json::{Value, json};

fn text(result: &CallToolResult) -> &str {
    result.content[0].as_text().map(|t| t.text.as_str()).unwrap_or_default()
}

fn store() -> Arc<MemoryStore> {
    Arc::new(MemoryStore::new(StoreConfig::default()))
}

fn responder(store: Arc<dyn ArtifactStore>, bound: usize) -> Responder {
    Responder::new(store, SizeBound::new(bound as u64).0, Arc::new(InProcess))
}

/// Reads an artifact back through `artifact_read::call`, chunk by chunk, decoding each.
async fn read_back(store: &dyn ArtifactStore, owner: &str, id: &str, max_bytes: u64) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut offset = 0;
    loop {
        let args = json!({"artifactId": id, "offset": offset.to_string(), "maxBytes": max_bytes});
        let chunk = artifact_read::call(store, owner, args.as_object().cloned(), true).await;
        assert_ne!(chunk.is_error, Some(true), "{}", text(&chunk));
        let value = chunk.structured_content.clone().unwrap();
        assert_eq!(serde_json::from_str::<Value>(text(&chunk)).unwrap(), value);
        let data = base64::engine::general_purpose::STANDARD
            .decode(value["data"].as_str().unwrap())
            .unwrap();
        bytes.extend_from_slice(&data);
        offset = value["nextOffset"].as_u64().unwrap();
        if value["eof"] == json!(true) {
            return bytes;
        }
    }
}

#[tokio::test]
async fn inline_with_projection_and_meta() {
    let results = responder(store(), 16_384);
    let view = View::new(Some(".runs | map(.id)".into()), OutputFormat::Json);
    let result = results
        .respond(
            "alice",
            json!({"runs": [{"id": 1}, {"id": 2}]}),
            PageMeta::new(Some(3)),
            &view,
        )
        .await;
    let expected = json!({"data": [1, 2], "nextPage": 3});
    assert_eq!(result.structured_content, Some(expected.clone()));
    assert_eq!(serde_json::from_str::<Value>(text(&result)).unwrap(), expected);

    let off = results.clone().with_structured_output(false);
    let result = off.respond("alice", json!([1]), NoMeta {}, &View::default()).await;
    assert!(result.structured_content.is_none());
    assert!(!text(&result).is_empty());
}

/// A tool's own metadata beside `data`.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Audited {
    cache: Value,
    request_id: &'static str,
}

/// A metadata field reaches the TOON text, the JSON text and `structuredContent` of the `CallToolResult` alike, and
/// the binary form's `incomplete` (with its `mimeType`) too.
#[tokio::test]
async fn every_envelope_field_reaches_both_texts_and_structured_content() {
    let results = responder(store(), 16_384);
    let audited = || Audited {
        cache: json!({"hit": true, "ageMs": 5}),
        request_id: "r-1",
    };
    for format in [OutputFormat::Toon, OutputFormat::Json] {
        let view = View::new(None, format);
        let inline = results
            .respond("alice", json!([{"id": 1}, {"id": 2}]), audited(), &view)
            .await;
        let png = Bytes::from_static(b"\x89PNG\r\n\x1a\n");
        let binary = results.binary("alice", "image/png".into(), png, audited(), &view).await;
        assert_eq!(
            binary.structured_content.as_ref().unwrap()["incomplete"]["mimeType"],
            json!("image/png")
        );
        for result in [inline, binary] {
            let structured = result.structured_content.clone().unwrap();
            assert_eq!(structured["requestId"], json!("r-1"));
            assert_eq!(structured["cache"]["ageMs"], json!(5));
            let expected = match format {
                OutputFormat::Toon => mcp_envelope::render(&structured, format).unwrap(),
                _ => serde_json::to_string_pretty(&structured).unwrap(),
            };
            assert_eq!(text(&result), expected);
        }
    }
}

#[tokio::test]
async fn oversized_goes_to_the_store_and_reads_back_byte_exact_for_its_owner_only() {
    let store = store();
    let results = responder(store.clone(), 16_384);
    let data: Vec<Value> = (0..5000)
        .map(|i| json!({"id": i, "name": format!("widget {i}")}))
        .collect();
    let result = results
        .respond_serialize("alice", &data, NoMeta {}, &View::default())
        .await;
    let structured = result.structured_content.unwrap();
    assert_eq!(structured["data"], Value::Null);
    let incomplete = &structured["incomplete"];
    assert_eq!(incomplete["reason"], "size");
    let id = incomplete["artifactId"].as_str().unwrap();
    let bytes = read_back(store.as_ref(), "alice", id, 70_000).await;
    assert_eq!(bytes.len() as u64, incomplete["bytes"].as_u64().unwrap());
    assert_eq!(bytes, serde_json::to_vec(&json!({"data": data})).unwrap());

    let args = json!({"artifactId": id}).as_object().cloned();
    let other = artifact_read::call(store.as_ref(), "bob", args, true).await;
    assert_eq!(other.is_error, Some(true));
    assert_eq!(text(&other), mcp_artifacts::NOT_FOUND_MESSAGE);
    assert!(other.structured_content.is_none());

    let bad = artifact_read::call(store.as_ref(), "alice", json!({"offset": 1}).as_object().cloned(), true).await;
    assert!(text(&bad).contains("missing field `artifactId`"), "{}", text(&bad));
}

/// A store whose puts always fail.
struct FullStore;

#[async_trait::async_trait]
impl ArtifactStore for FullStore {
    async fn put(&self, _: &str, _: &str, _: Bytes) -> Result<ArtifactId, ArtifactError> {
        Err(ArtifactError::NotFound)
    }
    async fn read_chunk(&self, _: &str, _: &str, _: u64, _: u64) -> Result<Chunk, ArtifactError> {
        Err(ArtifactError::NotFound)
    }
    async fn delete(&self, _: &str, _: &str) -> Result<(), ArtifactError> {
        Err(ArtifactError::NotFound)
    }
    async fn sweep_expired(&self) -> Result<usize, ArtifactError> {
        Ok(0)
    }
}

#[tokio::test]
async fn failed_put_gives_a_null_artifact_id() {
    let results = responder(Arc::new(FullStore), 16_384);
    let result = results
        .respond("alice", json!("x".repeat(20_000)), NoMeta {}, &View::default())
        .await;
    assert_ne!(result.is_error, Some(true));
    let structured = result.structured_content.unwrap();
    assert_eq!(structured["incomplete"]["reason"], "size");
    assert_eq!(structured["incomplete"]["artifactId"], Value::Null);

    let binary = results
        .binary(
            "alice",
            "image/png".into(),
            Bytes::from_static(b"\x89PNG"),
            NoMeta {},
            &View::default(),
        )
        .await;
    assert_eq!(
        binary.structured_content.unwrap()["incomplete"]["artifactId"],
        Value::Null
    );
}

#[tokio::test]
async fn binary_body_is_an_artifact_with_its_media_type() {
    let store = store();
    let results = responder(store.clone(), 16_384);
    let body = Bytes::from_static(b"\x00\xffbinary");
    let view = View::new(None, OutputFormat::Json).text_from(TextSource::Data);
    let result = results
        .binary("alice", "image/png".into(), body.clone(), NoMeta {}, &view)
        .await;
    let structured = result.structured_content.clone().unwrap();
    assert_eq!(structured["data"], Value::Null);
    let incomplete = &structured["incomplete"];
    assert_eq!(incomplete["reason"], "binary");
    assert_eq!(incomplete["mimeType"], "image/png");
    let id = incomplete["artifactId"].as_str().unwrap();
    assert!(text(&result).contains(id), "the text names the artifact");
    assert_eq!(read_back(store.as_ref(), "alice", id, 3).await, body.to_vec());
}

#[tokio::test]
async fn bad_jq_and_too_deep_values_are_error_results() {
    let results = responder(store(), 16_384);
    let view = View::new(Some(".[]".into()), OutputFormat::Toon);
    let result = results.respond("alice", json!([1, 2]), NoMeta {}, &view).await;
    assert_eq!(result.is_error, Some(true));
    assert!(
        text(&result).starts_with("The jq expression failed"),
        "{}",
        text(&result)
    );
    assert!(result.structured_content.is_none());

    let mut deep = json!(1);
    for _ in 0..=mcp_results::MAX_RESULT_DEPTH {
        deep = Value::Array(vec![deep]);
    }
    let result = results.respond("alice", deep, NoMeta {}, &View::default()).await;
    assert_eq!(result.is_error, Some(true));
    assert!(text(&result).contains("levels deep"), "{}", text(&result));
}

#[tokio::test]
async fn text_only_results_fall_back_to_the_unprojected_value() {
    let results = responder(store(), 16_384);
    let view = View::new(Some(".[]".into()), OutputFormat::Json);
    let TextOutcome::Unprojected { reason, text } = results.text(json!([1, 2]), &view).await else {
        panic!("a jq with two outputs is a failed projection");
    };
    assert!(reason.contains("one value"), "{reason}");
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), json!([1, 2]));

    let view = View::new(Some(".key".into()), OutputFormat::Json);
    let shown = results.text(json!({"key": "PLAT-1"}), &view).await;
    assert_eq!(shown, TextOutcome::Shown("\"PLAT-1\"".into()));
}

/// A runner that waits until told, holding the caller's pipeline permit.
#[derive(Debug)]
struct Gate(Arc<tokio::sync::Notify>);

#[async_trait::async_trait]
impl ProjectionRunner for Gate {
    async fn project(&self, data: Value, _jq: &str) -> Result<Value, Unprojected> {
        self.0.notified().await;
        Ok(data)
    }
}

#[tokio::test]
async fn no_permit_within_the_timeout_is_a_busy_error() {
    let gate = Arc::new(tokio::sync::Notify::new());
    let results = Responder::new(store(), SizeBound::default(), Arc::new(Gate(gate.clone())))
        .with_pipeline_permits(1)
        .with_pipeline_timeout(Duration::from_millis(200));
    let view = View::new(Some(".".into()), OutputFormat::Json);
    let first = tokio::spawn({
        let results = results.clone();
        let view = view.clone();
        async move { results.respond("alice", json!(1), NoMeta {}, &view).await }
    });
    // Let the first call take the only permit and wait in the runner.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let second = results.respond("alice", json!(2), NoMeta {}, &view).await;
    assert_eq!(second.is_error, Some(true));
    assert!(text(&second).contains("the server is busy"), "{}", text(&second));
    gate.notify_one();
    let first = first.await.unwrap();
    assert_eq!(first.structured_content, Some(json!({"data": 1})));
}

/// A runner that projects with [`InProcess`] and counts its runs.
#[derive(Debug, Default)]
struct Counting(std::sync::atomic::AtomicUsize);

#[async_trait::async_trait]
impl ProjectionRunner for Counting {
    async fn project(&self, data: Value, jq: &str) -> Result<Value, Unprojected> {
        self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        InProcess.project(data, jq).await
    }
}

#[tokio::test]
async fn jq_runs_once_through_the_runner_and_the_view_picks_the_text_source() {
    let runner = Arc::new(Counting::default());
    let results = Responder::new(store(), SizeBound::default(), runner.clone());
    // mcp_results::View is mcp_envelope::View: one type for the whole result path.
    let view: mcp_envelope::View = View::new(Some("map(.id)".into()), OutputFormat::Json).text_from(TextSource::Data);
    let data = json!([{"id": 1}, {"id": 2}]);
    // Projected twice, `map(.id)` would fail on the numbers ("Cannot index number").
    let result = results
        .respond("alice", data.clone(), PageMeta::new(Some(2)), &view)
        .await;
    assert_ne!(result.is_error, Some(true), "{}", text(&result));
    assert_eq!(runner.0.load(std::sync::atomic::Ordering::SeqCst), 1);
    assert_eq!(result.structured_content, Some(json!({"data": [1, 2], "nextPage": 2})));
    assert_eq!(text(&result), "[\n  1,\n  2\n]", "the text is the bare data");
    let off = results.clone().with_structured_output(false);
    let result = off.respond("alice", data, PageMeta::new(Some(2)), &view).await;
    assert_eq!((&result.structured_content, text(&result)), (&None, "[\n  1,\n  2\n]"));
    assert_eq!(runner.0.load(std::sync::atomic::Ordering::SeqCst), 2);
}
