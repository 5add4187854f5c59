//! Bad input: malformed XML and JSON name their position, DTD entities are never expanded (billion laughs,
//! external entities), deep nesting is an error and never a stack overflow, unknown formats say what they are and
//! list what is read, and no prefix of any fixture panics.

use std::path::Path;
use std::time::{Duration, Instant};

use test_reports::{Error, Format, MAX_XML_DEPTH, ParseOptions, detect, parse, parse_as};

fn read(text: &str) -> Result<test_reports::TestReport, Error> {
    parse(text.as_bytes(), &ParseOptions::default())
}

/// Runs `f` on a thread with a 256 KiB stack: deep input must not need more.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .expect("a thread")
        .join()
        .expect("no stack overflow")
}

#[test]
fn malformed_xml_names_line_and_column() {
    let err = read("<testsuites>\n  <testsuite name=\"a\">\n    <testcase name=\"x\">\n  </testsuite>\n</testsuites>")
        .expect_err("mismatched end tag");
    match &err {
        Error::Xml { position, .. } => assert_eq!((position.line, position.column), (4, 3), "{err}"),
        other => panic!("{other:?}"),
    }
    assert!(
        err.to_string().starts_with("malformed XML at line 4, column 3 (byte "),
        "{err}"
    );

    let err = read("<testsuites>\n<testsuite name=\"a\" name=\"b\"/></testsuites>").expect_err("a duplicate attribute");
    assert!(
        matches!(&err, Error::Xml { position, .. } if position.line == 2),
        "{err}"
    );
    let err = read("<testsuites><testsuite>").expect_err("unclosed");
    assert!(err.to_string().contains("<testsuite> is never closed"), "{err}");
}

#[test]
fn malformed_json_names_line_and_column() {
    let err = read("{\n  \"stats\": {},\n  \"passes\": [\n    {\"title\": \"a\" \"fullTitle\": \"a\"}\n  ]\n}")
        .expect_err("a missing comma");
    match &err {
        Error::Json { position, .. } => assert_eq!((position.line, position.column), (4, 19), "{err}"),
        other => panic!("{other:?}"),
    }
    assert!(
        err.to_string().starts_with("malformed JSON at line 4, column 19"),
        "{err}"
    );

    // JSON Lines: the event's line in the file.
    let go = "{\"Action\":\"start\",\"Package\":\"p\"}\n\n{\"Action\":\"run\",\"Package\":\"p\",\"Test\":\"T\"}\n{\"Action\":\"pass\",\n";
    match parse(go.as_bytes(), &ParseOptions::default()) {
        Err(Error::Json { position, .. }) => assert_eq!(position.line, 4),
        other => panic!("{other:?}"),
    }
    let dart = "{\"type\":\"start\",\"protocolVersion\":\"0.1.1\"}\nnot json\n";
    match parse(dart.as_bytes(), &ParseOptions::default()) {
        Err(Error::Json { position, .. }) => assert_eq!(position.line, 2),
        other => panic!("{other:?}"),
    }
    // Valid JSON of the wrong shape: the format and the position.
    let err = read("{\"stats\": {},\n \"passes\": 3}").expect_err("passes is not a list");
    match &err {
        Error::Invalid {
            format: Format::MochaJson,
            position: Some(position),
            ..
        } => assert_eq!(position.line, 2),
        other => panic!("{other:?}"),
    }
    assert!(
        err.to_string().starts_with("not a mocha-json report: invalid type"),
        "{err}"
    );
}

