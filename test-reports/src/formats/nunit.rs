//! NUnit 3 result XML: `<test-case>`s under nested `<test-suite>`s. A test's group is its innermost suite (not
//! counting `Theory` suites), its suite the names of the suites above that joined with `.`. `result="Failed"` or a
//! `<failure>` fails, `Skipped` and `Inconclusive` are skipped, the rest pass. The message is `<failure><message>`
//! (or, when there is none, the test case's `label`, such as "Test exceeded Timeout value 1ms."), the details
//! `<stack-trace>`, read as .NET frames. The run's time is `<test-run duration>` (seconds).

use crate::builder::{Failure, ReportBuilder};
use crate::frames::Syntax;
use crate::text::{non_blank, seconds_to_ms};
use crate::xml::Element;
use crate::{Error, Format, ParseOptions, TestReport};

pub(crate) fn parse(text: &str, options: &ParseOptions) -> Result<TestReport, Error> {
    let root = super::xml_root(Format::NunitXml, text, &["test-run"])?;
    let mut builder = ReportBuilder::new(Format::NunitXml, options);
    let mut path = Vec::new();
    walk(&root, &mut path, &mut builder);
    Ok(builder.finish(root.attr("duration").and_then(seconds_to_ms)))
}

/// The test cases under `element`; `path` holds the names of the (non-`Theory`) suites above it. Depth bounded by
/// [`crate::MAX_XML_DEPTH`].
fn walk<'a>(element: &'a Element, path: &mut Vec<&'a str>, builder: &mut ReportBuilder<'_>) {
    for child in &element.children {
        match child.name.as_str() {
            "test-suite" => {
                let named = child.attr("type") != Some("Theory");
                if named {
                    path.push(child.attr("name").unwrap_or_default());
                }
                walk(child, path, builder);
                if named {
                    path.pop();
                }
            }
            "test-case" => test_case(child, path, builder),
            _ => {}
        }
    }
}

fn test_case(case: &Element, path: &[&str], builder: &mut ReportBuilder<'_>) {
    let (group, above) = path
        .split_last()
        .map_or((None, &[][..]), |(group, above)| (Some(*group), above));
    let suite_name = above.join(".");
    let suite = builder.suite(Some(&suite_name));
    let failure = case.child("failure");
    match case.attr("result").unwrap_or_default() {
        result if result == "Failed" || failure.is_some() => {
            let message = failure.and_then(|f| f.child("message")).map(Element::text);
            builder.failed(
                suite,
                Failure {
                    group,
                    name: case.attr("name").unwrap_or_default(),
                    message: non_blank(message).or_else(|| case.attr("label")),
                    details: failure.and_then(|f| f.child("stack-trace")).map(Element::text),
                    syntaxes: &[Syntax::DotNet],
                    fallback: None,
                },
            );
        }
        "Skipped" | "Inconclusive" => builder.skipped(suite),
        _ => builder.passed(suite),
    }
}
