//! The main job and the embedding example, run as a user runs them. Neither builds nor spawns the server: `CARGO` is
//! unset (nothing to build with) and `MCP_DEVTOOLS_BIN` names a program that does not exist, so a run that tried to
//! start a server process would fail.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::{Command, Output};

fn run(program: &str) -> (String, String) {
    let Output { status, stdout, stderr } = Command::new(program)
        .env_remove("CARGO")
        .env("MCP_DEVTOOLS_BIN", "/nonexistent/mcp-devtools")
        .output()
        .expect("run the example");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&stdout).into_owned(),
        String::from_utf8_lossy(&stderr).into_owned(),
    );
    assert!(status.success(), "{program} failed:\n{stdout}\n{stderr}");
    (stdout, stderr)
}

#[test]
fn code_mode_runs_in_process_and_shows_the_structured_value() {
    let (out, progress) = run(env!("CARGO_BIN_EXE_code_mode"));
    assert!(
        progress.contains("[code_mode] starting mcp-devtools in this process"),
        "{progress}"
    );
    assert!(
        progress.contains("[code_mode] calling github_list_workflow_jobs"),
        "{progress}"
    );
    // The outputSchema and the structuredContent, trimmed.
    assert!(
        out.contains("== outputSchema of github_list_workflow_runs (trimmed)"),
        "{out}"
    );
    assert!(out.contains("\"nextPage\""), "{out}");
    assert!(
        out.contains("== structuredContent of the first call (trimmed)"),
        "{out}"
    );
    assert!(
        out.contains("more\""),
        "trimmed arrays say how many items are left out: {out}"
    );
    // The reading, and the table with a large ratio.
    assert!(
        out.contains("failed run(s) among the latest 100 runs of octo-org/octo-repo"),
        "{out}"
    );
    let ratio: f64 = out
        .lines()
        .find(|line| line.starts_with("| ratio"))
        .and_then(|line| line.split('|').nth(2))
        .and_then(|cell| cell.trim().strip_suffix('x'))
        .and_then(|ratio| ratio.parse().ok())
        .unwrap_or_else(|| panic!("no ratio row: {out}"));
    assert!(ratio >= 20.0, "ratio {ratio}");
}

#[test]
fn embedded_agent_calls_tools_in_process_under_a_policy() {
    let (out, _) = run(env!("CARGO_BIN_EXE_embedded_agent"));
    assert!(out.contains("embedded mcp-devtools: 20 tools"), "{out}");
    assert!(out.contains("allowed  github_list_workflow_runs: "), "{out}");
    assert!(out.contains("allowed  jira_get "), "{out}");
    assert!(
        out.contains("policy_denied (rule agents-do-not-write-jira); requests sent upstream: 0"),
        "{out}"
    );
    assert!(out.contains("Nothing was sent upstream"), "{out}");
}
