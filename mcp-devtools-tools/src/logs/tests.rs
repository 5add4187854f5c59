//! The scanner on the recorded GitHub log of job 28026001462 (`Run tests` failed) and on generated logs.

use super::*;

const LOG: &[u8] = include_bytes!("../../../fixtures/github/job-log-28026001462.txt");
const JOBS: &str = include_str!("../../../fixtures/github/run-jobs-failure.json");

fn plan() -> JobPlan {
    let jobs: serde_json::Value = serde_json::from_str(JOBS).unwrap();
    JobPlan::github(&jobs["jobs"][2]).unwrap()
}

fn options(tail: Option<usize>, grep: Option<&str>, context: usize) -> Options {
    Options {
        tail,
        grep: grep.map(|g| Grep::new(g).unwrap()),
        context,
        raw: false,
        keep_limit: 1 << 20,
    }
}

/// Scans `log` fed in pieces of `piece` bytes.
fn scan(plan: &JobPlan, options: Options, selected: &[bool], log: &[u8], piece: usize) -> JobLog {
    let mut scanner = plan.scanner(options, selected, true);
    for chunk in log.chunks(piece) {
        scanner.feed(chunk);
    }
    plan.clone().assemble(scanner.finish())
}

fn texts(step: &StepLog) -> Vec<String> {
    step.lines.iter().map(|l| l.text.clone()).collect()
}

#[test]
fn lines_are_tied_to_their_steps() {
    let plan = plan();
    let all = vec![true; plan.steps.len()];
    let log = scan(&plan, options(None, None, 0), &all, LOG, 1 << 20);
    assert_eq!(log.total_lines, 144);
    let firsts: Vec<(String, Option<String>)> = log
        .steps
        .iter()
        .map(|s| (s.name.clone(), s.lines.first().map(|l| l.text.clone())))
        .collect();
    let expect = [
        ("Set up job", Some("Current runner version: '2.300.2'")),
        ("Run actions/checkout@v2", Some("##[group]Run actions/checkout@v2")),
        ("Set up Python", Some("##[group]Run actions/setup-python@v4")),
        (
            "Install tox",
            Some("##[group]Run python -m pip install --upgrade pip tox"),
        ),
        ("Run tests", Some("##[group]Run tox -e py")),
        ("Upload coverage to Codecov", None),
        ("Post Set up Python", Some("Post job cleanup.")),
        ("Post Run actions/checkout@v2", Some("Post job cleanup.")),
        ("Complete job", Some("Cleaning up orphan processes")),
    ];
    for ((name, first), (want_name, want_first)) in firsts.iter().zip(expect) {
        assert_eq!((name.as_str(), first.as_deref()), (want_name, want_first));
    }
    let tests = &log.steps[4];
    assert_eq!(tests.lines.last().map(|l| l.kind), Some(LineKind::Error));
    assert_eq!(tests.total_lines, tests.lines.len() as u64);
    assert_eq!(log.steps.iter().map(|s| s.total_lines).sum::<u64>(), 144);
    assert_eq!(log.steps[5].first_line, None, "a skipped step has no lines");
}

#[test]
fn the_failed_steps_tail_whatever_the_pieces() {
    let plan = plan();
    let selected = plan.select(None, true).unwrap();
    assert_eq!(selected.iter().filter(|s| **s).count(), 1, "only Run tests failed");
    for piece in [1, 7, 100, 1 << 20] {
        let log = scan(&plan, options(Some(3), None, 0), &selected, LOG, piece);
        let tests = &log.steps[4];
        assert_eq!(
            texts(tests),
            [
                "  py: FAIL code 1 (12.34=setup[8.54]+cmd[3.80] seconds)",
                "  evaluation failed :( (12.43 seconds)",
                "##[error]Process completed with exit code 1."
            ],
            "piece {piece}"
        );
        assert_eq!(tests.lines[2].n, tests.first_line.unwrap() + tests.total_lines - 1);
        assert_eq!(tests.lines[2].time.as_deref(), Some("2023-01-10T08:25:24.7500275Z"));
        assert!(log.steps.iter().enumerate().all(|(i, s)| i == 4 || s.lines.is_empty()));
    }
}

