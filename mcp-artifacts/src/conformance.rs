//! The conformance suite every [`ArtifactStore`] backend passes (feature `conformance`): owners, the one
//! not-found text, expiry, sweeps, quotas, chunked reads that reassemble byte for byte, and a concurrent stress
//! case. The crate runs it on its memory, filesystem and S3 stores; a third-party backend runs it too:
//!
//! - [`conformance_suite!`](crate::conformance_suite)`(factory)` makes one `#[tokio::test]` per case;
//!   `conformance_suite!(factory, skip_unless = ready)` lets each test pass unrun when `ready()` is false;
//! - [`run_all`]`(factory).await` runs every case in turn inside one test.
//!
//! Each case is a generic `async fn case<S: ArtifactStore>(fx: Fixture<S>)`; the factory builds a fresh, empty
//! store for each (`async fn(StoreConfig) -> Fixture<S>`) reading time from the fixture's [`ManualClock`].

use std::sync::Arc;
use std::time::Duration;

use crate::{
    ArtifactError, ArtifactReadResult, ArtifactStore, Clock, Encoding, MAX_READ_MAX_BYTES, ManualClock,
    NOT_FOUND_MESSAGE, Quota, QuotaScope, SWEEP_BATCH_LIMIT, StoreConfig,
};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use bytes::Bytes;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use rand::{Rng, RngCore, SeedableRng};
use sha2::{Digest, Sha256};

/// A store under test plus the clock it reads and whatever keeps its storage alive.
pub struct Fixture<S> {
    /// The store, new and empty, reading time from `clock`.
    pub store: S,
    /// The clock the cases advance to expire artifacts.
    pub clock: Arc<ManualClock>,
    /// The configuration the store was built with.
    pub config: StoreConfig,
    /// Keeps e.g. a temporary directory alive for the test's duration.
    pub _guard: Option<tempfile::TempDir>,
}

/// Instantiates every conformance case as a `#[tokio::test]` (multi-threaded runtime, 2 workers) for the
/// backend built by `$factory(config).await -> Fixture<S>`, a function or closure. Cases run with
/// [`StoreConfig::default()`] except the quota cases, which run with [`small_quota_config()`].
///
/// With `skip_unless = ready`, each test first calls `ready() -> bool` and passes without running when it is
/// false (a backend that needs a service the machine may not have).
///
/// ```ignore
/// mcp_artifacts::conformance_suite!(my_fixture);
/// mcp_artifacts::conformance_suite!(my_service_fixture, skip_unless = || service_is_configured());
/// ```
#[macro_export]
macro_rules! conformance_suite {
    ($factory:expr) => {
        $crate::conformance_suite!(@each tests (|| true) $factory);
    };
    ($factory:expr, skip_unless = $ready:expr) => {
        $crate::conformance_suite!(@each tests ($ready) $factory);
    };
    (@each $mode:ident $ready:tt $factory:expr) => {
        $crate::conformance_suite!(@$mode $ready $factory; $crate::StoreConfig::default();
            put_then_read_roundtrip,
            chunked_read_rebuilds_exact_bytes_across_utf8_boundaries,
            each_chunk_decodes_alone,
            empty_artifact_is_readable,
            offset_equal_to_total_is_empty_eof_chunk,
            offset_past_end_is_an_error,
            not_found_is_identical_for_every_cause,
            expired_artifact_is_unreadable_before_sweep,
            delete_removes_only_for_owner,
            sweep_removes_expired_and_keeps_fresh,
            sweep_is_bounded_per_call,
            reads_in_progress_survive_expiry,
            max_bytes_is_clamped,
            ids_are_unique_and_well_formed,
            sixteen_mib_reassembles,
            large_random_sizes_reassemble,
            edge_sizes_reassemble,
            random_sizes_reassemble,
            utf8_text_reassembles_at_random_cuts,
            concurrent_puts_reads_deletes_and_sweeps,
        );
        $crate::conformance_suite!(@$mode $ready $factory; $crate::conformance::small_quota_config();
            over_principal_quota_put_fails_and_keeps_everything,
            artifact_larger_than_the_quota_fails_cleanly,
            store_quota_never_evicts_another_principal,
            deleted_and_swept_artifacts_give_quota_back,
        );
    };
    (@tests $ready:tt $factory:expr; $config:expr; $($case:ident),* $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $case() {
                if !($ready)() {
                    return;
                }
                $crate::conformance::$case(($factory)($config).await).await;
            }
        )*
    };
    (@run $ready:tt $factory:expr; $config:expr; $($case:ident),* $(,)?) => {
        $(
            eprintln!("conformance: {}", stringify!($case));
            $crate::conformance::$case(($factory)($config).await).await;
        )*
    };
}

