//! A code-mode harness we did not write runs our tools: Cloudflare's `@cloudflare/codemode` (pinned in
//! `clients/codemode`, installed by `scripts/test`), inside real workerd (Miniflare 4), its own
//! `DynamicWorkerExecutor` on a Worker Loader binding, against the bundled server over streamable HTTP and the
//! recorded upstream of every vendor:
//! - its `McpConnector` generates the TypeScript declarations from our `tools/list`; the checked-in
//!   `devtools.d.ts` (what `triage.js` was written from) must still be what it generates, and the whole server's
//!   declarations stay within the context budget (34 KB);
//! - `triage.js`, written only from those declarations, triages the failed runs (runs -> failing job and step ->
//!   Jira issue; the missing issue is an `isError` result, thrown into the program) and reads the oversized runs
//!   page back through `artifact_read`;
//! - `wait-logs.js`, written from the same declarations, waits for a run with `github_wait_for_run` and reads the log
//!   of each job the wait reports failed with `github_get_job_logs`, by the `jobId` the wait result carries;
//! - `failed-runs.js`, written from the same declarations, gets every failed run in one call (`allPages` and a `jq`:
//!   the server merges the pages, the answer is small) and finds the failed runs `triage.js` finds page by page;
//! - `ci-tests.js`, written from the same declarations, reads a pull request's failing checks with `ci_status` and
//!   the failed tests of each one's reports with `ci_test_results` (a check run's `test-results` artifact, a CircleCI
//!   job's tests);
//! - the AI SDK path (`@ai-sdk/mcp` tools into codemode's `createCodeTool`) hands the program the whole
//!   `CallToolResult`, `isError` included;
//! - `@ai-sdk/mcp`'s stdio transport (a Node child with a socket stdin) closes and its host exits.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use common::http::HttpServer;
use recorded_upstream::RecordedUpstream;
use serde_json::{Value, json};

/// The context budget: the generated declarations of the whole server, bytes (20 KB until the three wait tools,
/// whose data is typed fully, and ci_status; 34.3 KB with ci_test_results and the two artifact reads, typed fully
/// too; 23.8 KB once the Atlassian writes were one tool per product and each argument was described once, in its
/// tool's description: issue 42's 24 KB; 26.6 KB with allPages and maxItems on the seven paged reads and their typed
/// `pages`, issue 45).
const DECLARATIONS_BUDGET_BYTES: usize = 27_000;

fn harness_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../clients/codemode")
}

/// Runs `node <script> args` in the harness folder with `env`, at most 120 s.
async fn node(script: &str, args: &[&str], env: &[(&str, String)]) -> Output {
    let dir = harness_dir();
    assert!(
        dir.join("node_modules/@cloudflare/codemode").exists(),
        "run scripts/test first: it runs npm ci in {}",
        dir.display()
    );
    let mut command = tokio::process::Command::new("node");
    command
        .arg(dir.join(script))
        .args(args)
        .current_dir(&dir)
        .kill_on_drop(true);
    for (name, value) in env {
        command.env(name, value);
    }
    tokio::time::timeout(Duration::from_secs(120), command.output())
        .await
        .unwrap_or_else(|_| panic!("node {script} {args:?} ran over 120 s"))
        .unwrap_or_else(|err| panic!("cannot run node: {err}"))
}

