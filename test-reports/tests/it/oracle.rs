//! The oracle: for every fixture of dorny/test-reporter (`tests/fixtures/dorny`, copied from
//! `shared/peers/test-reporter`), what dorny parses (its Jest snapshots, read by `snapshot.rs`; for the fixtures
//! without a snapshot, what its tests assert) against what `test_reports::parse` reads: the counts per result, the
//! run's time, and every failed test with its suite, group, name, message, details, file and line.
//!
//! Each deliberate difference is either a rule applied to dorny's side for every fixture (numbered as in the
//! crate's README, "Deliberate differences from dorny") or an entry of `OVERRIDES` naming the fixture, the test
//! and the rule; every override must be used.

use std::cell::Cell;
use std::path::Path;

use test_reports::{FailedTest, Format, ParseOptions, TestReport, parse};

use crate::snapshot::{Value, exports};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/dorny");

/// One fixture and what dorny's test gave its parser.
struct Case {
    fixture: &'static str,
    format: Format,
    /// The snapshot file and export, when dorny's test snapshots the result.
    snapshot: Option<(&'static str, &'static str)>,
    /// The `trackedFiles` dorny's test passes (our `with_repo_files`); `None` where dorny's parser never reads them.
    repo_files: Option<&'static [&'static str]>,
}

const JEST_FILES: &[&str] = &["__tests__/main.test.js", "__tests__/second.test.js", "lib/main.js"];
const TRX_FILES: &[&str] = &[
    "DotnetTests.Unit/Calculator.cs",
    "DotnetTests.XUnitTests/CalculatorTests.cs",
    "DotnetTests.XUnitV3Tests/FixtureTests.cs",
];
const PYTHON_FILES: &[&str] = &["tests/test_lib.py"];

