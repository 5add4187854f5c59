//! The conformance suite against `S3Store` on a real S3-compatible server, plus S3-specific behaviour.
//!
//! Needs `MCP_DEVTOOLS_TEST_S3_ENDPOINT` (e.g. `http://127.0.0.1:9000`) and `MCP_DEVTOOLS_TEST_S3_BUCKET` (an
//! existing bucket); `scripts/test` starts a local `moto` server and sets both. Without them these tests print why
//! and pass, unless `MCP_DEVTOOLS_REQUIRE_SERVICES=1` (set by `scripts/test`), which makes a missing service a
//! failure.

use std::sync::Arc;

use bytes::Bytes;
use mcp_artifacts::conformance::Fixture;
use mcp_artifacts::{ArtifactError, ArtifactStore, ManualClock, S3Config, S3Store, StoreConfig};

/// The test server's settings, or `None` (after printing why) when the tests should skip.
fn s3_settings(prefix: &str) -> Option<S3Config> {
    let endpoint = std::env::var("MCP_DEVTOOLS_TEST_S3_ENDPOINT").ok();
    let bucket = std::env::var("MCP_DEVTOOLS_TEST_S3_BUCKET").ok();
    let (Some(endpoint), Some(bucket)) = (endpoint, bucket) else {
        assert!(
            std::env::var("MCP_DEVTOOLS_REQUIRE_SERVICES").as_deref() != Ok("1"),
            "MCP_DEVTOOLS_REQUIRE_SERVICES=1 but MCP_DEVTOOLS_TEST_S3_ENDPOINT / MCP_DEVTOOLS_TEST_S3_BUCKET are not set"
        );
        eprintln!(
            "SKIPPED: no S3 test server (set MCP_DEVTOOLS_TEST_S3_ENDPOINT and MCP_DEVTOOLS_TEST_S3_BUCKET, or run scripts/test)"
        );
        return None;
    };
    let unique = hex_id();
    Some(
        S3Config::default()
            .with_url(format!("s3://{bucket}/{prefix}-{unique}"))
            .with_endpoint(Some(endpoint))
            .with_region(Some("us-east-1".into()))
            .with_access_key_id(Some("test".into()))
            .with_secret_access_key(Some("test".into()))
            .with_session_token(None)
            .with_allow_http(true),
    )
}

fn hex_id() -> String {
    use rand::RngCore;
    let mut bytes = [0u8; 8];
    rand::rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

async fn open(s3: &S3Config, config: StoreConfig, clock: &Arc<ManualClock>) -> S3Store {
    S3Store::open_with_clock(s3, config, clock.clone())
        .await
        .expect("open the S3 store")
}

/// A fresh store on its own prefix of the test bucket, for each conformance case.
async fn conformance_fixture(config: StoreConfig) -> Fixture<S3Store> {
    let s3 = s3_settings("conformance").expect("settings");
    let clock = Arc::new(ManualClock::starting_now());
    Fixture {
        store: open(&s3, config, &clock).await,
        clock,
        config,
        _guard: None,
    }
}

/// The conformance suite on S3, one test per case (they run in parallel: each S3 request is slow).
mod conformance {
    use super::{conformance_fixture, s3_settings};

    mcp_artifacts::conformance_suite!(conformance_fixture, skip_unless = || s3_settings("probe").is_some());
}

/// Two stores on the same bucket and prefix (two replicas): each reads, deletes and sweeps the other's artifacts,
/// and a replica opened later counts what is already there against the quotas.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_share_artifacts_owners_quotas_and_sweeps() {
    let Some(s3) = s3_settings("replicas") else {
        return;
    };
    let clock = Arc::new(ManualClock::starting_now());
    let config = mcp_artifacts::conformance::small_quota_config();
    let one = open(&s3, config, &clock).await;
    let body = Bytes::from(vec![7u8; 3000]);
    let id = one.put("alice", "application/json", body.clone()).await.expect("put");
    let two = open(&s3, config, &clock).await;
    let chunk = two
        .read_chunk("alice", id.as_str(), 1000, 10)
        .await
        .expect("read on two");
    assert_eq!(&chunk.data[..], &body[1000..1010]);
    assert_eq!(
        (chunk.mime_type.as_str(), chunk.total_bytes),
        ("application/json", 3000)
    );
    let other = two.read_chunk("mallory", id.as_str(), 0, 10).await;
    assert!(matches!(other, Err(ArtifactError::NotFound)), "{other:?}");
    // Replica two counted alice's 3000 bytes when it opened: her 4096-byte quota has 1096 left there too.
    let over = two.put("alice", "application/json", Bytes::from(vec![0u8; 1097])).await;
    assert!(matches!(over, Err(ArtifactError::QuotaExceeded { .. })), "{over:?}");
    // A sweep on two removes what one wrote once it expires; one then reads NotFound and has its quota back.
    clock.advance(config.retention);
    assert_eq!(two.sweep_expired().await.expect("sweep"), 1);
    assert!(matches!(
        one.read_chunk("alice", id.as_str(), 0, 1).await,
        Err(ArtifactError::NotFound)
    ));
    assert_eq!(one.sweep_expired().await.expect("sweep"), 0);
    one.put("alice", "application/json", Bytes::from(vec![1u8; 4096]))
        .await
        .expect("quota given back after the sweep");
}

