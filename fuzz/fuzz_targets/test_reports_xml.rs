//! The XML readers (`test_reports::parse_as` with JUnit XML, TRX, NUnit 3): quick-xml, the element tree (depth
//! bound, entities never expanded), and each format's reading of it.
//!
//! Input: byte 0 picks the format (mod 3: JUnit, TRX, NUnit), the rest is the document. Options: messages cut at 64
//! characters, details at 256, at most 20 failures listed, a few repository files (so the repository matching
//! runs).
//!
//! Checked: no panic; every report read keeps the model's promises (`test_reports::fuzzing::check`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use test_reports::{Format, ParseOptions, parse_as};

fuzz_target!(|input: &[u8]| {
    let Some((&selector, document)) = input.split_first() else {
        return;
    };
    let format = [Format::JunitXml, Format::Trx, Format::NunitXml][usize::from(selector) % 3];
    let options = ParseOptions::default()
        .with_message_limit(64)
        .with_details_limit(256)
        .with_max_failed(20)
        .with_repo_files([
            "src/a.js",
            "tests/test_a.py",
            "A/B.cs",
            "org/acme/FooTest.java",
            "a_test.go",
        ]);
    if let Ok(report) = parse_as(format, document, &options) {
        assert_eq!(report.format, format);
        test_reports::fuzzing::check(&report, &options);
    }
});
