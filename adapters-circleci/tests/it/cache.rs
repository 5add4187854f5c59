//! The CircleCI adapter through the shared HTTP cache, against wiremock, with a controllable clock (no sleeps):
//! CONTRACT §3 `cache`. Each upstream mock states how many requests it must receive.

use crate::support;

use std::time::Duration;

use adapters_http::{cache::CacheConfig, cache::HttpCache};
use recorded_upstream::fixture;
use support::{TOKEN, TestClock, cache, client_with, get};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

async fn mount(server: &MockServer, route: &str, response: ResponseTemplate, times: u64) {
    Mock::given(method("GET"))
        .and(path(route))
        .respond_with(response)
        .expect(times)
        .mount(server)
        .await;
}

fn me() -> ResponseTemplate {
    fixture("circleci/me").expect("fixture").response()
}

#[tokio::test]
async fn first_call_misses_second_within_ttl_hits_with_age_and_same_fetched_at() {
    let server = MockServer::start().await;
    mount(&server, "/api/v2/me", me(), 1).await;
    let clock = TestClock::default();
    let client = client_with(&server, Some(TOKEN), Some(cache(&clock)));

    let first = get(&client, "/me", "alice", false).await;
    assert!(!first.cache.hit);
    assert_eq!(first.cache.age_ms(), 0);
    assert_eq!(first.cache.fetched_at_rfc3339(), "2026-10-07T16:20:11.402Z");
    assert_eq!(first.body.as_data().unwrap()["login"], "octocat");

    clock.advance_ms(1500);
    let second = get(&client, "/api/v2/me", "alice", false).await;
    assert!(second.cache.hit, "the /api/v2 prefix names the same entry");
    assert_eq!(second.cache.age_ms(), 1500);
    assert_eq!(second.cache.fetched_at, first.cache.fetched_at);
    assert_eq!(second.body, first.body);
    server.verify().await;
}

#[tokio::test]
async fn after_the_default_ttl_a_new_fetch() {
    let server = MockServer::start().await;
    mount(&server, "/api/v2/me", me(), 2).await;
    let clock = TestClock::default();
    let client = client_with(&server, Some(TOKEN), Some(cache(&clock)));
    let first = get(&client, "/me", "alice", false).await;
    clock.advance_ms(59_999);
    assert!(get(&client, "/me", "alice", false).await.cache.hit);
    clock.advance_ms(1);
    let third = get(&client, "/me", "alice", false).await;
    assert!(!third.cache.hit);
    assert_eq!(third.cache.age_ms(), 0);
    assert_eq!(
        third.cache.fetched_at.duration_since(first.cache.fetched_at).ok(),
        Some(Duration::from_secs(60))
    );
    server.verify().await;
}

#[tokio::test]
async fn fresh_bypasses_and_replaces_the_entry() {
    let server = MockServer::start().await;
    mount(&server, "/api/v2/me", me(), 2).await;
    let clock = TestClock::default();
    let client = client_with(&server, Some(TOKEN), Some(cache(&clock)));
    get(&client, "/me", "alice", false).await;
    clock.advance_ms(1000);
    let fresh = get(&client, "/me", "alice", true).await;
    assert!(!fresh.cache.hit);
    assert_eq!(fresh.cache.age_ms(), 0);
    clock.advance_ms(250);
    let after = get(&client, "/me", "alice", false).await;
    assert!(after.cache.hit);
    assert_eq!(
        after.cache.fetched_at, fresh.cache.fetched_at,
        "the fresh read replaced the entry"
    );
    assert_eq!(after.cache.age_ms(), 250);
    server.verify().await;
}

#[tokio::test]
async fn no_store_is_never_cached() {
    let server = MockServer::start().await;
    mount(
        &server,
        "/api/v2/me",
        me().insert_header("cache-control", "no-store"),
        2,
    )
    .await;
    let clock = TestClock::default();
    let client = client_with(&server, Some(TOKEN), Some(cache(&clock)));
    assert!(!get(&client, "/me", "alice", false).await.cache.hit);
    assert!(!get(&client, "/me", "alice", false).await.cache.hit);
    server.verify().await;
}

