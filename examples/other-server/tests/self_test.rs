//! `other_server`, run as a user runs it: `--self-test` drives it with rmcp clients over in-memory pipes (the
//! outputSchema advertised, jq, an oversized list read back byte-exact with `artifact_read`, another owner refused,
//! a bad argument, a call the policy denies) and exits non-zero when a check fails. Here the structuredContent it
//! printed is also validated against the outputSchema it printed, with a JSON Schema validator (a dev-dependency:
//! the server itself depends on the facade, rmcp, serde, serde_json, schemars, tokio and anyhow only).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

use serde_json::Value;

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
        "list_widgets {count: 5, jq: \"map(.id)\"}: {\"data\":[1,2,3,4,5]}",
        "byte-exact",
        "artifact_read of alice's artifact as bob: isError, \"Artifact not found or expired\"",
        "list_widgets {count: \"many\"}: isError",
        "list_widgets as guest: isError, policy_denied by rule \"guests-do-not-list\"",
        "self-test passed",
    ] {
        assert!(stdout.contains(line), "missing {line:?} in:\n{stdout}");
    }
    let after = |prefix: &str| -> Vec<Value> {
        stdout
            .lines()
            .filter_map(|line| {
                line.split_once(prefix)
                    .map(|(_, json)| serde_json::from_str(json).unwrap())
            })
            .collect()
    };
    let schema = after("list_widgets outputSchema: ");
    let validator = jsonschema::validator_for(&schema[0]).expect("the outputSchema is a JSON Schema");
    let values = after(": structuredContent ");
    assert_eq!(values.len(), 2, "the small and the oversized result:\n{stdout}");
    for value in values {
        assert!(
            validator.is_valid(&value),
            "not valid against the outputSchema: {value}"
        );
    }
}
