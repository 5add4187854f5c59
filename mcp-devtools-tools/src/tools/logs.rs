//! What the two log tools share (`github_get_job_logs`, `circleci_get_job_logs`): the filter arguments, the
//! envelope `{data: {jobs}, logs?, incomplete?}` and its oversized form, where the full log text is an artifact.

use std::future::Future;

use bytes::Bytes;
use mcp_envelope::{Envelope, Incomplete, IncompleteReason};
use rmcp::model::CallToolResult;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use mcp_results::splice::{ArgGroup, Spliced};

use crate::Principal;
use crate::app::App;
use crate::logs::{Grep, LogsData, Options, StepChoice};
use mcp_results::View;

/// Lines kept per selected step when neither `tailLines` nor `grep` is given.
pub const DEFAULT_TAIL_LINES: u64 = 200;
/// Most `tailLines`.
pub const MAX_TAIL_LINES: u64 = 100_000;
/// Most `context` lines.
pub const MAX_CONTEXT: u64 = 100;
/// Longest `grep`, characters.
pub const MAX_GREP_CHARS: u32 = 1000;
/// Largest log text handed over as an artifact: 256 MiB.
pub const MAX_LOG_ARTIFACT_BYTES: usize = 256 << 20;
/// Media type of the full-log artifact.
pub const LOG_MIME_TYPE: &str = "text/plain; charset=utf-8";

/// The filter arguments both log tools take, after each tool's own (which job): which steps and lines. Spliced
/// into each tool's arguments ([`WithLogFilter`]); the view (`jq`, `outputFormat`) comes last
/// ([`mcp_results::WithView`]).
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LogFilterArgs {
    /// Failed jobs and steps only (default true).
    pub failed_only: Option<bool>,
    /// Last lines per step (200; 0: all).
    #[serde(default, deserialize_with = "crate::args::integer::optional")]
    pub tail_lines: Option<u64>,
    /// Regex: matching lines only.
    #[schemars(length(max = MAX_GREP_CHARS))]
    pub grep: Option<String>,
    /// Lines around matches.
    #[serde(default, deserialize_with = "crate::args::integer::optional")]
    pub context: Option<u64>,
    /// Step number or name.
    pub step: Option<StepArg>,
    /// Keep ANSI codes.
    pub raw: Option<bool>,
}

impl ArgGroup for LogFilterArgs {
    const NAMES: &'static [&'static str] = &["failedOnly", "tailLines", "grep", "context", "step", "raw"];
}

/// A log tool's own arguments `A` (which job) with [`LogFilterArgs`] spliced in.
pub type WithLogFilter<A> = Spliced<A, LogFilterArgs>;

/// A step by number or name.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum StepArg {
    /// The step's number.
    Number(#[serde(deserialize_with = "crate::args::integer::required")] u64),
    /// The step's name (exact, else ignoring case).
    Name(String),
}

/// The filter arguments, checked.
pub struct LogFilter {
    /// Scanner options.
    pub options: Options,
    /// The `step` argument.
    pub step: Option<StepChoice>,
}

impl LogFilterArgs {
    /// Checks the arguments before anything is sent upstream (`jq` compiled; `tailLines`, `grep`, `context`, `raw`
    /// and `step`) and builds the scanner options for a result bound of `bound` bytes.
    ///
    /// # Errors
    /// The text naming the argument and what to send.
    pub async fn check(&self, tool: &'static str, jq: Option<&str>, bound: usize) -> Result<LogFilter, String> {
        crate::args::check_jq(tool, jq).await.map_err(|err| err.to_string())?;
        filter(
            tool,
            self.tail_lines,
            self.grep.clone(),
            self.context,
            self.raw,
            self.step.as_ref(),
            bound,
        )
    }
}

/// Checks `tailLines`, `grep`, `context`, `raw` and `step` and builds the scanner options for a result bound of
/// `bound` bytes.
///
/// # Errors
/// The text naming the argument and what to send.
fn filter(
    tool: &str,
    tail_lines: Option<u64>,
    grep: Option<String>,
    context: Option<u64>,
    raw: Option<bool>,
    step: Option<&StepArg>,
    bound: usize,
) -> Result<LogFilter, String> {
    // Worded as every other bad argument (`Invalid arguments for TOOL: NAME: ...`, `args::ArgumentError`).
    let bad = |name: &str, detail: String| format!("Invalid arguments for {tool}: {name}: {detail}");
    if let Some(tail) = tail_lines
        && tail > MAX_TAIL_LINES
    {
        return Err(bad(
            "tailLines",
            format!("must be 0 (every line) to {MAX_TAIL_LINES}, got {tail}"),
        ));
    }
    let context = context.unwrap_or(0);
    if context > MAX_CONTEXT {
        return Err(bad("context", format!("must be 0 to {MAX_CONTEXT}, got {context}")));
    }
    let grep = match grep.filter(|g| !g.is_empty()) {
        Some(pattern) => Some(Grep::new(&pattern).map_err(|e| {
            bad(
                "grep",
                format!("not a regular expression (Rust regex syntax, as ripgrep's): {e}"),
            )
        })?),
        None => None,
    };
    let tail = match tail_lines {
        Some(0) => None,
        Some(tail) => Some(tail as usize),
        None if grep.is_some() => None,
        None => Some(DEFAULT_TAIL_LINES as usize),
    };
    let step = step.map(|step| match step {
        StepArg::Number(n) => StepChoice::Number(*n),
        StepArg::Name(name) => StepChoice::Name(name.clone()),
    });
    Ok(LogFilter {
        options: Options {
            tail,
            grep,
            context: context as usize,
            raw: raw.unwrap_or(false),
            // A ring can shrink again, so it may pass the bound for a while before the result is measured.
            keep_limit: if tail.is_some() { bound.saturating_mul(4) } else { bound },
        },
        step,
    })
}

