//! `ci_test_results`: the test reports of an artifact (every report in a zip, or those whose entry name matches
//! `pathPattern`; a CircleCI artifact that is not a zip is one report) read with `test-reports` (formats found
//! from the content), or a CircleCI job's tests endpoint ([`super::circleci_tests`]), merged into one
//! [`TestResults`]. Details longer than [`DETAILS_CHARS`] are cut; the whole text is put into an artifact
//! (`detailsArtifactId`, read back with `artifact_read`) for the first [`MAX_DETAILS_ARTIFACTS`] of them.

use std::io::{BufReader, Read};

use bytes::Bytes;
use globset::{GlobBuilder, GlobMatcher};
use rmcp::model::CallToolResult;
use schemars::JsonSchema;
use serde::Deserialize;
use test_reports::{ParseOptions, TestReport};

use super::entries::{blocking, entry_cap};
use super::model::{FailedTest, ReportInfo, SkippedEntry, TestResults, Totals};
use super::source::{self, ArtifactArgs, Source};
use crate::Principal;
use crate::app::App;
use crate::archive::{Archive, ArchiveError};
use crate::args::ArgumentError;

/// Tool name.
pub const NAME: &str = "ci_test_results";
/// Longest `message` in the result, characters.
pub const MESSAGE_CHARS: usize = 1_000;
/// Longest `details` in the result, characters.
pub const DETAILS_CHARS: usize = 2_000;
/// Most `detailsArtifactId`s one call sets (each is an artifact in the caller's quota).
pub const MAX_DETAILS_ARTIFACTS: usize = 20;
/// Default `maxFailed`.
pub const DEFAULT_MAX_FAILED: u64 = 100;
/// Largest `maxFailed`.
pub const MAX_MAX_FAILED: u64 = 1_000;
/// How much of a failure's details is read from a report (and kept in its artifact), characters.
const FULL_DETAILS_CHARS: usize = 1_000_000;

/// `ci_test_results`' own arguments (beside the artifact's).
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReportArgs {
    /// Glob over entry names, e.g. `**/junit*.xml`; default: all.
    #[schemars(length(max = crate::args::MAX_FILTER_CHARS))]
    pub path_pattern: Option<String>,
    /// Default 100.
    #[schemars(range(min = 1, max = 1000))]
    #[serde(default, deserialize_with = "crate::args::integer::optional")]
    pub max_failed: Option<u64>,
}

impl mcp_results::splice::ArgGroup for ReportArgs {
    const NAMES: &'static [&'static str] = &["pathPattern", "maxFailed"];
}

/// One report read: its info and its failed tests (at most `maxFailed`).
pub(super) struct ReportRead {
    pub info: ReportInfo,
    pub failed: Vec<FailedTest>,
    pub failed_omitted: u64,
}

/// A `detailsArtifactId` saved by a call: the id and the size of the whole details, bytes (for its
/// `resource_link` block).
pub(super) type SavedDetails = (String, u64);

/// The media type of a failed test's whole details, saved as an artifact.
pub(super) const DETAILS_MIME_TYPE: &str = "text/plain; charset=utf-8";