/// Runs every conformance case, one after another, each on a fresh store from `factory(config)`: the same cases
/// as [`conformance_suite!`](crate::conformance_suite), for backends whose tests decide at run time whether
/// they can run (e.g. a store that needs a service). Panics on the first failure. Needs a multi-threaded tokio
/// runtime (the property cases block in place).
pub async fn run_all<S, F, Fut>(factory: F)
where
    S: ArtifactStore,
    F: Fn(StoreConfig) -> Fut,
    Fut: std::future::Future<Output = Fixture<S>>,
{
    let factory = &factory;
    crate::conformance_suite!(@each run (|| true) factory);
}

const OWNER: &str = "alice";
const OTHER: &str = "mallory";
const JSON: &str = "application/json";

fn sha256(bytes: &[u8]) -> Vec<u8> {
    Sha256::digest(bytes).to_vec()
}

fn random_bytes(len: usize, seed: u64) -> Vec<u8> {
    let mut bytes = vec![0u8; len];
    rand::rngs::StdRng::seed_from_u64(seed).fill_bytes(&mut bytes);
    bytes
}

/// Reads `id` from offset 0 to eof through `ArtifactReadResult`, checking every chunk's
/// invariants, and returns the joined decoded bytes.
pub async fn read_all<S: ArtifactStore>(store: &S, id: &str, max_bytes: u64) -> Vec<u8> {
    read_all_as(store, OWNER, id, max_bytes).await
}

/// [`read_all`] as `owner`.
pub async fn read_all_as<S: ArtifactStore>(store: &S, owner: &str, id: &str, max_bytes: u64) -> Vec<u8> {
    let mut out = Vec::new();
    let mut offset = 0;
    loop {
        let chunk = store
            .read_chunk(owner, id, offset, max_bytes)
            .await
            .expect("chunk read");
        let result = ArtifactReadResult::from(chunk);
        assert_eq!(result.artifact_id, id);
        assert_eq!(result.offset, offset);
        assert_eq!(result.encoding, Encoding::Base64);
        let data = STANDARD.decode(&result.data).expect("chunk decodes alone");
        assert_eq!(data.len() as u64, result.next_offset - result.offset);
        assert!(data.len() as u64 <= max_bytes.clamp(1, MAX_READ_MAX_BYTES));
        assert_eq!(result.eof, result.next_offset == result.total_bytes);
        out.extend_from_slice(&data);
        if result.eof {
            return out;
        }
        assert!(result.next_offset > offset, "no progress at {offset}");
        offset = result.next_offset;
    }
}

async fn put<S: ArtifactStore>(store: &S, bytes: impl Into<Bytes>) -> String {
    store.put(OWNER, JSON, bytes.into()).await.expect("put").into()
}

async fn expect_not_found<S: ArtifactStore>(store: &S, owner: &str, id: &str) {
    let err = store.read_chunk(owner, id, 0, 16).await.expect_err("read must fail");
    assert!(matches!(err, ArtifactError::NotFound), "{id:?}: {err:?}");
    assert_eq!(err.to_string(), NOT_FOUND_MESSAGE);
    assert_eq!(err.to_string(), "Artifact not found or expired");
}

/// Conformance case: put then read roundtrip.
pub async fn put_then_read_roundtrip<S: ArtifactStore>(fx: Fixture<S>) {
    let body = br#"{"data":[1,2,3]}"#;
    let id = put(&fx.store, &body[..]).await;
    let chunk = fx.store.read_chunk(OWNER, &id, 0, 65_536).await.expect("read");
    assert_eq!(chunk.artifact_id, id);
    assert_eq!(chunk.mime_type, JSON);
    assert_eq!(
        (chunk.offset, chunk.next_offset, chunk.total_bytes, chunk.eof),
        (0, body.len() as u64, body.len() as u64, true)
    );
    assert_eq!(&chunk.data[..], &body[..]);
}

