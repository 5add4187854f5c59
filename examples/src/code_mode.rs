//! A code-mode harness in miniature: instead of a model reading every tool result as text, a program calls the
//! `mcp-devtools` tools, reads `structuredContent` as data, and prints only what matters — here, the failing jobs
//! of the failed workflow runs of a repository.
//!
//! The server runs in this process: a real MCP session between an rmcp client and the server's handler over an
//! in-memory pipe ([`connect_in_process`]), so nothing is built or spawned at run time. By default it talks to an
//! embedded recorded upstream (a local HTTP server on 127.0.0.1 serving the repository's GitHub fixtures). With
//! `--live` it talks to api.github.com with `GITHUB_TOKEN`.
//!
//! It prints (stdout) the tool's `outputSchema` and the first call's `structuredContent` (both trimmed), the
//! program's reading of the data, and a table: the bytes a model would have read calling the same tools directly
//! (their text blocks, no `jq`), against the bytes of the reading. Progress lines go to stderr.
//!
//! Run: `cargo run -p mcp-devtools-examples --bin code_mode` (add `-- --live --owner O --repo R` for the real API).

use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;
use mcp_devtools_examples::harness::{Client, call, connect_in_process, data_of, text, trimmed, with};
use recorded_upstream::RecordedUpstream;
use rmcp::model::CallToolResult;
use serde_json::{Value, json};

/// Command-line options.
#[derive(Debug, Parser)]
#[command(about = "Find the failing jobs of failed GitHub Actions runs through mcp-devtools, as a code-mode program")]
struct Options {
    /// Use the real GitHub API (needs GITHUB_TOKEN) instead of the embedded recorded upstream.
    #[arg(long)]
    live: bool,
    /// Repository owner.
    #[arg(long, default_value = "octo-org")]
    owner: String,
    /// Repository name.
    #[arg(long, default_value = "octo-repo")]
    repo: String,
    /// Runs to scan (GitHub's perPage, 1..=100).
    #[arg(long, default_value_t = 100)]
    per_page: u32,
}

const RUNS_TOOL: &str = "github_list_workflow_runs";
const FAILED_RUNS: &str =
    r#"[.workflow_runs[] | select(.conclusion == "failure") | {id, name, head_branch, html_url}]"#;
const FAILED_JOBS: &str = r#"[.jobs[] | select(.conclusion == "failure")
  | {name, html_url, failed_steps: [.steps[] | select(.conclusion == "failure") | .name]}]"#;

fn main() -> ExitCode {
    mcp_devtools_examples::harness::main("code_mode", || async {
        run(Options::parse()).await.map(|()| ExitCode::SUCCESS)
    })
}

/// One progress line on stderr.
fn progress(line: &str) {
    eprintln!("[code_mode] {line}");
}

async fn run(options: Options) -> anyhow::Result<()> {
    let (_upstream, base, token) = if options.live {
        let token = std::env::var("GITHUB_TOKEN").context("--live needs GITHUB_TOKEN")?;
        (None, "https://api.github.com".to_string(), token)
    } else {
        progress("starting the recorded upstream (GitHub fixtures on 127.0.0.1)");
        let upstream = RecordedUpstream::github().await?;
        let base = upstream.uri();
        (Some(upstream), base, "recorded-upstream-token".to_string())
    };
    progress("starting mcp-devtools in this process (an MCP session over an in-memory pipe)");
    let client = connect_in_process(&[("GITHUB_API_BASE", base), ("GITHUB_TOKEN", token)]).await?;
    let tools = client.list_all_tools().await?;
    progress(&format!("tools/list: {} tools", tools.len()));
    let schema = tools
        .iter()
        .find(|tool| tool.name == RUNS_TOOL)
        .and_then(|tool| tool.output_schema.clone())
        .context("github_list_workflow_runs has no outputSchema")?;
    let repo = json!({"owner": options.owner, "repo": options.repo});

    // 1. The program: project on the server, read structuredContent as data, print only the findings.
    progress(&format!("calling {RUNS_TOOL} (jq keeps the failed runs)"));
    let runs = call_tool(
        &client,
        RUNS_TOOL,
        with(&repo, json!({"perPage": options.per_page, "jq": FAILED_RUNS})),
    )
    .await?;
    let failed_runs = data_of(&client, &runs).await?;
    let failed_runs = failed_runs.as_array().cloned().unwrap_or_default();
    progress(&format!(
        "calling github_list_workflow_jobs for {} failed run(s)",
        failed_runs.len()
    ));
    let mut printed = format!(
        "{} failed run(s) among the latest {} runs of {}/{}\n",
        failed_runs.len(),
        options.per_page,
        options.owner,
        options.repo
    );
    for run in &failed_runs {
        let run_id = run["id"].as_u64().context("a run without a numeric id")?;
        let jobs = call_tool(
            &client,
            "github_list_workflow_jobs",
            with(&repo, json!({"runId": run_id, "jq": FAILED_JOBS})),
        )
        .await?;
        let jobs = data_of(&client, &jobs).await?;
        for job in jobs.as_array().into_iter().flatten() {
            let steps: Vec<&str> = job["failed_steps"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            printed += &format!(
                "run {run_id} {} ({}): job {:?} failed at {:?}\n  {}\n",
                run["name"].as_str().unwrap_or("?"),
                run["head_branch"].as_str().unwrap_or("?"),
                job["name"].as_str().unwrap_or("?"),
                steps.join(", "),
                job["html_url"].as_str().unwrap_or(""),
            );
        }
    }

    // 2. The baseline: what a model reads calling the same tools directly (text blocks, no jq).
    progress("measuring the baseline: the same calls without jq, as a model would make them");
    let mut direct = text_len(&call_tool(&client, RUNS_TOOL, with(&repo, json!({"perPage": options.per_page}))).await?);
    let mut direct_calls = 1;
    for run in &failed_runs {
        let jobs = call_tool(
            &client,
            "github_list_workflow_jobs",
            with(&repo, json!({"runId": run["id"]})),
        )
        .await?;
        direct += text_len(&jobs);
        direct_calls += 1;
    }
    client.cancel().await?;

    println!("== outputSchema of {RUNS_TOOL} (trimmed)");
    println!("{}", trimmed(&Value::Object((*schema).clone())));
    println!("== structuredContent of the first call (trimmed): the data the program reads");
    println!("{}", trimmed(&serde_json::to_value(&runs.structured_content)?));
    println!("== the program's reading");
    print!("{printed}");
    let program = printed.len();
    let direct_label = format!("text blocks of {direct_calls} direct calls (no jq)");
    let ratio = format!("{:.1}x", direct as f64 / program.max(1) as f64);
    println!();
    println!("| {:<42} | {:>9} |", "what a model reads", "bytes");
    println!("|{:-<44}|{:->11}|", "", "");
    println!("| {direct_label:<42} | {direct:>9} |");
    println!("| {:<42} | {program:>9} |", "the program's reading");
    println!("| {:<42} | {ratio:>9} |", "ratio");
    Ok(())
}

fn text_len(result: &CallToolResult) -> usize {
    text(result).len()
}

/// [`call`] taking the arguments by value (an `isError` result is an error).
async fn call_tool(client: &Client, tool: &str, args: Value) -> anyhow::Result<CallToolResult> {
    call(client, tool, &args).await
}
