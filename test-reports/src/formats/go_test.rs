//! `go test -json`: JSON Lines of test events. Each (`Package`, `Test`) is a test, ended by its last `pass`,
//! `fail` or `skip` event (a test with none failed: the run stopped while it ran). Its suite is the package; a
//! subtest `TestA/case` is `case` in group `TestA`. A failure's message is the test's output without go's own
//! `=== RUN` / `--- FAIL` lines (one level of indentation removed), read as Go frames (`file_test.go:12: …`).
//! `go test -json` states no run time.

use std::collections::HashMap;

use serde::Deserialize;

use crate::builder::{Failure, ReportBuilder};
use crate::frames::Syntax;
use crate::{Error, Format, ParseOptions, TestReport, json};

#[derive(Deserialize)]
struct Event {
    #[serde(rename = "Action", default)]
    action: String,
    #[serde(rename = "Package", default)]
    package: Option<String>,
    #[serde(rename = "Test", default)]
    test: Option<String>,
    #[serde(rename = "Output", default)]
    output: Option<String>,
}

#[derive(Default)]
struct Test {
    package: Option<String>,
    name: String,
    output: String,
    end: Option<End>,
}

#[derive(Clone, Copy)]
enum End {
    Pass,
    Fail,
    Skip,
}

const UNFINISHED: &str = "no pass, fail or skip event for this test: the run stopped while it ran";

pub(crate) fn parse(text: &str, options: &ParseOptions) -> Result<TestReport, Error> {
    let mut tests: Vec<Test> = Vec::new();
    let mut index: HashMap<(Option<String>, String), usize> = HashMap::new();
    for event in json::lines::<Event>(Format::GoTestJson, text) {
        let event = event?;
        let Some(name) = event.test else { continue };
        let key = (event.package.clone(), name.clone());
        let at = *index.entry(key).or_insert_with(|| {
            tests.push(Test {
                package: event.package,
                name,
                ..Test::default()
            });
            tests.len() - 1
        });
        let Some(test) = tests.get_mut(at) else { continue };
        match event.action.as_str() {
            "pass" => test.end = Some(End::Pass),
            "fail" => test.end = Some(End::Fail),
            "skip" => test.end = Some(End::Skip),
            "output" => {
                if let Some(output) = event.output.as_deref() {
                    push_output(&mut test.output, output);
                }
            }
            _ => {}
        }
    }
    let mut builder = ReportBuilder::new(Format::GoTestJson, options);
    for test in &tests {
        let suite = builder.suite(test.package.as_deref());
        match test.end {
            Some(End::Pass) => builder.passed(suite),
            Some(End::Skip) => builder.skipped(suite),
            end @ (Some(End::Fail) | None) => {
                let (group, name) = match test.name.split_once('/') {
                    Some((parent, rest)) if !rest.is_empty() => (Some(parent), rest),
                    _ => (None, test.name.as_str()),
                };
                let message = match end {
                    None if test.output.trim().is_empty() => UNFINISHED,
                    _ => test.output.as_str(),
                };
                builder.failed(
                    suite,
                    Failure {
                        group,
                        name,
                        message: Some(message),
                        syntaxes: &[Syntax::Go],
                        ..Failure::default()
                    },
                );
            }
        }
    }
    Ok(builder.finish(None))
}

/// Appends one `Output` event, without go's own progress lines and one level (4 spaces) of indentation.
fn push_output(output: &mut String, event: &str) {
    let line = event.strip_prefix("    ").unwrap_or(event);
    let framework = [
        "=== RUN",
        "=== PAUSE",
        "=== CONT",
        "=== NAME",
        "--- FAIL:",
        "--- PASS:",
        "--- SKIP:",
    ];
    if framework.iter().any(|prefix| line.trim_start().starts_with(prefix)) {
        return;
    }
    output.push_str(line);
}