#[test]
fn grep_with_context_sees_plain_text_split_by_colour_codes() {
    let plan = plan();
    let all = vec![true; plan.steps.len()];
    for piece in [3, 64, 1 << 20] {
        let log = scan(
            &plan,
            options(None, Some("FAILED|AssertionError|##\\[error\\]"), 1),
            &all,
            LOG,
            piece,
        );
        let tests = &log.steps[4];
        let got = texts(tests);
        assert!(got.contains(&"FAILED tests/test_retry.py::test_retry_after_seconds - AssertionError: assert datetime.timedelta(seconds=12) == datetime.timedelta(seconds=120)".to_owned()), "{got:#?}");
        let numbers: Vec<u64> = tests.lines.iter().map(|l| l.n).collect();
        let mut sorted = numbers.clone();
        sorted.dedup();
        assert_eq!(numbers, sorted, "in order, once each");
        // "1 failed" is split by colour codes in the raw line; its plain text matches.
        let split = log_with(&plan, "1 failed, 41 passed", piece);
        assert_eq!(split.len(), 1, "piece {piece}: {split:?}");
        // Anchors apply to the text after the timestamp.
        let anchored = log_with(&plan, "^Traceback", piece);
        assert_eq!(anchored, ["Traceback (most recent call last):"]);
        // Context: the line before and after each match, in the same step.
        let context = scan(&plan, options(None, Some("^AssertionError"), 1), &all, LOG, piece);
        assert_eq!(
            texts(&context.steps[4]),
            [
                "    return timedelta(seconds=int(value[:2]))",
                "AssertionError: assert datetime.timedelta(seconds=12) == datetime.timedelta(seconds=120)",
                ""
            ]
        );
    }
    let warnings = scan(&plan, options(None, Some("deprecated"), 0), &all, LOG, 1 << 20);
    assert_eq!(warnings.steps[2].lines[0].kind, LineKind::Warning);
}

fn log_with(plan: &JobPlan, pattern: &str, piece: usize) -> Vec<String> {
    let all = vec![true; plan.steps.len()];
    let log = scan(plan, options(None, Some(pattern), 0), &all, LOG, piece);
    log.steps.iter().flat_map(texts).collect()
}

#[test]
fn raw_keeps_colour_codes_and_overflow_stops_keeping() {
    let plan = plan();
    let all = vec![true; plan.steps.len()];
    let mut raw = options(Some(1), Some("FAILED"), 0);
    raw.raw = true;
    let log = scan(&plan, raw, &all, LOG, 1 << 20);
    assert!(log.steps[4].lines[0].text.starts_with("\u{1b}[31mFAILED\u{1b}[0m"));
    let mut small = options(None, None, 0);
    small.keep_limit = 2000;
    let mut scanner = plan.scanner(small, &all, true);
    scanner.feed(LOG);
    let scanned = scanner.finish();
    assert!(scanned.overflow);
    assert!(scanned.steps.iter().all(|s| s.lines.is_empty()));
    assert_eq!(scanned.total_lines, 144);
}

#[test]
fn steps_are_chosen_by_number_or_name() {
    let plan = plan();
    let by_name = plan.select(Some(&StepChoice::Name("run TESTS".into())), true).unwrap();
    assert_eq!(by_name, plan.select(Some(&StepChoice::Number(5)), false).unwrap());
    let err = plan.select(Some(&StepChoice::Name("Deploy".into())), true).unwrap_err();
    assert!(err.contains("\"Run tests\""), "{err}");
}

