//! [`Bounded`]: any [`ArtifactStore`] behind a cap on concurrent operations and a timeout on each, so that a
//! hung or failing backend (an S3 endpoint that stopped answering) costs only the calls that touch the store, and
//! each of them at most the timeout.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use tokio::sync::Semaphore;

use crate::chunk::Chunk;
use crate::error::ArtifactError;
use crate::id::ArtifactId;
use crate::store::ArtifactStore;

/// Default of [`StoreLimits::timeout`]: 5 s.
pub const DEFAULT_STORE_TIMEOUT: Duration = Duration::from_secs(5);
/// Default of [`StoreLimits::max_concurrent`]: 16.
pub const DEFAULT_STORE_CONCURRENCY: usize = 16;

/// How much of the store's backend the callers may use at once, and for how long. Build it from
/// [`StoreLimits::default`] with the `with_*` methods.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoreLimits {
    /// Puts, reads and deletes in flight at once (at least 1); further ones wait for a turn, within their timeout.
    pub max_concurrent: usize,
    /// The longest one put, read or delete may take, its wait for a turn included; past it the operation is
    /// dropped (its request abandoned) and fails with [`ArtifactError::Unavailable`].
    pub timeout: Duration,
}

impl Default for StoreLimits {
    /// [`DEFAULT_STORE_CONCURRENCY`] operations, [`DEFAULT_STORE_TIMEOUT`] each.
    fn default() -> Self {
        Self {
            max_concurrent: DEFAULT_STORE_CONCURRENCY,
            timeout: DEFAULT_STORE_TIMEOUT,
        }
    }
}

impl StoreLimits {
    /// With [`StoreLimits::max_concurrent`] set.
    #[must_use]
    pub fn with_max_concurrent(mut self, max_concurrent: usize) -> Self {
        self.max_concurrent = max_concurrent;
        self
    }

    /// With [`StoreLimits::timeout`] set.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }
}

/// A store whose puts, reads and deletes are bounded by [`StoreLimits`]; sweeps pass through unbounded (they run
/// in the background, [`crate::spawn_sweeper`]).
///
/// A put cut by the timeout may leave a partial write behind; the backends' own rules remove it (the S3 store's
/// sweep deletes a marker without data and aborts an abandoned multipart upload; the filesystem store finishes or
/// undoes its write on its blocking thread).
///
/// ```
/// use std::sync::Arc;
/// use mcp_artifacts::{ArtifactStore, Bounded, MemoryStore, StoreConfig, StoreLimits};
/// let store: Arc<dyn ArtifactStore> =
///     Arc::new(Bounded::new(Arc::new(MemoryStore::new(StoreConfig::default())), StoreLimits::default()));
/// # let _ = store;
/// ```
pub struct Bounded {
    inner: Arc<dyn ArtifactStore>,
    permits: Semaphore,
    limits: StoreLimits,
}

impl std::fmt::Debug for Bounded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bounded")
            .field("limits", &self.limits)
            .field("free", &self.permits.available_permits())
            .finish_non_exhaustive()
    }
}

impl Bounded {
    /// `inner` bounded by `limits`.
    pub fn new(inner: Arc<dyn ArtifactStore>, limits: StoreLimits) -> Self {
        Self {
            inner,
            permits: Semaphore::new(limits.max_concurrent.max(1)),
            limits,
        }
    }

    /// The limits in force.
    pub fn limits(&self) -> StoreLimits {
        self.limits
    }

    /// Runs `work` once a turn is free, all within the timeout.
    async fn guarded<T>(
        &self,
        operation: &'static str,
        work: impl Future<Output = Result<T, ArtifactError>>,
    ) -> Result<T, ArtifactError> {
        let turn = async {
            let _permit = self.permits.acquire().await.map_err(|_| ArtifactError::TaskFailed)?;
            work.await
        };
        match tokio::time::timeout(self.limits.timeout, turn).await {
            Ok(done) => done,
            Err(_) => {
                tracing::warn!(
                    operation,
                    timeout_ms = u64::try_from(self.limits.timeout.as_millis()).unwrap_or(u64::MAX),
                    "the artifact store did not answer in time; the operation was abandoned"
                );
                Err(ArtifactError::Unavailable {
                    operation,
                    timeout: self.limits.timeout,
                })
            }
        }
    }
}

