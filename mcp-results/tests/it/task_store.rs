//! The task stores keep the rules of `mcp_results::tasks` (owners, expiry, one terminal state, cooperative
//! cancellation): the same cases on the memory store and on the Redis store, and, for Redis, two stores on one
//! Redis (two replicas) and a Redis that cannot be reached.
//!
//! The Redis cases need `MCP_DEVTOOLS_TEST_REDIS_URL` (e.g. `redis://127.0.0.1:6379/0`), set by `scripts/test`,
//! which starts a local `redis-server` (`eval "$(scripts/services start)"` for a targeted run). Without it they print
//! why and pass, unless `MCP_DEVTOOLS_REQUIRE_SERVICES=1`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_results::tasks::{
    CancelSignal, MemoryTaskStore, Outcome, Progress, RedisTaskStore, RedisTaskStoreConfig, TaskId, TaskRecord,
    TaskStore, TaskStoreError,
};
use rmcp::ErrorData;
use rmcp::model::{CallToolResult, ContentBlock, TaskStatus};

const HOUR: Duration = Duration::from_secs(3600);
const POLL: Duration = Duration::from_millis(5000);

fn redis_url() -> Option<String> {
    let url = std::env::var("MCP_DEVTOOLS_TEST_REDIS_URL")
        .ok()
        .filter(|url| !url.is_empty());
    if url.is_none() {
        assert!(
            std::env::var("MCP_DEVTOOLS_REQUIRE_SERVICES").as_deref() != Ok("1"),
            "MCP_DEVTOOLS_REQUIRE_SERVICES=1 but MCP_DEVTOOLS_TEST_REDIS_URL is not set"
        );
        eprintln!("SKIPPED: no Redis test server (set MCP_DEVTOOLS_TEST_REDIS_URL, or run scripts/test)");
    }
    url
}

/// A Redis store on `url` with a short cancel poll, so that the cases stay quick.
fn redis_store(url: &str) -> RedisTaskStore {
    let config = RedisTaskStoreConfig::new(url)
        .with_cancel_poll_interval(Duration::from_millis(50))
        // Generous: these cases are about the rules, not the timeout (a loaded machine can pause).
        .with_command_timeout(Duration::from_secs(2));
    RedisTaskStore::new(&config).expect("a Redis URL")
}

fn result(text: &str) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}

/// `signal` within `within`, or a failure naming what was awaited.
async fn resolves(signal: impl Future<Output = CancelSignal>, within: Duration, what: &str) -> CancelSignal {
    tokio::time::timeout(within, signal)
        .await
        .unwrap_or_else(|_| panic!("{what} did not resolve within {within:?}"))
}

/// Every rule, on `store` (as the replica that runs the tasks) and `other` (a replica sharing it; the same store
/// for the memory backend).
async fn keeps_the_rules(store: Arc<dyn TaskStore>, other: Arc<dyn TaskStore>) {
    // Created: found by its owner everywhere, not found for anyone else or by any other id.
    let record = TaskRecord::new("alice", HOUR, POLL);
    store.create(&record).await.unwrap();
    let seen = other
        .get("alice", record.id.as_str())
        .await
        .unwrap()
        .expect("alice's task");
    assert_eq!(seen, record);
    assert_eq!(seen.status(), TaskStatus::Working);
    assert_eq!(other.get("bob", record.id.as_str()).await.unwrap(), None, "not bob's");
    assert_eq!(
        other.get("alice", TaskId::random().as_str()).await.unwrap(),
        None,
        "unknown id"
    );
    for malformed in ["", "x", "../alice", &record.id.as_str().to_uppercase()] {
        assert_eq!(other.get("alice", malformed).await.unwrap(), None, "{malformed:?}");
    }

    // Progress, then one terminal state; later progress and settles change nothing.
    store
        .report(&record.id, &Progress::new(3, Some(7), "in_progress: 3 of 7 jobs done"))
        .await
        .unwrap();
    let working = other.get("alice", record.id.as_str()).await.unwrap().unwrap();
    assert_eq!(
        working.progress,
        Some(Progress::new(3, Some(7), "in_progress: 3 of 7 jobs done"))
    );
    assert_eq!(
        working.task().status_message.as_deref(),
        Some("in_progress: 3 of 7 jobs done")
    );
    let done = Outcome::completed(&result("all green"));
    assert!(store.settle(&record.id, &done).await.unwrap());
    assert!(
        !store.settle(&record.id, &Outcome::Cancelled).await.unwrap(),
        "settled once"
    );
    store.report(&record.id, &Progress::new(9, None, "late")).await.unwrap();
    let settled = other.get("alice", record.id.as_str()).await.unwrap().unwrap();
    assert_eq!(settled.status(), TaskStatus::Completed);
    assert_eq!(settled.outcome, Some(done));
    assert_eq!(settled.progress, working.progress, "no progress after settling");
    let answer = serde_json::to_value(settled.to_get_result()).unwrap();
    assert_eq!(answer["result"]["content"][0]["text"], "all green", "{answer}");

    // A failed call keeps its JSON-RPC error.
    let failing = TaskRecord::new("alice", HOUR, POLL);
    store.create(&failing).await.unwrap();
    let error = ErrorData::internal_error("the tool call panicked", None);
    assert!(store.settle(&failing.id, &Outcome::failed(&error)).await.unwrap());
    let failed = other.get("alice", failing.id.as_str()).await.unwrap().unwrap();
    assert_eq!(failed.status(), TaskStatus::Failed);
    assert_eq!(failed.task().status_message.as_deref(), Some("the tool call panicked"));

    // Cancellation: only the owner's request counts; the runner learns it (from any replica) and settles.
    let running = TaskRecord::new("alice", HOUR, POLL);
    store.create(&running).await.unwrap();
    let watching = {
        let store = store.clone();
        let id = running.id.clone();
        tokio::spawn(async move { store.cancellation(&id).await })
    };
    assert!(
        !other.cancel("bob", running.id.as_str()).await.unwrap(),
        "bob cannot cancel it"
    );
    assert!(!other.cancel("alice", TaskId::random().as_str()).await.unwrap());
    tokio::time::sleep(Duration::from_millis(150)).await;
    assert!(!watching.is_finished(), "nothing requested yet");
    let asked = Instant::now();
    assert!(other.cancel("alice", running.id.as_str()).await.unwrap());
    let signal = resolves(
        async { watching.await.unwrap() },
        Duration::from_secs(2),
        "cancellation",
    )
    .await;
    assert_eq!(signal, CancelSignal::Requested);
    assert!(asked.elapsed() < Duration::from_millis(600), "{:?}", asked.elapsed());
    assert!(
        other
            .get("alice", running.id.as_str())
            .await
            .unwrap()
            .unwrap()
            .cancel_requested
    );
    assert!(store.settle(&running.id, &Outcome::Cancelled).await.unwrap());
    let cancelled = other.get("alice", running.id.as_str()).await.unwrap().unwrap();
    assert_eq!(cancelled.status(), TaskStatus::Cancelled);
    assert!(
        other.cancel("alice", running.id.as_str()).await.unwrap(),
        "a settled task is still found"
    );

    // Expiry: forgotten ttlMs after creation, everywhere; its runner is told it is gone.
    let brief = TaskRecord::new("alice", Duration::from_millis(300), POLL);
    store.create(&brief).await.unwrap();
    assert!(other.get("alice", brief.id.as_str()).await.unwrap().is_some());
    let gone = resolves(store.cancellation(&brief.id), Duration::from_secs(2), "expiry").await;
    assert_eq!(gone, CancelSignal::Gone);
    assert_eq!(other.get("alice", brief.id.as_str()).await.unwrap(), None, "expired");
    store
        .report(&brief.id, &Progress::new(1, None, "after expiry"))
        .await
        .unwrap();
    assert!(
        !store.settle(&brief.id, &done_outcome()).await.unwrap(),
        "nothing to settle"
    );
    assert_eq!(
        other.get("alice", brief.id.as_str()).await.unwrap(),
        None,
        "not re-created"
    );
    let unknown = resolves(store.cancellation(&TaskId::random()), Duration::from_secs(2), "unknown").await;
    assert_eq!(unknown, CancelSignal::Gone);
}

