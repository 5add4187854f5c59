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

use std::path::PathBuf;

use anyhow::{Context, bail};
use base64::Engine;
use clap::Parser;
use recorded_upstream::RecordedUpstream;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
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
    let client = connect(&binary, &base, &token).await?;
    let repo = json!({"owner": options.owner, "repo": options.repo});

    // 1. The program: project on the server, read structuredContent as data, print only the findings.
    let mut printed = String::new();
    let runs = call(
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
        let jobs = call(
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
        &call(
            &client,
            "github_list_workflow_runs",
            with(&repo, json!({"perPage": options.per_page})),
        )
        .await?,
    );
    let mut direct_calls = 1;
    for run in &failed_runs {
        let jobs = call(
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

/// `base` with the fields of `more` added.
fn with(base: &Value, more: Value) -> Value {
    let mut args = base.clone();
    if let (Some(args), Some(more)) = (args.as_object_mut(), more.as_object()) {
        args.extend(more.clone());
    }
    args
}

/// The server binary: `$MCP_DEVTOOLS_BIN`, else `mcp-devtools` beside this program (built first when run by cargo).
fn server_binary() -> anyhow::Result<PathBuf> {
    if let Some(path) = std::env::var_os("MCP_DEVTOOLS_BIN") {
        return Ok(PathBuf::from(path));
    }
    let here = std::env::current_exe()?;
    let dir = here.parent().context("this program has no directory")?;
    if let Some(cargo) = std::env::var_os("CARGO") {
        let mut build = std::process::Command::new(cargo);
        build.args(["build", "--quiet", "-p", "mcp-devtools-server", "--bin", "mcp-devtools"]);
        if dir.ends_with("release") {
            build.arg("--release");
        }
        if !build.status()?.success() {
            bail!("building the mcp-devtools server failed");
        }
    }
    let binary = dir.join("mcp-devtools");
    if !binary.exists() {
        bail!(
            "{} not found: build it with `cargo build -p mcp-devtools-server` or set MCP_DEVTOOLS_BIN",
            binary.display()
        );
    }
    Ok(binary)
}

/// Starts the server as a child process with structured output on, talking to `base`.
async fn connect(binary: &PathBuf, base: &str, token: &str) -> anyhow::Result<RunningService<RoleClient, ()>> {
    let command = tokio::process::Command::new(binary).configure(|cmd| {
        cmd.env("MCP_STRUCTURED_OUTPUT", "true")
            .env("GITHUB_API_BASE", base)
            .env("GITHUB_TOKEN", token)
            .env("STREAMING_ARTIFACT_STORE", "memory")
            .env("RUST_LOG", "warn");
    });
    Ok(().serve(TokioChildProcess::new(command)?).await?)
}

async fn call(client: &RunningService<RoleClient, ()>, tool: &str, args: Value) -> anyhow::Result<CallToolResult> {
    let args = args.as_object().cloned().context("arguments must be an object")?;
    let result = client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args))
        .await?;
    if result.is_error == Some(true) {
        bail!("{tool} failed: {}", text(&result));
    }
    Ok(result)
}

/// `structuredContent.data`, or — when the value was over the bound — the full value read back with
/// `artifact_read` (chunk by chunk until `eof`, then base64-decoded and joined).
async fn data_of(client: &RunningService<RoleClient, ()>, result: &CallToolResult) -> anyhow::Result<Value> {
    let structured = result
        .structured_content
        .as_ref()
        .context("no structuredContent: is MCP_STRUCTURED_OUTPUT on?")?;
    let Some(incomplete) = structured.get("incomplete") else {
        return Ok(structured["data"].clone());
    };
    let artifact_id = incomplete["artifactId"]
        .as_str()
        .context("the oversized value could not be saved; narrow the jq")?;
    let mut bytes = Vec::new();
    let mut offset = 0;
    loop {
        let chunk = call(
            client,
            "artifact_read",
            json!({"artifactId": artifact_id, "offset": offset, "maxBytes": 1_048_576}),
        )
        .await?;
        let chunk = chunk
            .structured_content
            .context("artifact_read returned no structuredContent")?;
        bytes.extend(base64::engine::general_purpose::STANDARD.decode(chunk["data"].as_str().unwrap_or_default())?);
        offset = chunk["nextOffset"].as_u64().context("no nextOffset")?;
        if chunk["eof"] == json!(true) {
            break;
        }
    }
    let full: Value = serde_json::from_slice(&bytes)?;
    Ok(full["data"].clone())
}

fn text(result: &CallToolResult) -> String {
    serde_json::to_value(&result.content)
        .ok()
        .and_then(|content| content[0]["text"].as_str().map(str::to_string))
        .unwrap_or_default()
}

fn text_len(result: &CallToolResult) -> usize {
    text(result).len()
}
