//! The background sweeper, on real time with short intervals and a manual wall clock: a store wrapper counts what
//! the sweeper's own sweeps removed, so each test waits for that instead of for a fixed time.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use mcp_artifacts::{
    ArtifactError, ArtifactId, ArtifactStore, Chunk, ManualClock, MemoryStore, StoreConfig, spawn_sweeper,
};
use tokio::sync::watch;

/// A [`MemoryStore`] that publishes the number of artifacts its sweeps removed so far, and how many sweeps ran.
struct Counted {
    inner: MemoryStore,
    swept: watch::Sender<(usize, usize)>,
}

impl Counted {
    fn new(inner: MemoryStore) -> Arc<Counted> {
        Arc::new(Counted {
            inner,
            swept: watch::channel((0, 0)).0,
        })
    }

    /// Waits (at most 10 s) until the sweeper has removed `removed` artifacts in all; the sweeps run so far.
    async fn removed(&self, removed: usize) -> usize {
        let mut seen = self.swept.subscribe();
        let done = tokio::time::timeout(Duration::from_secs(10), seen.wait_for(|(n, _)| *n >= removed));
        done.await.expect("the sweeper removed them in time").unwrap().1
    }
}

#[async_trait::async_trait]
impl ArtifactStore for Counted {
    async fn put(&self, owner: &str, mime_type: &str, bytes: Bytes) -> Result<ArtifactId, ArtifactError> {
        self.inner.put(owner, mime_type, bytes).await
    }
    async fn read_chunk(&self, owner: &str, id: &str, offset: u64, max_bytes: u64) -> Result<Chunk, ArtifactError> {
        self.inner.read_chunk(owner, id, offset, max_bytes).await
    }
    async fn delete(&self, owner: &str, id: &str) -> Result<(), ArtifactError> {
        self.inner.delete(owner, id).await
    }
    async fn sweep_expired(&self) -> Result<usize, ArtifactError> {
        let removed = self.inner.sweep_expired().await?;
        self.swept.send_modify(|(n, sweeps)| {
            *n += removed;
            *sweeps += 1;
        });
        Ok(removed)
    }
}

const TICK: Duration = Duration::from_millis(20);

#[tokio::test]
async fn sweeper_removes_expired_artifacts_periodically() {
    let clock = Arc::new(ManualClock::starting_now());
    let config = StoreConfig::default();
    let store = Counted::new(MemoryStore::with_clock(config, clock.clone()));
    store
        .put("alice", "text/plain", Bytes::from_static(b"old"))
        .await
        .expect("put");
    let sweeper = spawn_sweeper(store.clone(), TICK);

    clock.advance(config.retention);
    // Expired: the sweeper removes it, so a manual sweep finds nothing left.
    store.removed(1).await;
    assert_eq!(store.inner.sweep_expired().await.expect("sweep"), 0);

    // It keeps running.
    store
        .put("alice", "text/plain", Bytes::from_static(b"new"))
        .await
        .expect("put");
    clock.advance(config.retention);
    store.removed(2).await;
    assert_eq!(store.inner.sweep_expired().await.expect("sweep"), 0);

    assert!(!sweeper.is_finished());
    sweeper.abort();
}

#[tokio::test]
async fn zero_interval_does_not_panic() {
    let store = Counted::new(MemoryStore::new(StoreConfig::default()));
    let sweeper = spawn_sweeper(store.clone(), Duration::ZERO);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(!sweeper.is_finished());
    sweeper.abort();
}

/// One tick removes at most `SWEEP_BATCHES_PER_TICK` full batches; the rest go on the next tick.
#[tokio::test]
async fn one_tick_is_bounded_and_the_next_finishes_the_backlog() {
    use mcp_artifacts::{SWEEP_BATCH_LIMIT, SWEEP_BATCHES_PER_TICK};

    let clock = Arc::new(ManualClock::starting_now());
    let config = StoreConfig::default();
    let store = Counted::new(MemoryStore::with_clock(config, clock.clone()));
    let per_tick = SWEEP_BATCH_LIMIT * SWEEP_BATCHES_PER_TICK;
    for _ in 0..per_tick + 3 {
        store.put("alice", "text/plain", Bytes::new()).await.expect("put");
    }
    clock.advance(config.retention);
    // A long interval: the first tick (at once) runs alone for a second.
    let sweeper = spawn_sweeper(store.clone(), Duration::from_secs(1));
    // The first tick removes exactly its bound, in exactly its number of sweeps; the 3 past it are left.
    assert_eq!(store.removed(per_tick).await, SWEEP_BATCHES_PER_TICK);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(*store.swept.borrow(), (per_tick, SWEEP_BATCHES_PER_TICK));
    // The next tick finishes the backlog.
    store.removed(per_tick + 3).await;
    sweeper.abort();
    assert_eq!(store.inner.sweep_expired().await.expect("sweep"), 0);
}
