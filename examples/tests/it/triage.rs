//! The triage programs, run as a user runs them. The Rust one (its binary, which starts the server against the
//! embedded recorded upstream) first waits for the newest run with `github_wait_for_run` (finished: it answers at
//! once) and prints what the wait saw, then the table of every failed run with data from all three vendors and the run's
//! pull request, shows the missing Jira issue from an `isError` result, lists the failed tests of each failed run's
//! failing checks (`ci_status`, then `ci_test_results`), and reads at least 50 times fewer bytes than the direct
//! calls. The TypeScript and Python ones (official SDK clients; `scripts/test` installs them) print exactly the same.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

use recorded_upstream::RecordedUpstream;

/// The output of `triage` against the recorded upstream: run once per test process, shared by the tests of one
/// process (under `cargo test` the second waits for the first run; nextest runs each test in its own process).
fn triage_output() -> String {
    static OUTPUT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    OUTPUT.get_or_init(run_triage).clone()
}

/// The server the workspace's test build made, next to the `triage` binary: given to the programs, so that they
/// do not run `cargo build` of the server themselves (which, under a test, builds it anew with the features of
/// `-p mcp-devtools-server` alone). `None` when no build made it; when only this package's tests were built since
/// the server changed, it is the last workspace build's (`scripts/test` and `cargo test --workspace` rebuild it).
fn built_server() -> Option<PathBuf> {
    let server = Path::new(env!("CARGO_BIN_EXE_triage")).with_file_name("mcp-devtools");
    server.exists().then_some(server)
}

fn run_triage() -> String {
    let mut triage = Command::new(env!("CARGO_BIN_EXE_triage"));
    if let Some(server) = built_server() {
        triage.env("MCP_DEVTOOLS_BIN", server);
    }
    let output = triage.output().expect("run triage");
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
        out.starts_with(
            "Waited for workflow run 3985210098 of octo-org/octo-repo: completed, success; 0 of 5 job(s) failed\n\n\
             22 failed of 104 runs of octo-org/octo-repo (2 page(s))"
        ),
        "wait, then triage: the newest run (finished), then the table: {out}"
    );
    let rows: Vec<&str> = out
        .lines()
        .filter(|line| line.starts_with("| 3") || line.starts_with("| 2"))
        .collect();
    assert_eq!(rows.len(), 22, "{out}");
    // Every failed run names its pull request (github_get of the commit's pulls): the open one of its branch, or
    // the merged one that brought a main/master commit.
    for row in &rows {
        let pull = row.trim_end_matches(" |").rsplit(" | ").next().unwrap_or_default();
        assert!(
            pull.starts_with('#') && (pull.ends_with(" open") || pull.ends_with(" merged")),
            "{row}"
        );
    }
    // A failed run of page 1 (read from an artifact: the page is over the bound), with its own failing job, the
    // CircleCI pipeline of its commit and two Jira issues.
    assert!(
        out.contains(
            "| 3985091487 | Build Documentation | master | test (Python 3.7): Run tests | #5089 created | \
         EX-1 (Done, Mia Krystof), EX-5 (In Progress, Mia Krystof) | #2322 merged |"
        ),
        "{out}"
    );
    // The run of page 2 (reached through nextPage).
    assert!(
        out.contains("| 2802600146 | Lint | docs | test (Python 3.9): Run tests | #5000 created | - | #2402 open |"),
        "{out}"
    );
    // An isError result (Jira 404) becomes a cell, and a branch CircleCI does not build has no pipeline.
    assert!(out.contains("EX-404 (not found)"), "{out}");
    assert!(
        out.contains("| dependabot/pip/tensorflow-2.9.3 | test (Python 3.9): Run tests | none |"),
        "{out}"
    );
    // Why each run failed: the failing step's last error lines, read from its job log (another origin, no token).
    assert!(
        out.contains(
            "- run 2802600146\n  test (Python 3.9) / Run tests:\n      AssertionError: assert \
             datetime.timedelta(seconds=12) == datetime.timedelta(seconds=120)\n      FAILED \
             tests/test_retry.py::test_retry_after_seconds - AssertionError: assert datetime.timedelta(seconds=12) == \
             datetime.timedelta(seconds=120)\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("/ Install tox:\n      ERROR: Could not find a version that satisfies the requirement tox==9.9"),
        "{out}"
    );
    let why = out.split("Why they failed").nth(1).unwrap_or_default();
    let why = why.split("\nFailed tests").next().unwrap_or_default();
    assert_eq!(
        why.matches("\n- run ").count(),
        22,
        "a reason for every failed run: {why}"
    );
    let last = out.lines().last().unwrap();
    let ratio: f64 = last
        .strip_prefix("ratio: ")
        .and_then(|r| r.strip_suffix('x'))
        .and_then(|r| r.parse().ok())
        .unwrap_or_else(|| panic!("last line {last:?}"));
    assert!(ratio >= 50.0, "ratio {ratio}");
}

