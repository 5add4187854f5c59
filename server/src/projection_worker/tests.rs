//! The parent side against stand-in workers (shell scripts): environment, protocol, crashes and the output cap.
//! The real worker, its limits and the timeout are proven through the binary in `server/tests/jq_isolation.rs`.
#![cfg(unix)]

use std::collections::HashMap;

use serde_json::json;

use super::*;

/// A worker that runs `body` (POSIX sh) after reading its whole request.
fn script_worker(dir: &tempfile::TempDir, body: &str) -> JqWorker {
    let path = dir.path().join("worker.sh");
    // Written by a child shell, never opened for writing in this process: a concurrent test's fork would
    // otherwise inherit the write descriptor and make exec fail with ETXTBSY ("Text file busy").
    let script = format!("#!/bin/sh\ncat > /dev/null\n{body}\n");
    let mut writer = std::process::Command::new("sh")
        .arg("-c")
        .arg("cat > \"$1\" && chmod 700 \"$1\"")
        .arg("sh")
        .arg(&path)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut writer.stdin.take().unwrap(), script.as_bytes()).unwrap();
    assert!(writer.wait().unwrap().success());
    JqWorker {
        program: Some(path),
        ..JqWorker::default()
    }
}

fn settings(pairs: &[(&str, &str)]) -> (JqWorker, Vec<String>) {
    let map: HashMap<&str, &str> = pairs.iter().copied().collect();
    let mut warnings = Vec::new();
    let worker = JqWorker::from_lookup(&|name: &str| map.get(name).map(|v| v.to_string()), 1024, &mut warnings);
    (worker, warnings)
}

#[test]
fn settings_have_defaults_and_are_clamped_with_one_warning() {
    let (worker, warnings) = settings(&[]);
    assert_eq!(worker, JqWorker::default());
    assert!(warnings.is_empty());
    let (worker, warnings) = settings(&[(ENV_TIMEOUT, "2"), (ENV_MAX_MEMORY, "512")]);
    assert_eq!(worker.timeout, Duration::from_secs(2));
    assert_eq!(worker.max_memory_bytes, 512 * MIB);
    assert!(warnings.is_empty());
    let (worker, warnings) = settings(&[(ENV_TIMEOUT, "0"), (ENV_MAX_MEMORY, "lots")]);
    assert_eq!(worker.timeout, Duration::from_secs(1));
    assert_eq!(worker.max_memory_bytes, DEFAULT_MAX_MEMORY_MIB * MIB);
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    let (worker, _) = settings(&[(ENV_TIMEOUT, "600")]);
    assert_eq!(worker.timeout, Duration::from_secs(60));
    assert_eq!(worker.cpu_seconds(), 62);
}

#[test]
fn output_cap_follows_the_body_cap() {
    let cap = |body: u64| JqWorker::from_lookup(&|_: &str| None, body, &mut Vec::new()).max_output_bytes;
    assert_eq!(cap(1024), MIN_OUTPUT_BYTES);
    assert_eq!(cap(1 << 30), 2 << 30);
}

#[test]
fn address_space_is_memory_plus_stack_plus_base() {
    let worker = JqWorker::default();
    let stack = mcp_envelope::project::PROJECTION_STACK_BYTES as u64;
    assert_eq!(
        worker.address_space_bytes(),
        2048 * MIB + stack + WORKER_BASE_ADDRESS_SPACE_BYTES
    );
}

#[tokio::test]
async fn blank_jq_starts_no_worker() {
    let worker = JqWorker {
        program: Some("/nonexistent/worker".into()),
        ..JqWorker::default()
    };
    assert_eq!(worker.project(json!([1]), None).await.unwrap(), json!([1]));
    assert_eq!(worker.project(json!([1]), Some("  ")).await.unwrap(), json!([1]));
    let failed = worker.project(json!([1]), Some(".")).await.unwrap_err();
    assert!(matches!(failed.error, JqWorkerError::Internal(_)), "{:?}", failed.error);
    assert_eq!(failed.data, json!([1]), "the data comes back unchanged");
}

#[tokio::test]
async fn the_worker_gets_an_empty_environment_and_its_limits() {
    // The test process has PATH, HOME and cargo's variables; none may reach the worker (nor GITHUB_TOKEN etc.).
    assert!(std::env::var_os("PATH").is_some());
    let dir = tempfile::tempdir().unwrap();
    let worker = script_worker(
        &dir,
        r#"printf '{"ok": {"args": "%s", "env": "%s"}}' "$*" "$(env | grep -v -e '^PWD=' -e '^SHLVL=' -e '^_=' | tr '\n' ' ')""#,
    );
    let seen = worker.project(json!({}), Some(".")).await.unwrap();
    // Only the server's process id (for the parent-death check), no credential.
    let only = format!("{}={} ", worker::PARENT_PID_ENV, std::process::id());
    assert_eq!(seen["env"], json!(only), "{seen}");
    let args = format!(
        "{} {} {}",
        worker::FLAG,
        worker.address_space_bytes(),
        worker.cpu_seconds()
    );
    assert_eq!(seen["args"], json!(args));
}

#[tokio::test]
async fn answers_are_read_as_the_protocol_says() {
    let dir = tempfile::tempdir().unwrap();
    let worker = script_worker(&dir, r#"printf '{"ok": 18446744073709551615}'"#);
    assert_eq!(
        worker.project(json!(1), Some(".")).await.unwrap(),
        json!(18_446_744_073_709_551_615_u64)
    );
    let worker = script_worker(
        &dir,
        r#"printf '{"error": "the jq expression failed on this result: boom"}'"#,
    );
    let failed = worker.project(json!(1), Some(".")).await.unwrap_err();
    assert_eq!(
        failed.error.to_string(),
        "The jq expression failed: the jq expression failed on this result: boom"
    );
}

#[tokio::test]
async fn a_crash_or_a_cut_answer_is_a_stopped_worker() {
    let dir = tempfile::tempdir().unwrap();
    let worker = script_worker(&dir, "kill -ABRT $$");
    let failed = worker.project(json!({"a": 1}), Some(".a")).await.unwrap_err();
    let text = failed.error.to_string();
    assert!(
        text.starts_with("the jq program was stopped: it used more than 2048 MiB"),
        "{text}"
    );
    assert!(text.contains("SIGABRT"), "{text}");
    assert_eq!(failed.data, json!({"a": 1}));
    let worker = script_worker(&dir, r#"printf '{"ok": [1, 2'"#);
    let failed = worker.project(json!(1), Some(".")).await.unwrap_err();
    assert!(
        matches!(failed.error, JqWorkerError::Stopped { .. }),
        "{:?}",
        failed.error
    );
}

#[tokio::test]
async fn an_answer_over_the_cap_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut worker = script_worker(&dir, r#"printf '{"ok": "%s"}' 0123456789"#);
    worker.max_output_bytes = 16;
    let failed = worker.project(json!(1), Some(".")).await.unwrap_err();
    assert!(
        matches!(failed.error, JqWorkerError::OutputTooLarge { .. }),
        "{:?}",
        failed.error
    );
    worker.max_output_bytes = 64;
    assert_eq!(worker.project(json!(1), Some(".")).await.unwrap(), json!("0123456789"));
}
