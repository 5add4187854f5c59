//! Rendering the text block: TOON (default) or pretty JSON (CONTRACT §2).
//!
//! - TOON uses `toon-format` (the official Rust implementation) with its
//!   default options (2-space indent, comma delimiter). Every number keeps its
//!   digits: integers past 64 bits and long decimals, which `toon-format`
//!   would round through `f64`, are written in TOON's canonical decimal form
//!   from their literal digits (see `exact`).
//! - JSON is `serde_json::to_string_pretty` (2-space indent), so parsing the
//!   text gives back exactly the value rendered.

use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

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
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The TOON encoder rejected the value.
    #[error("could not render the result as TOON: {0}; retry with outputFormat \"json\"")]
    Toon(#[from] toon_format::ToonError),
    /// JSON serialization failed (only possible for a custom `Serialize` impl).
    #[error("could not render the result as JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// Render `value` as text in `format`: TOON via `toon-format` defaults, or
/// pretty JSON with a 2-space indent. No truncation (see
/// [`crate::truncate_text`]).
///
/// # Errors
/// [`RenderError`] if the encoder fails (not expected for JSON values).
pub fn render(value: &Value, format: OutputFormat) -> Result<String, RenderError> {
    render_serialize(value, format)
}

/// [`render`] for any `Serialize` value (e.g. an [`crate::Envelope`]) without
/// first building a `serde_json::Value` copy for JSON output.
///
/// # Errors
/// [`RenderError`] if serialization or encoding fails.
pub fn render_serialize<T: Serialize>(value: &T, format: OutputFormat) -> Result<String, RenderError> {
    match format {
        OutputFormat::Json => Ok(serde_json::to_string_pretty(value)?),
        OutputFormat::Toon => {
            let mut value = serde_json::to_value(value)?;
            let marker = exact::protect(&mut value);
            let text = toon_format::encode(&value, &toon_format::EncodeOptions::default())?;
            Ok(match marker {
                Some(marker) => exact::restore(text, marker),
                None => text,
            })
        }
    }
}

mod exact;

#[cfg(test)]
mod tests;
