//! What the caller decides: text limits, how many failures to list, the repository's files.

/// Options for [`crate::parse`] and [`crate::parse_as`]; [`ParseOptions::default`] and the `with_` methods.
///
/// ```
/// let options = test_reports::ParseOptions::default()
///     .with_details_limit(2_000)
///     .with_max_failed(100)
///     .with_repo_files(["src/lib.rs", "tests/it/main.rs"]);
/// assert_eq!(options.details_limit(), 2_000);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseOptions {
    message_limit: usize,
    details_limit: usize,
    max_failed: Option<usize>,
    repo_files: Option<Vec<String>>,
}

/// Default of [`ParseOptions::message_limit`]: 1,000 characters.
pub const DEFAULT_MESSAGE_LIMIT: usize = 1_000;
/// Default of [`ParseOptions::details_limit`]: 4,000 characters.
pub const DEFAULT_DETAILS_LIMIT: usize = 4_000;

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            message_limit: DEFAULT_MESSAGE_LIMIT,
            details_limit: DEFAULT_DETAILS_LIMIT,
            max_failed: None,
            repo_files: None,
        }
    }
}

impl ParseOptions {
    /// The default options: messages cut at 1,000 characters, details at 4,000, every failure listed, no list of
    /// the repository's files.
    pub fn new() -> Self {
        Self::default()
    }

    /// Cut each failure's `message` to at most `chars` characters (Unicode scalar values); a cut message keeps
    /// its first `chars` characters and [`crate::FailedTest::message_full_chars`] says how long it was.
    pub fn with_message_limit(mut self, chars: usize) -> Self {
        self.message_limit = chars;
        self
    }

    /// Cut each failure's `details` to at most `chars` characters (Unicode scalar values); cut details keep their
    /// first `chars` characters and [`crate::FailedTest::details_full_chars`] says how long they were. The caller
    /// keeps the report itself (for instance as an artifact) when the whole text matters.
    pub fn with_details_limit(mut self, chars: usize) -> Self {
        self.details_limit = chars;
        self
    }

    /// List at most `count` failed tests (the first in report order); the others are counted in
    /// [`crate::TestReport::failed_omitted`].
    pub fn with_max_failed(mut self, count: usize) -> Self {
        self.max_failed = Some(count);
        self
    }

    /// The repository's files, relative to its root (as `git ls-files` prints them; `\` is read as `/`).
    ///
    /// With them, a failure's `file` is the first stack frame whose path is one of them or ends with `/` + one of
    /// them (the longest), and is given relative to the repository; frames and test locations that match none
    /// are passed over. A Java frame (`at org.acme.FooTest.test(FooTest.java:12)`) matches a file that ends with
    /// its package path (`…/org/acme/FooTest.java`). Without them, `file` is the first frame outside dependencies
    /// and runtimes, as the report writes it.
    pub fn with_repo_files<I, S>(mut self, files: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.repo_files = Some(files.into_iter().map(Into::into).collect());
        self
    }

    /// The message limit in characters.
    pub fn message_limit(&self) -> usize {
        self.message_limit
    }

    /// The details limit in characters.
    pub fn details_limit(&self) -> usize {
        self.details_limit
    }

    /// The most failed tests listed, `None` for all.
    pub fn max_failed(&self) -> Option<usize> {
        self.max_failed
    }

    /// The repository's files, when given.
    pub fn repo_files(&self) -> Option<&[String]> {
        self.repo_files.as_deref()
    }
}
