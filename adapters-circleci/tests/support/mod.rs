//! A controllable clock and client builders for the CircleCI adapter tests.
#![allow(dead_code)]

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use adapters_circleci::{CircleciClient, CircleciConfig, CircleciResponse, GetRequest};
use adapters_http::{ClientOptions, HttpOptions, Secret, cache::CacheConfig, cache::HttpCache};
use wiremock::MockServer;

/// The token every test client sends.
pub const TOKEN: &str = "CCIPAT_TESTSECRET_0123456789";

/// A clock that only moves when told to: starts at 2026-10-07T16:20:11.402Z.
#[derive(Clone, Default)]
pub struct TestClock(Arc<AtomicU64>);

impl TestClock {
    /// Moves the clock forward by `ms` milliseconds.
    pub fn advance_ms(&self, ms: u64) {
        self.0.fetch_add(ms, Ordering::SeqCst);
    }

    /// The cache clock reading this test clock.
    pub fn clock(&self) -> adapters_http::cache::Clock {
        let offset = self.0.clone();
        Arc::new(move || {
            SystemTime::UNIX_EPOCH
                + Duration::from_millis(1_791_390_011_402)
                + Duration::from_millis(offset.load(Ordering::SeqCst))
        })
    }
}

/// A cache with default bounds on `clock`.
pub fn cache(clock: &TestClock) -> HttpCache {
    HttpCache::with_clock(CacheConfig::default(), clock.clock())
}

/// A client for `server` (base `<uri>/api/v2`) with `token`, using `cache`.
pub fn client_with(server: &MockServer, token: Option<&str>, cache: Option<HttpCache>) -> CircleciClient {
    let config = CircleciConfig::default().with_http(
        HttpOptions::new(format!("{}/api/v2", server.uri()))
            .with_credential(token.map(Secret::new))
            .with_client(ClientOptions::default().with_timeout(Duration::from_secs(10))),
    );
    CircleciClient::new(config, cache).expect("client")
}

/// `GET path` as `partition`.
pub async fn get(client: &CircleciClient, path: &str, partition: &str, fresh: bool) -> CircleciResponse {
    client
        .get(&GetRequest::new(path, partition).with_fresh(fresh))
        .await
        .expect("successful GET")
}
