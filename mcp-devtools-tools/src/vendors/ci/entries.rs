//! `ci_artifact_entries` and `ci_artifact_entry`: a zip artifact's files (name, size, compressed size), and one
//! file read as text, JSON or JSON Lines. The archive is spooled to a temporary file ([`super::source`]) and read
//! within [`crate::ArchiveLimits`] ([`crate::archive`]).

use std::io::BufReader;

use rmcp::model::CallToolResult;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::source::{self, ArtifactArgs, Source};
use crate::Principal;
use crate::app::App;
use crate::archive::{Archive, Entry};

/// Tool name.
pub const LIST: &str = "ci_artifact_entries";
/// Tool name.
pub const READ: &str = "ci_artifact_entry";

/// `ci_artifact_entries`' result.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EntriesResult {
    /// The artifact, e.g. `GitHub artifact 28026001465 of octo-org/octo-repo`.
    pub source: String,
    /// The archive's size as downloaded, bytes.
    pub archive_bytes: u64,
    /// Its files in archive order (directories are not listed).
    pub entries: Vec<Entry>,
}

/// How `ci_artifact_entry` reads the file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ReadFormat {
    /// UTF-8 text: content is a string.
    #[default]
    Text,
    /// One JSON value: content is it.
    Json,
    /// JSON Lines: content is an array, one value per non-blank line.
    Jsonl,
}

/// `ci_artifact_entry`'s own arguments (beside the artifact's).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EntryArgs {
    /// A name ci_artifact_entries lists.
    #[schemars(length(max = crate::args::MAX_PATH_CHARS))]
    pub entry: String,
    /// Default text.
    #[serde(default)]
    pub format: Option<ReadFormat>,
}

impl mcp_results::splice::ArgGroup for EntryArgs {
    const NAMES: &'static [&'static str] = &["entry", "format"];
}

/// `ci_artifact_entry`'s result.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EntryResult {
    /// The artifact.
    pub source: String,
    /// The file's name.
    pub entry: String,
    /// Its size uncompressed, bytes.
    pub size: u64,
    /// How it was read.
    pub format: ReadFormat,
    /// text: a string; json: the value; jsonl: an array of the lines' values.
    pub content: Value,
}

/// Runs `ci_artifact_entries`.
pub(super) async fn list(
    app: &App,
    principal: &Principal,
    args: ArtifactArgs,
) -> Result<EntriesResult, CallToolResult> {
    let source = args.source(LIST, false)?;
    let spooled = source::download(app, principal, LIST, &source).await?;
    let what = source.describe();
    let limits = app.config.archive.clone();
    let archive_bytes = spooled.bytes;
    let entries = blocking(LIST, &what, move || {
        let archive = Archive::open(BufReader::new(spooled.file), &limits).map_err(|err| err.to_string())?;
        Ok(archive.entries().cloned().collect())
    })
    .await?;
    Ok(EntriesResult {
        source: what,
        archive_bytes,
        entries,
    })
}

/// Runs `ci_artifact_entry`.
pub(super) async fn read(
    app: &App,
    principal: &Principal,
    args: mcp_results::splice::Spliced<ArtifactArgs, EntryArgs>,
) -> Result<EntryResult, CallToolResult> {
    let source = args.args.source(READ, false)?;
    let EntryArgs { entry, format } = args.group;
    let format = format.unwrap_or_default();
    let spooled = source::download(app, principal, READ, &source).await?;
    let what = source.describe();
    let limits = app.config.archive.clone();
    let (cap, setting) = entry_cap(app, &source);
    let name = entry.clone();
    let (size, content) = blocking(READ, &what, move || {
        let mut archive = Archive::open(BufReader::new(spooled.file), &limits).map_err(|err| err.to_string())?;
        let bytes = archive.read(&name, cap, setting).map_err(|err| err.to_string())?;
        let size = bytes.len() as u64;
        let content = decode(&name, &bytes, format)?;
        Ok((size, content))
    })
    .await?;
    Ok(EntryResult {
        source: what,
        entry,
        size,
        format,
        content,
    })
}

/// The most bytes of one entry read into memory: the vendor's body cap, and its setting.
pub(super) fn entry_cap(app: &App, source: &Source) -> (u64, &'static str) {
    let http = match source {
        Source::Github(_) => &app.config.github.http,
        Source::Circleci { .. } => &app.config.circleci.http,
    };
    (http.client.max_body_bytes, http.setting_names.max_body)
}

/// Runs `work` off the async workers; its error text becomes `tool`'s error result naming `what`.
pub(super) async fn blocking<T: Send + 'static>(
    tool: &str,
    what: &str,
    work: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> Result<T, CallToolResult> {
    match tokio::task::spawn_blocking(work).await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(text)) => Err(mcp_results::error(format!("{tool} failed: {what}: {text}"))),
        Err(join) => Err(mcp_results::error(format!("{tool} failed: {what}: {join}"))),
    }
}

/// `bytes` of entry `name` as `format` asks. Errors name the entry and where.
fn decode(name: &str, bytes: &[u8], format: ReadFormat) -> Result<Value, String> {
    let text = std::str::from_utf8(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)).map_err(|err| {
        format!(
            "entry `{name}` is not UTF-8 text (byte {}); it may be binary",
            err.valid_up_to()
        )
    })?;
    match format {
        ReadFormat::Text => Ok(Value::String(text.to_owned())),
        ReadFormat::Json => serde_json::from_str(text).map_err(|err| {
            format!(
                "entry `{name}` is not JSON: {} at line {}, column {}",
                err_text(&err),
                err.line(),
                err.column()
            )
        }),
        ReadFormat::Jsonl => {
            let mut values = Vec::new();
            for (index, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                let value = serde_json::from_str(line).map_err(|err| {
                    format!(
                        "entry `{name}` is not JSON Lines: line {}: {} at column {}",
                        index + 1,
                        err_text(&err),
                        err.column()
                    )
                })?;
                values.push(value);
            }
            Ok(Value::Array(values))
        }
    }
}

/// serde_json's message without its own ` at line L column C` suffix.
fn err_text(err: &serde_json::Error) -> String {
    let text = err.to_string();
    match text.rfind(" at line ") {
        Some(at) => text[..at].to_owned(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn decoding_names_the_entry_and_the_place() {
        assert_eq!(decode("a", b"\xEF\xBB\xBFhi", ReadFormat::Text).unwrap(), "hi");
        let err = decode("r.json", b"{\n  \"a\": }", ReadFormat::Json).unwrap_err();
        assert!(err.contains("`r.json` is not JSON") && err.contains("line 2"), "{err}");
        let lines = decode("e.jsonl", b"{\"a\":1}\n\n[2]\n", ReadFormat::Jsonl).unwrap();
        assert_eq!(lines, serde_json::json!([{"a": 1}, [2]]));
        let err = decode("e.jsonl", b"{}\n{x}\n", ReadFormat::Jsonl).unwrap_err();
        assert!(err.contains("line 2"), "{err}");
        let err = decode("b.png", b"\x89PNG\xff", ReadFormat::Text).unwrap_err();
        assert!(err.contains("not UTF-8"), "{err}");
    }
}