/// Conformance case: chunked read rebuilds exact bytes across utf8 boundaries.
pub async fn chunked_read_rebuilds_exact_bytes_across_utf8_boundaries<S: ArtifactStore>(fx: Fixture<S>) {
    // 2-, 3- and 4-byte characters: chunk sizes 1..=7 cut inside each of them many times (~1,300 reads in all, so
    // a store behind a network round trip stays fast).
    let text = "aé€😀".repeat(50);
    let id = put(&fx.store, text.clone().into_bytes()).await;
    for max_bytes in 1..=7 {
        let joined = read_all(&fx.store, &id, max_bytes).await;
        assert_eq!(sha256(&joined), sha256(text.as_bytes()), "max_bytes {max_bytes}");
    }
    // A specific cut inside the 4-byte emoji: bytes [1, 5) are "é" and the first 2 bytes of "€".
    let chunk = fx.store.read_chunk(OWNER, &id, 1, 4).await.expect("read");
    assert_eq!(&chunk.data[..], &text.as_bytes()[1..5]);
    assert!(std::str::from_utf8(&chunk.data).is_err());
}

/// Conformance case: each chunk decodes alone.
pub async fn each_chunk_decodes_alone<S: ArtifactStore>(fx: Fixture<S>) {
    let body = serde_json::to_vec(&serde_json::json!({"k": "väl", "n": [1, 2, 3]})).expect("json");
    let id = put(&fx.store, body.clone()).await;
    let mut offset = 0;
    while offset < body.len() as u64 {
        let result: ArtifactReadResult = fx.store.read_chunk(OWNER, &id, offset, 5).await.expect("read").into();
        let decoded = STANDARD.decode(&result.data).expect("decodes alone");
        assert_eq!(decoded, body[result.offset as usize..result.next_offset as usize]);
        offset = result.next_offset;
    }
}

/// Conformance case: empty artifact is readable.
pub async fn empty_artifact_is_readable<S: ArtifactStore>(fx: Fixture<S>) {
    let id = put(&fx.store, Bytes::new()).await;
    let result: ArtifactReadResult = fx.store.read_chunk(OWNER, &id, 0, 1024).await.expect("read").into();
    assert_eq!(
        (result.offset, result.next_offset, result.total_bytes, result.eof),
        (0, 0, 0, true)
    );
    assert_eq!(result.data, "");
}

/// Conformance case: offset equal to total is empty eof chunk.
pub async fn offset_equal_to_total_is_empty_eof_chunk<S: ArtifactStore>(fx: Fixture<S>) {
    let id = put(&fx.store, &b"hello"[..]).await;
    let chunk = fx.store.read_chunk(OWNER, &id, 5, 10).await.expect("read");
    assert_eq!((chunk.offset, chunk.next_offset, chunk.eof), (5, 5, true));
    assert!(chunk.data.is_empty());
}

/// Conformance case: offset past end is an error.
pub async fn offset_past_end_is_an_error<S: ArtifactStore>(fx: Fixture<S>) {
    let id = put(&fx.store, &b"hello"[..]).await;
    for offset in [6, u64::MAX] {
        let err = fx.store.read_chunk(OWNER, &id, offset, 10).await.expect_err("past end");
        assert!(
            matches!(err, ArtifactError::OffsetPastEnd { offset: o, total_bytes: 5 } if o == offset),
            "{err:?}"
        );
        assert!(err.to_string().contains("0..=5"), "{err}");
    }
}