/// The failed tests of each failed run: its commit's failing checks from `ci_status`, the failed tests of their
/// reports from `ci_test_results` (the run's `test-results` artifact, CircleCI's tests endpoint), one line each.
#[test]
fn triage_lists_the_failed_tests_of_the_failing_checks() {
    let out = triage_output();
    let tests = out
        .split(
            "\nFailed tests (the failing checks ci_status finds for each failed run's commit, their reports read \
                with ci_test_results):\n",
        )
        .nth(1)
        .unwrap_or_else(|| panic!("no failed-tests section: {out}"));
    let tests = tests.split("\n\n").next().unwrap_or_default();
    assert_eq!(
        tests.lines().filter(|line| line.starts_with("- run ")).count(),
        22,
        "a line for every failed run: {tests}"
    );
    // The first failed run: its failing check run (the run's test-results artifact, four reports: file:line, name,
    // the message's first line; a test without a message ends at its name) and its commit's failing CircleCI job
    // (its tests endpoint: a file, no line).
    let first = "- run 3985194485: test (Python 3.9), CircleCI job 102 (test)\n    \
                 tests/test_docs.py:27 test_install_snippet: AssertionError: assert 'pip install tox' in snippet\n    \
                 C:/Users/Michal/Workspace/dorny/test-check/reports/jest/__tests__/main.test.js:10 Failing test\n";
    assert!(tests.starts_with(first), "{tests}");
    assert!(
        tests.contains(
            "\n    C:/Users/Michal/Workspace/dorny/test-reporter/reports/dotnet/DotnetTests.XUnitTests/\
             CalculatorTests.cs:27 Failing_Test: Assert.Equal() Failure\n"
        ),
        "a multi-line message gives its first line: {tests}"
    );
    assert!(
        tests.contains(
            "\n    test/main.test.js:22 Exception in test: Some error\n    test/pipeline.test.js pipeline encodes \
             the page token once: Error: expect(received).toBe(expected) // Object.is equality\n- run 3985162764:"
        ),
        "{tests}"
    );
    // A run whose Install tox failed uploaded no test results: only its commit's CircleCI job has a report.
    assert!(
        tests.contains(
            "\n- run 3985162764: test (Python 3.7), CircleCI job 102 (test)\n    test/pipeline.test.js pipeline \
             encodes the page token once: Error: expect(received).toBe(expected) // Object.is equality\n"
        ),
        "{tests}"
    );
    // A dependabot branch has no CircleCI pipeline: the GitHub reports alone.
    assert!(
        tests.contains("\n- run 3985138957: test (Python 3.8)\n    tests/test_docs.py:27 test_install_snippet:"),
        "{tests}"
    );
    // Runs whose reports list the same failed tests refer to the first one instead of repeating them (the last
    // failed run, of page 2, too).
    assert!(
        tests.ends_with(
            "\n- run 2802600146: test (Python 3.9), CircleCI job 102 (test): the same 15 failed test(s) as run \
             3985194485"
        ),
        "{tests}"
    );
    assert!(
        tests.contains("\n- run 3984426158: test (Python 3.9): the same 14 failed test(s) as run 3985138957\n"),
        "{tests}"
    );
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Runs `program script` against the recorded upstream at `upstream` with the server next to the `triage` binary
/// (built by the workspace's test build, or by the Rust program's run).
fn run_other(program: &Path, script: &Path, upstream: &str) -> String {
    let server = built_server().expect("the mcp-devtools server next to the triage binary");
    let output = Command::new(program)
        .arg(script)
        .env("MCP_DEVTOOLS_BIN", &server)
        .env("UPSTREAM_URL", upstream)
        .output()
        .unwrap_or_else(|err| panic!("cannot run {}: {err} (run scripts/test first)", program.display()));
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{} failed:\n{stdout}\n{}",
        script.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

#[tokio::test]
async fn the_typescript_and_python_programs_print_the_same_as_the_rust_one() {
    let rust = triage_output();
    let upstream = RecordedUpstream::all().await.unwrap();
    let root = repo_root();
    let ts = root.join("examples/code-mode-ts");
    assert!(
        ts.join("node_modules/@modelcontextprotocol/sdk").exists(),
        "run scripts/test first: it runs npm ci in {}",
        ts.display()
    );
    let typescript = run_other(Path::new("node"), &ts.join("triage.mjs"), &upstream.uri());
    assert_eq!(typescript, rust, "TypeScript");
    let python = root.join("clients/python/.venv/bin/python");
    assert!(
        python.exists(),
        "run scripts/test first: it creates {}",
        python.display()
    );
    let python = run_other(&python, &root.join("examples/code-mode-py/triage.py"), &upstream.uri());
    assert_eq!(python, rust, "Python");
}
