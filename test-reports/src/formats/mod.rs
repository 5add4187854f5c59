//! One reader per format, each turning its format's structure into [`crate::builder::ReportBuilder`] calls.

mod dart;
mod go_test;
mod junit;
mod mocha;
mod nunit;
mod rspec;
mod trx;

use crate::xml::{self, Element};
use crate::{Error, Format, ParseOptions, Position, TestReport};

/// Reads `text` as a report of `format`.
pub(crate) fn parse(format: Format, text: &str, options: &ParseOptions) -> Result<TestReport, Error> {
    match format {
        Format::JunitXml => junit::parse(text, options),
        Format::Trx => trx::parse(text, options),
        Format::NunitXml => nunit::parse(text, options),
        Format::MochaJson => mocha::parse(text, options),
        Format::RspecJson => rspec::parse(text, options),
        Format::GoTestJson => go_test::parse(text, options),
        Format::DartJson => dart::parse(text, options),
    }
}

/// The root element of an XML report of `format`, which must be one of `names`.
fn xml_root(format: Format, text: &str, names: &[&str]) -> Result<Element, Error> {
    let root = xml::parse(text)?;
    if names.contains(&root.name.as_str()) {
        return Ok(root);
    }
    let expected: Vec<String> = names.iter().map(|n| format!("<{n}>")).collect();
    Err(Error::Invalid {
        format,
        message: format!("the root element is <{}>, not {}", root.name, expected.join(" or ")),
        position: Some(Position::at(text, root.offset)),
    })
}