const CASES: &[Case] = &[
    Case {
        fixture: "dart-json.json",
        format: Format::DartJson,
        snapshot: Some(("dart-json.test.ts.snap", "dart-json tests matches report snapshot 1")),
        repo_files: Some(&["lib/main.dart", "test/main_test.dart", "test/second_test.dart"]),
    },
    Case {
        fixture: "dotnet-nunit.xml",
        format: Format::NunitXml,
        snapshot: Some((
            "dotnet-nunit.test.ts.snap",
            "dotnet-nunit tests report from ./reports/dotnet test results matches snapshot 1",
        )),
        repo_files: Some(&[
            "DotnetTests.Unit/Calculator.cs",
            "DotnetTests.NUnitV3Tests/CalculatorTests.cs",
        ]),
    },
    Case {
        fixture: "dotnet-trx.trx",
        format: Format::Trx,
        snapshot: Some((
            "dotnet-trx.test.ts.snap",
            "dotnet-trx tests matches dotnet-trx report snapshot 1",
        )),
        repo_files: Some(TRX_FILES),
    },
    Case {
        fixture: "dotnet-trx.trx",
        format: Format::Trx,
        snapshot: Some((
            "dotnet-trx.test.ts.snap",
            "dotnet-trx tests matches report snapshot (only failed tests) 1",
        )),
        repo_files: Some(&[
            "DotnetTests.Unit/Calculator.cs",
            "DotnetTests.XUnitTests/CalculatorTests.cs",
        ]),
    },
    Case {
        fixture: "dotnet-xunitv3.trx",
        format: Format::Trx,
        snapshot: Some((
            "dotnet-trx.test.ts.snap",
            "dotnet-trx tests matches dotnet-xunitv3 report snapshot 1",
        )),
        repo_files: Some(TRX_FILES),
    },
    Case {
        fixture: "golang-json.json",
        format: Format::GoTestJson,
        snapshot: Some((
            "golang-json.test.ts.snap",
            "golang-json tests report from ./reports/dotnet test results matches snapshot 1",
        )),
        repo_files: Some(&["calculator.go", "calculator_test.go"]),
    },
    Case {
        fixture: "jest-junit.xml",
        format: Format::JunitXml,
        snapshot: Some((
            "jest-junit.test.ts.snap",
            "jest-junit tests report from ./reports/jest test results matches snapshot 1",
        )),
        repo_files: Some(JEST_FILES),
    },
    Case {
        fixture: "jest-junit-eslint.xml",
        format: Format::JunitXml,
        snapshot: Some((
            "jest-junit.test.ts.snap",
            "jest-junit tests parsing ESLint report without timing information works - PR #134 1",
        )),
        repo_files: Some(&["test.js"]),
    },
    Case {
        fixture: "junit-with-message.xml",
        format: Format::JunitXml,
        snapshot: Some((
            "jest-junit.test.ts.snap",
            "jest-junit tests parsing junit report with message succeeds 1",
        )),
        repo_files: Some(&["test.js"]),
    },
    Case {
        fixture: "test-errors/jest/jest-test-results.xml",
        format: Format::JunitXml,
        snapshot: Some((
            "jest-junit.test.ts.snap",
            "jest-junit tests jest testsuite errors example test results matches snapshot 1",
        )),
        // fixtures/test-errors/jest/files.txt
        repo_files: Some(&["libs/bar.spec.ts", "libs/foo.spec.ts", "tsconfig.json"]),
    },
    Case {
        fixture: "mocha-json.json",
        format: Format::MochaJson,
        snapshot: Some((
            "mocha-json.test.ts.snap",
            "mocha-json tests report from ./reports/mocha-json test results matches snapshot 1",
        )),
        repo_files: Some(&["test/main.test.js", "test/second.test.js", "lib/main.js"]),
    },
    Case {
        fixture: "phpunit/phpunit.xml",
        format: Format::JunitXml,
        snapshot: Some((
            "phpunit-junit.test.ts.snap",
            "phpunit-junit tests report from phpunit test results matches snapshot 1",
        )),
        repo_files: Some(&[]),
    },
    Case {
        fixture: "python-xunit-pytest.xml",
        format: Format::JunitXml,
        snapshot: Some((
            "python-xunit.test.ts.snap",
            "python-xunit pytest report report from python test results matches snapshot 1",
        )),
        repo_files: Some(PYTHON_FILES),
    },
    Case {
        fixture: "python-xunit-unittest.xml",
        format: Format::JunitXml,
        snapshot: Some((
            "python-xunit.test.ts.snap",
            "python-xunit unittest report report from python test results matches snapshot 1",
        )),
        repo_files: Some(PYTHON_FILES),
    },
    Case {
        fixture: "rspec-json.json",
        format: Format::RspecJson,
        snapshot: Some((
            "rspec-json.test.ts.snap",
            "rspec-json tests report from ./reports/rspec-json test results matches snapshot 1",
        )),
        // dorny's test passes mocha's list (`test/main.test.js`, …), which its RSpec parser never reads: it takes
        // the first backtrace frame starting with `./`. Without a list we do the equivalent.
        repo_files: None,
    },
    Case {
        fixture: "swift-xunit.xml",
        format: Format::JunitXml,
        snapshot: Some((
            "swift-xunit.test.ts.snap",
            "swift-xunit tests report from swift test results matches snapshot 1",
        )),
        repo_files: Some(&[
            "Package.swift",
            "Sources/AcmeLib/AcmeLib.swift",
            "Tests/AcmeLibTests/AcmeLibTests.swift",
        ]),
    },
    Case {
        fixture: "nette-tester/BootstrapFormRenderer-report.xml",
        format: Format::JunitXml,
        snapshot: Some((
            "tester-junit.test.ts.snap",
            "tester-junit tests parses complex test names from BootstrapFormRenderer-report.xml 1",
        )),
        repo_files: Some(&[]),
    },
    Case {
        fixture: "nette-tester/tester-v1.7-report.xml",
        format: Format::JunitXml,
        snapshot: Some((
            "tester-junit.test.ts.snap",
            "tester-junit tests report from tester-v1.7-report.xml matches snapshot 1",
        )),
        repo_files: Some(&[]),
    },
    // No snapshot: dorny's tests assert `result.tests` is 0 and `result.result` is 'success' (dart-json.test.ts,
    // dotnet-trx.test.ts (two), java-junit.test.ts, jest-junit.test.ts (two), mocha-json.test.ts,
    // phpunit-junit.test.ts and tester-junit.test.ts, rspec-json.test.ts: "produces empty test run result …").
    Case {
        fixture: "empty/dart-json.json",
        format: Format::DartJson,
        snapshot: None,
        repo_files: Some(&[]),
    },
    Case {
        fixture: "empty/dotnet-trx.trx",
        format: Format::Trx,
        snapshot: None,
        repo_files: Some(&[]),
    },
    Case {
        fixture: "empty/dotnet-trx-empty-test-definitions.trx",
        format: Format::Trx,
        snapshot: None,
        repo_files: Some(&[]),
    },
    Case {
        fixture: "empty/java-junit.xml",
        format: Format::JunitXml,
        snapshot: None,
        repo_files: Some(&[]),
    },
    Case {
        fixture: "empty/jest-junit.xml",
        format: Format::JunitXml,
        snapshot: None,
        repo_files: Some(&[]),
    },
    Case {
        fixture: "empty/jest-junit-empty-testsuite.xml",
        format: Format::JunitXml,
        snapshot: None,
        repo_files: Some(&[]),
    },
    Case {
        fixture: "empty/mocha-json.json",
        format: Format::MochaJson,
        snapshot: None,
        repo_files: Some(&[]),
    },
    Case {
        fixture: "empty/phpunit-empty.xml",
        format: Format::JunitXml,
        snapshot: None,
        repo_files: Some(&[]),
    },
    Case {
        fixture: "empty/rspec-json.json",
        format: Format::RspecJson,
        snapshot: None,
        repo_files: None,
    },
];

