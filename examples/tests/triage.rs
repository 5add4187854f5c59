//! The Rust triage program, run as a user runs it (its binary, which starts the server against the embedded
//! recorded upstream): it prints the table of every failed run with data from all three vendors, shows the missing
//! Jira issue from an `isError` result, and reads at least 50 times fewer bytes than the direct calls.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

/// The output of `triage` against the recorded upstream.
fn triage_output() -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_triage")).output().expect("run triage");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "triage failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

#[test]
fn triage_joins_the_three_vendors_and_reads_far_less() {
    let out = triage_output();
    assert!(
        out.starts_with("22 failed of 104 runs of octo-org/octo-repo (2 page(s))"),
        "{out}"
    );
    let rows: Vec<&str> = out
        .lines()
        .filter(|line| line.starts_with("| 3") || line.starts_with("| 2"))
        .collect();
    assert_eq!(rows.len(), 22, "{out}");
    // A failed run of page 1 (read from an artifact: the page is over the bound), with its own failing job, the
    // CircleCI pipeline of its commit and two Jira issues.
    assert!(
        out.contains(
            "| 3985091487 | Build Documentation | master | test (Python 3.7): Run tests | #5089 created | \
         EX-1 (Done, Mia Krystof), EX-5 (In Progress, Mia Krystof) |"
        ),
        "{out}"
    );
    // The run of page 2 (reached through nextPage).
    assert!(
        out.contains("| 2802600146 | Lint | docs | test (Python 3.9): Run tests | #5000 created | - |"),
        "{out}"
    );
    // An isError result (Jira 404) becomes a cell, and a branch CircleCI does not build has no pipeline.
    assert!(out.contains("EX-404 (not found)"), "{out}");
    assert!(
        out.contains("| dependabot/pip/tensorflow-2.9.3 | test (Python 3.9): Run tests | none |"),
        "{out}"
    );
    let last = out.lines().last().unwrap();
    let ratio: f64 = last
        .strip_prefix("ratio: ")
        .and_then(|r| r.strip_suffix('x'))
        .and_then(|r| r.parse().ok())
        .unwrap_or_else(|| panic!("last line {last:?}"));
    assert!(ratio >= 50.0, "ratio {ratio}");
}
