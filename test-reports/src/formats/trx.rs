//! Visual Studio TRX (`dotnet test --logger trx`): each `<UnitTestResult>` under `<Results>` is a test; its class
//! (the suite) comes from the `<UnitTest>` of the same id under `<TestDefinitions>`. Outcomes: `Passed`,
//! `PassedButRunAborted`, `Warning` and `Completed` pass; `Failed`, `Error`, `Timeout` and `Aborted` fail; the
//! rest (`NotExecuted`, `Inconclusive`, `NotRunnable`, `Disconnected`, `Pending`, `InProgress`) are skipped. The
//! message is `<ErrorInfo><Message>`, the details `<StackTrace>`, read as .NET frames. The run's time is
//! `<Times finish>` − `start`.

use std::collections::HashMap;

use crate::builder::{Failure, ReportBuilder};
use crate::frames::Syntax;
use crate::xml::Element;
use crate::{Error, Format, ParseOptions, TestReport};

pub(crate) fn parse(text: &str, options: &ParseOptions) -> Result<TestReport, Error> {
    let root = super::xml_root(Format::Trx, text, &["TestRun"])?;
    let mut classes: HashMap<&str, &str> = HashMap::new();
    for definitions in root.children_named("TestDefinitions") {
        for test in definitions.children_named("UnitTest") {
            let class = test.child("TestMethod").and_then(|m| m.attr("className"));
            if let (Some(id), Some(class)) = (test.attr("id"), class) {
                classes.insert(id, class);
            }
        }
    }
    let mut builder = ReportBuilder::new(Format::Trx, options);
    for results in root.children_named("Results") {
        for result in results.children_named("UnitTestResult") {
            let class = result.attr("testId").and_then(|id| classes.get(id).copied());
            let suite = builder.suite(class);
            match result.attr("outcome").unwrap_or_default() {
                "Passed" | "PassedButRunAborted" | "Warning" | "Completed" => builder.passed(suite),
                "Failed" | "Error" | "Timeout" | "Aborted" => {
                    let name = result.attr("testName").unwrap_or_default();
                    // `Ns.Class.Test` in class `Ns.Class` is `Test`.
                    let name = class
                        .and_then(|class| name.strip_prefix(class))
                        .and_then(|rest| rest.strip_prefix('.'))
                        .unwrap_or(name);
                    let error = result.child("Output").and_then(|output| output.child("ErrorInfo"));
                    builder.failed(
                        suite,
                        Failure {
                            name,
                            message: error.and_then(|e| e.child("Message")).map(Element::text),
                            details: error.and_then(|e| e.child("StackTrace")).map(Element::text),
                            syntaxes: &[Syntax::DotNet],
                            ..Failure::default()
                        },
                    );
                }
                _ => builder.skipped(suite),
            }
        }
    }
    Ok(builder.finish(run_time(&root)))
}

/// `<Times finish>` − `<Times start>` in milliseconds (RFC 3339 times with offsets).
fn run_time(root: &Element) -> Option<f64> {
    let times = root.child("Times")?;
    let start: jiff::Timestamp = times.attr("start")?.parse().ok()?;
    let finish: jiff::Timestamp = times.attr("finish")?.parse().ok()?;
    let ms = finish.duration_since(start).as_secs_f64() * 1000.0;
    (ms >= 0.0).then_some(ms)
}