/// A failed test in the terms both sides share.
#[derive(Debug, Clone, PartialEq, PartialOrd)]
struct Expected {
    suite: Option<String>,
    group: Option<String>,
    name: String,
    message: Option<String>,
    details: Option<String>,
    file: Option<String>,
    line: Option<u32>,
}

fn s(text: &str) -> Option<String> {
    Some(text.to_owned())
}

/// A difference for one test that no general rule covers: the fixture, dorny's name of the test, the README's
/// rule number, and what we read instead.
struct Override {
    fixture: &'static str,
    test: &'static str,
    rule: u32,
    apply: fn(&mut Expected),
    used: Cell<bool>,
}

macro_rules! overrides {
    ($(($fixture:expr, $test:expr, $rule:expr, $apply:expr)),* $(,)?) => {
        [$(Override { fixture: $fixture, test: $test, rule: $rule, apply: $apply, used: Cell::new(false) }),*]
    };
}

fn overrides() -> Vec<Override> {
    Vec::from(overrides![
        // 4: the <failure message> is read in every JUnit dialect.
        ("junit-with-message.xml", "Test", 4, |e| e.message = s("error")),
        // 5: .NET frames in NUnit stack traces.
        ("dotnet-nunit.xml", "Exception_In_TargetTest", 5, |e| {
            (e.file, e.line) = (s("DotnetTests.Unit/Calculator.cs"), Some(9));
        }),
        ("dotnet-nunit.xml", "Exception_In_Test", 5, |e| {
            (e.file, e.line) = (s("DotnetTests.NUnitV3Tests/CalculatorTests.cs"), Some(39));
        }),
        ("dotnet-nunit.xml", "Failing_Test", 5, |e| {
            (e.file, e.line) = (s("DotnetTests.NUnitV3Tests/CalculatorTests.cs"), Some(27));
        }),
        ("dotnet-nunit.xml", "Is_Even_Number(3)", 5, |e| {
            (e.file, e.line) = (s("DotnetTests.NUnitV3Tests/CalculatorTests.cs"), Some(61));
        }),
        // 11: an NUnit failure without a message: the test case's label.
        ("dotnet-nunit.xml", "Timeout_Test", 11, |e| e.message =
            s("Test exceeded Timeout value 1ms.")),
        // 5: Go's `file_test.go:N:` log lines.
        ("golang-json.json", "TestFailing", 5, |e| (e.file, e.line) =
            (s("calculator_test.go"), Some(19))),
        ("golang-json.json", "TestPanicInsideFunction", 5, |e| (e.file, e.line) =
            (s("calculator_test.go"), Some(76))),
        ("golang-json.json", "TestPanicInsideTest", 5, |e| (e.file, e.line) =
            (s("calculator_test.go"), Some(76))),
        ("golang-json.json", "2_+_3_=_4", 5, |e| (e.file, e.line) =
            (s("calculator_test.go"), Some(67))),
        ("golang-json.json", "1_/_2_=_1", 5, |e| (e.file, e.line) =
            (s("calculator_test.go"), Some(67))),
        // 5: pytest's `file.py:N: Error` line and Python tracebacks.
        ("python-xunit-pytest.xml", "test_always_fail", 5, |e| (e.file, e.line) =
            (s("tests/test_lib.py"), Some(25))),
        ("python-xunit-pytest.xml", "test_error", 5, |e| (e.file, e.line) =
            (s("tests/test_lib.py"), Some(32))),
        ("python-xunit-unittest.xml", "test_always_fail", 5, |e| (
            e.file, e.line
        ) =
            (s("tests/test_lib.py"), Some(24))),
        ("python-xunit-unittest.xml", "test_error", 5, |e| (e.file, e.line) =
            (s("tests/test_lib.py"), Some(31))),
        // 5: mocha's test `file` when no frame names a line.
        ("mocha-json.json", "Timeout test", 5, |e| e.file =
            s("test/second.test.js")),
        // 7: Nette Tester names as written; no suite (dorny names it after the report's file).
        (
            "nette-tester/tester-v1.7-report.xml",
            "Runner.multiple-fails.phpt",
            7,
            |e| {
                (e.suite, e.group, e.name) = (None, None, "tests/Runner/Runner.multiple-fails.phpt".to_owned());
            }
        ),
        // 10: a TRX result without a test class has no suite.
        (
            "dotnet-xunitv3.trx",
            "[Test Class Cleanup Failure (DotnetTests.XUnitV3Tests.FixtureTests.Failing_Test)]",
            10,
            |e| e.suite = None
        ),
        (
            "dotnet-xunitv3.trx",
            "[Test Class Cleanup Failure (DotnetTests.XUnitV3Tests.FixtureTests.Passing_Test)]",
            10,
            |e| e.suite = None
        ),
    ])
}

