//! The deliberate differences from dorny/test-reporter that no fixture of the oracle shows, one test each,
//! numbered as in the crate's README ("Deliberate differences from dorny"). Rules 1–11 are checked on dorny's
//! fixtures by `oracle.rs`; some get a direct test here too.

use test_reports::{FailedTest, Format, ParseOptions, TestReport, parse, parse_as};

fn read(text: &str) -> TestReport {
    parse(text.as_bytes(), &ParseOptions::default()).unwrap_or_else(|err| panic!("{err}\n{text}"))
}

fn read_with_files(text: &str, files: &[&str]) -> TestReport {
    let options = ParseOptions::default().with_repo_files(files.iter().copied());
    parse(text.as_bytes(), &options).unwrap_or_else(|err| panic!("{err}\n{text}"))
}

fn only_failure(report: &TestReport) -> &FailedTest {
    assert_eq!(report.failed.len(), 1, "{report:#?}");
    &report.failed[0]
}

fn counts(report: &TestReport) -> (u64, u64, u64) {
    (report.totals.passed, report.totals.failed, report.totals.skipped)
}

/// Rules 1 and 2: a blank text is absent; details that only repeat the message are absent.
#[test]
fn rule_1_2_blank_and_repeated_texts_are_absent() {
    let report = read(
        r#"<testsuite name="s"><testcase name="a"><failure message="  "> </failure></testcase>
           <testcase name="b"><failure message="boom">boom</failure></testcase></testsuite>"#,
    );
    let texts: Vec<_> = report
        .failed
        .iter()
        .map(|t| (t.message.as_deref(), t.details.as_deref()))
        .collect();
    assert_eq!(texts, [(None, None), (Some("boom"), None)]);
}

/// Rule 3: a TRX failure's message is `<Message>`, its details `<StackTrace>`.
#[test]
fn rule_3_trx_message_and_stack_trace_are_apart() {
    let report = read(
        r#"<TestRun xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010">
  <Results><UnitTestResult testId="1" testName="Ns.C.T" outcome="Failed"><Output><ErrorInfo>
    <Message>Assert.Equal() Failure</Message><StackTrace>   at Ns.C.T() in /r/C.cs:line 7</StackTrace>
  </ErrorInfo></Output></UnitTestResult></Results>
  <TestDefinitions><UnitTest id="1"><TestMethod className="Ns.C" name="T"/></UnitTest></TestDefinitions>
</TestRun>"#,
    );
    let test = only_failure(&report);
    assert_eq!((test.suite.as_deref(), test.name.as_str()), (Some("Ns.C"), "T"));
    assert_eq!(test.message.as_deref(), Some("Assert.Equal() Failure"));
    assert_eq!(test.details.as_deref(), Some("   at Ns.C.T() in /r/C.cs:line 7"));
    assert_eq!((test.file.as_deref(), test.line), (Some("/r/C.cs"), Some(7)));
}

/// Rule 4: `<failure message type>` in a jest-junit-like report.
#[test]
fn rule_4_junit_message_attributes_are_read_in_every_dialect() {
    let report = read(
        r#"<testsuites name="jest tests"><testsuite name="a.test.js"><testcase classname="A" name="t">
           <failure type="AssertionError" message="expected 1">stack</failure></testcase></testsuite></testsuites>"#,
    );
    assert_eq!(
        only_failure(&report).message.as_deref(),
        Some("AssertionError: expected 1")
    );
}

/// Rule 5: the test's own location when no frame gives one: JUnit `file`/`line` in any dialect, RSpec
/// `file_path:line_number`; and frames of Python, Go, .NET in JUnit text.
#[test]
fn rule_5_more_frame_syntaxes_and_the_tests_own_location() {
    let junit = read(
        r#"<testsuite name="pytest"><testcase classname="t" name="a" file="tests/t.py" line="3">
             <failure message="x">no frame here</failure></testcase>
           <testcase classname="t" name="b"><failure message="y">    a_test.go:12: got 2</failure></testcase>
           <testcase classname="t" name="c"><failure>   at N.C.M() in C:\r\C.cs:line 4</failure></testcase></testsuite>"#,
    );
    let located: Vec<_> = junit.failed.iter().map(|t| (t.file.as_deref(), t.line)).collect();
    assert_eq!(
        located,
        [
            (Some("tests/t.py"), Some(3)),
            (Some("a_test.go"), Some(12)),
            (Some("C:/r/C.cs"), Some(4))
        ]
    );

    let rspec = read(
        r#"{"examples":[{"description":"d","full_description":"G d","status":"failed","file_path":"./spec/a_spec.rb",
           "line_number":9,"exception":{"message":"m","backtrace":["/gems/x/lib/y.rb:1:in `z'"]}}],"summary":{}}"#,
    );
    let test = only_failure(&rspec);
    assert_eq!((test.file.as_deref(), test.line), (Some("spec/a_spec.rb"), Some(9)));
    assert_eq!((test.group.as_deref(), test.name.as_str()), (Some("G"), "G d"));
}

