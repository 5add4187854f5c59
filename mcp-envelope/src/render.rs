//! Rendering the text block: TOON (default) or pretty JSON (private module: its items are re-exported at the crate root, and the concern is documented on `render`).

use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::envelope::Envelope;
use crate::truncate::Kept;

/// The `outputFormat` tool parameter. Wire: `"toon"` (default) or `"json"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum OutputFormat {
    /// Token-Oriented Object Notation (the default).
    #[default]
    Toon,
    /// Pretty-printed JSON with a 2-space indent.
    Json,
}

impl OutputFormat {
    /// The wire name: `"toon"` or `"json"`.
    pub fn as_str(&self) -> &'static str {
        match self {
            OutputFormat::Toon => "toon",
            OutputFormat::Json => "json",
        }
    }
}

impl fmt::Display for OutputFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An `outputFormat` value other than `toon` or `json`.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown outputFormat {given:?}: use \"toon\" (the default) or \"json\"")]
pub struct UnknownOutputFormat {
    /// The value given.
    pub given: String,
}

impl FromStr for OutputFormat {
    type Err = UnknownOutputFormat;

    /// Parses `toon` or `json`, ASCII case-insensitive, surrounding
    /// whitespace ignored.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("toon") {
            Ok(OutputFormat::Toon)
        } else if t.eq_ignore_ascii_case("json") {
            Ok(OutputFormat::Json)
        } else {
            Err(UnknownOutputFormat { given: s.to_owned() })
        }
    }
}

/// Rendering the text failed.
#[non_exhaustive]
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The value nests too deep for TOON's indented text.
    #[error("could not render the result as TOON: {0}; retry with outputFormat \"json\"")]
    Toon(#[from] TooDeep),
    /// JSON serialization failed (only possible for a custom `Serialize` impl).
    #[error("could not render the result as JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// Render `value` as text in `format`: TOON (2-space indent, comma
/// delimiter, every number's digits), or pretty JSON with a 2-space indent.
/// No truncation (see [`crate::truncate_text`]).
///
/// # Errors
/// [`RenderError::Toon`] for TOON of a value nested deeper than 256 levels.
///
/// Rendering the text block: TOON (default) or pretty JSON.
///
/// - TOON is written by this crate's own encoder straight from the
///   `serde_json::Value` (no copy of it): the text `toon-format` 0.7 (the
///   official Rust implementation) gives with its default options (2-space
///   indent, comma delimiter), except that every number keeps its digits:
///   integers past 64 bits and long decimals, which `toon-format` would
///   round through `f64`, are written in TOON's canonical decimal form from
///   their literal digits (see `exact`).
/// - JSON is `serde_json::to_string_pretty` (2-space indent), so parsing the
///   text gives back exactly the value rendered.
pub fn render(value: &Value, format: OutputFormat) -> Result<String, RenderError> {
    let mut text = String::new();
    match format {
        OutputFormat::Json => return Ok(serde_json::to_string_pretty(value)?),
        OutputFormat::Toon => toon::encode(value, &mut text)?,
    }
    Ok(text)
}

/// [`render`] for any `Serialize` value. JSON is written without first
/// building a `serde_json::Value` copy; TOON is rendered from that copy (for
/// an [`Envelope`] holding a large `data`, [`crate::prepare()`] renders
/// without it).
///
/// # Errors
/// [`RenderError`] if serialization or encoding fails.
pub fn render_serialize<T: Serialize>(value: &T, format: OutputFormat) -> Result<String, RenderError> {
    match format {
        OutputFormat::Json => Ok(serde_json::to_string_pretty(value)?),
        OutputFormat::Toon => render(&serde_json::to_value(value)?, format),
    }
}

/// Writes the text of an envelope in `format` into `out` (which keeps only
/// what the truncated text shows), without copying `data`. Both texts come from
/// the envelope's own `Serialize` impl, so they show every field
/// `structuredContent` has, in its order: JSON is written from it directly;
/// TOON from its root entries ([`root::RootEntries`]), collected from a
/// skeleton of the envelope whose `data` is a slot, filled with the real `data`
/// when written.
pub(crate) fn write_envelope<M: Serialize>(
    envelope: &Envelope<Value, M>,
    format: OutputFormat,
    out: &mut Kept,
) -> Result<(), RenderError> {
    if format == OutputFormat::Json {
        return Ok(serde_json::to_writer_pretty(out, envelope)?);
    }
    // Every field but `data` (a field added to the envelope must be added here: the literal names them all).
    let skeleton = Envelope {
        data: root::DataSlot,
        meta: &envelope.meta,
        incomplete: envelope.incomplete.clone(),
    };
    let entries = root::RootEntries::of(&skeleton)?;
    Ok(toon::encode_root(entries.with(&envelope.data), out)?)
}

/// Writes the text of `value` in `format` into `out`.
pub(crate) fn write_value(value: &Value, format: OutputFormat, out: &mut Kept) -> Result<(), RenderError> {
    match format {
        OutputFormat::Json => serde_json::to_writer_pretty(out, value)?,
        OutputFormat::Toon => toon::encode(value, out)?,
    }
    Ok(())
}

impl toon::Sink for Kept {
    #[inline]
    fn push_str(&mut self, s: &str) {
        self.push_bytes(s.as_bytes());
    }
}

pub(crate) mod exact;
pub(crate) mod json_list;
mod root;
mod toon;

pub(crate) use toon::list::ListText as ToonListText;

pub use toon::TooDeep;

#[cfg(test)]
mod tests;