/// Rules 1 and 2: blank texts are absent, details that repeat the message are absent.
fn clean_texts(e: &mut Expected) {
    e.message = e.message.take().filter(|m| !m.trim().is_empty());
    e.details = e
        .details
        .take()
        .filter(|d| !d.trim().is_empty() && Some(d) != e.message.as_ref());
}

/// Rule 6: paths without `./`, with `/`.
fn path(text: &str) -> String {
    let path = text.replace('\\', "/");
    path.strip_prefix("./").map(str::to_owned).unwrap_or(path)
}

/// dorny's failed tests, with the general rules applied.
fn dorny_failures(case: &Case, run: &Value) -> Vec<(String, Expected)> {
    let file_suites = matches!(case.format, Format::MochaJson | Format::RspecJson | Format::DartJson);
    let mut out = Vec::new();
    for suite in run.get("suites").items() {
        let suite_name = suite.get("name").str().unwrap_or_default();
        let suite_name = if file_suites {
            path(suite_name)
        } else {
            suite_name.to_owned()
        };
        for group in suite.get("groups").items() {
            let group_name = group.get("name").str().filter(|g| !g.is_empty() && *g != suite_name);
            for test in group
                .get("tests")
                .items()
                .iter()
                .filter(|t| t.get("result").str() == Some("failed"))
            {
                let name = test.get("name").str().expect("a test name").to_owned();
                let error = test.get("error");
                let mut expected = Expected {
                    suite: Some(suite_name.clone()).filter(|s| !s.is_empty()),
                    group: group_name.map(str::to_owned),
                    name: name.clone(),
                    message: error.get("message").str().map(str::to_owned),
                    details: error.get("details").str().map(str::to_owned),
                    file: error.get("path").str().map(path),
                    line: error.get("line").num().map(|l| l as u32),
                };
                clean_texts(&mut expected);
                out.push((name, expected));
            }
        }
    }
    out
}