#[async_trait::async_trait]
impl ArtifactStore for Bounded {
    async fn put(&self, owner: &str, mime_type: &str, bytes: Bytes) -> Result<ArtifactId, ArtifactError> {
        self.guarded("saving an artifact", self.inner.put(owner, mime_type, bytes))
            .await
    }

    async fn read_chunk(&self, owner: &str, id: &str, offset: u64, max_bytes: u64) -> Result<Chunk, ArtifactError> {
        self.guarded(
            "reading an artifact",
            self.inner.read_chunk(owner, id, offset, max_bytes),
        )
        .await
    }

    async fn delete(&self, owner: &str, id: &str) -> Result<(), ArtifactError> {
        self.guarded("deleting an artifact", self.inner.delete(owner, id)).await
    }

    async fn sweep_expired(&self) -> Result<usize, ArtifactError> {
        self.inner.sweep_expired().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{MemoryStore, StoreConfig};

    /// A store whose every operation hangs.
    struct Hung;

    #[async_trait::async_trait]
    impl ArtifactStore for Hung {
        async fn put(&self, _: &str, _: &str, _: Bytes) -> Result<ArtifactId, ArtifactError> {
            std::future::pending().await
        }
        async fn read_chunk(&self, _: &str, _: &str, _: u64, _: u64) -> Result<Chunk, ArtifactError> {
            std::future::pending().await
        }
        async fn delete(&self, _: &str, _: &str) -> Result<(), ArtifactError> {
            std::future::pending().await
        }
        async fn sweep_expired(&self) -> Result<usize, ArtifactError> {
            Ok(0)
        }
    }

    #[tokio::test]
    async fn a_hung_backend_costs_each_operation_the_timeout_and_no_more() {
        let limits = StoreLimits {
            max_concurrent: 1,
            timeout: Duration::from_millis(300),
        };
        let store = Arc::new(Bounded::new(Arc::new(Hung), limits));
        let started = tokio::time::Instant::now();
        // Three at once through one turn: each fails at its own timeout, none waits for the others' timeouts.
        let calls: Vec<_> = (0..3)
            .map(|_| {
                let store = store.clone();
                tokio::spawn(async move { store.put("o", "application/json", Bytes::from_static(b"{}")).await })
            })
            .collect();
        for call in calls {
            let err = call.await.ok().and_then(Result::err);
            assert!(matches!(err, Some(ArtifactError::Unavailable { .. })), "{err:?}");
        }
        // One timeout (300 ms), not three in a row (900 ms).
        let elapsed = started.elapsed();
        assert!(
            elapsed >= Duration::from_millis(300) && elapsed < Duration::from_millis(850),
            "{elapsed:?}"
        );
        let err = store.read_chunk("o", &"a".repeat(32), 0, 10).await.err();
        assert!(
            err.as_ref()
                .is_some_and(|e| e.to_string().contains("did not answer within 300 ms")),
            "{err:?}"
        );
    }

    #[tokio::test]
    async fn a_healthy_backend_is_unchanged() {
        let store = Bounded::new(
            Arc::new(MemoryStore::new(StoreConfig::default())),
            StoreLimits::default(),
        );
        let id = store.put("o", "text/plain", Bytes::from_static(b"hello")).await.ok();
        let id = id.map(|id| id.to_string()).unwrap_or_default();
        let chunk = store.read_chunk("o", &id, 1, 3).await.ok().map(|c| c.data);
        assert_eq!(chunk.as_deref(), Some(&b"ell"[..]));
        assert!(store.delete("o", &id).await.is_ok());
    }
}
