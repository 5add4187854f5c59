//! The client side of a code-mode harness, shared by the example programs: start the `mcp-devtools` server in this
//! process ([`connect_in_process`]) or as a child process over stdio ([`connect`]), call tools, read `structuredContent` (following `incomplete` artifacts
//! with `artifact_read`), and measure the text blocks a model would have read instead.

use std::collections::HashMap;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, bail};
use base64::Engine;
use mcp_devtools_server::{App, DevtoolsServer, Principal, Settings};
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};

/// The `main` of an example program: answers as a `jq` worker when this process was started as one (`jq` runs in a
/// limited copy of the program, [`mcp_projection::worker::run_if_requested`]), else runs `program` on the server's
/// runtime ([`mcp_devtools_server::runtime`]); an error is printed as `<name>: <error and its causes>` and exits 1.
pub fn main<F>(name: &str, program: impl FnOnce() -> F) -> ExitCode
where
    F: Future<Output = anyhow::Result<ExitCode>>,
{
    if let Some(code) = mcp_projection::worker::run_if_requested() {
        return code;
    }
    let outcome = mcp_devtools_server::runtime()
        .map_err(anyhow::Error::from)
        .and_then(|runtime| runtime.block_on(program()));
    outcome.unwrap_or_else(|err| {
        eprintln!("{name}: {err:#}");
        ExitCode::FAILURE
    })
}

/// A connected MCP client session with the server.
pub type Client = RunningService<RoleClient, ()>;

/// Largest chunk `artifact_read` returns (its `maxBytes` clamp), in bytes.
const ARTIFACT_CHUNK_BYTES: u64 = mcp_artifacts::MAX_READ_MAX_BYTES;

/// Buffer of the in-memory pipe between client and in-process server, each way, bytes.
const PIPE_BYTES: usize = 64 * 1024;

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

/// Starts the `mcp-devtools` server in this process and connects to it: a real MCP session (rmcp client and the
/// server's [`DevtoolsServer`] handler) over an in-memory pipe, so nothing is built or spawned. Structured output
/// is on, artifacts are kept in memory, and `env` (base URLs, tokens; names as in the server's environment) is
/// applied on top of this process's environment. `jq` still runs in a worker process: the calling program must
/// call [`mcp_projection::worker::run_if_requested`] first thing in `main`.
///
/// # Errors
/// The server cannot be built from the settings, or the MCP handshake fails.
pub async fn connect_in_process(env: &[(&str, String)]) -> anyhow::Result<Client> {
    serve_in_process(env, |name| std::env::var(name).ok()).await
}

/// [`connect_in_process`] with the settings `env` alone: this process's environment is not read, so the server
/// (its `tools/list` too) is the same whatever the caller's shell sets.
///
/// # Errors
/// As [`connect_in_process`].
pub async fn connect_in_process_isolated(env: &[(&str, String)]) -> anyhow::Result<Client> {
    serve_in_process(env, |_| None).await
}

/// Serves the server in this process with structured output on, artifacts in memory, `env`, then what `fallback`
/// gives for the other settings, and connects to it.
async fn serve_in_process(env: &[(&str, String)], fallback: impl Fn(&str) -> Option<String>) -> anyhow::Result<Client> {
    let mut settings: HashMap<String, String> = HashMap::from([
        ("MCP_STRUCTURED_OUTPUT".to_owned(), "true".to_owned()),
        ("STREAMING_ARTIFACT_STORE".to_owned(), "memory".to_owned()),
    ]);
    for (name, value) in env {
        settings.insert((*name).to_owned(), value.clone());
    }
    let (settings, warnings) = Settings::from_lookup(|name| settings.get(name).cloned().or_else(|| fallback(name)));
    for warning in warnings {
        eprintln!("warning: {warning}");
    }
    let server = DevtoolsServer::new(Arc::new(App::new(settings.tools).await?)).with_principal(Principal::local_user());
    let (client_end, server_end) = tokio::io::duplex(PIPE_BYTES);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    Ok(().serve(client_end).await?)
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

/// Most array items, object keys, string characters and nesting levels [`trimmed`] keeps.
const TRIM_ITEMS: usize = 2;
const TRIM_DEPTH: usize = 4;
const TRIM_KEYS: usize = 8;
const TRIM_CHARS: usize = 72;

/// `value` as pretty JSON, trimmed for a person to read: arrays keep their first two items and say how many more
/// there are, objects their first eight keys, strings their first 72 characters; below four levels of nesting an
/// array or object is shown as `"[…]"` or `"{…}"`.
pub fn trimmed(value: &Value) -> String {
    serde_json::to_string_pretty(&trim(value, 0)).unwrap_or_default()
}

fn trim(value: &Value, depth: usize) -> Value {
    match value {
        Value::Array(items) if depth >= TRIM_DEPTH && !items.is_empty() => Value::from("[…]"),
        Value::Object(map) if depth >= TRIM_DEPTH && !map.is_empty() => Value::from("{…}"),
        Value::Array(items) => {
            let mut kept: Vec<Value> = items
                .iter()
                .take(TRIM_ITEMS)
                .map(|item| trim(item, depth + 1))
                .collect();
            if items.len() > TRIM_ITEMS {
                kept.push(Value::from(format!("… {} more", items.len() - TRIM_ITEMS)));
            }
            Value::Array(kept)
        }
        Value::Object(map) => {
            let mut kept: serde_json::Map<String, Value> = map
                .iter()
                .take(TRIM_KEYS)
                .map(|(key, value)| (key.clone(), trim(value, depth + 1)))
                .collect();
            if map.len() > TRIM_KEYS {
                kept.insert("…".into(), Value::from(format!("{} more keys", map.len() - TRIM_KEYS)));
            }
            Value::Object(kept)
        }
        Value::String(text) if text.chars().count() > TRIM_CHARS => {
            Value::from(format!("{}…", text.chars().take(TRIM_CHARS).collect::<String>()))
        }
        other => other.clone(),
    }
}
