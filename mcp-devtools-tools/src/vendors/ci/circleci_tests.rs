//! A CircleCI job's test metadata as one report: `GET /project/{project-slug}/{job-number}/tests`, every page
//! (<https://circleci.com/docs/api/v2/index.html#operation/getTests>). Each item is `{message, source, run_time,
//! file, result, name, classname}`: `result` `success` passed, `failure` or `error` failed, anything else
//! (`skipped`, ...) skipped; `run_time` is seconds. A failure's message is the first non-blank line of CircleCI's
//! `message`, its details the whole `message` when it has more lines; its suite is the `classname`, its file the
//! `file` (no line: CircleCI gives none).

use rmcp::model::CallToolResult;
use serde_json::Value;

use super::model::{FailedTest, ReportInfo, Totals};
use super::results::ReportRead;
use super::source::for_each_item;
use crate::Principal;
use crate::app::App;
use crate::tools::{unusable_client, upstream_failure};

/// The `format` of a report read from the tests endpoint.
pub const FORMAT: &str = "circleci-tests";

/// The tests of job `job_number` of `slug` as one report (failures listed in CircleCI's order, all of them: the
/// caller keeps `maxFailed`).
pub(super) async fn read(
    app: &App,
    principal: &Principal,
    tool: &str,
    what: &str,
    slug: &str,
    job_number: u64,
) -> Result<ReportRead, CallToolResult> {
    let circleci = app.circleci.as_ref().map_err(|setup| unusable_client(tool, setup))?;
    let mut report = Report::default();
    for_each_item(
        circleci,
        principal,
        &format!("project/{slug}/{job_number}/tests"),
        |item| {
            report.add(item);
            true
        },
    )
    .await
    .map_err(|err| upstream_failure(tool, what, &err, err.status(), err.info()))?;
    Ok(report.finish())
}

/// The report being read.
#[derive(Default)]
struct Report {
    totals: Totals,
    seconds: Option<f64>,
    failed: Vec<FailedTest>,
}

impl Report {
    fn add(&mut self, item: &Value) {
        let text = |key: &str| {
            item[key]
                .as_str()
                .map(str::trim)
                .filter(|value| !value.is_empty())
                .map(str::to_owned)
        };
        self.totals.total += 1;
        if let Some(seconds) = item["run_time"].as_f64() {
            self.seconds = Some(self.seconds.unwrap_or(0.0) + seconds);
        }
        match item["result"].as_str().unwrap_or_default() {
            "success" => self.totals.passed += 1,
            "failure" | "error" => {
                self.totals.failed += 1;
                let whole = text("message");
                let message = whole
                    .as_deref()
                    .and_then(|m| m.lines().map(str::trim).find(|line| !line.is_empty()))
                    .map(str::to_owned);
                let details = whole.filter(|m| m.trim().lines().count() > 1);
                self.failed.push(FailedTest {
                    report: None,
                    suite: text("classname"),
                    group: None,
                    name: text("name").unwrap_or_default(),
                    file: text("file"),
                    line: None,
                    message,
                    details,
                    message_full_chars: None,
                    details_full_chars: None,
                    details_artifact_id: None,
                });
            }
            _ => self.totals.skipped += 1,
        }
    }

    fn finish(self) -> ReportRead {
        ReportRead {
            info: ReportInfo {
                entry: None,
                format: FORMAT.to_owned(),
                totals: self.totals,
                duration_ms: self.seconds.map(|s| s * 1000.0),
            },
            failed: self.failed,
            failed_omitted: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn items_map_to_one_report() {
        let mut report = Report::default();
        for item in [
            json!({"result": "success", "name": "a", "classname": "C", "run_time": 0.5, "file": "", "message": "", "source": "jest"}),
            json!({"result": "failure", "name": "b", "classname": "C", "run_time": 1.0, "file": "src/b.test.js",
                   "message": "\nExpected 1\n  at b (src/b.test.js:3:1)", "source": "jest"}),
            json!({"result": "skipped", "name": "c", "classname": "", "run_time": 0, "file": "", "message": "", "source": "jest"}),
        ] {
            report.add(&item);
        }
        let read = report.finish();
        assert_eq!(
            (
                read.info.totals.passed,
                read.info.totals.failed,
                read.info.totals.skipped,
                read.info.totals.total
            ),
            (1, 1, 1, 3)
        );
        assert_eq!(read.info.duration_ms, Some(1500.0));
        let failed = &read.failed[0];
        assert_eq!(failed.message.as_deref(), Some("Expected 1"));
        assert_eq!(failed.suite.as_deref(), Some("C"));
        assert_eq!(failed.file.as_deref(), Some("src/b.test.js"));
        assert!(failed.details.as_deref().is_some_and(|d| d.contains("at b")));
    }
}
