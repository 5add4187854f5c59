//! `dart test --reporter json` (and `flutter test --machine`): JSON Lines of events. A `testStart` is a test
//! unless its `testDone` says `hidden` (the runner's own loading, `setUpAll` and `tearDownAll` entries); a failed
//! loading test (a test file that does not compile) is not hidden and counts as failed. Its suite is its suite's
//! `path`, its group the innermost group's name, its name without that group's prefix. `testDone` with `skipped`
//! is skipped, `result: "success"` passed, `error`/`failure` failed; a test with no `testDone` failed (the run
//! stopped). A failure's message is its (last) `error` event's `error` or else its printed output, its details
//! the printed output and `stackTrace`, read as dart (and Flutter's Node-like) frames, its fallback location the
//! suite's file at the test's line. The run's time is the `done` event's `time` (ms).

use std::collections::HashMap;

use serde::Deserialize;

use crate::builder::{Failure, ReportBuilder};
use crate::frames::Syntax;
use crate::location::Candidate;
use crate::{Error, Format, ParseOptions, TestReport, json};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Event {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    suite: Option<Suite>,
    #[serde(default)]
    group: Option<Group>,
    #[serde(default)]
    test: Option<TestInfo>,
    #[serde(rename = "testID", default)]
    test_id: Option<u64>,
    #[serde(default)]
    result: Option<String>,
    #[serde(default)]
    skipped: Option<bool>,
    #[serde(default)]
    hidden: Option<bool>,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    stack_trace: Option<String>,
    #[serde(default)]
    message_type: Option<String>,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    time: Option<f64>,
}

#[derive(Deserialize)]
struct Suite {
    id: u64,
    #[serde(default)]
    path: Option<String>,
}

#[derive(Deserialize)]
struct Group {
    id: u64,
    #[serde(default)]
    name: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TestInfo {
    id: u64,
    #[serde(default)]
    name: String,
    #[serde(rename = "suiteID", default)]
    suite_id: Option<u64>,
    #[serde(rename = "groupIDs", default)]
    group_ids: Vec<u64>,
    #[serde(default)]
    line: Option<u32>,
    #[serde(default)]
    root_line: Option<u32>,
}

#[derive(Default)]
struct Test {
    info: Option<TestInfo>,
    done: Option<Done>,
    error: Option<(Option<String>, Option<String>)>,
    printed: Vec<String>,
}

struct Done {
    result: Option<String>,
    skipped: bool,
    hidden: bool,
}

const UNFINISHED: &str = "no testDone event for this test: the run stopped while it ran";

pub(crate) fn parse(text: &str, options: &ParseOptions) -> Result<TestReport, Error> {
    let mut suites: HashMap<u64, String> = HashMap::new();
    let mut groups: HashMap<u64, String> = HashMap::new();
    let mut tests: Vec<Test> = Vec::new();
    let mut index: HashMap<u64, usize> = HashMap::new();
    let mut run_time = None;
    for event in json::lines::<Event>(Format::DartJson, text) {
        let event = event?;
        match event.kind.as_str() {
            "suite" => {
                if let Some(suite) = event.suite {
                    suites.insert(suite.id, suite.path.unwrap_or_default());
                }
            }
            "group" => {
                if let Some(group) = event.group {
                    groups.insert(group.id, group.name.unwrap_or_default());
                }
            }
            "testStart" => {
                if let Some(info) = event.test {
                    index.insert(info.id, tests.len());
                    tests.push(Test {
                        info: Some(info),
                        ..Test::default()
                    });
                }
            }
            "testDone" => {
                if let Some(test) = event
                    .test_id
                    .and_then(|id| index.get(&id))
                    .and_then(|&at| tests.get_mut(at))
                {
                    test.done = Some(Done {
                        result: event.result,
                        skipped: event.skipped.unwrap_or(false),
                        hidden: event.hidden.unwrap_or(false),
                    });
                }
            }
            "error" => {
                if let Some(test) = event
                    .test_id
                    .and_then(|id| index.get(&id))
                    .and_then(|&at| tests.get_mut(at))
                {
                    test.error = Some((event.error, event.stack_trace));
                }
            }
            "print" => {
                let printed = event.message_type.as_deref().unwrap_or("print") == "print";
                if let Some(test) = event
                    .test_id
                    .and_then(|id| index.get(&id))
                    .and_then(|&at| tests.get_mut(at))
                    && printed
                {
                    test.printed.extend(event.message);
                }
            }
            "done" => run_time = event.time,
            _ => {}
        }
    }
    let mut builder = ReportBuilder::new(Format::DartJson, options);
    for test in &tests {
        let Some(info) = &test.info else { continue };
        if test.done.as_ref().is_some_and(|done| done.hidden) {
            continue;
        }
        let suite_path = info.suite_id.and_then(|id| suites.get(&id)).map(String::as_str);
        let suite = builder.file_suite(suite_path);
        match &test.done {
            Some(done) if done.skipped => builder.skipped(suite),
            Some(done) if done.result.as_deref() == Some("success") => builder.passed(suite),
            done => {
                let group = info.group_ids.last().and_then(|id| groups.get(id)).map(String::as_str);
                let name = match group {
                    Some(group) if !group.is_empty() => info.name.strip_prefix(group).unwrap_or(&info.name),
                    _ => &info.name,
                };
                let printed = test.printed.join("\n");
                let (error, stack) = test
                    .error
                    .as_ref()
                    .map_or((None, None), |(e, s)| (e.as_deref(), s.as_deref()));
                let details: Vec<&str> = [Some(printed.as_str()), stack]
                    .into_iter()
                    .flatten()
                    .filter(|s| !s.is_empty())
                    .collect();
                let details = details.join("\n");
                let message = error
                    .filter(|e| !e.is_empty())
                    .or((!printed.is_empty()).then_some(printed.as_str()));
                let message = if done.is_none() {
                    message.or(Some(UNFINISHED))
                } else {
                    message
                };
                builder.failed(
                    suite,
                    Failure {
                        group,
                        name,
                        message,
                        details: Some(&details),
                        syntaxes: &[Syntax::Dart, Syntax::Node],
                        fallback: suite_path.map(|path| Candidate::new(path, info.root_line.or(info.line))),
                    },
                );
            }
        }
    }
    Ok(builder.finish(run_time))
}