/// Rule 6: paths with `/`, without `./` or `file://`.
#[test]
fn rule_6_paths_are_normalized() {
    let report = read(
        r#"{"stats":{},"passes":[],"pending":[],"failures":[{"title":"t","fullTitle":"t","file":".\\test\\a.test.js",
           "err":{"message":"m","stack":"Error: m\n    at Context.<anonymous> (file:///C:/r/test/a.test.js:3:7)"}}]}"#,
    );
    let test = only_failure(&report);
    assert_eq!(test.suite.as_deref(), Some("test/a.test.js"));
    assert_eq!(
        (test.file.as_deref(), test.line),
        (Some("C:/r/test/a.test.js"), Some(3))
    );
}

/// Rule 8: RSpec states seconds; we give milliseconds.
#[test]
fn rule_8_rspec_seconds_become_milliseconds() {
    let report = read(r#"{"examples":[],"summary":{"duration":1.5}}"#);
    assert_eq!(report.duration_ms, Some(1500.0));
}

/// Rule 11: an NUnit `Inconclusive` result is skipped, a failure without a message takes the `label`.
#[test]
fn rule_11_nunit_inconclusive_is_skipped_and_label_is_the_message() {
    let report = read(
        r#"<test-run duration="0.5"><test-suite type="Assembly" name="a.dll"><test-suite type="TestFixture" name="F">
           <test-case name="i" result="Inconclusive"/><test-case name="p" result="Passed"/>
           <test-case name="t" result="Failed" label="Test exceeded Timeout value 1ms."><failure/></test-case>
           </test-suite></test-suite></test-run>"#,
    );
    assert_eq!(counts(&report), (1, 1, 1));
    let test = only_failure(&report);
    assert_eq!(
        (test.suite.as_deref(), test.group.as_deref()),
        (Some("a.dll"), Some("F"))
    );
    assert_eq!(test.message.as_deref(), Some("Test exceeded Timeout value 1ms."));
    assert_eq!(report.duration_ms, Some(500.0));
}

/// Rule 12: failures in report order (dorny sorts TRX and mocha results by name).
#[test]
fn rule_12_failures_keep_report_order() {
    let report = read(
        r#"{"stats":{},"passes":[],"pending":[],"failures":[
           {"title":"zeta","fullTitle":"zeta","file":"b.js","err":{"message":"1"}},
           {"title":"alpha","fullTitle":"alpha","file":"a.js","err":{"message":"2"}}]}"#,
    );
    let names: Vec<_> = report.failed.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["zeta", "alpha"]);
}

/// Rule 13: a classname equal to the suite's name is no group in a jest-junit-like report too; suite names are
/// kept as written (no `\<` escaping).
#[test]
fn rule_13_group_equal_to_suite_is_none_and_names_are_not_escaped() {
    let report = read(
        r#"<testsuites><testsuite name="&lt;Button /&gt;"><testcase classname="&lt;Button /&gt;" name="renders">
           <failure>x</failure></testcase></testsuite></testsuites>"#,
    );
    let test = only_failure(&report);
    assert_eq!(
        (test.suite.as_deref(), test.group.as_deref()),
        (Some("<Button />"), None)
    );
}

