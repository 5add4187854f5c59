//! The one model every format is read into: [`TestReport`].
//!
//! Shapes are what a code-mode program reads: counts for everything, one entry per failed test (passed and skipped
//! tests are only counted), times in milliseconds. Serialized in camelCase; an `Option` that is `None` is written as
//! `null`, so every object has all its members.

use std::fmt;

use schemars::JsonSchema;
use serde::Serialize;

/// A test-report format this crate reads, found from the content by [`crate::detect`].
///
/// Serialized as the kebab-case names below (`"junit-xml"`, `"trx"`, …). More formats may be added, hence
/// `#[non_exhaustive]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Format {
    /// JUnit XML, root `<testsuites>` or `<testsuite>`, in every dialect read alike: jest-junit, Maven Surefire,
    /// pytest, unittest, PHPUnit (nested `<testsuite>`s, `file`/`line` attributes), Swift, Nette Tester,
    /// go-junit-report, googletest.
    JunitXml,
    /// Visual Studio / `dotnet test` TRX (MSTest, xUnit, xUnit v3, NUnit adapters), root `<TestRun>`.
    Trx,
    /// NUnit 3 result XML, root `<test-run>`.
    NunitXml,
    /// `mocha --reporter json`: one JSON object with `stats`, `passes`, `failures`, `pending`.
    MochaJson,
    /// `rspec --format json`: one JSON object with `examples` and `summary`.
    RspecJson,
    /// `go test -json`: JSON Lines of test events (`Action`, `Package`, `Test`, `Output`, `Elapsed`).
    GoTestJson,
    /// `dart test --reporter json` (and `flutter test --machine`): JSON Lines of events with a `type`.
    DartJson,
}

impl Format {
    /// Every format this version reads, in the order [`crate::Error::UnknownFormat`] lists them.
    pub const ALL: [Format; 7] = [
        Format::JunitXml,
        Format::Trx,
        Format::NunitXml,
        Format::MochaJson,
        Format::RspecJson,
        Format::GoTestJson,
        Format::DartJson,
    ];

    /// The serialized name: `"junit-xml"`, `"trx"`, `"nunit-xml"`, `"mocha-json"`, `"rspec-json"`,
    /// `"go-test-json"`, `"dart-json"`.
    pub fn name(self) -> &'static str {
        match self {
            Format::JunitXml => "junit-xml",
            Format::Trx => "trx",
            Format::NunitXml => "nunit-xml",
            Format::MochaJson => "mocha-json",
            Format::RspecJson => "rspec-json",
            Format::GoTestJson => "go-test-json",
            Format::DartJson => "dart-json",
        }
    }

    /// What a person calls it, with what writes it, e.g. `JUnit XML (<testsuites>/<testsuite>)`.
    pub fn description(self) -> &'static str {
        match self {
            Format::JunitXml => "JUnit XML (<testsuites> or <testsuite>)",
            Format::Trx => ".NET TRX (<TestRun>)",
            Format::NunitXml => "NUnit 3 XML (<test-run>)",
            Format::MochaJson => "mocha JSON (mocha --reporter json)",
            Format::RspecJson => "RSpec JSON (rspec --format json)",
            Format::GoTestJson => "go test -json (JSON Lines)",
            Format::DartJson => "dart test JSON (dart test --reporter json, JSON Lines)",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How many tests ended each way. `total = passed + failed + skipped`, always.
///
/// A failed test is one that failed or errored; skipped covers skipped, ignored, pending, not run and inconclusive.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Totals {
    /// Tests that passed.
    pub passed: u64,
    /// Tests that failed or errored.
    pub failed: u64,
    /// Tests that were skipped, ignored, pending or not run.
    pub skipped: u64,
    /// All tests: `passed + failed + skipped`.
    pub total: u64,
}

/// One suite's counts: `{name, passed, failed, skipped, total, durationMs}`.
///
/// What a suite is depends on the format: a JUnit `<testsuite>` (the innermost one holding the test case), a TRX
/// test class, an NUnit fixture's enclosing namespaces, a mocha / dart test file, an RSpec spec file, a Go package.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SuiteSummary {
    /// The suite's name as the report gives it (a file path for mocha, RSpec and dart, normalized like
    /// [`FailedTest::file`]); `null` when the report names none.
    pub name: Option<String>,
    /// Its counts.
    #[serde(flatten)]
    pub totals: Totals,
    /// Its time in milliseconds when the report states one (JUnit `<testsuite time>`), else `null`.
    pub duration_ms: Option<f64>,
}

/// One failed test: what a program prints as `file:line name: message`.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct FailedTest {
    /// The suite it belongs to (see [`SuiteSummary::name`]); `null` when the report names none.
    pub suite: Option<String>,
    /// The group inside the suite: the JUnit `classname` (when it differs from the suite's and the test's
    /// names), the `describe` path (mocha, RSpec, dart), the NUnit fixture, the parent of a Go subtest; `null`
    /// when there is none.
    pub group: Option<String>,
    /// The test's name as the report gives it (trimmed; a TRX name without its class prefix, a dart name without
    /// its group prefix, a Go subtest's name after its parent's `/`).
    pub name: String,
    /// Where it failed: the first stack frame in the repository (or, without a list of the repository's files,
    /// the first frame outside dependencies and runtimes), else the test's own location when the report states it.
    /// Separators are `/`, a `file://` scheme and a leading `./` are dropped. Relative to the repository when
    /// [`crate::ParseOptions::with_repo_files`] was given and the path matched one of them; otherwise as written
    /// (possibly absolute, possibly a Java package path such as `org/acme/FooTest.java`). `null` when nothing
    /// says.
    pub file: Option<String>,
    /// The 1-based line in `file`, when known.
    pub line: Option<u32>,
    /// The failure's message as the report states it (JUnit: `type: message` of the `<failure>`/`<error>`), cut
    /// to [`crate::ParseOptions::with_message_limit`] characters; `null` when the report gives none.
    pub message: Option<String>,
    /// The failure's text (stack trace, diff, output), cut to [`crate::ParseOptions::with_details_limit`]
    /// characters; `null` when the report gives none or it would only repeat `message`.
    pub details: Option<String>,
    /// Set when `message` was cut: its full length in characters (Unicode scalar values). The whole text is in
    /// the report itself.
    pub message_full_chars: Option<u64>,
    /// Set when `details` was cut: its full length in characters (Unicode scalar values). The whole text is in
    /// the report itself.
    pub details_full_chars: Option<u64>,
}

/// A parsed test report: `{format, totals, durationMs, suites, failed, failedOmitted}`.
///
/// Passed and skipped tests are counted, never listed, so the value stays small for any report: its size grows
/// with the number of suites and failures, bounded by [`crate::ParseOptions::with_max_failed`] and the two text
/// limits.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TestReport {
    /// The format it was read as.
    pub format: Format,
    /// Counts over the whole report.
    pub totals: Totals,
    /// The run's time in milliseconds as the report states it (JUnit root `time`, TRX `finish − start`, NUnit
    /// `duration`, mocha `stats.duration`, RSpec `summary.duration`, dart's `done` time); `null` when it states
    /// none (`go test -json`, a JUnit root without `time`).
    pub duration_ms: Option<f64>,
    /// Every suite that holds at least one test, in report order, with its counts.
    pub suites: Vec<SuiteSummary>,
    /// The failed tests, in report order (at most [`crate::ParseOptions::with_max_failed`]).
    pub failed: Vec<FailedTest>,
    /// Failed tests left out of `failed` by [`crate::ParseOptions::with_max_failed`] (counted in `totals.failed`).
    pub failed_omitted: u64,
}