/// Conformance case: not found is identical for every cause.
pub async fn not_found_is_identical_for_every_cause<S: ArtifactStore>(fx: Fixture<S>) {
    let id = put(&fx.store, &b"secret"[..]).await;
    expect_not_found(&fx.store, OTHER, &id).await;
    expect_not_found(&fx.store, "", &id).await;
    expect_not_found(&fx.store, OWNER, "0123456789abcdef0123456789abcdef").await;
    for malformed in [
        "../../etc/passwd",
        "",
        ".",
        "..",
        "/etc/passwd",
        &id.to_uppercase(),
        &format!("{id}/.."),
        &format!("../{id}"),
        &id[..31],
        "0123456789abcdef0123456789abcde\0",
    ] {
        expect_not_found(&fx.store, OWNER, malformed).await;
    }
    // No size oracle either: an offset past the end is NotFound for anyone but the owner.
    let err = fx.store.read_chunk(OTHER, &id, u64::MAX, 1).await.expect_err("other");
    assert!(err.is_not_found(), "{err:?}");
    let other_owner = format!("{:?}", fx.store.read_chunk(OTHER, &id, 0, 1).await.err());
    let unknown = format!("{:?}", fx.store.read_chunk(OWNER, &"f".repeat(32), 0, 1).await.err());
    let malformed = format!("{:?}", fx.store.read_chunk(OWNER, "../x", 0, 1).await.err());
    fx.clock.advance(fx.config.retention);
    expect_not_found(&fx.store, OWNER, &id).await;
    let expired = format!("{:?}", fx.store.read_chunk(OWNER, &id, 0, 1).await.err());
    assert!(
        other_owner == unknown && unknown == malformed && malformed == expired,
        "{other_owner} {expired}"
    );
    // Other operations give the same answer.
    let err = fx.store.delete(OTHER, &id).await.expect_err("delete");
    assert_eq!(err.to_string(), NOT_FOUND_MESSAGE);
    let err = fx.store.delete(OWNER, "../../etc/passwd").await.expect_err("delete");
    assert_eq!(err.to_string(), NOT_FOUND_MESSAGE);
}

/// Conformance case: expired artifact is unreadable before sweep.
pub async fn expired_artifact_is_unreadable_before_sweep<S: ArtifactStore>(fx: Fixture<S>) {
    let id = put(&fx.store, &b"short-lived"[..]).await;
    fx.clock.advance(fx.config.retention - Duration::from_millis(1));
    fx.store.read_chunk(OWNER, &id, 0, 4).await.expect("still fresh");
    fx.clock.advance(Duration::from_millis(1));
    expect_not_found(&fx.store, OWNER, &id).await;
    let err = fx.store.delete(OWNER, &id).await.expect_err("expired");
    assert!(err.is_not_found());
}

/// Conformance case: delete removes only for owner.
pub async fn delete_removes_only_for_owner<S: ArtifactStore>(fx: Fixture<S>) {
    let id = put(&fx.store, &b"bye"[..]).await;
    assert!(fx.store.delete(OTHER, &id).await.expect_err("other").is_not_found());
    fx.store.read_chunk(OWNER, &id, 0, 4).await.expect("kept");
    fx.store.delete(OWNER, &id).await.expect("delete");
    expect_not_found(&fx.store, OWNER, &id).await;
    assert!(fx.store.delete(OWNER, &id).await.expect_err("again").is_not_found());
    assert_eq!(fx.store.sweep_expired().await.expect("sweep"), 0);
}

/// Conformance case: sweep removes expired and keeps fresh.
pub async fn sweep_removes_expired_and_keeps_fresh<S: ArtifactStore>(fx: Fixture<S>) {
    let half = fx.config.retention / 2;
    let old = put(&fx.store, &b"old"[..]).await;
    let old_other = fx
        .store
        .put(OTHER, "text/plain", Bytes::from_static(b"old too"))
        .await
        .expect("put");
    assert_eq!(fx.store.sweep_expired().await.expect("sweep"), 0);
    fx.clock.advance(half);
    let fresh = put(&fx.store, &b"fresh"[..]).await;
    fx.clock.advance(fx.config.retention - half);
    assert_eq!(fx.store.sweep_expired().await.expect("sweep"), 2);
    assert_eq!(fx.store.sweep_expired().await.expect("sweep again"), 0);
    expect_not_found(&fx.store, OWNER, &old).await;
    expect_not_found(&fx.store, OTHER, old_other.as_str()).await;
    assert_eq!(read_all(&fx.store, &fresh, 2).await, b"fresh");
}

/// Conformance case: reads in progress survive expiry.
pub async fn reads_in_progress_survive_expiry<S: ArtifactStore>(fx: Fixture<S>) {
    // Readers race with expiry and sweeps: every read either returns exactly the right bytes
    // or NotFound, never a partial chunk or an I/O error.
    let body = Bytes::from(random_bytes(512 * 1024, 7));
    let id = put(&fx.store, body.clone()).await;
    let store = Arc::new(fx.store);
    let mut readers = Vec::new();
    for reader in 0..4u64 {
        let store = Arc::clone(&store);
        let (id, body) = (id.clone(), body.clone());
        readers.push(tokio::spawn(async move {
            let mut successes = 0u32;
            for round in 0..200u64 {
                let offset = (reader * 7919 + round * 104_729) % body.len() as u64;
                match store.read_chunk(OWNER, &id, offset, 65_536).await {
                    Ok(chunk) => {
                        let end = chunk.next_offset as usize;
                        assert_eq!(&chunk.data[..], &body[offset as usize..end]);
                        successes += 1;
                    }
                    Err(ArtifactError::NotFound) => return successes,
                    Err(other) => panic!("unexpected error: {other:?}"),
                }
                tokio::task::yield_now().await;
            }
            successes
        }));
    }
    tokio::task::yield_now().await;
    fx.clock.advance(fx.config.retention);
    store.sweep_expired().await.expect("sweep");
    for reader in readers {
        reader.await.expect("reader task");
    }
    expect_not_found(&*store, OWNER, &id).await;
}