const BILLION_LAUGHS: &str = r#"<?xml version="1.0"?>
<!DOCTYPE testsuites [
  <!ENTITY lol "lol">
  <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
  <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
  <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
  <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
  <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
  <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
  <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<testsuites><testsuite name="s"><testcase name="t"><failure>&lol9;</failure></testcase></testsuite></testsuites>"#;

#[test]
fn billion_laughs_is_refused_without_expanding_anything() {
    let started = Instant::now();
    let err = read(BILLION_LAUGHS).expect_err("an undeclared-for-us entity");
    assert!(started.elapsed() < Duration::from_secs(1), "nothing was expanded");
    match &err {
        Error::Entity { name, position } => assert_eq!((name.as_str(), position.line), ("lol9", 14)),
        other => panic!("{other:?}"),
    }
    assert!(err.to_string().contains("never entities a DTD declares"), "{err}");
    // In an attribute value too.
    let in_attribute = BILLION_LAUGHS.replace("<testsuite name=\"s\">", "<testsuite name=\"&lol9;\">");
    assert!(matches!(read(&in_attribute), Err(Error::Entity { name, .. }) if name == "lol9"));
}

#[test]
fn external_entities_are_never_read() {
    let xxe = r#"<?xml version="1.0"?>
<!DOCTYPE testsuites [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<testsuites><testsuite name="s"><testcase name="t"><failure message="&xxe;">x</failure></testcase></testsuite></testsuites>"#;
    let err = read(xxe).expect_err("refused");
    assert!(matches!(&err, Error::Entity { name, .. } if name == "xxe"), "{err:?}");
    assert!(
        !err.to_string().contains("root:"),
        "nothing of the file is in the error"
    );
    // A DTD nobody refers to is skipped and the report read.
    let unused = xxe.replace("message=\"&xxe;\"", "message=\"m\"");
    let report = read(&unused).expect("the DTD is not read");
    assert_eq!(report.failed[0].message.as_deref(), Some("m"));
    // Predefined entities and character references are read.
    let predefined = xxe.replace("&xxe;", "&lt;&amp;&#x41;&#66;&gt;");
    assert_eq!(
        read(&predefined).expect("read").failed[0].message.as_deref(),
        Some("<&AB>")
    );
}

#[test]
fn deep_xml_is_an_error_not_a_stack_overflow() {
    let depth = 100_000;
    let deep = format!("{}{}", "<testsuite>".repeat(depth), "</testsuite>".repeat(depth));
    let err = on_small_stack(move || read(&deep).map(|_| ()));
    match err {
        Err(Error::TooDeep { limit, position }) => {
            assert_eq!(limit, MAX_XML_DEPTH);
            assert_eq!(position.offset, (MAX_XML_DEPTH * "<testsuite>".len()) as u64);
        }
        other => panic!("{other:?}"),
    }
    // At the limit itself, nested suites are read (and walked recursively on the small stack).
    let inner = "<testcase name=\"t\"><failure>x</failure></testcase>";
    let at_limit = format!(
        "{}{inner}{}",
        "<testsuite name=\"s\">".repeat(MAX_XML_DEPTH - 2),
        "</testsuite>".repeat(MAX_XML_DEPTH - 2)
    );
    let report = on_small_stack(move || read(&at_limit).map(|r| r.totals.failed));
    assert_eq!(report.ok(), Some(1));
    let nunit = format!(
        "<test-run>{}<test-case name=\"t\" result=\"Failed\"/>{}</test-run>",
        "<test-suite name=\"s\">".repeat(MAX_XML_DEPTH - 2),
        "</test-suite>".repeat(MAX_XML_DEPTH - 2)
    );
    assert_eq!(
        on_small_stack(move || read(&nunit).map(|r| r.totals.failed)).ok(),
        Some(1)
    );
}

#[test]
fn deep_json_is_an_error_not_a_stack_overflow() {
    let depth = 100_000;
    // (text, whether the depth is reached): where a typed member meets the nesting, it is a type error first.
    let cases = [
        (
            format!(
                "{{\"stats\":{{}},\"passes\":{}{}}}",
                "[".repeat(depth),
                "]".repeat(depth)
            ),
            false,
        ),
        (
            format!(
                "{{\"stats\":{{}},\"passes\":[],\"x\":{}{}}}",
                "[".repeat(depth),
                "]".repeat(depth)
            ),
            true,
        ),
        (
            format!(
                "{{\"stats\":{{}},\"failures\":[{{\"title\":\"t\",\"err\":{{\"x\":{}{}}}}}]}}",
                "[".repeat(depth),
                "]".repeat(depth)
            ),
            true,
        ),
        (
            format!(
                "{{\"Action\":\"output\",\"Test\":\"T\",\"x\":{}{}}}",
                "[".repeat(depth),
                "]".repeat(depth)
            ),
            true,
        ),
        (
            format!(
                "{{\"type\":\"print\",\"testID\":1,\"message\":{}{}}}",
                "{\"a\":".repeat(depth) + "1",
                "}".repeat(depth)
            ),
            false,
        ),
        (
            format!(
                "{{\"type\":\"print\",\"testID\":1,\"x\":{}{}}}",
                "{\"a\":".repeat(depth) + "1",
                "}".repeat(depth)
            ),
            true,
        ),
    ];
    for (text, deep) in cases {
        let result = on_small_stack(move || read(&text).map(|_| ()));
        match result {
            Err(Error::Json { message, .. }) if deep => assert!(message.contains("recursion limit"), "{message}"),
            // serde_json skips a member it does not keep without recursing: no limit is needed there.
            Ok(()) if deep => {}
            Err(Error::Invalid { message, .. }) if !deep => assert!(message.contains("invalid type"), "{message}"),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn unknown_formats_say_what_they_are_and_list_what_is_read() {
    for (input, found) in [
        (
            "hello world",
            "text that is neither XML nor JSON, starting \"hello world\"",
        ),
        ("", "an empty or blank input"),
        ("[1, 2]", "a JSON array"),
        (
            "{\"numTotalTests\": 1, \"testResults\": []}",
            "a JSON object with keys \"numTotalTests\", \"testResults\"",
        ),
        (
            "<assemblies><assembly/></assemblies>",
            "XML with root element <assemblies>",
        ),
        (
            "<test-results/>",
            "XML with root element <test-results> (NUnit 2 results",
        ),
    ] {
        let err = detect(input.as_bytes()).expect_err(input);
        let text = err.to_string();
        assert!(matches!(err, Error::UnknownFormat { .. }), "{input}: {err:?}");
        assert!(text.contains(found), "{input}: {text}");
        for format in Format::ALL {
            assert!(text.contains(format.description()), "{text}");
        }
        assert!(parse(input.as_bytes(), &ParseOptions::default()).is_err());
    }
}

#[test]
fn the_wrong_format_or_encoding_is_named() {
    let err = parse_as(Format::Trx, b"<testsuites/>", &ParseOptions::default()).expect_err("not TRX");
    assert_eq!(
        err.to_string(),
        "not a trx report: the root element is <testsuites>, not <TestRun> at line 1, column 1 (byte 0)"
    );
    let err = parse_as(Format::RspecJson, b"[]", &ParseOptions::default()).expect_err("not RSpec");
    assert!(
        matches!(
            err,
            Error::Invalid {
                format: Format::RspecJson,
                ..
            }
        ),
        "{err:?}"
    );
    let err = detect(b"<testsuites>\xff</testsuites>").expect_err("not UTF-8");
    assert!(matches!(err, Error::Encoding { offset: 12, .. }), "{err:?}");
}

#[test]
fn no_prefix_of_any_fixture_panics() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dorny/fixtures");
    let mut files = vec![dir.clone()];
    let mut fixtures = Vec::new();
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(
                std::fs::read_dir(&path)
                    .expect("a directory")
                    .map(|e| e.expect("an entry").path()),
            );
        } else {
            fixtures.push(std::fs::read(&path).expect("a fixture"));
        }
    }
    let options = ParseOptions::default()
        .with_message_limit(20)
        .with_details_limit(50)
        .with_max_failed(2);
    for bytes in fixtures {
        for end in (0..bytes.len()).step_by(61).chain([bytes.len()]) {
            if let Ok(report) = parse(&bytes[..end], &options) {
                test_reports::fuzzing::check(&report, &options);
            }
        }
    }
}