/// The block search finds exactly the lines a naive filter finds (each line's plain text after its timestamp,
/// matched on its own), with their numbers, fed in odd pieces: on logs mixing plain lines, colour codes inside and
/// beside would-be matches, carriage-return overwrites, CRLF, invalid UTF-8 and lines longer than the pieces, with
/// patterns searched by their literals and patterns searched over the plain block, and on a log with other control
/// characters (which the literal search leaves to the plain block).
#[test]
fn grep_finds_what_a_line_by_line_filter_finds() {
    let mut long = b"long line ".repeat(900);
    long.extend_from_slice(b"ends in an e\x1b[1mrr\x1b[0mor");
    let bodies: Vec<&[u8]> = vec![
        b"plain error line",
        b"\x1b[31mFAI\x1b[0mLED split by a code",
        b"e\x1b[1mr\x1b[0mr\x1b[2mor two codes inside",
        b"FAILE\x1b[0mD split before the last byte",
        b"\x1b[31merror\x1b[0m beside codes",
        b"an error\x1b[0m",
        b"progress 10%\rprogress 100% error",
        b"nothing here",
        b"\x1b[32mok\x1b[0m no match",
        b"error\rhidden by the carriage return",
        b"crlf error\r",
        b"crlf error\x1b[0m\r",
        b"x\rerr\x1b[0mor after an overwrite\r",
        b"er\x1b[ror an unfinished code eats a byte",
        b"\x1b]8;;https://error.example/\x1b\\a link whose address says error",
        b"\xff\xfe invalid UTF-8 error \xc3",
        b"ERROR in capitals, Failed in part",
        b"",
        b"2024-05-01 not a timestamp, error",
        b"error",
        &long,
    ];
    let others: Vec<&[u8]> = vec![b"err\x07or split by a bell", b"FAIL\x00ED and a NUL", b"del\x7f error"];
    let patterns = [
        "error|FAILED",
        "error$",
        "^FAILED",
        "^error",
        r"\berror\b",
        "(?i)error",
        r"\d+%",
        "[a-z]+ed",
        "rror",
        "e|F",
    ];
    for (name, set) in [("codes", bodies.clone()), ("other controls", [bodies, others].concat())] {
        let log = generated_log(&set, 3000);
        for pattern in patterns {
            let expected = naive_grep(&log, pattern);
            for piece in [7, 4096, 1 << 20] {
                let got = grep_numbers(&log, pattern, piece);
                let first_difference = got.iter().zip(&expected).position(|(a, b)| a != b);
                assert!(
                    got == expected,
                    "{name}, {pattern:?}, piece {piece}: {} lines, {} expected, first difference at {first_difference:?}",
                    got.len(),
                    expected.len()
                );
            }
        }
    }
}

/// A GitHub log of `lines` lines cycling through `bodies`, stamped within one minute; the last line has no `\n`.
fn generated_log(bodies: &[&[u8]], lines: usize) -> Vec<u8> {
    let mut log = Vec::new();
    for i in 0..lines {
        if i % 11 != 5 {
            log.extend_from_slice(format!("2021-07-01T12:{:02}:{:02}.0000000Z ", i / 60 % 60, i % 60).as_bytes());
        }
        log.extend_from_slice(bodies[(i * 7) % bodies.len()]);
        log.push(b'\n');
    }
    log.pop();
    log
}

/// The numbers of the lines whose text, as the tool returns it, matches `pattern`.
fn naive_grep(log: &[u8], pattern: &str) -> Vec<u64> {
    let regex = regex::bytes::Regex::new(pattern).unwrap();
    let mut expected = Vec::new();
    for (index, raw) in log.split(|&b| b == b'\n').enumerate() {
        let (_, text) = line::split_time(raw.strip_suffix(b"\r").unwrap_or(raw));
        let mut plain = Vec::new();
        line::plain_into(text, &mut plain);
        if regex.is_match(&plain) {
            expected.push(index as u64 + 1);
        }
    }
    expected
}

/// The numbers of the lines the scanner keeps for `grep: pattern`, the log fed in pieces of `piece` bytes.
fn grep_numbers(log: &[u8], pattern: &str, piece: usize) -> Vec<u64> {
    let plan = plan();
    let all = vec![true; plan.steps.len()];
    let mut options = options(None, Some(pattern), 0);
    options.keep_limit = usize::MAX;
    let scanned = scan(&plan, options, &all, log, piece);
    scanned.steps.iter().flat_map(|s| s.lines.iter().map(|l| l.n)).collect()
}
