//! The parent side against stand-in workers (shell scripts speaking the protocol): environment, arguments, protocol,
//! reuse, crashes and the output cap. The real worker and its limits: `tests/isolated.rs` and the server's
//! `server/tests/it/jq_isolation.rs`.
#![allow(clippy::unwrap_used)]

use serde_json::json;

use super::*;

/// POSIX sh: greets, then `request` reads one request frame (exits at end of input) and `frame TEXT` writes one.
const PRELUDE: &str = r#"#!/bin/sh
printf 'mcp-jq-worker/1\n'
frame() { size=$(printf '%s' "$1" | wc -c); printf "$(printf '\\%03o' 0 0 0 0 $(( (size>>24)&255 )) $(( (size>>16)&255 )) $(( (size>>8)&255 )) $(( size&255 )))"; printf '%s' "$1"; }
request() { len=$(head -c 8 | od -An -tu8 --endian=big | tr -d ' '); [ -n "$len" ] || exit 0; head -c "$len" > /dev/null; }
"#;

/// A runner whose worker is the script `body` after [`PRELUDE`].
fn script(dir: &tempfile::TempDir, name: &str, body: &str) -> Isolated {
    let path = dir.path().join(name);
    // Written by a child shell, never opened for writing in this process: a concurrent test's fork would otherwise
    // inherit the write descriptor and make exec fail with ETXTBSY ("Text file busy").
    let mut writer = std::process::Command::new("sh")
        .arg("-c")
        .arg("cat > \"$1\" && chmod 700 \"$1\"")
        .arg("sh")
        .arg(&path)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(
        &mut writer.stdin.take().unwrap(),
        format!("{PRELUDE}{body}\n").as_bytes(),
    )
    .unwrap();
    assert!(writer.wait().unwrap().success());
    Isolated::new(IsolatedConfig {
        program: WorkerProgram::Path(path),
        workers: 1,
        ..IsolatedConfig::default()
    })
}

#[test]
fn limits_follow_the_config() {
    let config = IsolatedConfig::default();
    let stack = mcp_envelope::PROJECTION_STACK_BYTES as u64;
    assert_eq!(
        config.address_space_bytes(),
        2048 * MIB + stack + BASE_ADDRESS_SPACE_BYTES
    );
    let config = IsolatedConfig {
        timeout: Duration::from_millis(1500),
        ..config
    };
    assert_eq!(config.cpu_seconds(), 2 + CPU_GRACE_SECONDS);
}

#[tokio::test]
async fn blank_jq_starts_no_worker() {
    let runner = Isolated::new(IsolatedConfig {
        program: WorkerProgram::Path("/nonexistent/worker".into()),
        ..IsolatedConfig::default()
    });
    assert_eq!(runner.project(json!([1]), "  ").await.unwrap(), json!([1]));
    let failed = runner.project(json!([1]), ".").await.unwrap_err();
    assert!(
        matches!(failed.error, RunError::Internal(ref m) if m.contains("/nonexistent/worker")),
        "{:?}",
        failed.error
    );
    assert_eq!(failed.data, json!([1]), "the data comes back unchanged");
}

#[tokio::test]
async fn the_worker_gets_an_empty_environment_and_its_limits() {
    // The test process has PATH, HOME and cargo's variables; none may reach the worker (nor GITHUB_TOKEN etc.).
    assert!(std::env::var_os("PATH").is_some());
    let dir = tempfile::tempdir().unwrap();
    let runner = script(
        &dir,
        "env.sh",
        r#"args="$*"; environment=$(env | grep -v -e '^PWD=' -e '^SHLVL=' -e '^_=' | tr '\n' ' ')
request; frame "{\"ok\": {\"args\": \"$args\", \"env\": \"$environment\"}}""#,
    );
    let seen = runner.project(json!({}), ".").await.unwrap();
    let only = format!("{}={} ", crate::worker::PARENT_PID_ENV, std::process::id());
    assert_eq!(
        seen["env"],
        json!(only),
        "only the parent's process id, no credential: {seen}"
    );
    let config = runner.config();
    let args = format!(
        "{} {} {}",
        crate::worker::FLAG,
        config.address_space_bytes(),
        config.cpu_seconds()
    );
    assert_eq!(seen["args"], json!(args));
}

