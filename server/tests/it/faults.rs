//! The fault suite: a broken dependency costs only the calls that need it. Whole chain (rmcp clients →
//! `mcp-devtools --http` → recorded upstream), with a **private** moto S3 server and `redis-server` per scenario
//! (started from what `scripts/services` installs), frozen with `SIGSTOP` and killed with `SIGKILL` under load; the
//! scenarios live in `common/faults.rs` (shared with `benches/faults.rs`, which prints the BENCHMARKS.md table).
//!
//! Targets asserted (medians over tens of calls, bounds with a small absolute floor for a loaded 2-core machine):
//! - S3 frozen or refusing: inline calls at most 1.5x their no-fault median, no busy error; oversized calls answer
//!   (`artifactId: null`) within the save timeout plus scheduling slack.
//! - Redis frozen or killed: calls at most 1.5x the cache-off median; the cache hits again once Redis is back.
//! - A client that closes its connections mid-call: a new call gets a pipeline within 1 s.
//! - `kill -9` of the server during writes (fs and S3): every artifact id a client received reads back exact.
//!
//! Without moto (`services/.venv`, or `MCP_DEVTOOLS_TEST_MOTO_SERVER`) or `redis-server` the S3 / Redis
//! scenarios print why and pass, unless `MCP_DEVTOOLS_REQUIRE_SERVICES=1`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use crate::common::faults::{self, Phase, SAVE_TIMEOUT_SECS, Service, ms};

/// Calls per measured phase.
const CALLS: usize = 48;
/// Absolute allowance on top of 1.5x a median: scheduling noise of a loaded 2-core machine, far below what a
/// fault cost before (a 10 s busy error, ~1 s per call with S3 refusing, 100-2,000 ms per call with Redis lost).
const NOISE: Duration = Duration::from_millis(4);

fn missing(what: &str) {
    assert!(
        std::env::var("MCP_DEVTOOLS_REQUIRE_SERVICES").as_deref() != Ok("1"),
        "MCP_DEVTOOLS_REQUIRE_SERVICES=1 but {what} is not installed (scripts/services start installs it)"
    );
    eprintln!("SKIPPED: {what} is not installed (run scripts/services start or scripts/test)");
}

fn show(phases: &[Phase]) -> String {
    phases
        .iter()
        .map(|p| {
            format!(
                "{}: inline p50 {} ms p99 {} ms, {} errors ({} busy) {:?}; oversized {} (null {}) max {} ms; hits {}\n",
                p.name,
                ms(p.inline_q(0.5)),
                ms(p.inline_q(0.99)),
                p.inline_errors,
                p.busy,
                p.first_error,
                p.oversized.len(),
                p.oversized_null,
                ms(p.oversized_max()),
                p.hits
            )
        })
        .collect()
}

fn within(p: &Phase, baseline: &Phase) -> bool {
    p.inline_q(0.5) <= baseline.inline_q(0.5).mul_f64(1.5) + NOISE
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_frozen_or_down_costs_only_the_oversized_calls() {
    let Some(mut moto) = Service::moto().await else {
        return missing("moto (the S3 test server)");
    };
    // kill -9 of the server during S3 writes first, while moto is healthy.
    let store = faults::s3_store(&moto, "faults-kill");
    let (received, exact) = faults::kill_during_writes(&store, Duration::from_millis(1500)).await;
    assert!(received > 0, "the callers received artifact ids before the kill");
    assert_eq!(exact, received, "every S3 artifact id received reads back exact");

    let phases = faults::s3_faults(&mut moto, CALLS).await;
    let report = show(&phases);
    eprintln!("{report}");
    let baseline = &phases[0];
    assert_eq!(baseline.inline_errors, 0, "{report}");
    assert!(
        !baseline.oversized.is_empty() && baseline.oversized_null == 0,
        "{report}"
    );
    let slack = Duration::from_secs(SAVE_TIMEOUT_SECS) + Duration::from_secs(2);
    for fault in &phases[1..] {
        assert_eq!(
            fault.inline_errors, 0,
            "no busy (or any) error during a fault:\n{report}"
        );
        assert!(within(fault, baseline), "inline calls within 1.5x:\n{report}");
        assert!(!fault.oversized.is_empty(), "{report}");
        assert!(
            fault.oversized_max() <= slack,
            "oversized calls answer within the save timeout:\n{report}"
        );
        // The first oversized call of a phase may still have reached S3 before the fault.
        assert!(
            fault.oversized_null + 2 >= fault.oversized.len(),
            "artifactId null:\n{report}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_frozen_or_killed_costs_no_more_than_the_cache_off() {
    let Some(mut redis) = Service::redis().await else {
        return missing("redis-server");
    };
    let phases = faults::redis_faults(&mut redis, CALLS).await;
    let report = show(&phases);
    eprintln!("{report}");
    let off = &phases[0];
    assert!(phases.iter().all(|p| p.inline_errors == 0), "{report}");
    assert!(
        phases[1].hits * 2 > phases[1].inline.len(),
        "healthy Redis serves hits:\n{report}"
    );
    for fault in &phases[2..] {
        assert!(within(fault, off), "at most 1.5x the cache-off median:\n{report}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_connection_frees_its_pipelines_within_a_second() {
    let (waited, result) = faults::disconnect_frees_permits(Duration::from_millis(400)).await;
    assert_eq!(result["isError"], false, "{result}");
    assert!(
        waited < Duration::from_secs(1),
        "a pipeline was free {waited:?} after the disconnect"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_during_fs_writes_loses_no_artifact_a_client_received() {
    let dir = tempfile::tempdir().unwrap();
    let store = faults::fs_store(dir.path());
    let (received, exact) = faults::kill_during_writes(&store, Duration::from_millis(1500)).await;
    assert!(received > 0, "the callers received artifact ids before the kill");
    assert_eq!(exact, received, "every fs artifact id received reads back exact");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_stdin_cancels_the_calls_in_flight_at_once() {
    // Before: rmcp let calls in flight run 5 s after stdin's end, then cancelled them.
    let exited = faults::stdin_close_exits(Duration::from_millis(600)).await;
    assert!(
        exited < Duration::from_secs(3),
        "the server exited {exited:?} after stdin closed"
    );
}
