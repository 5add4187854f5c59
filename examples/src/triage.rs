//! A three-vendor triage as a code-mode program. First it waits, then it triages: `github_wait_for_run` waits until
//! a run completed (`--run-id`, default the newest run; at most `--wait-seconds`), so that the triage sees its outcome
//! (against the recorded upstream every run has finished, and the wait answers at once). Then, for each failed GitHub
//! Actions run, the failing job and step, the
//! CircleCI pipeline built from the same commit (`vcs.revision` = the run's `head_sha`), the Jira issues named
//! in the run's head commit message with their status and assignee, and the pull request of the commit. The program reads `structuredContent` as data
//! and prints one table; a model would have read every tool's text block instead.
//!
//! Handles what a harness meets: an oversized page (the 100-run page is 1.2 MB, over the structured bound, so it
//! arrives as an artifact read back with `artifact_read`), `nextPage` (it reads pages until `null`, at most
//! `--max-pages`), and `isError` results (a missing Jira issue, a CircleCI project that is not there) shown in the
//! table instead of stopping the program.
//!
//! By default the server talks to the embedded recorded upstream (every vendor on one local server, consistent
//! data). With `--live` it talks to the real APIs with the settings of this process's environment (`GITHUB_TOKEN`,
//! `CIRCLECI_TOKEN`, `ATLASSIAN_SITE_NAME` or `JIRA_BASE_URL`, `ATLASSIAN_USER_EMAIL`, `ATLASSIAN_API_TOKEN`).
//!
//! After the table, the reason of each failure: the failing steps' last error lines, read with `github_get_job_logs`
//! (`grep` and `tailLines` run on the server, over the streamed log). Then its failed tests: `ci_status` gives the
//! failing checks of the run's commit, and `ci_test_results` the failed tests of each one's reports (a check run: the
//! run's `test-results` artifact, found with `github_get` of the run's artifacts; a CircleCI job: its tests), one
//! line each, `file:line name: message` (what exists of it); a run whose reports list the same failed tests as an
//! earlier run's says so instead of repeating them.
//!
//! It ends with the bytes table — the text blocks a model would have read making the same calls directly (each
//! call without its `jq`), against the bytes this program printed — and a last line `ratio: N.Nx`. The wait is not
//! in the table's calls: its text holds `waitedMs`, which changes from run to run, and the three programs print the
//! same bytes (the line the program prints for it is counted).
//!
//! Run: `cargo run -p mcp-devtools-examples --bin triage` (add `-- --live --owner O --repo R` for real data).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use clap::Parser;
use mcp_devtools_examples::harness::{Client, call_raw, connect, data_of, server_binary, text, with};
use recorded_upstream::RecordedUpstream;
use regex::Regex;
use rmcp::model::CallToolResult;
use serde_json::{Value, json};

/// Command-line options.
#[derive(Debug, Parser)]
#[command(
    about = "Triage failed GitHub Actions runs with CircleCI and Jira through mcp-devtools, as a code-mode program"
)]
struct Options {
    /// Use the real APIs (settings from the environment) instead of the embedded recorded upstream.
    #[arg(long)]
    live: bool,
    /// Repository owner.
    #[arg(long, default_value = "octo-org")]
    owner: String,
    /// Repository name.
    #[arg(long, default_value = "octo-repo")]
    repo: String,
    /// CircleCI project slug; default `gh/<owner>/<repo>`.
    #[arg(long)]
    circleci_project: Option<String>,
    /// Runs per page (GitHub's perPage, 1..=100).
    #[arg(long, default_value_t = 100)]
    per_page: u32,
    /// Most pages of runs to read.
    #[arg(long, default_value_t = 3)]
    max_pages: u32,
    /// Most CircleCI pages to read per branch.
    #[arg(long, default_value_t = 3)]
    max_circleci_pages: u32,
    /// The run to wait for before the triage; default the newest run of the repository.
    #[arg(long)]
    run_id: Option<u64>,
    /// The longest wait for that run, seconds (github_wait_for_run's timeoutSeconds).
    #[arg(long, default_value_t = 60)]
    wait_seconds: u64,
}

