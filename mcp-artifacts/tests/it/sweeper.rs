//! The background sweeper, driven by Tokio's paused time and a manual wall clock.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use mcp_artifacts::{ArtifactStore, ManualClock, MemoryStore, StoreConfig, spawn_sweeper};

#[tokio::test(start_paused = true)]
async fn sweeper_removes_expired_artifacts_periodically() {
    let clock = Arc::new(ManualClock::starting_now());
    let config = StoreConfig::default();
    let store = Arc::new(MemoryStore::with_clock(config, clock.clone()));
    store
        .put("alice", "text/plain", Bytes::from_static(b"old"))
        .await
        .expect("put");
    let sweeper = spawn_sweeper(store.clone(), config.sweep_interval);

    clock.advance(config.retention);
    // Expired but not yet swept: a manual sweep would find it. Let the sweeper do it instead.
    tokio::time::sleep(config.sweep_interval + Duration::from_secs(1)).await;
    assert_eq!(store.sweep_expired().await.expect("sweep"), 0);

    // It keeps running.
    store
        .put("alice", "text/plain", Bytes::from_static(b"new"))
        .await
        .expect("put");
    clock.advance(config.retention);
    tokio::time::sleep(config.sweep_interval).await;
    assert_eq!(store.sweep_expired().await.expect("sweep"), 0);

    assert!(!sweeper.is_finished());
    sweeper.abort();
}

#[tokio::test(start_paused = true)]
async fn zero_interval_does_not_panic() {
    let store: Arc<dyn ArtifactStore> = Arc::new(MemoryStore::new(StoreConfig::default()));
    let sweeper = spawn_sweeper(store, Duration::ZERO);
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert!(!sweeper.is_finished());
    sweeper.abort();
}

/// One tick removes at most `SWEEP_BATCHES_PER_TICK` full batches; the rest go on the next tick.
#[tokio::test(start_paused = true)]
async fn one_tick_is_bounded_and_the_next_finishes_the_backlog() {
    use mcp_artifacts::{SWEEP_BATCH_LIMIT, SWEEP_BATCHES_PER_TICK};

    let clock = Arc::new(ManualClock::starting_now());
    let config = StoreConfig::default();
    let store = Arc::new(MemoryStore::with_clock(config, clock.clone()));
    let per_tick = SWEEP_BATCH_LIMIT * SWEEP_BATCHES_PER_TICK;
    for _ in 0..per_tick + 3 {
        store.put("alice", "text/plain", Bytes::new()).await.expect("put");
    }
    clock.advance(config.retention);
    let sweeper = spawn_sweeper(store.clone(), config.sweep_interval);
    tokio::time::sleep(config.sweep_interval + Duration::from_millis(1)).await;
    // Let the tick's batches (which yield between them) run to completion.
    for _ in 0..SWEEP_BATCHES_PER_TICK * 2 {
        tokio::task::yield_now().await;
    }
    // Exactly the 3 past the per-tick bound are left for the next tick.
    sweeper.abort();
    assert_eq!(store.sweep_expired().await.expect("sweep"), 3);
}
