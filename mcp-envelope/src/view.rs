//! How the caller asked to see a result ([`View`]: the `jq`, the text format, what the text is rendered from): the
//! one view type of the workspace, taken by [`crate::prepare()`] here and by `mcp-results`' `Responder` (which
//! re-exports it).

use crate::render::OutputFormat;

/// What the text block is rendered from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TextSource {
    /// The whole envelope, e.g. `{data, nextPage}` or `{data, cache}`
    /// (paged GitHub tools, `circleci_get`): parsing JSON text gives exactly
    /// `structuredContent`.
    #[default]
    Envelope,
    /// The bare body (`data`), as the Atlassian reads do: parsing JSON text
    /// gives `structuredContent.data`.
    Data,
}

/// How the caller asked to see a result: the optional `jq` applied to `data`, the text block's format and what the
/// text is rendered from. [`Default`]: no `jq`, TOON, from the envelope.
///
/// ```
/// use mcp_envelope::{OutputFormat, TextSource, View};
///
/// let view = View::new(Some("map(.id)".into()), OutputFormat::Json).text_from(TextSource::Data);
/// assert_eq!(view.jq.as_deref(), Some("map(.id)"));
/// // The data was projected elsewhere (e.g. by a projection runner): render it as asked, without the jq.
/// assert_eq!(view.without_jq(), View::new(None, OutputFormat::Json).text_from(TextSource::Data));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct View {
    /// The optional `jq` (or JMESPath) expression applied to `data`; `None` or blank (only whitespace): no
    /// projection.
    pub jq: Option<String>,
    /// The text block's format: TOON (default) or pretty JSON.
    pub format: OutputFormat,
    /// What the text is rendered from: the whole envelope (default) or the bare `data`.
    pub text_from: TextSource,
}

impl View {
    /// A view with this `jq` and format, the text rendered from the envelope.
    pub fn new(jq: Option<String>, format: OutputFormat) -> Self {
        View {
            jq,
            format,
            text_from: TextSource::Envelope,
        }
    }

    /// This view with the text rendered from `source` instead.
    #[must_use]
    pub fn text_from(mut self, source: TextSource) -> Self {
        self.text_from = source;
        self
    }

    /// The `jq` to apply: `None` when there is none or it is blank.
    pub fn jq(&self) -> Option<&str> {
        self.jq.as_deref().filter(|jq| !jq.trim().is_empty())
    }

    /// This view without its `jq` (format and text source kept): how to render data already projected elsewhere,
    /// e.g. by a projection runner in a worker process.
    #[must_use]
    pub fn without_jq(&self) -> View {
        View {
            jq: None,
            format: self.format,
            text_from: self.text_from,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_jq_is_no_jq() {
        assert_eq!(View::new(Some(" \n".into()), OutputFormat::Toon).jq(), None);
        assert_eq!(View::new(None, OutputFormat::Toon).jq(), None);
        assert_eq!(View::new(Some(" .a ".into()), OutputFormat::Toon).jq(), Some(" .a "));
    }

    #[test]
    fn default_is_toon_from_the_envelope_without_jq() {
        let view = View::default();
        assert_eq!(
            (view.jq(), view.format, view.text_from),
            (None, OutputFormat::Toon, TextSource::Envelope)
        );
        assert_eq!(View::new(None, OutputFormat::Toon), view);
    }
}