#[tokio::test]
async fn max_age_sets_the_lifetime() {
    let server = MockServer::start().await;
    mount(
        &server,
        "/api/v2/me",
        me().insert_header("cache-control", "private, max-age=5"),
        2,
    )
    .await;
    let clock = TestClock::default();
    let client = client_with(&server, Some(TOKEN), Some(cache(&clock)));
    get(&client, "/me", "alice", false).await;
    clock.advance_ms(4_999);
    assert!(get(&client, "/me", "alice", false).await.cache.hit);
    clock.advance_ms(1);
    assert!(
        !get(&client, "/me", "alice", false).await.cache.hit,
        "max-age=5 beats the 60 s default"
    );
    server.verify().await;
}

#[tokio::test]
async fn pipeline_workflow_and_job_paths_are_never_cached() {
    let server = MockServer::start().await;
    let routes = [
        ("/api/v2/project/gh/o/r/pipeline", "circleci/pipelines"),
        ("/api/v2/pipeline/5034460f/workflow", "circleci/pipeline-workflows"),
        ("/api/v2/workflow/fda08377/job", "circleci/workflow-jobs"),
        ("/api/v2/project/gh/o/r/job/101", "circleci/me"),
    ];
    for (route, name) in routes {
        mount(&server, route, fixture(name).expect("fixture").response(), 2).await;
    }
    let clock = TestClock::default();
    let client = client_with(&server, Some(TOKEN), Some(cache(&clock)));
    for (route, _) in routes {
        for _ in 0..2 {
            let got = get(&client, route, "alice", false).await;
            assert!(!got.cache.hit, "{route}");
            clock.advance_ms(10);
        }
    }
    server.verify().await;
}

#[tokio::test]
async fn a_404_is_an_error_never_cached_and_a_later_200_is_a_miss() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/api/v2/project/gh/o/gone"))
        .respond_with(fixture("circleci/error-404").expect("fixture").response())
        .up_to_n_times(1)
        .expect(1)
        .with_priority(1)
        .mount(&server)
        .await;
    mount(&server, "/api/v2/project/gh/o/gone", me(), 1).await;
    let clock = TestClock::default();
    let client = client_with(&server, Some(TOKEN), Some(cache(&clock)));
    let err = client
        .get(&adapters_circleci::GetRequest::new("/project/gh/o/gone", "alice"))
        .await
        .expect_err("404");
    assert_eq!(err.status(), Some(404));
    let text = err.to_string();
    assert!(
        text.starts_with("CircleCI API 404 Not Found: Project not found — "),
        "{text}"
    );
    assert!(!text.contains(TOKEN));
    clock.advance_ms(10);
    let ok = get(&client, "/project/gh/o/gone", "alice", false).await;
    assert!(!ok.cache.hit);
    server.verify().await;
}

#[tokio::test]
async fn two_principals_never_share_an_entry() {
    let server = MockServer::start().await;
    mount(&server, "/api/v2/me", me(), 2).await;
    let clock = TestClock::default();
    let client = client_with(&server, Some(TOKEN), Some(cache(&clock)));
    assert!(!get(&client, "/me", "alice", false).await.cache.hit);
    clock.advance_ms(10);
    assert!(!get(&client, "/me", "bob", false).await.cache.hit);
    clock.advance_ms(10);
    assert!(get(&client, "/me", "alice", false).await.cache.hit);
    assert!(get(&client, "/me", "bob", false).await.cache.hit);
    server.verify().await;
}

#[tokio::test]
async fn two_credentials_never_share_an_entry() {
    let server = MockServer::start().await;
    mount(&server, "/api/v2/me", me(), 2).await;
    let clock = TestClock::default();
    let shared = cache(&clock);
    let one = client_with(&server, Some(TOKEN), Some(shared.clone()));
    let other = client_with(&server, Some("another-token"), Some(shared));
    assert!(!get(&one, "/me", "alice", false).await.cache.hit);
    assert!(!get(&other, "/me", "alice", false).await.cache.hit);
    assert!(get(&one, "/me", "alice", false).await.cache.hit);
    server.verify().await;
}

#[tokio::test]
async fn with_caching_off_every_call_is_fetched() {
    let server = MockServer::start().await;
    mount(&server, "/api/v2/me", me(), 2).await;
    let clock = TestClock::default();
    let off = HttpCache::with_clock(CacheConfig::default().with_enabled(false), clock.clock());
    let client = client_with(&server, Some(TOKEN), Some(off));
    for _ in 0..2 {
        let got = get(&client, "/me", "alice", false).await;
        assert!(!got.cache.hit);
        assert_eq!(got.cache.age_ms(), 0);
        clock.advance_ms(10);
    }
    server.verify().await;
}
