//! The client side of a code-mode harness, shared by the example programs: start the `mcp-devtools` server as a
//! child process over stdio (rmcp client), call tools, read `structuredContent` (following `incomplete` artifacts
//! with `artifact_read`), and measure the text blocks a model would have read instead.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use base64::Engine;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};

/// A connected MCP client session with the server.
pub type Client = RunningService<RoleClient, ()>;

/// Largest chunk `artifact_read` returns (its `maxBytes` clamp), in bytes.
const ARTIFACT_CHUNK_BYTES: u64 = 1_048_576;

/// `base` (a JSON object) with the fields of `more` added or replaced.
pub fn with(base: &Value, more: Value) -> Value {
    let mut args = base.clone();
    if let (Some(args), Some(more)) = (args.as_object_mut(), more.as_object()) {
        args.extend(more.clone());
    }
    args
}

/// The server binary: `$MCP_DEVTOOLS_BIN`, else `mcp-devtools` beside the running program (built first when the
/// program was started by `cargo run`).
///
/// # Errors
/// The build fails, or the binary is not there.
pub fn server_binary() -> anyhow::Result<PathBuf> {
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

/// Starts the server `binary` as a child process with structured output on, an in-memory artifact store and the
/// settings `env` (base URLs, tokens) on top of this process's environment, and connects to it.
///
/// # Errors
/// The process does not start or the MCP handshake fails.
pub async fn connect(binary: &Path, env: &[(&str, String)]) -> anyhow::Result<Client> {
    let command = tokio::process::Command::new(binary).configure(|cmd| {
        cmd.env("MCP_STRUCTURED_OUTPUT", "true")
            .env("STREAMING_ARTIFACT_STORE", "memory")
            .env("RUST_LOG", "warn");
        for (name, value) in env {
            cmd.env(name, value);
        }
    });
    Ok(().serve(TokioChildProcess::new(command)?).await?)
}

/// Calls `tool` with `args` (a JSON object) and returns the result as is, `isError` results included.
///
/// # Errors
/// `args` is not an object, or the protocol call itself fails.
pub async fn call_raw(client: &Client, tool: &str, args: &Value) -> anyhow::Result<CallToolResult> {
    let args = args.as_object().cloned().context("arguments must be an object")?;
    Ok(client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args))
        .await?)
}

/// Calls `tool` with `args`; an `isError` result becomes an error carrying the tool's text.
///
/// # Errors
/// As [`call_raw`], or the tool answered `isError`.
pub async fn call(client: &Client, tool: &str, args: &Value) -> anyhow::Result<CallToolResult> {
    let result = call_raw(client, tool, args).await?;
    if result.is_error == Some(true) {
        bail!("{tool} failed: {}", text(&result));
    }
    Ok(result)
}

/// `structuredContent.data`, or — when the value was over the bound (`incomplete`) — the full value read back
/// with `artifact_read` (chunk by chunk until `eof`, each chunk base64-decoded, then joined).
///
/// # Errors
/// No `structuredContent`, an oversized value that could not be saved (`artifactId: null`), or an artifact that
/// does not read back as JSON.
pub async fn data_of(client: &Client, result: &CallToolResult) -> anyhow::Result<Value> {
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
        let args = json!({"artifactId": artifact_id, "offset": offset, "maxBytes": ARTIFACT_CHUNK_BYTES});
        let chunk = call(client, "artifact_read", &args).await?;
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

/// The text of the result's first content block (what a model reads), or `""`.
pub fn text(result: &CallToolResult) -> String {
    serde_json::to_value(&result.content)
        .ok()
        .and_then(|content| content[0]["text"].as_str().map(str::to_string))
        .unwrap_or_default()
}