#[tokio::test]
async fn one_worker_serves_many_requests_and_answers_are_read_as_the_protocol_says() {
    let dir = tempfile::tempdir().unwrap();
    let runner = script(
        &dir,
        "loop.sh",
        r#"n=0
while request; do n=$((n+1))
  if [ $n = 2 ]; then frame '{"error": "the jq expression failed on this result: boom"}'
  else frame "{\"ok\": [$$, $n, 18446744073709551615]}"; fi
done"#,
    );
    let first = runner.project(json!(1), ".").await.unwrap();
    assert_eq!(first[1], json!(1));
    assert_eq!(first[2], json!(18_446_744_073_709_551_615_u64));
    let failed = runner.project(json!(1), ".").await.unwrap_err();
    assert_eq!(
        failed.error.to_string(),
        "The jq expression failed: the jq expression failed on this result: boom"
    );
    let third = runner.project(json!(1), ".").await.unwrap();
    assert_eq!(third[0], first[0], "the same process served all three: {first} {third}");
    assert_eq!(third[1], json!(3));
}

#[tokio::test]
async fn a_crash_is_a_stopped_worker_and_the_next_call_gets_a_new_one() {
    let dir = tempfile::tempdir().unwrap();
    // The first process crashes on its first request; the next ones answer (a marker file tells them apart).
    let marker = dir.path().join("crashed");
    let runner = script(
        &dir,
        "crash.sh",
        &format!(
            r#"request; if [ ! -e {m} ]; then touch {m}; kill -ABRT $$; fi; frame '{{"ok": "fine"}}'"#,
            m = marker.display()
        ),
    );
    let failed = runner.project(json!({"a": 1}), ".a").await.unwrap_err();
    let text = failed.error.to_string();
    assert!(
        text.starts_with("the jq program was stopped: it used more than 2048 MiB"),
        "{text}"
    );
    assert!(text.contains("SIGABRT"), "{text}");
    assert_eq!(failed.data, json!({"a": 1}));
    assert_eq!(runner.project(json!(1), ".").await.unwrap(), json!("fine"));
}

#[tokio::test]
async fn a_cut_answer_is_a_stopped_worker() {
    let dir = tempfile::tempdir().unwrap();
    let runner = script(
        &dir,
        "cut.sh",
        r#"request; printf '\000\000\000\000\000\000\000\100{"ok": [1, 2'"#,
    );
    let failed = runner.project(json!(1), ".").await.unwrap_err();
    assert!(matches!(failed.error, RunError::Stopped { .. }), "{:?}", failed.error);
}

#[tokio::test]
async fn an_answer_over_the_cap_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let runner = script(
        &dir,
        "big.sh",
        r#"while request; do frame '{"ok": "0123456789"}'; done"#,
    );
    let capped = Isolated::new(IsolatedConfig {
        max_output_bytes: 16,
        ..runner.config().clone()
    });
    let failed = capped.project(json!(1), ".").await.unwrap_err();
    assert!(
        matches!(failed.error, RunError::OutputTooLarge { .. }),
        "{:?}",
        failed.error
    );
    assert_eq!(runner.project(json!(1), ".").await.unwrap(), json!("0123456789"));
}

#[tokio::test]
async fn a_program_that_is_not_a_worker_is_named_with_the_fix() {
    // What a host that forgot the hook does: its own thing, here printing its arguments and exiting.
    let runner = Isolated::new(IsolatedConfig {
        program: WorkerProgram::Path("/bin/echo".into()),
        ..IsolatedConfig::default()
    });
    let failed = runner.project(json!(1), ".").await.unwrap_err();
    let text = failed.error.to_string();
    assert!(text.contains("/bin/echo did not start as a jq worker"), "{text}");
    assert!(text.contains("mcp-jq-worker"), "{text}");
}
