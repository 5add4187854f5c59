//! What `ci_test_results` answers (`data`, typed fully in its `outputSchema`).

use schemars::JsonSchema;
use serde::Serialize;

pub use test_reports::Totals;

/// The result of `ci_test_results`.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestResults {
    /// What was read, e.g. `GitHub artifact 28026001465 of octo-org/octo-repo` or `CircleCI job 102 of gh/ORG/REPO`.
    pub source: String,
    /// Counts over every report read.
    pub totals: Totals,
    /// The reports' times added, in milliseconds; null when none states one.
    pub duration_ms: Option<f64>,
    /// Each report read, in archive order.
    pub reports: Vec<ReportInfo>,
    /// Entries passed over: not test reports, or too large to read.
    pub skipped_entries: Vec<SkippedEntry>,
    /// The failed tests, in report order (at most maxFailed).
    pub failed: Vec<FailedTest>,
    /// Failed tests left out of failed by maxFailed (counted in totals.failed).
    pub failed_omitted: u64,
}

/// One report read.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportInfo {
    /// Its entry in the zip, or the CircleCI artifact's path; null for CircleCI's tests endpoint.
    pub entry: Option<String>,
    /// junit-xml, trx, nunit-xml, mocha-json, rspec-json, go-test-json, dart-json, or circleci-tests.
    pub format: String,
    /// Its counts.
    pub totals: Totals,
    /// Its time in milliseconds when it states one, else null.
    pub duration_ms: Option<f64>,
}

/// An entry that was not read as a report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SkippedEntry {
    /// Its name in the zip.
    pub entry: String,
    /// Why, e.g. `not a test report: XML with root element <coverage>`.
    pub reason: String,
}

/// One failed test: what a program prints as `file:line name: message`.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FailedTest {
    /// The report it is in (ReportInfo.entry).
    pub report: Option<String>,
    /// Its suite (a JUnit testsuite, a TRX class, a spec file, a Go package; CircleCI: its classname); null when
    /// the report names none.
    pub suite: Option<String>,
    /// The group inside the suite (a JUnit classname, a describe path); null when none.
    pub group: Option<String>,
    /// The test's name.
    pub name: String,
    /// Where it failed: the first stack frame outside dependencies, else the test's own file; null when unknown.
    pub file: Option<String>,
    /// The 1-based line in file; null when unknown.
    pub line: Option<u32>,
    /// The failure's message, at most 1,000 characters; null when none.
    pub message: Option<String>,
    /// The failure's text (stack trace, output), at most 2,000 characters; null when none.
    pub details: Option<String>,
    /// Set when message was cut: its full length in characters.
    pub message_full_chars: Option<u64>,
    /// Set when details was cut: its full length in characters.
    pub details_full_chars: Option<u64>,
    /// Set when details was cut: the whole text as an artifact (artifact_read); null past the first 20 per call.
    pub details_artifact_id: Option<String>,
}
