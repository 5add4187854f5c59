//! The shared HTTP cache on a real `redis-server` (CONTRACT §10): two caches (two replicas) on one Redis share
//! entries with the same `fetchedAt`; principals and credentials stay apart; a write on one replica clears the
//! vendor's entries for both; TTLs come from `Cache-Control`; an unreachable Redis leaves calls uncached with one
//! warning per outage.
//!
//! Needs `MCP_DEVTOOLS_TEST_REDIS_URL` (e.g. `redis://127.0.0.1:6379/0`), set by `scripts/test`, which starts a
//! local `redis-server`. Without it these tests print why and pass, unless `MCP_DEVTOOLS_REQUIRE_SERVICES=1`.

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use adapters_http::{
    Auth, HttpClient, HttpConfig, Secret, Vendor, cache::CacheConfig, cache::CacheRequest, cache::HttpCache,
    cache::redis::RedisCacheConfig,
};
use http::{HeaderName, Method};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const VENDOR: Vendor = Vendor {
    name: "RedisTest",
    base_setting: "TEST_API_BASE",
    credential_setting: "TEST_TOKEN",
    max_body_setting: "TEST_MAX_BODY_BYTES",
};

fn redis_url() -> Option<String> {
    let url = std::env::var("MCP_DEVTOOLS_TEST_REDIS_URL").ok();
    if url.is_none() {
        assert!(
            std::env::var("MCP_DEVTOOLS_REQUIRE_SERVICES").as_deref() != Ok("1"),
            "MCP_DEVTOOLS_REQUIRE_SERVICES=1 but MCP_DEVTOOLS_TEST_REDIS_URL is not set"
        );
        eprintln!("SKIPPED: no Redis test server (set MCP_DEVTOOLS_TEST_REDIS_URL, or run scripts/test)");
    }
    url
}

/// A clock the test moves: every replica reads the same time source, like synchronised hosts.
fn clock(at: Arc<Mutex<SystemTime>>) -> adapters_http::cache::Clock {
    Arc::new(move || *at.lock().expect("clock"))
}

fn replica(server: &MockServer, redis: &str, token: &str, now: &Arc<Mutex<SystemTime>>) -> HttpClient {
    let cache = HttpCache::with_clock(CacheConfig::default(), clock(now.clone()))
        // Generous: these tests are about the cache's rules, not its timeout (a loaded machine can pause 50 ms).
        .with_redis(&RedisCacheConfig::new(redis).with_command_timeout(Duration::from_secs(2)))
        .expect("redis url");
    assert!(cache.is_shared());
    HttpClient::new(HttpConfig::new(VENDOR, server.uri()).with_auth(Auth::Header {
        name: HeaderName::from_static("x-token"),
        value: Secret::new(token),
    }))
    .expect("client")
    .with_cache(cache)
}

fn as_principal(partition: &str) -> CacheRequest<'_> {
    CacheRequest {
        partition,
        fresh: false,
        cacheable: true,
    }
}

/// A unique path per test run, so runs sharing one Redis never see each other's entries.
fn unique(path: &str) -> String {
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .expect("time")
        .as_nanos();
    format!("/{path}/{nanos}")
}

#[tokio::test]
async fn two_replicas_share_entries_partitions_ttls_and_clears() {
    let Some(redis) = redis_url() else {
        return;
    };
    let server = MockServer::start().await;
    let me = unique("me");
    Mock::given(method("GET"))
        .and(path(me.as_str()))
        .respond_with(
            ResponseTemplate::new(200)
                .insert_header("cache-control", "max-age=30")
                .set_body_raw(r#"{"login":"octo"}"#, "application/json"),
        )
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(201))
        .mount(&server)
        .await;
    let start = SystemTime::UNIX_EPOCH + Duration::from_millis(1_800_000_000_123);
    let now = Arc::new(Mutex::new(start));
    let one = replica(&server, &redis, "token-a", &now);
    let two = replica(&server, &redis, "token-a", &now);
    let url = one.url(&me, &[] as &[(&str, &str)]).expect("url");

    let miss = one.get_cached(url.clone(), as_principal("alice")).await.expect("miss");
    assert!(!miss.cache.hit);
    *now.lock().expect("clock") = start + Duration::from_millis(1500);
    let hit = two.get_cached(url.clone(), as_principal("alice")).await.expect("hit");
    assert!(hit.cache.hit, "replica two serves replica one's entry");
    assert_eq!(hit.cache.fetched_at, miss.cache.fetched_at);
    assert_eq!(hit.cache.fetched_at_rfc3339(), "2027-01-15T08:00:00.123Z");
    assert_eq!(hit.cache.age_ms(), 1500);
    assert_eq!(&hit.response.body[..], br#"{"login":"octo"}"#);
    assert_eq!(hit.response.status, miss.response.status);
    assert_eq!(
        hit.response.headers.get("cache-control"),
        miss.response.headers.get("cache-control")
    );

    // Another principal, or the same principal with another credential, never shares the entry.
    assert!(
        !two.get_cached(url.clone(), as_principal("bob"))
            .await
            .expect("bob")
            .cache
            .hit
    );
    let other_token = replica(&server, &redis, "token-b", &now);
    assert!(
        !other_token
            .get_cached(url.clone(), as_principal("alice"))
            .await
            .expect("b")
            .cache
            .hit
    );

    // `max-age=30`: stale after 30 s on every replica.
    *now.lock().expect("clock") = start + Duration::from_secs(31);
    assert!(
        !two.get_cached(url.clone(), as_principal("alice"))
            .await
            .expect("stale")
            .cache
            .hit
    );
    *now.lock().expect("clock") = start + Duration::from_secs(32);
    assert!(
        one.get_cached(url.clone(), as_principal("alice"))
            .await
            .expect("refetched")
            .cache
            .hit
    );

    // A write through replica two clears the vendor's entries on replica one as well.
    two.send(Method::POST, url.clone(), Some(&serde_json::json!({})))
        .await
        .expect("post");
    assert!(
        !one.get_cached(url.clone(), as_principal("alice"))
            .await
            .expect("cleared")
            .cache
            .hit
    );
    assert!(
        two.get_cached(url, as_principal("alice"))
            .await
            .expect("stored again")
            .cache
            .hit
    );
}

#[tokio::test(flavor = "current_thread")]
async fn unreachable_redis_means_uncached_calls_and_one_warning() {
    let (logs, _guard) = crate::Captured::install(tracing::Level::WARN);

    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200).set_body_raw("{}", "application/json"))
        .expect(6)
        .mount(&server)
        .await;
    // Nothing listens on port 1.
    let now = Arc::new(Mutex::new(SystemTime::now()));
    let client = replica(&server, "redis://127.0.0.1:1/0", "token", &now);
    let url = client.url("/x", &[] as &[(&str, &str)]).expect("url");
    for round in 0..6 {
        if round == 3 {
            // Past the reconnect interval: a new attempt fails again, still within the same outage.
            tokio::time::sleep(Duration::from_millis(1100)).await;
        }
        let fetched = client
            .get_cached(url.clone(), as_principal("alice"))
            .await
            .expect("uncached call succeeds");
        assert!(!fetched.cache.hit);
        assert_eq!(fetched.cache.age_ms(), 0);
    }
    server.verify().await;
    let text = logs.text();
    assert_eq!(text.matches("Redis failed").count(), 1, "{text}");
}
