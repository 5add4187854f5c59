//! Checks the fuzz targets (`fuzz/fuzz_targets/test_reports_*.rs`) and the tests run on every report read: not
//! part of the API (hidden from the docs, may change in any release).

use crate::{ParseOptions, TestReport, Totals};

/// Panics unless `report` keeps the model's promises for `options`: every count adds up (totals, suites, listed and
/// omitted failures), texts are within their limits and a cut text says how long it was, lines are 1-based, and
/// the report serializes to JSON.
pub fn check(report: &TestReport, options: &ParseOptions) {
    let Totals {
        passed,
        failed,
        skipped,
        total,
    } = report.totals;
    assert_eq!(total, passed + failed + skipped, "totals add up");
    let mut sum = Totals::default();
    for suite in &report.suites {
        let t = suite.totals;
        assert_eq!(t.total, t.passed + t.failed + t.skipped, "a suite's totals add up");
        assert!(t.total > 0, "only suites with tests are listed");
        sum.passed += t.passed;
        sum.failed += t.failed;
        sum.skipped += t.skipped;
        sum.total += t.total;
    }
    assert_eq!(sum, report.totals, "the suites add up to the totals");
    assert_eq!(
        report.failed.len() as u64 + report.failed_omitted,
        failed,
        "every failure is listed or omitted"
    );
    if let Some(max) = options.max_failed() {
        assert!(report.failed.len() <= max, "at most max_failed listed");
    }
    for test in &report.failed {
        for (text, full, limit) in [
            (&test.message, test.message_full_chars, options.message_limit()),
            (&test.details, test.details_full_chars, options.details_limit()),
        ] {
            let chars = text.as_deref().map_or(0, |t| t.chars().count());
            assert!(chars <= limit, "a text within its limit");
            if let Some(full) = full {
                assert!(
                    full > limit as u64 && chars == limit,
                    "a cut text is cut at the limit and was longer"
                );
            }
            if let Some(text) = text {
                assert!(!text.contains('\r'), "texts have \\n line ends");
                assert!(
                    full.is_some() || !text.trim().is_empty(),
                    "texts are non-blank (unless cut)"
                );
            }
        }
        assert!(test.line.is_none_or(|line| line > 0), "lines are 1-based");
        assert!(
            test.file.as_deref().is_none_or(|f| !f.is_empty() && !f.contains('\\')),
            "paths use /"
        );
        let cut = test.message_full_chars.is_some() || test.details_full_chars.is_some();
        assert!(
            cut || test.details.is_none() || test.details != test.message,
            "details never repeat the message"
        );
    }
    assert!(report.duration_ms.is_none_or(f64::is_finite), "a finite run time");
    if let Err(err) = serde_json::to_string(report) {
        panic!("the report serializes: {err}");
    }
}