/// Runs `ci_test_results` as `owner` (the owner of the details' artifacts): the results and the artifacts saved.
pub(super) async fn call(
    app: &App,
    principal: &Principal,
    owner: &str,
    args: mcp_results::splice::Spliced<ArtifactArgs, ReportArgs>,
) -> Result<(TestResults, Vec<SavedDetails>), CallToolResult> {
    let source = args.args.source(NAME, true)?;
    let ReportArgs {
        path_pattern,
        max_failed,
    } = args.group;
    crate::args::check_range(NAME, "maxFailed", max_failed, 1, MAX_MAX_FAILED)?;
    let max_failed = usize::try_from(max_failed.unwrap_or(DEFAULT_MAX_FAILED)).unwrap_or(usize::MAX);
    let pattern = match path_pattern.as_deref().filter(|p| !p.trim().is_empty()) {
        Some(pattern) => Some(
            GlobBuilder::new(pattern)
                .literal_separator(true)
                .build()
                .map_err(|err| ArgumentError::new(NAME, format!("pathPattern: {err}")))?
                .compile_matcher(),
        ),
        None => None,
    };
    let what = source.describe();
    let (reports, skipped) = match &source {
        Source::Circleci {
            slug,
            job_number,
            path: None,
        } => {
            let report = super::circleci_tests::read(app, principal, NAME, &what, slug, *job_number).await?;
            (vec![report], Vec::new())
        }
        _ => {
            let spooled = source::download(app, principal, NAME, &source).await?;
            let limits = app.config.archive.clone();
            let (cap, setting) = entry_cap(app, &source);
            let single = match &source {
                Source::Circleci { path, .. } => path.clone(),
                Source::Github(_) => None,
            };
            blocking(NAME, &what, move || {
                read_reports(
                    spooled.file,
                    &limits,
                    (cap, setting),
                    pattern.as_ref(),
                    single,
                    max_failed,
                )
            })
            .await?
        }
    };
    let mut results = merge(what, reports, skipped, max_failed);
    let saved = keep_details(app, owner, &mut results.failed).await;
    Ok((results, saved))
}

