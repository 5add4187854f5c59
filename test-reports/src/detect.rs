//! Which format a report is, from its content alone (never its file name).
//!
//! XML: the root element's local name (`testsuites`/`testsuite` → JUnit, `TestRun` → TRX, `test-run` → NUnit 3).
//! JSON: the keys of the first value (a whole document, or the first event of JSON Lines): `Action` → `go test
//! -json`; `type` or `protocolVersion` → dart; `stats` with `passes`/`failures`/`pending`/`tests` → mocha;
//! `examples` → RSpec.

use crate::json::{FirstValue, first_value};
use crate::{Error, Format, xml};

/// The format of a decoded report.
pub(crate) fn detect_text(text: &str) -> Result<Format, Error> {
    let start = text.trim_start();
    match start.chars().next() {
        Some('<') => detect_xml(text),
        Some('{') | Some('[') => detect_json(text),
        Some(_) => {
            let line = start.lines().next().unwrap_or_default();
            let shown: String = line.chars().take(40).collect();
            let more = if line.chars().count() > 40 { "…" } else { "" };
            Err(Error::UnknownFormat {
                found: format!("text that is neither XML nor JSON, starting {shown:?}{more}"),
            })
        }
        None => Err(Error::UnknownFormat {
            found: "an empty or blank input".into(),
        }),
    }
}

fn detect_xml(text: &str) -> Result<Format, Error> {
    match xml::root_name(text)?.as_deref() {
        Some("testsuites" | "testsuite") => Ok(Format::JunitXml),
        Some("TestRun") => Ok(Format::Trx),
        Some("test-run") => Ok(Format::NunitXml),
        Some("test-results") => Err(Error::UnknownFormat {
            found: "XML with root element <test-results> (NUnit 2 results, which are not read; NUnit 3 writes \
                    <test-run>)"
                .into(),
        }),
        Some(root) => Err(Error::UnknownFormat {
            found: format!("XML with root element <{root}>"),
        }),
        None => Err(Error::UnknownFormat {
            found: "XML without an element".into(),
        }),
    }
}

fn detect_json(text: &str) -> Result<Format, Error> {
    let keys = match first_value(text)? {
        FirstValue::Object(keys) => keys,
        FirstValue::Other(kind) => return Err(Error::UnknownFormat { found: kind.into() }),
    };
    let has = |key: &str| keys.iter().any(|k| k == key);
    if has("Action") {
        Ok(Format::GoTestJson)
    } else if has("protocolVersion") || has("type") {
        Ok(Format::DartJson)
    } else if has("stats") && (has("passes") || has("failures") || has("pending") || has("tests")) {
        Ok(Format::MochaJson)
    } else if has("examples") {
        Ok(Format::RspecJson)
    } else {
        let shown: Vec<String> = keys.iter().take(8).map(|k| format!("{k:?}")).collect();
        let more = if keys.len() > 8 { ", …" } else { "" };
        let found = if keys.is_empty() {
            "an empty JSON object".to_owned()
        } else {
            format!("a JSON object with keys {}{more}", shown.join(", "))
        };
        Err(Error::UnknownFormat { found })
    }
}
