//! Test-report detection and reading (`test_reports::detect`, `test_reports::parse`): the entry point that takes
//! any bytes.
//!
//! Input: the report's bytes. Options: messages cut at 64 characters, details at 256, at most 20 failures listed,
//! no repository files (so the dependency filter and path normalization run).
//!
//! Checked: no panic; `parse` succeeds only where `detect` does, and reads the format `detect` names; every report
//! read keeps the model's promises (`test_reports::fuzzing::check`: counts add up, texts within their limits, cut
//! texts say how long they were, lines 1-based, the report serializes).
#![no_main]

use libfuzzer_sys::fuzz_target;
use test_reports::{ParseOptions, detect, parse};

fuzz_target!(|input: &[u8]| {
    let options = ParseOptions::default()
        .with_message_limit(64)
        .with_details_limit(256)
        .with_max_failed(20);
    let format = detect(input);
    if let Ok(report) = parse(input, &options) {
        assert_eq!(format.ok(), Some(report.format), "parse reads the format detect names");
        test_reports::fuzzing::check(&report, &options);
    }
});
