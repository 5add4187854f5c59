//! What every format reader feeds: suites, passes, skips and failures in report order. The builder keeps the
//! counts, finds each failure's location, cleans and cuts its texts and bounds the list, so the readers only read.

use std::collections::HashMap;

use crate::frames::{Syntax, frames};
use crate::location::{Candidate, Resolver};
use crate::text::{cut, non_blank, unix_newlines};
use crate::{FailedTest, Format, ParseOptions, SuiteSummary, TestReport, Totals};

/// A suite, as the builder numbers them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SuiteId(usize);

/// One failed test as a reader sees it.
#[derive(Debug, Default)]
pub(crate) struct Failure<'a> {
    /// See [`FailedTest::group`]; a blank group is none.
    pub(crate) group: Option<&'a str>,
    /// See [`FailedTest::name`]; trimmed here.
    pub(crate) name: &'a str,
    /// The failure's message.
    pub(crate) message: Option<&'a str>,
    /// The failure's text.
    pub(crate) details: Option<&'a str>,
    /// The frame syntaxes to look for in `details`, then in `message`.
    pub(crate) syntaxes: &'a [Syntax],
    /// The test's own location, when the report states it: used when no frame gives one.
    pub(crate) fallback: Option<Candidate>,
}

pub(crate) struct ReportBuilder<'o> {
    format: Format,
    options: &'o ParseOptions,
    resolver: Resolver,
    totals: Totals,
    suites: Vec<SuiteSummary>,
    suite_ids: HashMap<Option<String>, SuiteId>,
    failed: Vec<FailedTest>,
    failed_omitted: u64,
}

impl<'o> ReportBuilder<'o> {
    pub(crate) fn new(format: Format, options: &'o ParseOptions) -> Self {
        ReportBuilder {
            format,
            options,
            resolver: Resolver::new(options.repo_files()),
            totals: Totals::default(),
            suites: Vec::new(),
            suite_ids: HashMap::new(),
            failed: Vec::new(),
            failed_omitted: 0,
        }
    }

    /// The suite named `name` (trimmed; blank is none), created on first use. Suites with the same name are one.
    pub(crate) fn suite(&mut self, name: Option<&str>) -> SuiteId {
        let name = non_blank(name).map(|n| n.trim().to_owned());
        if let Some(&id) = self.suite_ids.get(&name) {
            return id;
        }
        let id = SuiteId(self.suites.len());
        self.suites.push(SuiteSummary {
            name: name.clone(),
            totals: Totals::default(),
            duration_ms: None,
        });
        self.suite_ids.insert(name, id);
        id
    }

    /// The suite named by a file path (mocha, RSpec, dart): normalized, relative to the repository when it
    /// matches one of its files.
    pub(crate) fn file_suite(&mut self, path: Option<&str>) -> SuiteId {
        let name = non_blank(path).map(|p| self.resolver.suite_path(p));
        self.suite(name.as_deref())
    }

    /// Adds `ms` to the suite's time.
    pub(crate) fn add_suite_time(&mut self, suite: SuiteId, ms: Option<f64>) {
        if let (Some(ms), Some(summary)) = (ms, self.suites.get_mut(suite.0)) {
            summary.duration_ms = Some(summary.duration_ms.unwrap_or(0.0) + ms);
        }
    }

    fn count(&mut self, suite: SuiteId, bump: fn(&mut Totals)) {
        bump(&mut self.totals);
        self.totals.total += 1;
        if let Some(summary) = self.suites.get_mut(suite.0) {
            bump(&mut summary.totals);
            summary.totals.total += 1;
        }
    }

    pub(crate) fn passed(&mut self, suite: SuiteId) {
        self.count(suite, |t| t.passed += 1);
    }

    pub(crate) fn skipped(&mut self, suite: SuiteId) {
        self.count(suite, |t| t.skipped += 1);
    }

    pub(crate) fn failed(&mut self, suite: SuiteId, failure: Failure<'_>) {
        self.count(suite, |t| t.failed += 1);
        if self.options.max_failed().is_some_and(|max| self.failed.len() >= max) {
            self.failed_omitted += 1;
            return;
        }
        let suite_name = self.suites.get(suite.0).and_then(|s| s.name.clone());
        let name = failure.name.trim();
        let group = non_blank(failure.group)
            .map(str::trim)
            .filter(|g| Some(*g) != suite_name.as_deref() && *g != name)
            .map(str::to_owned);
        let message = non_blank(failure.message).map(|m| unix_newlines(m).into_owned());
        let details = non_blank(failure.details)
            .map(|d| unix_newlines(d).into_owned())
            .filter(|d| Some(d) != message.as_ref());
        let location = [details.as_deref(), message.as_deref()]
            .into_iter()
            .flatten()
            .flat_map(|text| frames(text, failure.syntaxes))
            .chain(failure.fallback)
            .find_map(|candidate| self.resolver.resolve(&candidate).map(|file| (file, candidate.line)));
        let (file, line) = location.map_or((None, None), |(file, line)| (Some(file), line));
        let (message, message_full_chars) = split(message.map(|m| cut(m, self.options.message_limit())));
        let (details, details_full_chars) = split(details.map(|d| cut(d, self.options.details_limit())));
        self.failed.push(FailedTest {
            suite: suite_name,
            group,
            name: name.to_owned(),
            file,
            line,
            message,
            details,
            message_full_chars,
            details_full_chars,
        });
    }

    /// The report, with the run's time in milliseconds when the report states it.
    pub(crate) fn finish(self, duration_ms: Option<f64>) -> TestReport {
        TestReport {
            format: self.format,
            totals: self.totals,
            duration_ms: duration_ms.filter(|ms| ms.is_finite()),
            suites: self.suites.into_iter().filter(|s| s.totals.total > 0).collect(),
            failed: self.failed,
            failed_omitted: self.failed_omitted,
        }
    }
}

fn split(cut: Option<(String, Option<u64>)>) -> (Option<String>, Option<u64>) {
    match cut {
        Some((text, full)) => (Some(text), full),
        None => (None, None),
    }
}
