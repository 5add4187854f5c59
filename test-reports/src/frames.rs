//! Stack-frame and location syntaxes: where a failure's text names a file and a line.
//!
//! Each format says which syntaxes its texts use; JUnit XML, written by runners of every language, uses them all.
//! A line of text gives at most one frame (the syntaxes are tried in the order of [`Syntax::ALL`]).

use std::sync::LazyLock;

use regex::Regex;

use crate::location::Candidate;

/// A frame syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Syntax {
    /// V8 / Node.js: `at fn (path:line:col)`, `at path:line:col`.
    Node,
    /// .NET: `at Ns.Class.Method() in path:line 12`.
    DotNet,
    /// Python: `File "path", line 12, in fn`, and pytest's `path.py:12: ErrorType`.
    Python,
    /// Ruby: `path.rb:12:in 'method'`.
    Ruby,
    /// Go: `file_test.go:12: message` (testing's log lines) and panic frames `\t/path/file.go:12 +0x1d`.
    Go,
    /// PHP: `path.php:12`, `path.phpt(12)`.
    Php,
    /// Dart: `test/a_test.dart 12:5  main.<fn>`.
    Dart,
    /// JVM: `at org.acme.FooTest.method(FooTest.java:12)`; only the package path and file name are known.
    Java,
}

impl Syntax {
    /// Every syntax, in the order they are tried on a line.
    pub(crate) const ALL: [Syntax; 8] = [
        Syntax::Node,
        Syntax::DotNet,
        Syntax::Python,
        Syntax::Ruby,
        Syntax::Go,
        Syntax::Php,
        Syntax::Dart,
        Syntax::Java,
    ];
}

#[allow(clippy::expect_used)]
fn regex(pattern: &str) -> Regex {
    Regex::new(pattern).expect("a valid built-in pattern")
}