/// A value over the multipart threshold is uploaded in parts and reads back byte for byte.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn large_values_use_multipart_upload() {
    let Some(s3) = s3_settings("multipart") else {
        return;
    };
    let clock = Arc::new(ManualClock::starting_now());
    let store = open(&s3, StoreConfig::default(), &clock).await;
    let size = mcp_artifacts::MULTIPART_THRESHOLD_BYTES * 2 + 12_345;
    let body: Vec<u8> = (0..size).map(|i| (i % 251) as u8).collect();
    let id = store
        .put("alice", "application/json", Bytes::from(body.clone()))
        .await
        .expect("put");
    let joined = mcp_artifacts::conformance::read_all(&store, id.as_str(), 1 << 20).await;
    assert!(joined == body, "multipart artifact differs");
}

#[tokio::test]
async fn an_unreachable_bucket_fails_at_open_without_secrets() {
    let s3 = S3Config::default()
        .with_url("s3://no-such-bucket/p")
        .with_endpoint(Some("http://127.0.0.1:9".into()))
        .with_access_key_id(Some("AKIDEXAMPLE".into()))
        .with_secret_access_key(Some("wJalrXUtnFEMIsecret".into()))
        .with_allow_http(true);
    let err = S3Store::open(&s3, StoreConfig::default())
        .await
        .expect_err("unreachable");
    let text = err.to_string();
    assert!(text.contains("S3Config `url`"), "{text}");
    assert!(!text.contains("wJalrXUtnFEMIsecret"), "{text}");
    let bad = S3Config::default().with_url("https://bucket");
    assert!(S3Store::open(&bad, StoreConfig::default()).await.is_err());
}

/// What a put that died half-way leaves (its replica killed between its marker and its data, or during a
/// multipart upload): the marker stops counting against its owner's quota, and the unfinished upload is
/// aborted, by the first sweep once they are [`mcp_artifacts::LEFTOVER_GRACE`] old, not before (the put may
/// still be running).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sweep_removes_what_a_dead_put_left() {
    use object_store::multipart::MultipartStore;
    use object_store::path::Path;
    use object_store::{ObjectStoreExt, PutPayload};
    use sha2::{Digest, Sha256};

    let Some(s3) = s3_settings("leftovers") else {
        return;
    };
    let clock = Arc::new(ManualClock::starting_now());
    let config = mcp_artifacts::conformance::small_quota_config();
    let store = open(&s3, config, &clock).await;
    // The bucket itself, as the dead replica wrote to it.
    let (bucket, prefix) = s3.url.trim_start_matches("s3://").split_once('/').expect("a prefix");
    let raw = object_store::aws::AmazonS3Builder::new()
        .with_bucket_name(bucket)
        .with_endpoint(s3.endpoint.clone().expect("endpoint"))
        .with_region("us-east-1")
        .with_access_key_id("test")
        .with_secret_access_key("test")
        .with_allow_http(true)
        .build()
        .expect("client");
    let owner = hex::encode(Sha256::digest(b"alice"));
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("time")
        .as_millis();
    // A marker for 4000 of alice's 4096 bytes, its data never written.
    let marker = format!("{prefix}/expiry/{now_ms:020}.{owner}.{}.4000", "ab".repeat(16));
    raw.put(&Path::from(marker), PutPayload::default())
        .await
        .expect("marker");
    // A multipart upload started and never finished.
    let upload_path = Path::from(format!("{prefix}/data/{owner}/{}", "cd".repeat(16)));
    let upload = raw.create_multipart(&upload_path).await.expect("create upload");
    let part = raw
        .put_part(&upload_path, &upload, 0, PutPayload::from(vec![1u8; 1024]))
        .await
        .expect("part");

    // Another replica opened now counts the marker: 96 of alice's bytes left.
    let replica = open(&s3, config, &clock).await;
    let small = || Bytes::from(vec![2u8; 1000]);
    let over = replica.put("alice", "application/json", small()).await;
    assert!(matches!(over, Err(ArtifactError::QuotaExceeded { .. })), "{over:?}");
    // A minute later the put could still be running: the sweep leaves both.
    clock.advance(std::time::Duration::from_secs(60));
    assert_eq!(replica.sweep_expired().await.expect("sweep"), 0);
    let over = replica.put("alice", "application/json", small()).await;
    assert!(matches!(over, Err(ArtifactError::QuotaExceeded { .. })), "{over:?}");
    // Past the grace: the marker is gone and alice has her quota back; the upload is aborted.
    clock.advance(mcp_artifacts::LEFTOVER_GRACE);
    assert_eq!(replica.sweep_expired().await.expect("sweep"), 0);
    replica
        .put("alice", "application/json", small())
        .await
        .expect("the dead put's marker no longer counts");
    let completed = raw.complete_multipart(&upload_path, &upload, vec![part]).await;
    assert!(completed.is_err(), "the unfinished upload was aborted");
    drop(store);
}
