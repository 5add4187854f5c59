//! A code-mode harness in miniature: instead of a model reading every tool result as text, a program calls the
//! `mcp-devtools` tools, reads `structuredContent` as data, and prints only what matters — here, the failing jobs
//! of the failed workflow runs of a repository.
//!
//! By default the server talks to an embedded recorded upstream (a local HTTP server on 127.0.0.1 serving the
//! repository's GitHub fixtures). With `--live` it talks to api.github.com with `GITHUB_TOKEN`.
//!
//! It ends with a table: the bytes a model would have read calling the same tools directly (their text blocks,
//! no `jq`), against the bytes this program printed.
//!
//! Run: `cargo run -p mcp-devtools-examples --bin code_mode` (add `-- --live --owner O --repo R` for the real API).

use anyhow::Context;
use clap::Parser;
use mcp_devtools_examples::harness::{Client, call, connect, data_of, server_binary, text, with};
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

const FAILED_RUNS: &str =
    r#"[.workflow_runs[] | select(.conclusion == "failure") | {id, name, head_branch, html_url}]"#;
const FAILED_JOBS: &str = r#"[.jobs[] | select(.conclusion == "failure")
  | {name, html_url, failed_steps: [.steps[] | select(.conclusion == "failure") | .name]}]"#;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let options = Options::parse();
    let (_upstream, base, token) = if options.live {
        let token = std::env::var("GITHUB_TOKEN").context("--live needs GITHUB_TOKEN")?;
        (None, "https://api.github.com".to_string(), token)
    } else {
        let upstream = RecordedUpstream::github().await?;
        let base = upstream.uri();
        (Some(upstream), base, "recorded-upstream-token".to_string())
    };
    let binary = server_binary()?;
    let client = connect(&binary, &[("GITHUB_API_BASE", base), ("GITHUB_TOKEN", token)]).await?;
    let repo = json!({"owner": options.owner, "repo": options.repo});

    // 1. The program: project on the server, read structuredContent as data, print only the findings.
    let mut printed = String::new();
    let runs = call_tool(
        &client,
        "github_list_workflow_runs",
        with(&repo, json!({"perPage": options.per_page, "jq": FAILED_RUNS})),
    )
    .await?;
    let failed_runs = data_of(&client, &runs).await?;
    let failed_runs = failed_runs.as_array().cloned().unwrap_or_default();
    printed += &format!(
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
    print!("{printed}");

    // 2. The baseline: what a model reads calling the same tools directly (text blocks, no jq).
    let mut direct = text_len(
        &call_tool(
            &client,
            "github_list_workflow_runs",
            with(&repo, json!({"perPage": options.per_page})),
        )
        .await?,
    );
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

    let program = printed.len();
    let direct_label = format!("text blocks of {direct_calls} direct calls (no jq)");
    let ratio = format!("{:.1}x", direct as f64 / program.max(1) as f64);
    println!();
    println!("| {:<42} | {:>9} |", "what a model reads", "bytes");
    println!("|{:-<44}|{:->11}|", "", "");
    println!("| {direct_label:<42} | {direct:>9} |");
    println!("| {:<42} | {program:>9} |", "printed by this program");
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
