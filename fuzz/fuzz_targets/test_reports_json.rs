//! The JSON readers (`test_reports::parse_as` with mocha, RSpec, `go test -json`, dart): serde_json documents and
//! JSON Lines events, and each format's reading of them.
//!
//! Input: byte 0 picks the format (mod 4: mocha, RSpec, go test, dart), the rest is the report. Options: messages
//! cut at 64 characters, details at 256, at most 20 failures listed, no repository files.
//!
//! Checked: no panic; every report read keeps the model's promises (`test_reports::fuzzing::check`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use test_reports::{Format, ParseOptions, parse_as};

fuzz_target!(|input: &[u8]| {
    let Some((&selector, document)) = input.split_first() else {
        return;
    };
    let formats = [
        Format::MochaJson,
        Format::RspecJson,
        Format::GoTestJson,
        Format::DartJson,
    ];
    let format = formats[usize::from(selector) % 4];
    let options = ParseOptions::default()
        .with_message_limit(64)
        .with_details_limit(256)
        .with_max_failed(20);
    if let Ok(report) = parse_as(format, document, &options) {
        assert_eq!(report.format, format);
        test_reports::fuzzing::check(&report, &options);
    }
});