/// Rule 14: every TRX outcome is counted.
#[test]
fn rule_14_every_trx_outcome_is_counted() {
    let results: String = [
        "Passed",
        "PassedButRunAborted",
        "Warning",
        "Completed",
        "Failed",
        "Error",
        "Timeout",
        "Aborted",
        "NotExecuted",
        "Inconclusive",
        "NotRunnable",
        "Disconnected",
        "Pending",
        "InProgress",
    ]
    .iter()
    .enumerate()
    .map(|(i, outcome)| format!(r#"<UnitTestResult testId="{i}" testName="t{i}" outcome="{outcome}"/>"#))
    .collect();
    let report = read(&format!("<TestRun><Results>{results}</Results></TestRun>"));
    assert_eq!(counts(&report), (4, 4, 6));
    assert!(
        report.failed.iter().all(|t| t.suite.is_none()),
        "no class: no suite (rule 10)"
    );
}

/// Rule 15: a Go test without a final event failed; go's progress lines are dropped by their text.
#[test]
fn rule_15_go_test_without_an_end_failed() {
    let report = read(concat!(
        r#"{"Action":"run","Package":"p","Test":"TestA"}"#,
        "\n",
        r#"{"Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\n"}"#,
        "\n",
        r#"{"Action":"output","Package":"p","Test":"TestA","Output":"    a_test.go:5: first\n"}"#,
        "\n",
        r#"{"Action":"output","Package":"p","Test":"TestA","Output":"=== PAUSE TestA\n"}"#,
        "\n",
        r#"{"Action":"output","Package":"p","Test":"TestA","Output":"    a_test.go:6: second\n"}"#,
        "\n",
        r#"{"Action":"run","Package":"p","Test":"TestB"}"#,
        "\n",
        r#"{"Action":"output","Package":"p","Output":"panic: test timed out after 1s\n"}"#,
        "\n",
    ));
    assert_eq!(counts(&report), (0, 2, 0));
    let a = &report.failed[0];
    assert_eq!(a.message.as_deref(), Some("a_test.go:5: first\na_test.go:6: second\n"));
    assert_eq!((a.file.as_deref(), a.line), (Some("a_test.go"), Some(5)));
    assert_eq!(
        report.failed[1].message.as_deref(),
        Some("no pass, fail or skip event for this test: the run stopped while it ran")
    );
}

/// Rule 16: a dart test file that fails to load counts as a failed test; a test without `testDone` failed.
#[test]
fn rule_16_dart_load_failures_count() {
    let report = read(concat!(
        r#"{"protocolVersion":"0.1.1","type":"start","time":0}"#,
        "\n",
        r#"{"suite":{"id":0,"path":"test/broken_test.dart"},"type":"suite","time":0}"#,
        "\n",
        r#"{"test":{"id":1,"name":"loading test/broken_test.dart","suiteID":0,"groupIDs":[],"line":null,"url":null},"type":"testStart","time":0}"#,
        "\n",
        r#"{"testID":1,"error":"Failed to load \"test/broken_test.dart\": Compilation failed","stackTrace":"","isFailure":false,"type":"error","time":5}"#,
        "\n",
        r#"{"testID":1,"result":"error","skipped":false,"hidden":false,"type":"testDone","time":6}"#,
        "\n",
        r#"{"test":{"id":2,"name":"never ends","suiteID":0,"groupIDs":[],"line":3,"url":"file:///r/test/broken_test.dart"},"type":"testStart","time":7}"#,
        "\n",
    ));
    assert_eq!(counts(&report), (0, 2, 0));
    assert_eq!(
        report.failed[0].message.as_deref(),
        Some("Failed to load \"test/broken_test.dart\": Compilation failed")
    );
    assert_eq!(
        report.failed[1].message.as_deref(),
        Some("no testDone event for this test: the run stopped while it ran")
    );
    assert_eq!(
        (report.failed[1].file.as_deref(), report.failed[1].line),
        (Some("test/broken_test.dart"), Some(3))
    );
}

/// Rule 17: googletest's disabled tests (`status="notrun"`) are skipped.
#[test]
fn rule_17_junit_not_run_status_is_skipped() {
    let report = read(
        r#"<testsuites><testsuite name="S"><testcase name="DISABLED_x" status="notrun" result="suppressed" classname="S"/>
           <testcase name="y" status="run" result="completed" classname="S"/></testsuite></testsuites>"#,
    );
    assert_eq!(counts(&report), (1, 0, 1));
}

/// Rule 18: a repository file matches at a `/`: `/r/xmain.js` is not `main.js`.
#[test]
fn rule_18_repository_files_match_at_a_path_segment() {
    let text = r#"<testsuite name="s"><testcase name="t"><failure>Error
    at f (/r/xmain.js:1:1)
    at g (/r/src/main.js:2:1)</failure></testcase></testsuite>"#;
    let test = read_with_files(text, &["main.js", "src/main.js"]).failed.remove(0);
    assert_eq!((test.file.as_deref(), test.line), (Some("src/main.js"), Some(2)));
}

/// Rule 19: `\r\n` (literal or `&#xD;`) is `\n` in messages and details.
#[test]
fn rule_19_line_endings_are_newlines() {
    let report = read(
        "<testsuite name=\"s\"><testcase name=\"t\"><failure message=\"a&#xD;&#xA;b\">c\r\nd&#xD;\ne</failure></testcase></testsuite>",
    );
    let test = only_failure(&report);
    assert_eq!(
        (test.message.as_deref(), test.details.as_deref()),
        (Some("a\nb"), Some("c\nd\ne"))
    );
}

/// Rule 20: a mocha or RSpec failure without a stack keeps its message.
#[test]
fn rule_20_a_failure_without_a_stack_keeps_its_message() {
    let mocha = read(r#"{"stats":{},"failures":[{"title":"t","fullTitle":"t","err":{"message":"no stack"}}]}"#);
    assert_eq!(only_failure(&mocha).message.as_deref(), Some("no stack"));
    let rspec = read(r#"{"examples":[{"description":"t","status":"failed","exception":{"message":"no backtrace"}}]}"#);
    assert_eq!(only_failure(&rspec).message.as_deref(), Some("no backtrace"));
}

/// Rule 21: only suites that hold tests are listed.
#[test]
fn rule_21_suites_without_tests_are_not_listed() {
    let report = read(
        r#"<testsuites><testsuite name="empty" tests="0"></testsuite><testsuite name="one"><testcase name="t"/></testsuite></testsuites>"#,
    );
    let names: Vec<_> = report.suites.iter().map(|s| s.name.as_deref()).collect();
    assert_eq!(names, [Some("one")]);
}

/// Not a difference (dorny's Java parser does the same with tracked files), but no fixture shows it: a JVM frame
/// gives a package path, matched against the repository's files; without them it is the package path itself.
#[test]
fn java_frames_give_package_paths() {
    let text = r#"<testsuite name="org.acme.FooTest"><testcase classname="org.acme.FooTest" name="adds">
<failure message="expected: &lt;2&gt; but was: &lt;3&gt;" type="org.opentest4j.AssertionFailedError">org.opentest4j.AssertionFailedError: expected: &lt;2&gt; but was: &lt;3&gt;
	at org.junit.jupiter.api.AssertionUtils.fail(AssertionUtils.java:55)
	at org.acme.FooTest.adds(FooTest.java:12)
</failure></testcase></testsuite>"#;
    let with = read_with_files(text, &["pom.xml", "src/test/java/org/acme/FooTest.java"]);
    let test = only_failure(&with);
    assert_eq!(
        (test.file.as_deref(), test.line),
        (Some("src/test/java/org/acme/FooTest.java"), Some(12))
    );
    assert_eq!(test.group, None, "the classname is the suite's name");
    let without = read(text);
    assert_eq!(only_failure(&without).file.as_deref(), Some("org/acme/FooTest.java"));
}

/// go-junit-report's dialect: the package is the suite, failures carry `file_test.go:N:` lines.
#[test]
fn go_junit_report_dialect() {
    let report = parse_as(
        Format::JunitXml,
        br#"<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="2" failures="1"><testsuite name="example.com/calc" tests="2" failures="1" time="0.010">
<properties><property name="go.version" value="go1.22"></property></properties>
<testcase name="TestAdd" classname="calc" time="0.000"></testcase>
<testcase name="TestDiv" classname="calc" time="0.010"><failure message="Failed" type="">    calc_test.go:21: want 2, got 3</failure></testcase>
</testsuite></testsuites>"#,
        &ParseOptions::default(),
    )
    .expect("a JUnit report");
    let test = only_failure(&report);
    assert_eq!(
        (test.suite.as_deref(), test.group.as_deref()),
        (Some("example.com/calc"), Some("calc"))
    );
    assert_eq!(
        (test.file.as_deref(), test.line, test.message.as_deref()),
        (Some("calc_test.go"), Some(21), Some("Failed"))
    );
}
