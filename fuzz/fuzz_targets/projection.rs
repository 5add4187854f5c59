//! `jq` projection: expression × JSON document (`mcp_envelope::project`).
//!
//! Input: `<expression bytes> 0x00 <JSON document>`. Without a `0x00` the whole input is the expression and the
//! document is a fixed GitHub-like body (so mutations of the expression are not wasted on invalid JSON); an
//! invalid document also falls back to it. The expression must be UTF-8 (the tool argument is a JSON string).
//!
//! Checked: no panic; a blank expression returns the document unchanged; every error has a non-empty message.
//! Expressions that define functions (`def`) are refused by the crate (unbounded user recursion), not skipped.
//! Not checked (known limitation, see FUZZING.md): run time and memory. jaq has no step budget, so a program
//! such as `[range(1e12)]` runs until libFuzzer's `-timeout` / `-rss_limit_mb` stops it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;

const SAMPLE: &str = r#"{"total_count":2,"workflow_runs":[{"id":30433642,"name":"CI","conclusion":"failure","run_number":18446744073709551615,"delta":-9223372036854775808,"ratio":1.5,"labels":["a","b"],"head_commit":null,"draft":true},{"id":2,"name":"Lint","conclusion":"success","labels":[]}]}"#;

fuzz_target!(|input: &[u8]| {
    let (expr, document) = match input.iter().position(|&b| b == 0) {
        Some(at) => (&input[..at], Some(&input[at + 1..])),
        None => (input, None),
    };
    let Ok(expr) = std::str::from_utf8(expr) else {
        return;
    };
    let data = document
        .and_then(|d| serde_json::from_slice::<Value>(d).ok())
        .unwrap_or_else(|| serde_json::from_str(SAMPLE).expect("the sample parses"));
    let blank = expr.trim().is_empty();
    match mcp_envelope::project(data.clone(), Some(expr)) {
        Ok(output) => {
            if blank {
                assert_eq!(output, data, "a blank expression must not project");
            }
        }
        Err(err) => assert!(!err.to_string().is_empty()),
    }
});
