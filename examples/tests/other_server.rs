//! `other_server`, run as a user runs it: `--self-test` drives it with rmcp clients over in-memory pipes (the
//! outputSchema advertised, structuredContent valid against it, jq, an oversized list read back byte-exact with
//! `artifact_read`, another owner refused, a call the policy denies) and exits non-zero when a check fails.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

#[test]
fn other_server_self_test_passes() {
    let output = Command::new(env!("CARGO_BIN_EXE_other_server"))
        .arg("--self-test")
        .output()
        .expect("run other_server");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "other_server --self-test failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for line in [
        "tools/list: list_widgets and artifact_read, both with an outputSchema",
        "structuredContent valid against its outputSchema",
        "list_widgets {count: 5, jq: \"map(.id)\"}: {\"data\":[1,2,3,4,5]}",
        "byte-exact",
        "artifact_read of alice's artifact as bob: isError, \"Artifact not found or expired\"",
        "list_widgets as guest: isError, policy_denied by rule \"guests-do-not-list\"",
        "self-test passed",
    ] {
        assert!(stdout.contains(line), "missing {line:?} in:\n{stdout}");
    }
}