/// Ours in the same terms. Rule 3: a TRX failure's message and details are dorny's `Message\nStackTrace`.
fn ours(format: Format, test: &FailedTest) -> Expected {
    assert_eq!(
        (test.message_full_chars, test.details_full_chars),
        (None, None),
        "nothing cut at these limits"
    );
    let mut expected = Expected {
        suite: test.suite.clone(),
        group: test.group.clone(),
        name: test.name.clone(),
        message: test.message.clone(),
        details: test.details.clone(),
        file: test.file.clone(),
        line: test.line,
    };
    if let (Format::Trx, Some(message), Some(details)) = (format, &test.message, &test.details) {
        expected.message = Some(format!("{message}\n{details}"));
        expected.details = None;
    }
    clean_texts(&mut expected);
    expected
}

fn read(case: &Case) -> TestReport {
    let bytes = std::fs::read(Path::new(FIXTURES).join("fixtures").join(case.fixture)).expect("the fixture");
    assert_eq!(
        test_reports::detect(&bytes).ok(),
        Some(case.format),
        "{}: detected format",
        case.fixture
    );
    let mut options = ParseOptions::default()
        .with_message_limit(usize::MAX)
        .with_details_limit(usize::MAX);
    if let Some(files) = case.repo_files {
        options = options.with_repo_files(files.iter().copied());
    }
    parse(&bytes, &options).unwrap_or_else(|err| panic!("{}: {err}", case.fixture))
}

fn snapshot(file: &str, export: &str) -> Value {
    let text = std::fs::read_to_string(Path::new(FIXTURES).join("snapshots").join(file)).expect("the snapshot");
    exports(&text)
        .into_iter()
        .find(|(name, _)| name == export)
        .map(|(_, value)| value)
        .expect("the export")
}

/// (passed, failed, skipped) over every test of a dorny result.
fn dorny_counts(run: &Value) -> (u64, u64, u64) {
    let mut counts = (0, 0, 0);
    for test in run
        .get("suites")
        .items()
        .iter()
        .flat_map(|s| s.get("groups").items())
        .flat_map(|g| g.get("tests").items())
    {
        match test.get("result").str() {
            Some("success") => counts.0 += 1,
            Some("failed") => counts.1 += 1,
            Some("skipped") => counts.2 += 1,
            other => panic!("result {other:?}"),
        }
    }
    counts
}