fn done_outcome() -> Outcome {
    Outcome::completed(&result("late"))
}

#[tokio::test]
async fn the_memory_store_keeps_the_rules() {
    let store: Arc<dyn TaskStore> = Arc::new(MemoryTaskStore::new());
    keeps_the_rules(store.clone(), store).await;
}

#[tokio::test]
async fn two_redis_stores_on_one_redis_keep_the_rules_together() {
    let Some(url) = redis_url() else {
        return;
    };
    keeps_the_rules(Arc::new(redis_store(&url)), Arc::new(redis_store(&url))).await;
}

#[tokio::test]
async fn an_unreachable_redis_fails_at_once_and_never_loses_a_task_silently() {
    // A port nothing listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let store = redis_store(&format!("redis://127.0.0.1:{port}/0"));
    let record = TaskRecord::new("alice", HOUR, POLL);
    let started = Instant::now();
    let err = store.create(&record).await.unwrap_err();
    assert!(matches!(err, TaskStoreError::Unreachable { .. }), "{err}");
    assert!(err.to_string().starts_with("the task store is unreachable: "), "{err}");
    assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
    // Within the reconnect interval, the next command fails without trying.
    let again = Instant::now();
    assert!(store.get("alice", record.id.as_str()).await.is_err());
    assert!(again.elapsed() < Duration::from_millis(100), "{:?}", again.elapsed());
    // A running task whose store is down keeps running (no signal while Redis does not answer).
    let waited = tokio::time::timeout(Duration::from_millis(400), store.cancellation(&record.id)).await;
    assert!(
        waited.is_err(),
        "no cancellation signal from an unreachable store: {waited:?}"
    );
}

#[tokio::test]
async fn redis_keys_expire_with_the_task_and_changes_keep_the_expiry() {
    let Some(url) = redis_url() else {
        return;
    };
    let prefix = format!("mcp-results-test:{}", TaskId::random());
    let config = RedisTaskStoreConfig::new(&url).with_key_prefix(prefix.clone());
    let store = RedisTaskStore::new(&config).unwrap();
    let record = TaskRecord::new("alice", Duration::from_secs(30), POLL);
    store.create(&record).await.unwrap();
    let client = redis::Client::open(url.as_str()).unwrap();
    let mut connection = client.get_multiplexed_async_connection().await.unwrap();
    let key = format!("{prefix}:{}", record.id);
    let ttl: i64 = redis::cmd("PTTL").arg(&key).query_async(&mut connection).await.unwrap();
    assert!((29_000..=30_000).contains(&ttl), "PTTL {ttl}");
    // Progress and settling keep the expiry.
    store.report(&record.id, &Progress::new(1, None, "one")).await.unwrap();
    store.settle(&record.id, &Outcome::Cancelled).await.unwrap();
    let ttl: i64 = redis::cmd("PTTL").arg(&key).query_async(&mut connection).await.unwrap();
    assert!((28_000..=30_000).contains(&ttl), "PTTL after the changes {ttl}");
    let _: () = redis::cmd("DEL").arg(&key).query_async(&mut connection).await.unwrap();
}