static NODE_PAREN: LazyLock<Regex> = LazyLock::new(|| regex(r"\(([^()]+):(\d+):\d+\)\s*$"));
static NODE_BARE: LazyLock<Regex> = LazyLock::new(|| regex(r"^\s*at (?:async )?([^\s()]+):(\d+):\d+\s*$"));
static DOTNET: LazyLock<Regex> = LazyLock::new(|| regex(r" in (.+):line (\d+)\s*$"));
static PYTHON_TRACEBACK: LazyLock<Regex> = LazyLock::new(|| regex(r#"^\s*File "([^"]+)", line (\d+)"#));
static PYTEST: LazyLock<Regex> = LazyLock::new(|| regex(r"^\s*([^\s:]+\.py):(\d+): \S"));
static RUBY: LazyLock<Regex> = LazyLock::new(|| regex(r"^\s*([^\s:][^:]*\.rb):(\d+):in\b"));
static GO_LOG: LazyLock<Regex> = LazyLock::new(|| regex(r"^\s*([^\s:]+\.go):(\d+): "));
static GO_PANIC: LazyLock<Regex> = LazyLock::new(|| regex(r"^\s*(\S+\.go):(\d+)(?: \+0x[0-9a-f]+)?\s*$"));
static PHP_COLON: LazyLock<Regex> = LazyLock::new(|| regex(r"((?:[A-Za-z]:)?[^\s:()]+?\.(?:php|phpt)):(\d+)"));
static PHP_PAREN: LazyLock<Regex> = LazyLock::new(|| regex(r"((?:[A-Za-z]:)?[^\s:()]+?\.(?:php|phpt))\((\d+)\)"));
static DART: LazyLock<Regex> = LazyLock::new(|| regex(r"^(\S+\.dart)\s+(\d+):\d+\s+\S"));
static JAVA: LazyLock<Regex> = LazyLock::new(|| regex(r"^\s*at (?:\S+/\S*/)?([\w$.]+)\(([\w$]+\.\w+):(\d+)\)\s*$"));

/// JVM packages of the runtime, test frameworks and build tools: never a failure's location.
const JVM_DEPENDENCIES: [&str; 15] = [
    "java.",
    "javax.",
    "jdk.",
    "sun.",
    "com.sun.",
    "kotlin.",
    "kotlinx.",
    "scala.",
    "org.junit.",
    "junit.",
    "org.testng.",
    "org.opentest4j.",
    "org.apache.maven.",
    "org.gradle.",
    "org.assertj.",
];

fn line_number(text: &str) -> Option<u32> {
    text.parse().ok().filter(|&line| line > 0)
}

fn path_and_line(re: &Regex, text: &str) -> Option<Candidate> {
    let captures = re.captures(text)?;
    Some(Candidate::new(
        captures.get(1)?.as_str(),
        line_number(captures.get(2)?.as_str()),
    ))
}

/// The frame one line of text gives in `syntax`, if any.
fn frame(syntax: Syntax, line: &str) -> Option<Candidate> {
    match syntax {
        Syntax::Node => path_and_line(&NODE_PAREN, line).or_else(|| path_and_line(&NODE_BARE, line)),
        Syntax::DotNet => path_and_line(&DOTNET, line),
        Syntax::Python => path_and_line(&PYTHON_TRACEBACK, line).or_else(|| path_and_line(&PYTEST, line)),
        Syntax::Ruby => path_and_line(&RUBY, line),
        Syntax::Go => path_and_line(&GO_LOG, line).or_else(|| path_and_line(&GO_PANIC, line)),
        Syntax::Php => path_and_line(&PHP_COLON, line).or_else(|| path_and_line(&PHP_PAREN, line)),
        Syntax::Dart => path_and_line(&DART, line),
        Syntax::Java => java_frame(line),
    }
}

/// `at org.acme.FooTest.method(FooTest.java:12)` → `org/acme/FooTest.java`, line 12 (a partial path: the package
/// names, lower-case by convention, up to the first capitalized part, then the file name).
fn java_frame(line: &str) -> Option<Candidate> {
    let captures = JAVA.captures(line)?;
    let method = captures.get(1)?.as_str();
    if JVM_DEPENDENCIES.iter().any(|p| method.starts_with(p)) {
        return None;
    }
    let file = captures.get(2)?.as_str();
    let package: Vec<&str> = method
        .split('.')
        .take_while(|part| part.chars().next().is_some_and(|c| c.is_ascii_lowercase()))
        .collect();
    let mut path = package.join("/");
    if !path.is_empty() {
        path.push('/');
    }
    path.push_str(file);
    Some(Candidate {
        path,
        line: line_number(captures.get(3)?.as_str()),
        partial: true,
    })
}

/// Every frame `text` gives in any of `syntaxes`, in text order.
pub(crate) fn frames<'a>(text: &'a str, syntaxes: &'a [Syntax]) -> impl Iterator<Item = Candidate> + 'a {
    text.lines()
        .filter_map(move |line| syntaxes.iter().find_map(|&syntax| frame(syntax, line)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(syntax: Syntax, line: &str) -> Option<(String, Option<u32>)> {
        frame(syntax, line).map(|c| (c.path, c.line))
    }

    fn some(path: &str, line: u32) -> Option<(String, Option<u32>)> {
        Some((path.to_owned(), Some(line)))
    }

    #[test]
    fn each_syntax_reads_its_frames() {
        assert_eq!(
            first(Syntax::Node, "    at Object.<anonymous> (C:\\r\\a.test.js:10:21)"),
            some("C:/r/a.test.js", 10)
        );
        assert_eq!(first(Syntax::Node, "    at /r/lib/a.js:2:9"), some("/r/lib/a.js", 2));
        assert_eq!(first(Syntax::Node, "    at new Promise (<anonymous>)"), None);
        assert_eq!(
            first(Syntax::DotNet, "   at A.B() in C:\\r\\B.cs:line 9"),
            some("C:/r/B.cs", 9)
        );
        assert_eq!(
            first(Syntax::Python, "  File \"/r/tests/t.py\", line 24, in test_x"),
            some("/r/tests/t.py", 24)
        );
        assert_eq!(
            first(Syntax::Python, "        tests/test_lib.py:25: AssertionError"),
            some("tests/test_lib.py", 25)
        );
        assert_eq!(
            first(Syntax::Ruby, "./config/check.rb:11:in `call'"),
            some("config/check.rb", 11)
        );
        assert_eq!(first(Syntax::Ruby, "/r/a.rb:3:in 'Foo#bar'"), some("/r/a.rb", 3));
        assert_eq!(
            first(Syntax::Go, "    calculator_test.go:19: expected 3"),
            some("calculator_test.go", 19)
        );
        assert_eq!(
            first(Syntax::Go, "\t/home/r/calc.go:76 +0x1d"),
            some("/home/r/calc.go", 76)
        );
        assert_eq!(first(Syntax::Php, "/r/src/Fake.php:42"), some("/r/src/Fake.php", 42));
        assert_eq!(
            first(Syntax::Php, "at C:\\r\\src\\WinParen.php(88)"),
            some("C:/r/src/WinParen.php", 88)
        );
        assert_eq!(
            first(Syntax::Dart, "test\\main_test.dart 13:9  main.<fn>"),
            some("test/main_test.dart", 13)
        );
        assert_eq!(first(Syntax::Dart, "package:test_api          expect"), None);
        assert_eq!(
            first(Syntax::Java, "\tat org.acme.FooTest.bar(FooTest.java:12)"),
            some("org/acme/FooTest.java", 12)
        );
        assert_eq!(
            first(Syntax::Java, "\tat app//org.acme.Foo$1.run(Foo.kt:3)"),
            some("org/acme/Foo.kt", 3)
        );
        assert_eq!(first(Syntax::Java, "\tat org.junit.Assert.fail(Assert.java:89)"), None);
    }

    #[test]
    fn a_typescript_diagnostic_or_a_bare_file_line_is_not_a_frame() {
        for line in [
            "tsconfig.json:13:3 - error TS6258: 'typeRoots'",
            "error.cpp:01",
            "    13   \"typeRoots\": []",
        ] {
            assert_eq!(frames(line, &Syntax::ALL).next(), None, "{line}");
        }
    }
}
