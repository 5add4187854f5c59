//! JUnit XML in every dialect, read alike: a `<testsuites>` or `<testsuite>` root, `<testsuite>`s nested to any
//! depth (PHPUnit), `<testcase>`s with a `<failure>` or `<error>` (failed), `<skipped>` or a not-run `status`
//! (skipped: googletest's `status="notrun"`), else passed. A test case's suite is the innermost `<testsuite>` that
//! holds it; its `file`/`line` attributes (PHPUnit, unittest) are its location when no frame in the failure's
//! text gives one. The failure's frames are looked for in every syntax, since any language's runner writes JUnit.

use crate::builder::{Failure, ReportBuilder, SuiteId};
use crate::frames::Syntax;
use crate::location::Candidate;
use crate::text::{non_blank, seconds_to_ms};
use crate::xml::Element;
use crate::{Error, Format, ParseOptions, TestReport};

pub(crate) fn parse(text: &str, options: &ParseOptions) -> Result<TestReport, Error> {
    let root = super::xml_root(Format::JunitXml, text, &["testsuites", "testsuite"])?;
    let mut builder = ReportBuilder::new(Format::JunitXml, options);
    walk(&root, &mut builder);
    Ok(builder.finish(root.attr("time").and_then(seconds_to_ms)))
}

/// The test cases of `suite` and of every suite nested in it (depth bounded by [`crate::MAX_XML_DEPTH`]).
fn walk(suite: &Element, builder: &mut ReportBuilder<'_>) {
    let mut id = None;
    for child in &suite.children {
        match child.name.as_str() {
            "testsuite" | "testsuites" => walk(child, builder),
            "testcase" => {
                let id = *id.get_or_insert_with(|| {
                    let id = builder.suite(suite.attr("name"));
                    builder.add_suite_time(id, suite.attr("time").and_then(seconds_to_ms));
                    id
                });
                test_case(child, id, builder);
            }
            _ => {}
        }
    }
}

fn test_case(case: &Element, suite: SuiteId, builder: &mut ReportBuilder<'_>) {
    if let Some(failure) = case.children.iter().find(|c| c.name == "failure" || c.name == "error") {
        let message = match (non_blank(failure.attr("type")), non_blank(failure.attr("message"))) {
            (Some(kind), Some(message)) => Some(format!("{}: {message}", kind.trim())),
            (None, Some(message)) => Some(message.to_owned()),
            (Some(kind), None) => Some(kind.trim().to_owned()),
            (None, None) => None,
        };
        let fallback = non_blank(case.attr("file"))
            .map(|file| Candidate::new(file, case.attr("line").and_then(|l| l.trim().parse().ok())));
        builder.failed(
            suite,
            Failure {
                group: case.attr("classname").or_else(|| case.attr("class")),
                name: case.attr("name").unwrap_or_default(),
                message: message.as_deref(),
                details: Some(failure.text()),
                syntaxes: &Syntax::ALL,
                fallback,
            },
        );
    } else if case.child("skipped").is_some() || case.attr("status").is_some_and(not_run) {
        builder.skipped(suite);
    } else {
        builder.passed(suite);
    }
}

/// googletest writes `status="notrun"` for disabled tests; others `disabled`, `skipped`, `ignored`.
fn not_run(status: &str) -> bool {
    ["notrun", "disabled", "skipped", "ignored"]
        .iter()
        .any(|s| status.trim().eq_ignore_ascii_case(s))
}