/// The reports of a spooled artifact: every zip entry `pattern` matches, or (`single`: a CircleCI artifact's path)
/// the file itself when it is not a zip.
fn read_reports(
    mut file: std::fs::File,
    limits: &crate::ArchiveLimits,
    (cap, setting): (u64, &'static str),
    pattern: Option<&GlobMatcher>,
    single: Option<String>,
    max_failed: usize,
) -> Result<(Vec<ReportRead>, Vec<SkippedEntry>), String> {
    let options = ParseOptions::default()
        .with_message_limit(MESSAGE_CHARS)
        .with_details_limit(FULL_DETAILS_CHARS)
        .with_max_failed(max_failed);
    if let Some(path) = single
        && !is_zip(&mut file)
    {
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(|err| err.to_string())?;
        return match parse(&path, &bytes, &options)? {
            Ok(report) => Ok((vec![report], Vec::new())),
            Err(skipped) => Ok((Vec::new(), vec![skipped])),
        };
    }
    let mut archive = Archive::open(BufReader::new(file), limits).map_err(|err| err.to_string())?;
    let names: Vec<String> = archive
        .entries()
        .filter(|entry| pattern.is_none_or(|p| p.is_match(&entry.name)))
        .map(|entry| entry.name.clone())
        .collect();
    let (mut reports, mut skipped) = (Vec::new(), Vec::new());
    for name in names {
        let bytes = match archive.read(&name, cap, setting) {
            Ok(bytes) => bytes,
            Err(err @ ArchiveError::EntryTooLarge { .. }) => {
                skipped.push(SkippedEntry {
                    entry: name,
                    reason: err.to_string(),
                });
                continue;
            }
            Err(err) => return Err(err.to_string()),
        };
        match parse(&name, &bytes, &options)? {
            Ok(report) => reports.push(report),
            Err(entry) => skipped.push(entry),
        }
    }
    Ok((reports, skipped))
}

/// Whether the file starts as a zip does (`PK\x03\x04`, or `PK\x05\x06` for an empty one); leaves it at its start.
fn is_zip(file: &mut std::fs::File) -> bool {
    let mut magic = [0u8; 4];
    let zip = file.read_exact(&mut magic).is_ok() && (magic == *b"PK\x03\x04" || magic == *b"PK\x05\x06");
    let _ = std::io::Seek::rewind(file);
    zip
}

/// Entry `name` read as a report: `Ok(Ok)` a report, `Ok(Err)` not a report (passed over), `Err` a malformed
/// report (the error names the entry and the position).
fn parse(name: &str, bytes: &[u8], options: &ParseOptions) -> Result<Result<ReportRead, SkippedEntry>, String> {
    match test_reports::parse(bytes, options) {
        Ok(report) => Ok(Ok(report_read(name, report))),
        Err(test_reports::Error::UnknownFormat { found }) => Ok(Err(SkippedEntry {
            entry: name.to_owned(),
            reason: format!("not a test report: {found}"),
        })),
        Err(err @ test_reports::Error::Encoding { .. }) => Ok(Err(SkippedEntry {
            entry: name.to_owned(),
            reason: format!("not a test report: {err}"),
        })),
        Err(err) => Err(format!("entry `{name}`: {err}")),
    }
}

fn report_read(name: &str, report: TestReport) -> ReportRead {
    let failed = report
        .failed
        .into_iter()
        .map(|test| FailedTest {
            report: Some(name.to_owned()),
            suite: test.suite,
            group: test.group,
            name: test.name,
            file: test.file,
            line: test.line,
            message: test.message,
            details: test.details,
            message_full_chars: test.message_full_chars,
            details_full_chars: test.details_full_chars,
            details_artifact_id: None,
        })
        .collect();
    ReportRead {
        info: ReportInfo {
            entry: Some(name.to_owned()),
            format: report.format.name().to_owned(),
            totals: report.totals,
            duration_ms: report.duration_ms,
        },
        failed,
        failed_omitted: report.failed_omitted,
    }
}

/// The reports merged: totals and times added, failures in order up to `max_failed`.
fn merge(
    source: String,
    reports: Vec<ReportRead>,
    skipped_entries: Vec<SkippedEntry>,
    max_failed: usize,
) -> TestResults {
    let mut totals = Totals::default();
    let mut duration_ms: Option<f64> = None;
    let mut failed = Vec::new();
    let mut failed_omitted = 0u64;
    let mut infos = Vec::new();
    for report in reports {
        totals.passed += report.info.totals.passed;
        totals.failed += report.info.totals.failed;
        totals.skipped += report.info.totals.skipped;
        totals.total += report.info.totals.total;
        if let Some(ms) = report.info.duration_ms {
            duration_ms = Some(duration_ms.unwrap_or(0.0) + ms);
        }
        failed_omitted += report.failed_omitted;
        for test in report.failed {
            if failed.len() < max_failed {
                failed.push(test);
            } else {
                failed_omitted += 1;
            }
        }
        infos.push(report.info);
    }
    TestResults {
        source,
        totals,
        duration_ms,
        reports: infos,
        skipped_entries,
        failed,
        failed_omitted,
    }
}

/// Cuts each message and details to the result's limits; the whole details go into an artifact of `owner` (the
/// first [`MAX_DETAILS_ARTIFACTS`]), whose ids and sizes are returned.
async fn keep_details(app: &App, owner: &str, failed: &mut [FailedTest]) -> Vec<SavedDetails> {
    let mut saved = Vec::new();
    for test in failed {
        if let Some((cut, full)) = cut(test.message.as_deref(), MESSAGE_CHARS) {
            test.message = Some(cut);
            test.message_full_chars = Some(test.message_full_chars.unwrap_or(full));
        }
        let Some(details) = test.details.take() else {
            continue;
        };
        match cut(Some(&details), DETAILS_CHARS) {
            None => test.details = Some(details),
            Some((cut, full)) => {
                test.details = Some(cut);
                test.details_full_chars = Some(test.details_full_chars.unwrap_or(full));
                if saved.len() < MAX_DETAILS_ARTIFACTS {
                    let size = details.len() as u64;
                    test.details_artifact_id = app
                        .results
                        .put_artifact(owner, DETAILS_MIME_TYPE, Bytes::from(details.into_bytes()))
                        .await;
                    // A failed put still counts towards the cap, as it always did.
                    saved.push(test.details_artifact_id.clone().map(|id| (id, size)));
                }
            }
        }
    }
    saved.into_iter().flatten().collect()
}

/// `text`'s first `limit` characters and its length in characters, when it is longer.
pub(super) fn cut(text: Option<&str>, limit: usize) -> Option<(String, u64)> {
    let text = text?;
    let (end, _) = text.char_indices().nth(limit)?;
    Some((text[..end].to_owned(), text.chars().count() as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cutting_counts_characters() {
        assert_eq!(cut(Some("héllo"), 2), Some(("hé".to_owned(), 5)));
        assert_eq!(cut(Some("hé"), 2), None);
        assert_eq!(cut(None, 2), None);
    }
}
