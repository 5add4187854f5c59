//! The conformance suite against `MemoryStore`, through `run_all` (every case in one test; the filesystem and S3
//! stores run it through `conformance_suite!`, one test per case).

use std::sync::Arc;

use mcp_artifacts::conformance::Fixture;
use mcp_artifacts::{ManualClock, MemoryStore, StoreConfig};

async fn memory_fixture(config: StoreConfig) -> Fixture<MemoryStore> {
    let clock = Arc::new(ManualClock::starting_now());
    Fixture {
        store: MemoryStore::with_clock(config, clock.clone()),
        clock,
        config,
        _guard: None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_conformance_suite_passes() {
    mcp_artifacts::conformance::run_all(memory_fixture).await;
}

/// Puts keep the caller's `Bytes` and reads slice it: a 16 MiB value is never copied.
#[tokio::test]
async fn put_and_read_do_not_copy_the_data() {
    use bytes::Bytes;
    use mcp_artifacts::ArtifactStore;

    let store = MemoryStore::new(StoreConfig::default());
    let value = Bytes::from(vec![7u8; 16 * 1024 * 1024]);
    let id = store
        .put("alice", "application/json", value.clone())
        .await
        .expect("put");
    let offset = 5 * 1024 * 1024;
    let chunk = store.read_chunk("alice", id.as_str(), offset, 1).await.expect("read");
    assert_eq!(chunk.data.len(), 1);
    assert_eq!(
        chunk.data.as_ptr(),
        value[offset as usize..].as_ptr(),
        "the chunk is a view of the caller's bytes"
    );
}
