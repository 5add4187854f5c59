#![doc = include_str!("../README.md")]

mod builder;
mod detect;
mod error;
mod formats;
mod frames;
#[doc(hidden)]
pub mod fuzzing;
mod json;
mod location;
mod model;
mod options;
mod text;
mod xml;

pub use error::{Error, Position};
pub use model::{FailedTest, Format, SuiteSummary, TestReport, Totals};
pub use options::{DEFAULT_DETAILS_LIMIT, DEFAULT_MESSAGE_LIMIT, ParseOptions};
pub use xml::MAX_XML_DEPTH;

/// The format of a report, from its content (never its file name); see [`Format`] for what is read.
///
/// Reads only as far as it must: the root element of XML, the first value of JSON (the first event of JSON
/// Lines). A report of another kind is [`Error::UnknownFormat`], which says what it looks like and lists the
/// formats read; bytes that are not text are [`Error::Encoding`]; XML or JSON broken before the point that decides
/// is [`Error::Xml`] / [`Error::Json`] with its position.
///
/// ```
/// use test_reports::{detect, Format};
/// assert_eq!(detect(br#"<testsuites><testsuite name="a"/></testsuites>"#).ok(), Some(Format::JunitXml));
/// assert_eq!(detect(br#"{"Action":"start","Package":"example.com/a"}"#).ok(), Some(Format::GoTestJson));
/// assert!(detect(b"hello").is_err());
/// ```
pub fn detect(bytes: &[u8]) -> Result<Format, Error> {
    detect::detect_text(&text::decode(bytes)?)
}

/// Reads a report of any format [`detect`] recognizes into a [`TestReport`].
///
/// The whole input is held in memory, with a tree of its elements for XML: the size of what is passed is the
/// caller's concern (bound it before calling; a report of tens of megabytes is read in well under a second).
/// Never panics on any input.
///
/// # Errors
///
/// As [`detect`], and for the chosen format as [`parse_as`].
pub fn parse(bytes: &[u8], options: &ParseOptions) -> Result<TestReport, Error> {
    let text = text::decode(bytes)?;
    let format = detect::detect_text(&text)?;
    formats::parse(format, &text, options)
}

/// Reads a report known to be in `format` (no detection).
///
/// # Errors
///
/// [`Error::Encoding`] for bytes that are not text; [`Error::Xml`] or [`Error::Json`] (with the position) for
/// malformed XML or JSON; [`Error::Entity`] for an XML entity other than the predefined ones; [`Error::TooDeep`]
/// for XML nested deeper than [`MAX_XML_DEPTH`] (JSON deeper than 128 levels is [`Error::Json`]);
/// [`Error::Invalid`] for well-formed content that is not a report of `format` (another root element, a member of
/// the wrong type).
pub fn parse_as(format: Format, bytes: &[u8], options: &ParseOptions) -> Result<TestReport, Error> {
    formats::parse(format, &text::decode(bytes)?, options)
}
