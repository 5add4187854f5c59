//! [`Isolated`] with the real `mcp-jq-worker` binary: projections, exact numbers, and runaway programs that end in a
//! clear error while the next projection on the same runner is served normally. Linux only (`RLIMIT_AS`).
#![cfg(target_os = "linux")]
#![allow(clippy::unwrap_used)]

use std::time::Duration;

use mcp_projection::{Isolated, IsolatedConfig, ProjectionRunner, RunError, WorkerProgram};
use serde_json::{Value, json};

fn runner(timeout_seconds: u64, memory_mib: u64) -> Isolated {
    Isolated::new(
        IsolatedConfig::default()
            .with_program(WorkerProgram::Path(env!("CARGO_BIN_EXE_mcp-jq-worker").into()))
            .with_timeout(Duration::from_secs(timeout_seconds))
            .with_max_memory_bytes(memory_mib * 1024 * 1024)
            .with_workers(1),
    )
}

async fn assert_alive(runner: &Isolated) {
    let data = json!({"fields": {"summary": "Still here", "n": 18446744073709551615_u64}});
    assert_eq!(
        runner.project(data, ".fields | [.summary, .n]").await.unwrap(),
        json!(["Still here", 18446744073709551615_u64])
    );
}

#[tokio::test]
async fn projects_with_exact_numbers_and_reports_jq_errors() {
    let runner = runner(10, 512);
    runner.prestart().await.unwrap();
    let body: Value =
        serde_json::from_str(r#"{"a": [9007199254740993, 0.30000000000000004, 5e-324, -9223372036854775808]}"#)
            .unwrap();
    assert_eq!(runner.project(body.clone(), ".a").await.unwrap(), body["a"]);
    let failed = runner.project(json!({"a": 1}), "lenght").await.unwrap_err();
    assert!(
        matches!(failed.error, RunError::Projection(ref m) if m.contains("lenght/0 is not defined")),
        "{:?}",
        failed.error
    );
    assert_eq!(failed.data, json!({"a": 1}));
    assert_eq!(
        runner
            .project(json!({"workflow_runs": [{"id": 7}]}), "workflow_runs[*].id")
            .await
            .unwrap(),
        json!([7])
    );
    assert_alive(&runner).await;
}

#[tokio::test]
async fn a_cpu_runaway_is_stopped_at_the_timeout_and_the_next_call_is_served() {
    let runner = runner(1, 512);
    assert_alive(&runner).await;
    let failed = runner.project(json!({}), "last(range(1e15))").await.unwrap_err();
    assert_eq!(failed.error, RunError::TimedOut { seconds: 1 });
    assert!(failed.error.to_string().contains("Simplify it"));
    assert_alive(&runner).await;
}

#[tokio::test]
async fn memory_runaways_hit_the_limit_and_the_next_call_is_served() {
    // The timeout is far off, so only the memory limit can stop these programs.
    let runner = runner(60, 64);
    for jq in ["\"x\" * 1000000000 | length", "[range(1e12)] | length"] {
        let failed = runner.project(json!({}), jq).await.unwrap_err();
        assert!(
            matches!(failed.error, RunError::Stopped { mib: 64, .. }),
            "{jq}: {:?}",
            failed.error
        );
        assert_alive(&runner).await;
    }
}

#[tokio::test]
async fn a_catastrophic_regex_on_a_big_input_ends_in_a_clear_error_and_the_next_call_is_served() {
    // jq's regular expressions are Oniguruma's, which backtracks: `^(a|a)*$` on 100,000 `a`s and a `!` would take
    // longer than the universe has. Oniguruma's retry limit ends it with an error well within the timeout.
    let runner = runner(10, 512);
    let body = json!({"log": format!("{}!", "a".repeat(100_000))});
    let started = std::time::Instant::now();
    let failed = runner.project(body, r#".log | test("^(a|a)*$")"#).await.unwrap_err();
    assert!(
        matches!(failed.error, RunError::Projection(ref m) if m.contains("retry-limit-in-match over")),
        "{:?}",
        failed.error
    );
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    assert_alive(&runner).await;
}
