//! The background task that removes expired artifacts.

use std::sync::Arc;
use std::time::Duration;

use tokio::task::JoinHandle;
use tokio::time::MissedTickBehavior;

use crate::store::{ArtifactStore, SWEEP_BATCH_LIMIT};

/// Most [`ArtifactStore::sweep_expired`] calls per tick (so at most
/// `SWEEP_BATCHES_PER_TICK * SWEEP_BATCH_LIMIT` = 8192 artifacts removed per tick); the task
/// yields between calls. A larger backlog is finished by the next ticks.
pub const SWEEP_BATCHES_PER_TICK: usize = 8;

/// Shortest interval [`spawn_sweeper`] accepts; shorter ones (including zero) are raised to it.
pub const MIN_SWEEPER_INTERVAL: Duration = Duration::from_millis(10);

/// Spawns a task on the current Tokio runtime that sweeps every `interval` (first sweep after
/// one interval): it calls [`ArtifactStore::sweep_expired`] until a call removes fewer than
/// [`SWEEP_BATCH_LIMIT`] artifacts or [`SWEEP_BATCHES_PER_TICK`] calls were made, logging
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
            for _ in 0..SWEEP_BATCHES_PER_TICK {
                match store.sweep_expired().await {
                    Ok(removed) if removed < SWEEP_BATCH_LIMIT => {
                        if removed > 0 {
                            tracing::debug!(removed, "swept expired artifacts");
                        }
                        break;
                    }
                    Ok(removed) => tracing::debug!(removed, "swept a full batch of expired artifacts"),
                    Err(err) => {
                        tracing::warn!(error = %err, "artifact sweep failed");
                        break;
                    }
                }
                tokio::task::yield_now().await;
            }
        }
    })
}
