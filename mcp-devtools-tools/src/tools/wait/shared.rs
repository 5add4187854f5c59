//! Shared polls: one poll loop per distinct target (a run, a commit's checks, a pipeline), however many calls wait
//! on it. The first caller starts the loop; every caller follows its samples through a `watch` channel; the loop
//! stops when its target finished or its last follower left (a cancelled or finished wait), so no request is sent
//! for nobody.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::watch;

use super::model::Observed;
use crate::app::App;
use crate::config::WaitConfig;

/// Why a poll failed.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum PollError {
    /// The target does not exist (GitHub or CircleCI answered 404): the wait ends with an error naming it.
    NotFound(String),
    /// Anything else, after the HTTP layer's retries: the loop tries again at its next interval.
    Failed(String),
}

impl PollError {
    /// The text, for results and logs.
    pub(crate) fn text(&self) -> &str {
        match self {
            PollError::NotFound(text) | PollError::Failed(text) => text,
        }
    }
}

/// One poll's answer: what it saw (`Ok(None)`: nothing changed upstream, e.g. every `304 Not Modified`), and the
/// pace the upstream asks for.
pub(crate) struct Polled {
    /// What was seen.
    pub outcome: Result<Option<Observed>, PollError>,
    /// Poll no sooner than this (GitHub's `X-Poll-Interval`, or until a rate limit resets).
    pub not_before: Option<Duration>,
}

/// A target's poller: one call reads the target's current state. It keeps what it needs between polls (`ETag`s,
/// the last bodies).
pub(crate) trait Poller: Send + 'static {
    /// Reads the current state.
    fn poll(&mut self, app: &App) -> impl Future<Output = Polled> + Send;
}

/// What followers see: the latest poll's outcome.
#[derive(Debug, Clone)]
pub(crate) struct Sample {
    /// Polls made so far by the loop, from 1.
    pub seq: u64,
    /// The state as last seen, or this poll's error.
    pub outcome: Result<Arc<Observed>, PollError>,
    /// The last state seen before an error (none before the first success).
    pub last_seen: Option<Arc<Observed>>,
    /// Failed polls in a row, this one included.
    pub failed_in_row: u32,
}

impl Sample {
    /// True when the loop stops after this sample: the target finished, or it does not exist.
    fn is_final(&self) -> bool {
        match &self.outcome {
            Ok(observed) => observed.done,
            Err(PollError::NotFound(_)) => self.last_seen.is_none(),
            Err(PollError::Failed(_)) => false,
        }
    }
}

type Channel = watch::Sender<Option<Arc<Sample>>>;

/// The running poll loops, by target key. Cheap to clone.
#[derive(Clone, Default)]
pub(crate) struct Watches {
    loops: Arc<Mutex<HashMap<String, Arc<Channel>>>>,
}

impl Watches {
    /// Follows the loop of `key`, starting it with `make()`'s poller when none runs.
    pub(crate) fn follow<P: Poller>(
        &self,
        app: &Arc<App>,
        key: &str,
        make: impl Fn() -> P,
    ) -> watch::Receiver<Option<Arc<Sample>>> {
        let mut loops = self.loops.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(channel) = loops.get(key) {
            return channel.subscribe();
        }
        let (sender, receiver) = watch::channel(None);
        let channel = Arc::new(sender);
        loops.insert(key.to_owned(), channel.clone());
        let driver = Driver {
            app: app.clone(),
            channel,
            config: app.config.wait,
            watches: self.clone(),
            key: key.to_owned(),
        };
        tokio::spawn(driver.run(make()));
        receiver
    }

    /// The number of running poll loops (tests and the bench).
    pub(crate) fn running(&self) -> usize {
        self.loops.lock().map_or(0, |loops| loops.len())
    }
}

/// One target's poll loop.
struct Driver {
    app: Arc<App>,
    channel: Arc<Channel>,
    config: WaitConfig,
    watches: Watches,
    key: String,
}

impl Driver {
    async fn run<P: Poller>(self, mut poller: P) {
        let mut interval = self.config.min_interval;
        let mut last_seen: Option<Arc<Observed>> = None;
        let mut failed_in_row = 0;
        for seq in 1.. {
            let polled = tokio::select! {
                polled = poller.poll(&self.app) => polled,
                () = self.channel.closed() => break,
            };
            let outcome = match polled.outcome {
                Ok(Some(observed)) => {
                    failed_in_row = 0;
                    let changed = last_seen.as_deref() != Some(&observed);
                    interval = if changed {
                        self.config.min_interval
                    } else {
                        self.config.backoff(interval)
                    };
                    let observed = Arc::new(observed);
                    last_seen = Some(observed.clone());
                    Ok(observed)
                }
                Ok(None) => {
                    failed_in_row = 0;
                    interval = self.config.backoff(interval);
                    last_seen
                        .clone()
                        .ok_or_else(|| PollError::Failed("the upstream answered 304 to the first poll".to_owned()))
                }
                Err(err) => {
                    failed_in_row += 1;
                    interval = self.config.backoff(interval);
                    tracing::debug!(target = %self.key, error = %err.text(), "a wait's poll failed");
                    Err(err)
                }
            };
            let sample = Arc::new(Sample {
                seq,
                outcome,
                last_seen: last_seen.clone(),
                failed_in_row,
            });
            let is_final = sample.is_final();
            self.channel.send_replace(Some(sample));
            if is_final || failed_in_row >= self.config.max_failed_polls {
                break;
            }
            let pause = interval.max(polled.not_before.unwrap_or_default());
            let next = Instant::now() + pause;
            tokio::select! {
                () = tokio::time::sleep_until(next.into()) => {}
                () = self.channel.closed() => break,
            }
        }
        let mut loops = self
            .watches
            .loops
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if loops
            .get(&self.key)
            .is_some_and(|running| Arc::ptr_eq(running, &self.channel))
        {
            loops.remove(&self.key);
        }
    }
}