/// The failing job of a run, its failed steps (GitHub `jobs`, projected on the server).
const FAILED_JOB: &str = r#"[.jobs[] | select(.conclusion == "failure") | {name, steps: [.steps[] | select(.conclusion == "failure") | .name]}]"#;
/// The error lines of a run's failed jobs (`github_get_job_logs` with `grep`), reduced to job, step and text.
const WHY: &str = r#"[.jobs[] | .job.name as $job | .steps[] | select(.lines != []) | {job: $job, step: .name, lines: [.lines[].text]}]"#;
/// The lines that say why a step failed: test failures, errors and exceptions (not the runner's exit-code note).
const ERROR_LINES: &str = r"^(FAILED|ERROR:|E +|[A-Za-z]+Error:)";
/// A page of CircleCI pipelines, reduced to what the table needs.
const PIPELINES: &str = r#"{items: [.items[] | {revision: .vcs.revision, number, state}], next: .next_page_token}"#;
/// The pull requests of a commit (`github_get /repos/{o}/{r}/commits/{sha}/pulls`), reduced to what the table needs.
const PULLS: &str = r#"[.[] | {number, state, merged: (.merged_at != null)}]"#;
/// A Jira issue's status and assignee (asked with `fields=status,assignee`).
const ISSUE: &str = r#"{status: .fields.status.name, assignee: .fields.assignee.displayName}"#;
/// The newest run's id (`github_list_workflow_runs`, newest first).
const NEWEST_RUN: &str = ".workflow_runs[0].id";
/// The ids of a run's `test-results` artifacts (`github_get /repos/{o}/{r}/actions/runs/{id}/artifacts`).
const TEST_RESULTS_ARTIFACTS: &str = r#"[.artifacts[] | select(.name == "test-results") | .id]"#;

/// Every call the program made (tool, arguments), to replay without `jq` for the baseline.
#[derive(Default)]
struct Calls(Vec<(String, Value)>);

impl Calls {
    async fn raw(&mut self, client: &Client, tool: &str, args: Value) -> anyhow::Result<CallToolResult> {
        self.0.push((tool.to_string(), args.clone()));
        call_raw(client, tool, &args).await
    }

    /// The text bytes a model reads making every recorded call itself, without `jq`.
    async fn direct_text_bytes(&self, client: &Client) -> anyhow::Result<usize> {
        let mut total = 0;
        for (tool, args) in &self.0 {
            let mut args = args.clone();
            if let Some(map) = args.as_object_mut() {
                map.remove("jq");
            }
            total += text(&call_raw(client, tool, &args).await?).len();
        }
        Ok(total)
    }
}

/// One failed run and what the other vendors say about it.
struct Row {
    run: Value,
    failing: String,
    pipeline: String,
    keys: Vec<String>,
    pull: String,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let options = Options::parse();
    let (_upstream, env) = if options.live {
        (None, Vec::new())
    } else {
        let upstream = RecordedUpstream::all().await?;
        let env = upstream.env();
        (Some(upstream), env)
    };
    let client = connect(&server_binary()?, &env).await?;
    let mut calls = Calls::default();
    let repo = json!({"owner": options.owner, "repo": options.repo});

    // 0. Wait, then triage: the run (default the newest) until it completed, at most --wait-seconds. The server
    //    polls for the program (one poll loop per run, however many wait on it) and answers once it finished.
    let run_id = match options.run_id {
        Some(id) => Some(id),
        None => {
            let args = with(&repo, json!({"perPage": options.per_page, "jq": NEWEST_RUN}));
            let result = calls.raw(&client, "github_list_workflow_runs", args).await?;
            if result.is_error == Some(true) {
                anyhow::bail!("listing runs failed: {}", text(&result));
            }
            data_of(&client, &result).await?.as_u64()
        }
    };
    let waited = match run_id {
        None => "No run to wait for.".to_string(),
        Some(id) => {
            let args = with(&repo, json!({"runId": id, "timeoutSeconds": options.wait_seconds}));
            // Not in `calls`: the baseline leaves the wait out (its text holds waitedMs, which varies).
            let result = call_raw(&client, "github_wait_for_run", &args).await?;
            if result.is_error == Some(true) {
                format!("Could not wait for run {id}: {}", first_line(&text(&result)))
            } else {
                waited_line(&data_of(&client, &result).await?, options.wait_seconds)
            }
        }
    };

