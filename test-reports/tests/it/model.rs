//! The model's shape (camelCase JSON, every member present, the JSON Schema), the text limits, the failure list
//! bound, and locations without a list of the repository's files.

use std::path::Path;

use serde_json::json;
use test_reports::{ParseOptions, TestReport, parse};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/dorny/fixtures")
            .join(name),
    )
    .expect("a fixture")
}

const SMALL: &str = r#"<testsuites time="0.5">
  <testsuite name="math" time="0.5">
    <testcase classname="math.Add" name="adds"/>
    <testcase classname="math.Skip" name="skips"><skipped/></testcase>
    <testcase classname="math.Div" name="divides">
      <failure type="AssertionError" message="2 != 3">AssertionError: 2 != 3
    at div (/ci/repo/src/div.js:9:3)</failure>
    </testcase>
  </testsuite>
</testsuites>"#;

#[test]
fn a_report_serializes_in_camel_case_with_every_member() {
    let report = parse(SMALL.as_bytes(), &ParseOptions::default()).expect("read");
    assert_eq!(
        serde_json::to_value(&report).expect("serializes"),
        json!({
            "format": "junit-xml",
            "totals": {"passed": 1, "failed": 1, "skipped": 1, "total": 3},
            "durationMs": 500.0,
            "suites": [{"name": "math", "passed": 1, "failed": 1, "skipped": 1, "total": 3, "durationMs": 500.0}],
            "failed": [{
                "suite": "math",
                "group": "math.Div",
                "name": "divides",
                "file": "/ci/repo/src/div.js",
                "line": 9,
                "message": "AssertionError: 2 != 3",
                "details": "AssertionError: 2 != 3\n    at div (/ci/repo/src/div.js:9:3)",
                "messageFullChars": null,
                "detailsFullChars": null
            }],
            "failedOmitted": 0
        })
    );
    let relative = parse(
        SMALL.as_bytes(),
        &ParseOptions::default().with_repo_files(["src/div.js"]),
    )
    .expect("read");
    assert_eq!(relative.failed[0].file.as_deref(), Some("src/div.js"));
}

#[test]
fn the_json_schema_describes_the_camel_case_members() {
    let schema = serde_json::to_value(schemars::schema_for!(TestReport)).expect("a schema");
    let properties = |value: &serde_json::Value| -> Vec<String> {
        let mut keys: Vec<String> = value["properties"]
            .as_object()
            .expect("properties")
            .keys()
            .cloned()
            .collect();
        keys.sort();
        keys
    };
    assert_eq!(
        properties(&schema),
        ["durationMs", "failed", "failedOmitted", "format", "suites", "totals"]
    );
    let failed = &schema["$defs"]["FailedTest"];
    assert_eq!(
        properties(failed),
        [
            "details",
            "detailsFullChars",
            "file",
            "group",
            "line",
            "message",
            "messageFullChars",
            "name",
            "suite"
        ]
    );
    assert!(
        failed["properties"]["line"]["description"]
            .as_str()
            .is_some_and(|d| d.contains("1-based"))
    );
    let formats = schema["$defs"]["Format"].to_string();
    for name in [
        "junit-xml",
        "trx",
        "nunit-xml",
        "mocha-json",
        "rspec-json",
        "go-test-json",
        "dart-json",
    ] {
        assert!(formats.contains(name), "{formats}");
    }
}

#[test]
fn long_texts_are_cut_at_the_limit_with_their_full_length() {
    let details = "é".repeat(50);
    let text = format!(
        r#"<testsuite name="s"><testcase name="t"><failure message="{}">{details}</failure></testcase></testsuite>"#,
        "m".repeat(30)
    );
    let options = ParseOptions::default().with_message_limit(10).with_details_limit(20);
    let report = parse(text.as_bytes(), &options).expect("read");
    let test = &report.failed[0];
    assert_eq!(test.message.as_deref(), Some("mmmmmmmmmm"));
    assert_eq!(test.message_full_chars, Some(30));
    assert_eq!(test.details.as_deref(), Some("é".repeat(20).as_str()));
    assert_eq!(test.details_full_chars, Some(50));
    test_reports::fuzzing::check(&report, &options);
    let uncut = parse(text.as_bytes(), &ParseOptions::default()).expect("read");
    assert_eq!(
        (uncut.failed[0].message_full_chars, uncut.failed[0].details_full_chars),
        (None, None)
    );
}

#[test]
fn the_failure_list_is_bounded() {
    let options = ParseOptions::default().with_max_failed(1);
    let report = parse(&fixture("jest-junit.xml"), &options).expect("read");
    assert_eq!(
        (report.totals.failed, report.failed.len(), report.failed_omitted),
        (4, 1, 3)
    );
    test_reports::fuzzing::check(&report, &options);
}

#[test]
fn without_repository_files_locations_are_as_written_outside_dependencies() {
    let located = |name: &str| -> Vec<(String, Option<String>, Option<u32>)> {
        let report = parse(&fixture(name), &ParseOptions::default()).expect("read");
        test_reports::fuzzing::check(&report, &ParseOptions::default());
        report
            .failed
            .iter()
            .map(|t| (t.name.clone(), t.file.clone(), t.line))
            .collect()
    };
    let base = "C:/Users/Michal/Workspace/dorny/test-check/reports/jest";
    assert_eq!(
        located("jest-junit.xml"),
        [
            (
                "Failing test".into(),
                Some(format!("{base}/__tests__/main.test.js")),
                Some(10)
            ),
            (
                "Exception in target unit".into(),
                Some(format!("{base}/lib/main.js")),
                Some(2)
            ),
            (
                "Exception in test".into(),
                Some(format!("{base}/__tests__/main.test.js")),
                Some(21)
            ),
            (
                "Timeout test".into(),
                Some(format!("{base}/__tests__/second.test.js")),
                Some(1)
            ),
        ]
    );
    // RSpec: the first frame outside the gems.
    assert_eq!(
        located("rspec-json.json")[0]
            .1
            .as_deref()
            .zip(located("rspec-json.json")[0].2),
        Some(("config/check_env_vars.rb", 11))
    );
    // PHPUnit without file/line resolution: the first frame of the failure text.
    let phpunit = located("phpunit/phpunit.xml");
    assert_eq!(
        phpunit[0].1.as_deref(),
        Some(
            "/home/matteo/OSS/phpunit/tests/end-to-end/metadata/targeting-traits-with-coversclass-attribute-is-deprecated.phpt"
        )
    );
    assert_eq!(phpunit[0].2, Some(28));
    // Nette Tester: the `file.phpt(line)` in the message.
    let tester = located("nette-tester/tester-v1.7-report.xml");
    assert_eq!(
        (tester[0].1.as_deref(), tester[0].2),
        (Some("tests/Runner/Runner.multiple-fails.phpt"), Some(78))
    );
}