/// Conformance case: max bytes is clamped.
pub async fn max_bytes_is_clamped<S: ArtifactStore>(fx: Fixture<S>) {
    let body = random_bytes(MAX_READ_MAX_BYTES as usize + 1000, 3);
    let id = put(&fx.store, body.clone()).await;
    let chunk = fx.store.read_chunk(OWNER, &id, 0, 0).await.expect("read");
    assert_eq!((chunk.next_offset, chunk.data.len()), (1, 1));
    let chunk = fx.store.read_chunk(OWNER, &id, 0, u64::MAX).await.expect("read");
    assert_eq!(chunk.next_offset, MAX_READ_MAX_BYTES);
    assert!(!chunk.eof);
    let chunk = fx
        .store
        .read_chunk(OWNER, &id, chunk.next_offset, u64::MAX)
        .await
        .expect("read");
    assert_eq!(chunk.data.len(), 1000);
    assert!(chunk.eof);
    assert_eq!(crate::clamp_read_max_bytes(None), crate::DEFAULT_READ_MAX_BYTES);
}

/// Conformance case: ids are unique and well formed.
pub async fn ids_are_unique_and_well_formed<S: ArtifactStore>(fx: Fixture<S>) {
    let mut ids = std::collections::HashSet::new();
    for _ in 0..50 {
        let id = put(&fx.store, &b"x"[..]).await;
        assert_eq!(id.len(), 32);
        assert!(id.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)));
        assert!(ids.insert(id));
    }
}

/// Conformance case: sixteen mib reassembles.
pub async fn sixteen_mib_reassembles<S: ArtifactStore>(fx: Fixture<S>) {
    let body = random_bytes(16 * 1024 * 1024, 16);
    let id = put(&fx.store, body.clone()).await;
    let joined = read_all(&fx.store, &id, MAX_READ_MAX_BYTES).await;
    assert_eq!(sha256(&joined), sha256(&body));
}

