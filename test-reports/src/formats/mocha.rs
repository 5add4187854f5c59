//! `mocha --reporter json`: `passes`, `failures` and `pending` (hook failures included in `failures`, as mocha
//! counts them). A test's suite is its `file`, its group its `fullTitle` without its `title`; a failure's message
//! is `err.message`, its details `err.stack`, read as Node.js frames, its fallback location the test's `file`.

use serde::Deserialize;

use crate::builder::{Failure, ReportBuilder};
use crate::frames::Syntax;
use crate::location::Candidate;
use crate::{Error, Format, ParseOptions, TestReport, json};

#[derive(Deserialize)]
struct Report {
    #[serde(default)]
    stats: Option<Stats>,
    #[serde(default)]
    passes: Vec<Test>,
    #[serde(default)]
    failures: Vec<Test>,
    #[serde(default)]
    pending: Vec<Test>,
}

#[derive(Deserialize)]
struct Stats {
    #[serde(default)]
    duration: Option<f64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Test {
    #[serde(default)]
    title: String,
    #[serde(default)]
    full_title: Option<String>,
    #[serde(default)]
    file: Option<String>,
    #[serde(default)]
    err: Option<TestError>,
}

#[derive(Deserialize)]
struct TestError {
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    stack: Option<String>,
}

pub(crate) fn parse(text: &str, options: &ParseOptions) -> Result<TestReport, Error> {
    let report: Report = json::from_str(Format::MochaJson, text)?;
    let mut builder = ReportBuilder::new(Format::MochaJson, options);
    for test in &report.passes {
        let suite = builder.file_suite(test.file.as_deref());
        builder.passed(suite);
    }
    for test in &report.failures {
        let suite = builder.file_suite(test.file.as_deref());
        let err = test.err.as_ref();
        builder.failed(
            suite,
            Failure {
                group: group(test),
                name: &test.title,
                message: err.and_then(|e| e.message.as_deref()),
                details: err.and_then(|e| e.stack.as_deref()),
                syntaxes: &[Syntax::Node],
                fallback: test.file.as_deref().map(|file| Candidate::new(file, None)),
            },
        );
    }
    for test in &report.pending {
        let suite = builder.file_suite(test.file.as_deref());
        builder.skipped(suite);
    }
    Ok(builder.finish(report.stats.and_then(|s| s.duration)))
}

/// `Outer Inner title` with title `title` → `Outer Inner`.
fn group(test: &Test) -> Option<&str> {
    let full = test.full_title.as_deref()?;
    (full != test.title)
        .then(|| full.strip_suffix(test.title.as_str()).map(str::trim_end))
        .flatten()
}
