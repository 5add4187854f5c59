//! The background task that removes expired artifacts.

use std::sync::Arc;
use std::time::Duration;

use tokio::task::JoinHandle;
use tokio::time::MissedTickBehavior;

use crate::store::ArtifactStore;

/// Shortest interval [`spawn_sweeper`] accepts; shorter ones (including zero) are raised to it.
pub const MIN_SWEEPER_INTERVAL: Duration = Duration::from_millis(10);

/// Spawns a task on the current Tokio runtime that calls
/// [`ArtifactStore::sweep_expired`] every `interval` (first sweep after one interval), logging
/// failures and continuing. It runs until the returned handle is aborted or the runtime stops.
///
/// Panics (Tokio's rule) if called outside a Tokio runtime.
pub fn spawn_sweeper(store: Arc<dyn ArtifactStore>, interval: Duration) -> JoinHandle<()> {
    let period = interval.max(MIN_SWEEPER_INTERVAL);
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
        ticker.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            ticker.tick().await;
            match store.sweep_expired().await {
                Ok(0) => {}
                Ok(removed) => tracing::debug!(removed, "swept expired artifacts"),
                Err(err) => tracing::warn!(error = %err, "artifact sweep failed"),
            }
        }
    })
}
