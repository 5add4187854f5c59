//! The log envelope's data: jobs, their steps and the kept lines (the `data` of both job-log tools).

use schemars::JsonSchema;
use serde::Serialize;

/// `data` of a log tool: one entry per job, in the order the jobs were asked for (or listed by the run).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LogsData {
    /// The jobs whose logs were read.
    pub jobs: Vec<JobLog>,
}

/// One job's log: the job, every step with the lines kept for it, and the log's line count.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobLog {
    /// The job.
    pub job: JobInfo,
    /// Every step of the job, in order; `lines` holds the kept lines (empty for steps not selected).
    pub steps: Vec<StepLog>,
    /// Lines in the whole log.
    pub total_lines: u64,
}

/// A job, as the vendor describes it.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobInfo {
    /// GitHub job id or CircleCI job number.
    pub id: u64,
    /// Job name, e.g. `test (Python 3.9)`.
    pub name: String,
    /// `failure`, `success`, `cancelled`, … (the status while it runs); null when unknown.
    pub conclusion: Option<String>,
    /// The job's web page.
    pub url: Option<String>,
}

/// One step and its kept lines.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StepLog {
    /// Step number (GitHub's `number`; CircleCI: position from 1).
    pub number: u64,
    /// Step name, e.g. `Run tests`.
    pub name: String,
    /// `failure`, `success`, `skipped`, …; null when unknown.
    pub conclusion: Option<String>,
    /// Lines of the log that belong to this step.
    pub total_lines: u64,
    /// Line number (`n`) of the step's first line; null when it has none.
    pub first_line: Option<u64>,
    /// The kept lines, in order.
    pub lines: Vec<LogLine>,
}

/// One log line.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LogLine {
    /// Line number in the job's log, from 1.
    pub n: u64,
    /// The line's timestamp as logged (RFC 3339), null when it has none.
    pub time: Option<String>,
    /// The line after its timestamp: plain text (ANSI codes removed) unless `raw`.
    pub text: String,
    /// What the line is, from GitHub's `##[…]` markers (CircleCI: `output` or `error` for stderr).
    pub kind: LineKind,
}

/// The kind of a log line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum LineKind {
    /// Plain output.
    Output,
    /// `##[error]` (or CircleCI stderr).
    Error,
    /// `##[warning]`.
    Warning,
    /// `##[notice]`.
    Notice,
    /// `##[debug]`.
    Debug,
    /// `##[group]`: a collapsible section starts (a step's header `Run …`).
    Group,
    /// `##[endgroup]`.
    Endgroup,
    /// `##[command]` / `[command]`: a command the runner ran.
    Command,
}

impl JobLog {
    /// The text of the last `n` kept lines, over all steps in log order (the wait tools' `logTail`).
    pub fn last_lines(self, n: usize) -> Vec<String> {
        let mut lines: Vec<LogLine> = self.steps.into_iter().flat_map(|step| step.lines).collect();
        lines.sort_by_key(|line| line.n);
        let skip = lines.len().saturating_sub(n);
        lines.into_iter().skip(skip).map(|line| line.text).collect()
    }
}