#[test]
fn every_fixture_reads_as_dorny_reads_it() {
    let overrides = overrides();
    let mut summary = Vec::new();
    for case in CASES {
        let report = read(case);
        let totals = report.totals;
        assert_eq!(totals.total, totals.passed + totals.failed + totals.skipped);
        let Some((file, export)) = case.snapshot else {
            assert_eq!(
                (totals.total, report.failed.len()),
                (0, 0),
                "{}: an empty report",
                case.fixture
            );
            summary.push(format!("{}: 0 tests (dorny's test: 0)", case.fixture));
            continue;
        };
        let run = snapshot(file, export);
        let (passed, failed, skipped) = dorny_counts(&run);
        assert_eq!(
            (totals.passed, totals.failed, totals.skipped),
            (passed, failed, skipped),
            "{}: counts",
            case.fixture
        );

        // The run's time: rule 8 (RSpec seconds), rule 9 (TRX to the whole millisecond in dorny).
        match (run.get("totalTime").num(), report.duration_ms) {
            (Some(dorny), Some(ms)) if case.format == Format::RspecJson => assert!((dorny * 1000.0 - ms).abs() < 1e-6),
            (Some(dorny), Some(ms)) if case.format == Format::Trx => assert!((dorny - ms).abs() < 1.0, "{dorny} {ms}"),
            (Some(dorny), Some(ms)) => assert!((dorny - ms).abs() < 1e-6, "{}: {dorny} ms, ours {ms}", case.fixture),
            (dorny, ours) => assert_eq!(dorny, ours, "{}: run time", case.fixture),
        }

        let mut expected: Vec<Expected> = dorny_failures(case, &run)
            .into_iter()
            .map(|(name, mut expected)| {
                for o in overrides.iter().filter(|o| o.fixture == case.fixture && o.test == name) {
                    (o.apply)(&mut expected);
                    o.used.set(true);
                    assert!((1..=21).contains(&o.rule));
                }
                expected
            })
            .collect();
        let mut actual: Vec<Expected> = report.failed.iter().map(|t| ours(case.format, t)).collect();
        expected.sort_by(|a, b| a.partial_cmp(b).expect("comparable"));
        actual.sort_by(|a, b| a.partial_cmp(b).expect("comparable"));
        assert_eq!(actual.len(), expected.len(), "{}: failed tests", case.fixture);
        for (ours, dorny) in actual.iter().zip(&expected) {
            assert_eq!(ours, dorny, "{}", case.fixture);
        }
        let located = actual.iter().filter(|t| t.file.is_some()).count();
        summary.push(format!(
            "{} ({export}): {passed} passed, {failed} failed, {skipped} skipped; {} failures equal, {located} located",
            case.fixture,
            actual.len()
        ));
    }
    for o in &overrides {
        assert!(o.used.get(), "override for {} / {} not used", o.fixture, o.test);
    }
    println!("{}", summary.join("\n"));
}

/// phpunit/phpunit-paths.xml has no snapshot: dorny's test "maps absolute paths to tracked files for annotations"
/// (phpunit-junit.test.ts) asserts each failure's path and line with these tracked files. The counts are the
/// fixture's own (`tests="6" failures="6"`).
#[test]
fn phpunit_paths_map_to_the_repository_files_as_dorny_maps_them() {
    const FILES: &[&str] = &[
        "src/Fake.php",
        "src/Other.php",
        "src/Paren.php",
        "src/Win.php",
        "src/WinParen.php",
        "tests/Sample.phpt",
    ];
    let case = Case {
        fixture: "phpunit/phpunit-paths.xml",
        format: Format::JunitXml,
        snapshot: None,
        repo_files: Some(FILES),
    };
    let report = read(&case);
    assert_eq!((report.totals.total, report.totals.failed), (6, 6));
    let located: Vec<(&str, Option<&str>, Option<u32>)> = report
        .failed
        .iter()
        .map(|t| (t.name.as_str(), t.file.as_deref(), t.line))
        .collect();
    assert_eq!(
        located,
        [
            ("testFailure", Some("src/Fake.php"), Some(42)),
            ("testStringFailure", Some("src/Other.php"), Some(10)),
            ("testParenFailure", Some("src/Paren.php"), Some(123)),
            ("testWindowsFailure", Some("src/Win.php"), Some(77)),
            ("testWindowsParenFailure", Some("src/WinParen.php"), Some(88)),
            ("testPhptFailure", Some("tests/Sample.phpt"), Some(12)),
        ]
    );
    assert_eq!(report.failed[0].message.as_deref(), Some("Exception: Boom"));
}