    // 1. Failed runs, page after page. No jq: the program keeps whole runs (it needs the head commit message), so
    //    a 100-run page is over the structured bound and comes back as an artifact.
    let mut failed = Vec::new();
    let mut scanned = 0;
    let mut page = Some(1u64);
    let mut pages = 0;
    while let Some(number) = page.filter(|_| pages < options.max_pages) {
        let args = with(&repo, json!({"perPage": options.per_page, "page": number}));
        let result = calls.raw(&client, "github_list_workflow_runs", args).await?;
        if result.is_error == Some(true) {
            anyhow::bail!("listing runs failed: {}", text(&result));
        }
        let data = data_of(&client, &result).await?;
        let runs = data["workflow_runs"].as_array().cloned().unwrap_or_default();
        scanned += runs.len();
        failed.extend(runs.into_iter().filter(|run| run["conclusion"] == "failure"));
        page = result.structured_content.as_ref().and_then(|s| s["nextPage"].as_u64());
        pages += 1;
    }

    // 2. The failing job and step of each failed run.
    let mut rows = Vec::new();
    let keys_in = Regex::new(r"\b[A-Z][A-Z0-9]+-[0-9]+\b")?;
    for run in failed {
        let args = with(&repo, json!({"runId": run["id"], "jq": FAILED_JOB}));
        let result = calls.raw(&client, "github_list_workflow_jobs", args).await?;
        let failing = if result.is_error == Some(true) {
            format!("error: {}", first_line(&text(&result)))
        } else {
            let jobs = data_of(&client, &result).await?;
            let jobs = jobs.as_array().cloned().unwrap_or_default();
            jobs.iter()
                .map(|job| {
                    let steps: Vec<&str> = job["steps"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                        .collect();
                    format!("{}: {}", job["name"].as_str().unwrap_or("?"), steps.join(", "))
                })
                .collect::<Vec<_>>()
                .join("; ")
        };
        let message = run["head_commit"]["message"].as_str().unwrap_or_default();
        let keys: BTreeSet<String> = keys_in.find_iter(message).map(|key| key.as_str().to_string()).collect();
        rows.push(Row {
            run,
            failing,
            pipeline: String::new(),
            keys: keys.into_iter().collect(),
            pull: String::new(),
        });
    }

    // 2b. The pull request each failed run's commit belongs to (any GitHub REST read goes through github_get).
    for row in &mut rows {
        let sha = row.run["head_sha"].as_str().unwrap_or_default();
        let path = format!("/repos/{}/{}/commits/{sha}/pulls", options.owner, options.repo);
        let result = calls
            .raw(&client, "github_get", json!({"path": path, "jq": PULLS}))
            .await?;
        row.pull = if result.is_error == Some(true) {
            format!("error: {}", first_line(&text(&result)))
        } else {
            pull_cell(&data_of(&client, &result).await?)
        };
    }

    // 2c. Why: the last error lines of each failed run's failing steps, read from the job logs on the server.
    let mut why: Vec<(String, Vec<String>)> = Vec::new();
    for row in &rows {
        let args = with(
            &repo,
            json!({"runId": row.run["id"], "grep": ERROR_LINES, "tailLines": 2, "jq": WHY}),
        );
        let result = calls.raw(&client, "github_get_job_logs", args).await?;
        let lines = if result.is_error == Some(true) {
            vec![format!("error: {}", first_line(&text(&result)))]
        } else {
            let steps = data_of(&client, &result).await?;
            let mut lines = Vec::new();
            for step in steps.as_array().into_iter().flatten() {
                lines.push(format!(
                    "{} / {}:",
                    step["job"].as_str().unwrap_or("?"),
                    step["step"].as_str().unwrap_or("?")
                ));
                lines.extend(
                    step["lines"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                        .map(|l| format!("    {l}")),
                );
            }
            lines
        };
        why.push((row.run["id"].to_string(), lines));
    }

    // 3. CircleCI: the pipelines of each branch, matched on the commit.
    let project = options
        .circleci_project
        .clone()
        .unwrap_or_else(|| format!("gh/{}/{}", options.owner, options.repo));
    let branches: BTreeSet<String> = rows
        .iter()
        .filter_map(|row| row.run["head_branch"].as_str().map(str::to_string))
        .collect();
    let mut pipeline_of: BTreeMap<String, String> = BTreeMap::new();
    for branch in branches {
        let wanted: BTreeSet<&str> = rows
            .iter()
            .filter(|row| row.run["head_branch"] == branch.as_str())
            .filter_map(|row| row.run["head_sha"].as_str())
            .collect();
        let mut token: Option<String> = None;
        for _ in 0..options.max_circleci_pages {
            let mut query = json!({"branch": branch});
            if let Some(token) = &token {
                query["page-token"] = json!(token);
            }
            let args = json!({"path": format!("/project/{project}/pipeline"), "queryParams": query, "jq": PIPELINES});
            let result = calls.raw(&client, "circleci_get", args).await?;
            if result.is_error == Some(true) {
                for sha in &wanted {
                    pipeline_of.insert((*sha).to_string(), format!("error: {}", first_line(&text(&result))));
                }
                break;
            }
            let page = data_of(&client, &result).await?;
            for item in page["items"].as_array().into_iter().flatten() {
                if let Some(sha) = item["revision"].as_str().filter(|sha| wanted.contains(sha)) {
                    pipeline_of
                        .entry(sha.to_string())
                        .or_insert_with(|| format!("#{} {}", item["number"], item["state"].as_str().unwrap_or("?")));
                }
            }
            token = page["next"].as_str().map(str::to_string);
            if token.is_none() || wanted.iter().all(|sha| pipeline_of.contains_key(*sha)) {
                break;
            }
        }
    }
    for row in &mut rows {
        let sha = row.run["head_sha"].as_str().unwrap_or_default();
        row.pipeline = pipeline_of.get(sha).cloned().unwrap_or_else(|| "none".to_string());
    }

    // 3b. Failed tests: the failing checks of each failed run's commit (ci_status), and the failed tests of their
    //     reports (ci_test_results of the run's test-results artifact, or of the CircleCI job).
    let mut tests = FailedTests::default();
    for row in &rows {
        tests.of_run(&client, &mut calls, &repo, &project, &row.run).await?;
    }

    // 4. Jira: status and assignee of every key named, once per key.
    let keys: BTreeSet<String> = rows.iter().flat_map(|row| row.keys.clone()).collect();
    let mut issues: BTreeMap<String, String> = BTreeMap::new();
    for key in keys {
        let args = json!({"path": format!("/rest/api/3/issue/{key}"),
                          "queryParams": {"fields": "status,assignee"}, "jq": ISSUE});
        let result = calls.raw(&client, "jira_get", args).await?;
        let cell = if result.is_error == Some(true) {
            let message = text(&result);
            if message.contains("404") {
                "not found".to_string()
            } else {
                format!("error: {}", first_line(&message))
            }
        } else {
            let issue = data_of(&client, &result).await?;
            format!(
                "{}, {}",
                issue["status"].as_str().unwrap_or("?"),
                issue["assignee"].as_str().unwrap_or("unassigned")
            )
        };
        issues.insert(key, cell);
    }

    // 5. The table: all the program prints for the model.
    let mut printed = format!(
        "{waited}\n\n{} failed of {scanned} runs of {}/{} ({pages} page(s)); CircleCI project {project}\n\n",
        rows.len(),
        options.owner,
        options.repo
    );
    printed += "| run | workflow | branch | failing job: step | CircleCI pipeline | Jira | pull request |\n|---|---|---|---|---|---|---|\n";
    for row in &rows {
        let jira: Vec<String> = row.keys.iter().map(|key| format!("{key} ({})", issues[key])).collect();
        writeln!(
            printed,
            "| {} | {} | {} | {} | {} | {} | {} |",
            row.run["id"],
            row.run["name"].as_str().unwrap_or("?"),
            row.run["head_branch"].as_str().unwrap_or("?"),
            row.failing,
            row.pipeline,
            if jira.is_empty() {
                "-".to_string()
            } else {
                jira.join(", ")
            },
            row.pull
        )?;
    }
    printed += "\nWhy they failed (the failing steps' last error lines, from github_get_job_logs):\n";
    for (run, lines) in &why {
        writeln!(printed, "- run {run}")?;
        for line in lines {
            writeln!(printed, "  {line}")?;
        }
    }
    printed += "\nFailed tests (the failing checks ci_status finds for each failed run's commit, their reports read \
                with ci_test_results):\n";
    for line in &tests.printed {
        writeln!(printed, "{line}")?;
    }
    print!("{printed}");

    // 6. The baseline: the same calls made directly, each without its jq, as text blocks.
    let direct = calls.direct_text_bytes(&client).await?;
    client.cancel().await?;
    let program = printed.len();
    println!();
    println!("| what a model reads | bytes |");
    println!("|---|---|");
    println!(
        "| text blocks of the {} calls made directly (no jq) | {direct} |",
        calls.0.len()
    );
    println!("| printed by this program | {program} |");
    println!("ratio: {:.1}x", direct as f64 / program.max(1) as f64);
    Ok(())
}

/// What the wait saw: `Waited for workflow run 1 of o/r: completed, failure; 1 of 3 job(s) failed`, or the state a
/// wait that timed out (or stopped for another reason) last saw.
fn waited_line(wait: &Value, seconds: u64) -> String {
    let jobs = wait["jobs"].as_array().map_or(0, Vec::len);
    let failed = wait["jobs"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|job| job["failed"] == true)
        .count();
    let target = wait["target"].as_str().unwrap_or("?");
    let state = wait["state"].as_str().unwrap_or("?");
    match wait["stoppedBy"].as_str().unwrap_or("?") {
        "finished" => format!(
            "Waited for {target}: {state}, {}; {failed} of {jobs} job(s) failed",
            wait["conclusion"].as_str().unwrap_or("-")
        ),
        "timeout" => format!("Waited {seconds} s for {target}: still {state}; {failed} of {jobs} job(s) failed so far"),
        other => format!("Stopped waiting for {target} ({other}): {state}; {failed} of {jobs} job(s) failed so far"),
    }
}

/// `#2402 open`, `#2322 merged`, several joined with `, `, or `-` when the commit is in no pull request.
fn pull_cell(pulls: &Value) -> String {
    let cells: Vec<String> = pulls
        .as_array()
        .into_iter()
        .flatten()
        .map(|pull| {
            let state = if pull["merged"] == true {
                "merged"
            } else {
                pull["state"].as_str().unwrap_or("?")
            };
            format!("#{} {state}", pull["number"])
        })
        .collect();
    if cells.is_empty() {
        "-".to_string()
    } else {
        cells.join(", ")
    }
}

/// The failed tests of the failing checks of each failed run, read once per report source.
#[derive(Default)]
struct FailedTests {
    /// The lines printed so far: per run, a heading and its failed tests (or a reference to an earlier run with
    /// the same ones).
    printed: Vec<String>,
    /// The test-results artifacts of a run, by run id.
    artifacts: BTreeMap<u64, Vec<u64>>,
    /// The failed-test lines of a report source (`ci_test_results` arguments as JSON).
    results: BTreeMap<String, Vec<String>>,
    /// The first run that printed a list of failed-test lines, by the lines joined.
    first_with: BTreeMap<String, String>,
}

impl FailedTests {
    /// Reads the failing checks of `run`'s commit with `ci_status`, then the failed tests of each one's reports,
    /// and adds the run's lines to [`FailedTests::printed`].
    async fn of_run(
        &mut self,
        client: &Client,
        calls: &mut Calls,
        repo: &Value,
        project: &str,
        run: &Value,
    ) -> anyhow::Result<()> {
        let id = run["id"].to_string();
        let args = with(repo, json!({"sha": run["head_sha"], "projectSlug": project}));
        let result = calls.raw(client, "ci_status", args).await?;
        if result.is_error == Some(true) {
            self.printed
                .push(format!("- run {id}: error: {}", first_line(&text(&result))));
            return Ok(());
        }
        let status = data_of(client, &result).await?;
        let slug = status["circleci"]["projectSlug"]
            .as_str()
            .unwrap_or(project)
            .to_string();
        let mut labels: Vec<String> = Vec::new();
        let mut sources: Vec<Value> = Vec::new();
        let failing = status["checks"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|c| c["state"] == "failure");
        for check in failing {
            let name = check["name"].as_str().unwrap_or("?");
            let (label, found) = match (
                check["kind"].as_str(),
                check["runId"].as_u64(),
                check["jobNumber"].as_u64(),
            ) {
                (Some("check_run"), Some(run_id), _) => {
                    let ids = self.test_artifacts(client, calls, repo, run_id).await?;
                    let found = ids
                        .iter()
                        .map(|artifact| with(repo, json!({"artifactId": artifact})))
                        .collect();
                    (name.to_string(), found)
                }
                (Some("circleci_job"), _, Some(number)) => (
                    format!("CircleCI job {number} ({name})"),
                    vec![json!({"projectSlug": slug, "jobNumber": number})],
                ),
                _ => continue,
            };
            if !labels.contains(&label) {
                labels.push(label);
            }
            for source in found {
                if !sources.contains(&source) {
                    sources.push(source);
                }
            }
        }
        if labels.is_empty() {
            self.printed
                .push(format!("- run {id}: no failing check with test reports"));
            return Ok(());
        }
        let heading = format!("- run {id}: {}", labels.join(", "));
        if sources.is_empty() {
            self.printed.push(format!("{heading}: no test reports"));
            return Ok(());
        }
        let mut lines = Vec::new();
        for source in sources {
            lines.extend(self.test_results(client, calls, source).await?);
        }
        if lines.is_empty() {
            self.printed.push(format!("{heading}: no failed test in their reports"));
            return Ok(());
        }
        let key = lines.join("\n");
        if let Some(first) = self.first_with.get(&key) {
            self.printed.push(format!(
                "{heading}: the same {} failed test(s) as run {first}",
                lines.len()
            ));
            return Ok(());
        }
        self.first_with.insert(key, id);
        self.printed.push(heading);
        self.printed.extend(lines.into_iter().map(|line| format!("    {line}")));
        Ok(())
    }

    /// The ids of the `test-results` artifacts of run `run_id`, listed once per run.
    async fn test_artifacts(
        &mut self,
        client: &Client,
        calls: &mut Calls,
        repo: &Value,
        run_id: u64,
    ) -> anyhow::Result<Vec<u64>> {
        if let Some(ids) = self.artifacts.get(&run_id) {
            return Ok(ids.clone());
        }
        let path = format!(
            "/repos/{}/{}/actions/runs/{run_id}/artifacts",
            repo["owner"].as_str().unwrap_or_default(),
            repo["repo"].as_str().unwrap_or_default()
        );
        let result = calls
            .raw(
                client,
                "github_get",
                json!({"path": path, "jq": TEST_RESULTS_ARTIFACTS}),
            )
            .await?;
        let ids: Vec<u64> = if result.is_error == Some(true) {
            Vec::new()
        } else {
            let ids = data_of(client, &result).await?;
            ids.as_array().into_iter().flatten().filter_map(Value::as_u64).collect()
        };
        self.artifacts.insert(run_id, ids.clone());
        Ok(ids)
    }

    /// The failed tests of one report source (`ci_test_results` arguments), one line each, read once per source.
    async fn test_results(&mut self, client: &Client, calls: &mut Calls, source: Value) -> anyhow::Result<Vec<String>> {
        let key = source.to_string();
        if let Some(lines) = self.results.get(&key) {
            return Ok(lines.clone());
        }
        let result = calls.raw(client, "ci_test_results", source).await?;
        let lines = if result.is_error == Some(true) {
            vec![format!("error: {}", first_line(&text(&result)))]
        } else {
            let results = data_of(client, &result).await?;
            let mut lines: Vec<String> = results["failed"]
                .as_array()
                .into_iter()
                .flatten()
                .map(failed_test_line)
                .collect();
            let omitted = results["failedOmitted"].as_u64().unwrap_or_default();
            if omitted > 0 {
                lines.push(format!("({omitted} more failed test(s) not listed)"));
            }
            lines
        };
        self.results.insert(key, lines.clone());
        Ok(lines)
    }
}

/// A failed test as `file:line name: message` (the message's first line), with what exists of it: `file name:
/// message` without a line, `name: message` without a file, `name` alone without a message.
fn failed_test_line(test: &Value) -> String {
    let mut line = String::new();
    if let Some(file) = test["file"].as_str().filter(|file| !file.is_empty()) {
        line.push_str(file);
        if let Some(number) = test["line"].as_u64() {
            line.push_str(&format!(":{number}"));
        }
        line.push(' ');
    }
    line.push_str(test["name"].as_str().unwrap_or("?"));
    let message = test["message"].as_str().and_then(|message| message.split('\n').next());
    if let Some(message) = message.filter(|message| !message.is_empty()) {
        line.push_str(&format!(": {message}"));
    }
    line
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or_default()
}