/// Proptest: 64 random (size <= 256 KiB, max_bytes) pairs reassemble exactly.
pub async fn random_sizes_reassemble<S: ArtifactStore>(fx: Fixture<S>) {
    let handle = tokio::runtime::Handle::current();
    let store = &fx.store;
    let mut runner = TestRunner::new(Config {
        cases: 64,
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = (0usize..=256 * 1024, 1u64..=80_000, any::<u64>());
    let outcome = runner.run(&strategy, |(size, max_bytes, seed)| {
        let body = random_bytes(size, seed);
        let joined = tokio::task::block_in_place(|| {
            handle.block_on(async {
                let id = put(store, body.clone()).await;
                read_all(store, &id, max_bytes).await
            })
        });
        prop_assert_eq!(joined.len(), body.len());
        prop_assert!(sha256(&joined) == sha256(&body));
        Ok(())
    });
    if let Err(err) = outcome {
        panic!("{err}");
    }
}

/// Per principal 4096 bytes, store 10000 bytes.
pub fn small_quota_config() -> StoreConfig {
    StoreConfig::default().with_quota(Quota {
        max_store_bytes: 10_000,
        max_principal_bytes: 4096,
    })
}

fn assert_quota_error(result: Result<crate::ArtifactId, ArtifactError>, scope: QuotaScope, bytes: u64) {
    match result {
        Err(ArtifactError::QuotaExceeded {
            scope: s,
            bytes: b,
            limit,
        }) => {
            assert_eq!((s, b), (scope, bytes));
            let text = ArtifactError::QuotaExceeded { scope, bytes, limit }.to_string();
            assert!(text.contains("quota") && text.contains(&bytes.to_string()), "{text}");
        }
        other => panic!("expected QuotaExceeded({scope:?}), got {other:?}"),
    }
}

/// Conformance case: over principal quota put fails and keeps everything.
pub async fn over_principal_quota_put_fails_and_keeps_everything<S: ArtifactStore>(fx: Fixture<S>) {
    let first = random_bytes(3000, 1);
    let first_id = put(&fx.store, first.clone()).await;
    assert_quota_error(
        fx.store.put(OWNER, JSON, Bytes::from(vec![0u8; 1097])).await,
        QuotaScope::Principal,
        1097,
    );
    // Nothing was evicted to make room, and the exact fit still works.
    assert_eq!(read_all(&fx.store, &first_id, 4096).await, first);
    let fit = put(&fx.store, vec![9u8; 1096]).await;
    assert_eq!(read_all(&fx.store, &fit, 4096).await, vec![9u8; 1096]);
    assert_quota_error(
        fx.store.put(OWNER, JSON, Bytes::from_static(b"x")).await,
        QuotaScope::Principal,
        1,
    );
    // Empty artifacts always fit.
    put(&fx.store, Bytes::new()).await;
    // Another principal has its own quota.
    fx.store
        .put(OTHER, JSON, Bytes::from(vec![1u8; 4096]))
        .await
        .expect("other principal's own quota");
    assert_eq!(read_all(&fx.store, &first_id, 4096).await, first);
}

/// Conformance case: artifact larger than the quota fails cleanly.
pub async fn artifact_larger_than_the_quota_fails_cleanly<S: ArtifactStore>(fx: Fixture<S>) {
    for size in [4097u64, 10_001, 16 * 1024 * 1024] {
        assert_quota_error(
            fx.store.put(OWNER, JSON, Bytes::from(vec![0u8; size as usize])).await,
            QuotaScope::Principal,
            size,
        );
    }
    // The failed puts reserved nothing: the whole quota is still free.
    let id = put(&fx.store, vec![5u8; 4096]).await;
    assert_eq!(read_all(&fx.store, &id, 1 << 20).await.len(), 4096);
    assert_eq!(fx.store.sweep_expired().await.expect("sweep"), 0);
}

/// Conformance case: store quota never evicts another principal.
pub async fn store_quota_never_evicts_another_principal<S: ArtifactStore>(fx: Fixture<S>) {
    let mut kept = Vec::new();
    for (n, owner) in ["p1", "p2"].iter().enumerate() {
        let body = random_bytes(4096, n as u64);
        let id = fx.store.put(owner, JSON, Bytes::from(body.clone())).await.expect("put");
        kept.push((*owner, id, body));
    }
    let body = random_bytes(1807, 9);
    let id = fx.store.put("p3", JSON, Bytes::from(body.clone())).await.expect("put");
    kept.push(("p3", id, body));
    // 9_999 of 10_000 bytes held: a newcomer with an empty principal quota still cannot put 2.
    assert_quota_error(
        fx.store.put("p4", JSON, Bytes::from_static(b"ab")).await,
        QuotaScope::Store,
        2,
    );
    fx.store
        .put("p4", JSON, Bytes::from_static(b"a"))
        .await
        .expect("exact fit");
    for (owner, id, body) in &kept {
        assert_eq!(&read_all_as(&fx.store, owner, id.as_str(), 4096).await, body);
    }
}

/// Conformance case: deleted and swept artifacts give quota back.
pub async fn deleted_and_swept_artifacts_give_quota_back<S: ArtifactStore>(fx: Fixture<S>) {
    let a = put(&fx.store, vec![1u8; 2048]).await;
    put(&fx.store, vec![2u8; 2048]).await;
    assert!(fx.store.put(OWNER, JSON, Bytes::from_static(b"x")).await.is_err());
    fx.store.delete(OWNER, &a).await.expect("delete");
    let c = put(&fx.store, vec![3u8; 2048]).await;
    assert!(fx.store.put(OWNER, JSON, Bytes::from_static(b"x")).await.is_err());
    // Expired artifacts count until swept.
    fx.clock.advance(fx.config.retention);
    expect_not_found(&fx.store, OWNER, &c).await;
    assert!(fx.store.put(OWNER, JSON, Bytes::from_static(b"x")).await.is_err());
    assert_eq!(fx.store.sweep_expired().await.expect("sweep"), 2);
    let d = put(&fx.store, vec![4u8; 4096]).await;
    assert_eq!(read_all(&fx.store, &d, 4096).await, vec![4u8; 4096]);
}

/// Conformance case: sweep is bounded per call.
pub async fn sweep_is_bounded_per_call<S: ArtifactStore>(fx: Fixture<S>) {
    let extra = 10;
    for _ in 0..SWEEP_BATCH_LIMIT + extra {
        put(&fx.store, &b"x"[..]).await;
    }
    fx.clock.advance(fx.config.retention / 2);
    let fresh = put(&fx.store, &b"fresh"[..]).await;
    fx.clock.advance(fx.config.retention / 2);
    assert_eq!(fx.store.sweep_expired().await.expect("sweep"), SWEEP_BATCH_LIMIT);
    assert_eq!(fx.store.sweep_expired().await.expect("sweep"), extra);
    assert_eq!(fx.store.sweep_expired().await.expect("sweep"), 0);
    assert_eq!(read_all(&fx.store, &fresh, 64).await, b"fresh");
}

/// Sizes around every edge: 0, 1, base64 groups, the default and maximum chunk sizes.
pub async fn edge_sizes_reassemble<S: ArtifactStore>(fx: Fixture<S>) {
    let mib = MAX_READ_MAX_BYTES as usize;
    let sizes = [
        0,
        1,
        2,
        3,
        4,
        5,
        1023,
        1024,
        1025,
        65_535,
        65_536,
        65_537,
        mib - 1,
        mib,
        mib + 1,
        2 * mib + 3,
    ];
    for (n, size) in sizes.into_iter().enumerate() {
        let body = random_bytes(size, n as u64);
        let id = put(&fx.store, body.clone()).await;
        // At most ~170 chunks per artifact, so the case stays fast on a store behind a network round trip.
        let small = (size as u64 / 150).max(1);
        for max_bytes in [small, 3, 65_535, 65_536, MAX_READ_MAX_BYTES, u64::MAX] {
            if size as u64 / max_bytes.min(MAX_READ_MAX_BYTES) > 170 {
                continue;
            }
            let joined = read_all(&fx.store, &id, max_bytes).await;
            assert_eq!(sha256(&joined), sha256(&body), "size {size}, max_bytes {max_bytes}");
        }
        if size > 0 {
            let end = fx
                .store
                .read_chunk(OWNER, &id, size as u64, 7)
                .await
                .expect("offset == total");
            assert!(end.eof && end.data.is_empty() && end.offset == size as u64);
            let past = fx.store.read_chunk(OWNER, &id, size as u64 + 1, 7).await;
            assert!(matches!(past, Err(ArtifactError::OffsetPastEnd { .. })), "{past:?}");
        }
    }
}

/// A few large artifacts (4..=16 MiB) read with random chunk sizes (256 KiB..=1 MiB).
pub async fn large_random_sizes_reassemble<S: ArtifactStore>(fx: Fixture<S>) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(42);
    for _ in 0..3 {
        let size = rng.random_range(4 * 1024 * 1024..=16 * 1024 * 1024);
        let max_bytes = rng.random_range(256 * 1024..=MAX_READ_MAX_BYTES);
        let body = random_bytes(size, rng.next_u64());
        let id = put(&fx.store, body.clone()).await;
        let joined = read_all(&fx.store, &id, max_bytes).await;
        assert_eq!(sha256(&joined), sha256(&body), "size {size}, max_bytes {max_bytes}");
    }
}

/// Proptest: random Unicode text (1- to 4-byte characters) cut at random chunk sizes, so
/// boundaries fall inside multibyte characters; the joined chunks are the text.
pub async fn utf8_text_reassembles_at_random_cuts<S: ArtifactStore>(fx: Fixture<S>) {
    let handle = tokio::runtime::Handle::current();
    let store = &fx.store;
    let mut runner = TestRunner::new(Config {
        cases: 64,
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = ("[a-zé€😀\u{10FFFF}\\PC]{0,200}", 1u64..=17);
    let outcome = runner.run(&strategy, |(text, max_bytes)| {
        let joined = tokio::task::block_in_place(|| {
            handle.block_on(async {
                let id = put(store, text.clone().into_bytes()).await;
                read_all(store, &id, max_bytes).await
            })
        });
        prop_assert!(sha256(&joined) == sha256(text.as_bytes()));
        prop_assert_eq!(String::from_utf8(joined).ok(), Some(text));
        Ok(())
    });
    if let Err(err) = outcome {
        panic!("{err}");
    }
}

/// One artifact a stress task put, with what it needs to judge a read.
struct Put {
    id: String,
    body: Bytes,
    /// The clock before the put: the artifact's creation time is at or after this.
    before: std::time::SystemTime,
    deleted: bool,
}

/// 8 tasks × 200 random operations (put, read, foreign read, delete, sweep, clock advance)
/// against one store, bounded to 120 s. Every successful read returns exactly the bytes put;
/// `NotFound` only for deleted, expired or foreign artifacts; never any other error.
pub async fn concurrent_puts_reads_deletes_and_sweeps<S: ArtifactStore>(fx: Fixture<S>) {
    const TASKS: u64 = 8;
    const OPS: usize = 200;
    let store = Arc::new(fx.store);
    let retention = fx.config.retention;
    let all_ids = Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let mut tasks = Vec::new();
    for task in 0..TASKS {
        let (store, clock, all_ids) = (Arc::clone(&store), Arc::clone(&fx.clock), Arc::clone(&all_ids));
        tasks.push(tokio::spawn(async move {
            let owner = format!("owner-{task}");
            let mut rng = rand::rngs::StdRng::seed_from_u64(task);
            let mut puts: Vec<Put> = Vec::new();
            let mut checked_reads = 0u32;
            let may_be_gone = |p: &Put, clock: &ManualClock| p.deleted || clock.now() >= p.before + retention;
            for _ in 0..OPS {
                match rng.random_range(0..100u32) {
                    0..30 => {
                        let size = if rng.random_bool(0.05) {
                            300_000
                        } else {
                            rng.random_range(0..20_000)
                        };
                        let body = Bytes::from(random_bytes(size, rng.next_u64()));
                        let before = clock.now();
                        let id: String = store.put(&owner, JSON, body.clone()).await.expect("put").into();
                        all_ids.lock().expect("ids").push(id.clone());
                        puts.push(Put {
                            id,
                            body,
                            before,
                            deleted: false,
                        });
                    }
                    30..70 if !puts.is_empty() => {
                        let p = &puts[rng.random_range(0..puts.len())];
                        let offset = rng.random_range(0..=p.body.len() as u64);
                        let max_bytes = rng.random_range(1..=70_000);
                        match store.read_chunk(&owner, &p.id, offset, max_bytes).await {
                            Ok(chunk) => {
                                assert!(!p.deleted, "a deleted artifact was readable");
                                assert_eq!(chunk.data, p.body.slice(offset as usize..chunk.next_offset as usize));
                                assert_eq!(chunk.total_bytes, p.body.len() as u64);
                                checked_reads += 1;
                            }
                            Err(ArtifactError::NotFound) => assert!(may_be_gone(p, &clock), "live artifact not found"),
                            Err(other) => panic!("read failed: {other:?}"),
                        }
                    }
                    70..80 => {
                        let foreign = {
                            let ids = all_ids.lock().expect("ids");
                            (!ids.is_empty()).then(|| ids[rng.random_range(0..ids.len())].clone())
                        };
                        if let Some(id) = foreign.filter(|id| !puts.iter().any(|p| &p.id == id)) {
                            let err = store.read_chunk(&owner, &id, 0, 16).await.expect_err("foreign read");
                            assert!(err.is_not_found(), "{err:?}");
                        }
                    }
                    80..88 if !puts.is_empty() => {
                        let n = rng.random_range(0..puts.len());
                        match store.delete(&owner, &puts[n].id).await {
                            Ok(()) => assert!(!puts[n].deleted, "deleted twice"),
                            Err(ArtifactError::NotFound) => assert!(may_be_gone(&puts[n], &clock)),
                            Err(other) => panic!("delete failed: {other:?}"),
                        }
                        puts[n].deleted = true;
                    }
                    88..95 => {
                        store.sweep_expired().await.expect("sweep");
                    }
                    95..100 => clock.advance(retention / 20),
                    _ => tokio::task::yield_now().await,
                }
            }
            checked_reads
        }));
    }
    let checked = tokio::time::timeout(Duration::from_secs(120), async {
        let mut checked = 0;
        for task in tasks {
            checked += task.await.expect("stress task");
        }
        checked
    })
    .await
    .expect("stress case finished within 120 s");
    assert!(checked > 100, "only {checked} reads were checked");
}
