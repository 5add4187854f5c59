//! The one error type: what was wrong with the input, and where.

use std::fmt;

use crate::Format;

/// Where in the input something went wrong: 1-based line and column (column in characters), and the byte offset
/// from the start of the text (after a byte-order mark; for UTF-16 or legacy-encoded input, of its UTF-8
/// transcoding).
///
/// Displayed as `line 3, column 17 (byte 52)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Position {
    /// 1-based line.
    pub line: u64,
    /// 1-based column, in characters.
    pub column: u64,
    /// 0-based byte offset.
    pub offset: u64,
}

impl Position {
    /// The position of byte `offset` of `text` (clamped to the text, moved back to a character boundary).
    pub(crate) fn at(text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &text[..offset];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        Position {
            line: before.matches('\n').count() as u64 + 1,
            column: before[line_start..].chars().count() as u64 + 1,
            offset: offset as u64,
        }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {} (byte {})", self.line, self.column, self.offset)
    }
}

fn formats_read() -> String {
    Format::ALL
        .iter()
        .map(|f| f.description())
        .collect::<Vec<_>>()
        .join("; ")
}

/// Why a report could not be read. Every variant says what and, where it applies, where.
///
/// More cases may be added, hence `#[non_exhaustive]`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The content is none of the formats read (see [`Format::ALL`]); `found` says what it looks like.
    #[error("unknown test report format: {found}; the formats read are: {}", formats_read())]
    UnknownFormat {
        /// What the content looks like, e.g. `XML with root element <assemblies>` or
        /// `a JSON object with keys "numTotalTests", "testResults"`.
        found: String,
    },
    /// The bytes are not text in a known encoding.
    #[error("not readable text: {message} (byte {offset})")]
    Encoding {
        /// What is wrong.
        message: String,
        /// Byte offset of the first undecodable byte in the input as given.
        offset: u64,
    },
    /// The XML is not well-formed.
    #[error("malformed XML at {position}: {message}")]
    Xml {
        /// Where the parser stopped.
        position: Position,
        /// quick-xml's description.
        message: String,
    },
    /// The XML refers to an entity other than XML's five predefined ones (`&lt;` `&gt;` `&amp;` `&apos;`
    /// `&quot;`) and character references. Entities a DTD declares (internal or external) are never expanded, so
    /// neither a billion-laughs document nor an external-entity reference is ever processed.
    #[error(
        "XML entity `&{name};` at {position} is not expanded: only the predefined entities and character references \
         are read, never entities a DTD declares"
    )]
    Entity {
        /// The entity's name.
        name: String,
        /// Where the reference is (for an attribute value, the element's start).
        position: Position,
    },
    /// The JSON (or a JSON Lines event) is not valid JSON, or nests deeper than serde_json's limit of 128.
    #[error("malformed JSON at {position}: {message}")]
    Json {
        /// Where the parser stopped (for JSON Lines, the line is the event's line in the file).
        position: Position,
        /// serde_json's description.
        message: String,
    },
    /// Elements nest deeper than [`crate::MAX_XML_DEPTH`].
    #[error("XML nested deeper than {limit} elements at {position}")]
    TooDeep {
        /// The limit.
        limit: usize,
        /// The start of the element past the limit.
        position: Position,
    },
    /// Well-formed XML or JSON, but not a report of the format it was read as (a wrong root element, a member of
    /// the wrong type).
    #[error("not a {format} report: {message}{}", position.map(|p| format!(" at {p}")).unwrap_or_default())]
    Invalid {
        /// The format it was read as.
        format: Format,
        /// What is wrong.
        message: String,
        /// Where, when known.
        position: Option<Position>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_lines_and_characters() {
        let text = "ab\nçd\ne";
        assert_eq!(
            Position::at(text, 0),
            Position {
                line: 1,
                column: 1,
                offset: 0
            }
        );
        assert_eq!(
            Position::at(text, 3),
            Position {
                line: 2,
                column: 1,
                offset: 3
            }
        );
        // byte 5 is after "ç" (2 bytes): column 2
        assert_eq!(
            Position::at(text, 5),
            Position {
                line: 2,
                column: 2,
                offset: 5
            }
        );
        // inside "ç": moved back to its start
        assert_eq!(
            Position::at(text, 4),
            Position {
                line: 2,
                column: 1,
                offset: 3
            }
        );
        assert_eq!(Position::at(text, 99).offset, text.len() as u64);
    }

    #[test]
    fn unknown_format_lists_every_format_read() {
        let text = Error::UnknownFormat {
            found: "plain text".into(),
        }
        .to_string();
        for format in Format::ALL {
            assert!(text.contains(format.description()), "{text}");
        }
    }
}