/// Metadata of a log result: present only in the oversized form, where it locates each job's log in the artifact.
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LogMeta {
    /// Each job's log in the artifact.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logs: Option<Vec<LogPart>>,
}

/// One job's log in the full-log artifact.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LogPart {
    /// Job id.
    pub job_id: u64,
    /// Byte offset.
    pub offset: u64,
    /// Bytes.
    pub bytes: u64,
}

/// `structuredContent` of the log tools.
pub type LogsEnvelope = Envelope<LogsData, LogMeta>;

/// The shape of the log tools' results, for their `#[tool]` methods' `Json<…>`.
pub type LogsOutput = mcp_results::Structured<LogsData, LogMeta>;

/// `outputSchema` of the log tools.
/// `data` is documented by [`LogsData`]; the schema keeps it open (a `jq` may reshape it), so
/// `tools/list` stays small.
pub fn output_schema() -> Map<String, Value> {
    mcp_envelope::with_title(
        Envelope::<Value, LogMeta>::output_schema(),
        "LogsEnvelope",
        "data: {jobs: [{job, steps: [{number, name, conclusion, lines: [{n, time, text, kind}]}], totalLines}]}.",
    )
}

/// The result of a log tool: `data` as asked when it fits the bound (projected by `jq`), else the oversized form,
/// for which `full_logs` reads each job's whole log again.
pub async fn respond<F, Fut>(
    app: &App,
    principal: &Principal,
    tool: &str,
    data: LogsData,
    overflow: bool,
    view: &View,
    full_logs: F,
) -> CallToolResult
where
    F: FnOnce() -> Fut,
    Fut: Future<Output = Result<Vec<(u64, Vec<u8>)>, String>>,
{
    let bound = app.results.bound().bytes();
    let has_jq = view.jq.as_deref().is_some_and(|jq| !jq.trim().is_empty());
    let oversized = overflow
        || (!has_jq
            && serde_json::to_vec(&Envelope::new(&data, LogMeta::default())).map_or(true, |json| json.len() > bound));
    if !oversized {
        return match serde_json::to_value(&data) {
            Ok(value) => {
                app.results
                    .respond(principal.as_str(), value, LogMeta::default(), view)
                    .await
            }
            Err(err) => mcp_results::error(format!("Internal error: the result could not be serialized: {err}")),
        };
    }
    if !app.results.structured() {
        return mcp_results::coded_error(
            format!(
                "{tool}: the selected lines pass {bound} bytes: narrow them with tailLines, grep or step (or turn \
                 structured output on to get the whole log as an artifact)"
            ),
            "too_large",
        );
    }
    let logs = match full_logs().await {
        Ok(logs) => logs,
        Err(err) => return mcp_results::error(format!("{tool} failed while reading the whole log: {err}")),
    };
    let mut text = Vec::new();
    let mut parts = Vec::new();
    for (job_id, log) in logs {
        parts.push(LogPart {
            job_id,
            offset: text.len() as u64,
            bytes: log.len() as u64,
        });
        text.extend_from_slice(&log);
    }
    let len = text.len() as u64;
    let id = match app
        .results
        .store()
        .put(principal.as_str(), LOG_MIME_TYPE, Bytes::from(text))
        .await
    {
        Ok(id) => Some(id.to_string()),
        Err(err) => {
            tracing::warn!(tool, error = %err, "saving the full log as an artifact failed; artifactId is null");
            None
        }
    };
    let envelope: Envelope<Value, LogMeta> = Envelope {
        data: Value::Null,
        meta: LogMeta { logs: Some(parts) },
        incomplete: Some(Incomplete {
            reason: IncompleteReason::Size,
            bytes: len,
            limit_bytes: bound as u64,
            artifact_id: id,
            mime_type: Some(LOG_MIME_TYPE.to_owned()),
        }),
    };
    let text = match mcp_envelope::render_serialize(&envelope, view.format) {
        Ok(text) => text,
        Err(err) => return mcp_results::error(format!("Internal error while preparing the result: {err}")),
    };
    let link = envelope
        .incomplete
        .as_ref()
        .and_then(|incomplete| incomplete.artifact_id.clone());
    match envelope.into_value() {
        Ok(value) => {
            let mut result = mcp_envelope::rmcp::success_result(text, Some(value));
            if let Some(id) = link {
                app.results.add_link(&mut result, &id, LOG_MIME_TYPE, len);
            }
            result
        }
        Err(err) => mcp_results::error(format!("Internal error: the result could not be serialized: {err}")),
    }
}

/// Reads a whole download, at most [`MAX_LOG_ARTIFACT_BYTES`].
///
/// # Errors
/// The transport error's text, or that the log is too large to hand over.
pub async fn read_all(mut download: adapters_http::Download) -> Result<Vec<u8>, String> {
    let mut all = Vec::new();
    while let Some(chunk) = download.chunk().await.map_err(|e| e.to_string())? {
        if all.len() + chunk.len() > MAX_LOG_ARTIFACT_BYTES {
            return Err(format!(
                "the log is larger than {} MiB, too large to hand over whole: narrow the lines with tailLines, grep \
                 or step",
                MAX_LOG_ARTIFACT_BYTES >> 20
            ));
        }
        all.extend_from_slice(&chunk);
    }
    Ok(all)
}