fn stdout_of(what: &str, output: &Output) -> String {
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{what} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// The server over streamable HTTP (loopback, no auth) against `upstream`, structured output on.
async fn server(upstream: &RecordedUpstream) -> HttpServer {
    let mut env = vec![
        ("PATH".to_owned(), std::env::var("PATH").unwrap_or_default()),
        ("MCP_STRUCTURED_OUTPUT".to_owned(), "true".to_owned()),
        ("STREAMING_ARTIFACT_STORE".to_owned(), "memory".to_owned()),
        ("RUST_LOG".to_owned(), "error".to_owned()),
    ];
    env.extend(upstream.env().into_iter().map(|(name, value)| (name.to_owned(), value)));
    HttpServer::start(env, &["--no-auth"], tempfile::tempdir().unwrap()).await
}

/// Runs `program` through `run.mjs <command>` (`run`: McpConnector, `ai-sdk`: the AI SDK path) against the server
/// over streamable HTTP and the recorded upstream of every vendor; its value, parsed from the JSON it printed.
async fn run_program(command: &str, program: &str) -> Value {
    let upstream = RecordedUpstream::all().await.unwrap();
    let server = server(&upstream).await;
    let env = [("MCP_URL", server.url.clone())];
    let out = stdout_of(program, &node("run.mjs", &[command, program], &env).await);
    serde_json::from_str(&out).unwrap_or_else(|err| panic!("{err}: {out}"))
}

/// The strings of a JSON array (none when it is not one).
fn strings(value: &Value) -> Vec<&str> {
    value
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

/// The pieces of a declarations file: each `type X = ...` block and each method of `declare const devtools`
/// (with its JSDoc), keyed by name.
fn pieces(declarations: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let (types, methods) = declarations
        .split_once("declare const devtools: {")
        .expect("a `declare const devtools` block");
    let mut current: Option<(String, String)> = None;
    for line in types.lines() {
        if let Some(rest) = line.strip_prefix("type ") {
            if let Some((name, text)) = current.take() {
                out.insert(name, text);
            }
            let name = rest.split([' ', '=']).next().unwrap_or_default().to_owned();
            current = Some((name, String::new()));
        }
        if let Some((_, text)) = current.as_mut() {
            text.push_str(line);
            text.push('\n');
        }
    }
    if let Some((name, text)) = current {
        out.insert(name, text);
    }
    for method in methods.split("\n\n") {
        let Some(last) = method.trim_end().trim_end_matches('}').trim_end().lines().last() else {
            continue;
        };
        if let Some((name, _)) = last.trim().split_once(": (input") {
            out.insert(
                format!("devtools.{name}"),
                method.trim().trim_end_matches('}').trim().to_owned(),
            );
        }
    }
    out
}

#[tokio::test]
async fn cloudflare_codemode_generates_our_types_and_runs_a_triage_written_from_them() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let server = server(&upstream).await;
    let env = [("MCP_URL", server.url.clone())];

    // 1. The declarations codemode generates: within the budget, and still those the program was written from.
    let generated = stdout_of("run.mjs types", &node("run.mjs", &["types"], &env).await);
    assert!(
        generated.len() <= DECLARATIONS_BUDGET_BYTES,
        "the generated declarations are {} bytes, over the {DECLARATIONS_BUDGET_BYTES}-byte budget: shorten \
         descriptions (each thing said once)",
        generated.len()
    );
    if std::env::var_os("CODEMODE_UPDATE").is_some() {
        // CODEMODE_UPDATE=1: rewrite the checked-in declarations (then check the programs against them).
        std::fs::write(harness_dir().join("devtools.d.ts"), &generated).unwrap();
    }
    let checked_in = std::fs::read_to_string(harness_dir().join("devtools.d.ts")).unwrap();
    let now = pieces(&generated);
    let then = pieces(&checked_in);
    assert!(then.len() >= 8, "the checked-in declarations parse: {:?}", then.keys());
    for (name, text) in &then {
        assert_eq!(
            now.get(name),
            Some(text),
            "{name} changed: regenerate clients/codemode/devtools.d.ts (CODEMODE_UPDATE=1 on this test, or \
             MCP_URL=... node run.mjs types > devtools.d.ts) and check triage.js against it"
        );
    }
    assert!(
        generated.contains("incomplete?: {") && generated.contains("saved as an artifact (incomplete.artifactId)"),
        "the envelope's incomplete is typed, and artifact_read says what reads it:\n{generated}"
    );
    assert!(generated.contains("nextPage: number | null;"), "{generated}");

    // 2. The program written from them, in codemode's sandbox.
    let out = stdout_of("triage.js", &node("run.mjs", &["run", "triage.js"], &env).await);
    let result: Value = serde_json::from_str(&out).unwrap_or_else(|err| panic!("{err}: {out}"));
    assert_eq!(
        result["summary"],
        json!("22 failed of 104 runs of octo-org/octo-repo (2 page(s), 1 read from artifacts)"),
        "the 100-run page (over the bound) was read back through artifact_read: {out}"
    );
    let rows = strings(&result["rows"]);
    assert_eq!(rows.len(), 22, "{out}");
    assert!(
        rows.contains(
            &"| 3985091487 | Build Documentation | master | test (Python 3.7): Run tests | EX-1 (Done, Mia Krystof), \
              EX-5 (In Progress, Mia Krystof) |"
        ),
        "{out}"
    );
    assert!(
        rows.contains(&"| 3984988478 | Lint | main | test (Python 3.9): Run tests | EX-404 (not found) |"),
        "the missing issue (an isError result) is handled: {out}"
    );
    assert!(
        rows.contains(&"| 2802600146 | Lint | docs | test (Python 3.9): Run tests | - |"),
        "page 2, reached through nextPage: {out}"
    );
}

#[tokio::test]
async fn cloudflare_codemode_gets_every_failed_run_in_one_call_with_all_pages() {
    let result = run_program("run", "failed-runs.js").await;
    let out = result.to_string();
    // The 104 runs of the recorded upstream are two pages of 100: both read, merged, then cut down by the jq.
    assert_eq!(
        result["pages"],
        json!({"read": 2, "stoppedBy": "last_page", "error": null}),
        "{out}"
    );
    assert_eq!(result["nextPage"], Value::Null, "{out}");
    assert_eq!(
        result["incomplete"],
        Value::Null,
        "the jq keeps the answer under the bound: {out}"
    );
    // The 22 failed runs triage.js finds over its two pages, each once, page 2's included.
    assert_eq!(result["failed"], json!(22), "{out}");
    let runs = strings(&result["runs"]);
    assert_eq!(runs.len(), 22, "{out}");
    for run in ["3985091487 Build Documentation (master)", "2802600146 Lint (docs)"] {
        assert!(runs.contains(&run), "{run} in {out}");
    }
}

#[tokio::test]
async fn cloudflare_codemode_waits_for_a_run_then_reads_its_failed_jobs_log() {
    let result = run_program("run", "wait-logs.js").await;
    let out = result.to_string();
    assert_eq!(
        result["run"],
        json!("workflow run 2802600146 of octo-org/octo-repo: completed, failure (finished)"),
        "{out}"
    );
    assert_eq!(
        result["failedJobs"],
        json!(["test (Python 3.9) (jobId 28026001462)"]),
        "the wait result names the failed job and its jobId: {out}"
    );
    assert_eq!(
        result["failing"],
        json!([
            "test (Python 3.9) / Run tests:",
            "  AssertionError: assert datetime.timedelta(seconds=12) == datetime.timedelta(seconds=120)",
            "  FAILED tests/test_retry.py::test_retry_after_seconds - AssertionError: assert \
             datetime.timedelta(seconds=12) == datetime.timedelta(seconds=120)"
        ]),
        "the failed job's log, read by the jobId from the wait: {out}"
    );
}

#[tokio::test]
async fn cloudflare_codemode_reads_the_failed_tests_of_a_pull_request_s_failing_checks() {
    let result = run_program("run", "ci-tests.js").await;
    let out = result.to_string();
    // Pull request #2402 (branch docs): its head is the commit of run 3985194485, whose job test (Python 3.9) failed,
    // and of a CircleCI pipeline whose job 102 failed (listed under both of its workflows).
    assert_eq!(
        result["commit"],
        json!("96f04418107af879f86b33e73e7f54e5253650fd (docs): failure"),
        "{out}"
    );
    assert_eq!(
        result["failingChecks"],
        json!([
            "check_run test (Python 3.9)",
            "workflow build-and-test",
            "circleci_job test",
            "circleci_job test"
        ]),
        "{out}"
    );
    assert_eq!(
        result["reports"],
        json!([
            "test (Python 3.9): GitHub artifact 39851944855 of octo-org/octo-repo: 14 failed of 26",
            "CircleCI job 102 (test): CircleCI job 102 of gh/octo-org/octo-repo: 1 failed of 24"
        ]),
        "each report source read once, from the ids ci_status gave: {out}"
    );
    let failed = strings(&result["failed"]);
    assert_eq!(failed.len(), 15, "{out}");
    assert_eq!(
        failed[0],
        "tests/test_docs.py:27 test_install_snippet: AssertionError: assert 'pip install tox' in snippet"
    );
    assert!(
        failed.contains(
            &"C:/Users/Michal/Workspace/dorny/test-reporter/reports/dotnet/DotnetTests.XUnitTests/CalculatorTests.cs:27 \
              Failing_Test: Assert.Equal() Failure"
        ),
        "a TRX failure, its message's first line: {out}"
    );
    assert_eq!(
        failed[14],
        "test/pipeline.test.js pipeline encodes the page token once: Error: expect(received).toBe(expected) // \
         Object.is equality",
        "CircleCI's tests give a file and no line: {out}"
    );
}

#[tokio::test]
async fn the_ai_sdk_path_hands_the_program_the_whole_call_tool_result() {
    let result = run_program("ai-sdk", "ai-sdk.js").await;
    let out = result.to_string();
    let keys = strings(&result["keys"]);
    assert!(
        keys.contains(&"content") && keys.contains(&"structuredContent") && keys.contains(&"isError"),
        "{out}"
    );
    assert_eq!(result["nextPage"], json!(2), "{out}");
    assert!(result["runs"].as_array().is_some_and(|runs| !runs.is_empty()), "{out}");
    assert_eq!(
        result["missing"]["isError"],
        json!(true),
        "an isError result is a value, not a throw: {out}"
    );
    assert!(result["missing"]["text"].as_str().unwrap().contains("404"), "{out}");
}

#[tokio::test]
async fn ai_sdk_stdio_close_lets_its_host_exit() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let mut env: Vec<(&str, String)> = upstream.env();
    env.push(("MCP_DEVTOOLS_BIN", common::BIN.to_owned()));
    let out = stdout_of("stdio-close.mjs", &node("stdio-close.mjs", &[], &env).await);
    let result: Value = serde_json::from_str(out.trim()).unwrap_or_else(|err| panic!("{err}: {out}"));
    assert_eq!(result["runs"], json!(4), "{out}");
    let after_close = result["exitedAfterCloseMs"].as_u64().unwrap();
    assert!(
        after_close < 10_000,
        "the host exited {after_close} ms after close(): the server outlived SIGTERM ({out})"
    );
}
