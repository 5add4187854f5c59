//! The placeholder put where a list goes, so that everything around it is written by the ordinary writers (compact
//! JSON, pretty JSON, TOON) and the list's own text is put in its place.

use std::hash::{BuildHasher, Hasher};

use serde_json::Value;

use super::ListAt;
use crate::error::EnvelopeError;
use crate::render::OutputFormat;

/// A string no body holds, put where the list goes so that the rest of the value is written by the ordinary
/// writers; the list's text then replaces it.
pub(super) struct Placeholder(String);

impl Placeholder {
    /// `frame` with a placeholder at `at` (the frame's list, empty), and the placeholder.
    pub(super) fn put(mut frame: Value, at: &ListAt) -> (Placeholder, Value) {
        let state = std::collections::hash_map::RandomState::new();
        let nonce = |salt: u64| {
            let mut hasher = state.build_hasher();
            hasher.write_u64(salt);
            hasher.finish()
        };
        // Letters then hex digits: a bare TOON string, a plain JSON one; 128 random bits no body holds by chance.
        let placeholder = format!("mcplist{:016x}{:016x}", nonce(1), nonce(2));
        match at {
            ListAt::Whole => frame = Value::String(placeholder.clone()),
            ListAt::Field(name) => {
                if let Some(object) = frame.as_object_mut() {
                    object.insert(name.clone(), Value::String(placeholder.clone()));
                }
            }
        }
        (Placeholder(placeholder), frame)
    }

    /// `text` before and after the placeholder as `format` writes it (JSON `"p"`; TOON `: p` after the key, or the
    /// whole text); the list's text goes in between.
    ///
    /// # Errors
    /// A defect: the placeholder is not in `text` exactly once.
    pub(super) fn split<'t>(
        &self,
        text: &'t [u8],
        format: OutputFormat,
    ) -> Result<(&'t [u8], &'t [u8]), EnvelopeError> {
        let marker = match format {
            OutputFormat::Json => format!("\"{}\"", self.0),
            OutputFormat::Toon if text == self.0.as_bytes() => self.0.clone(),
            OutputFormat::Toon => format!(": {}", self.0),
        };
        let marker = marker.as_bytes();
        let mut found = text
            .windows(marker.len())
            .enumerate()
            .filter(|(_, window)| *window == marker)
            .map(|(at, _)| at);
        match (found.next(), found.next()) {
            (Some(at), None) => Ok((&text[..at], &text[at + marker.len()..])),
            _ => Err(super::defect("the list's place in the result was not found once")),
        }
    }
}
