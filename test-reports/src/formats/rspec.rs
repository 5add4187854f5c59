//! `rspec --format json`: each of `examples` is a test (`passed`, `failed`, anything else skipped: `pending`). Its
//! suite is its `file_path`, its name its `full_description` (its group that without its `description`); a
//! failure's message is `exception.message`, its details the `exception.backtrace` lines, read as Ruby frames,
//! its fallback location `file_path:line_number`. `summary.duration` is in seconds.

use serde::Deserialize;

use crate::builder::{Failure, ReportBuilder};
use crate::frames::Syntax;
use crate::location::Candidate;
use crate::{Error, Format, ParseOptions, TestReport, json};

#[derive(Deserialize)]
struct Report {
    #[serde(default)]
    examples: Vec<Example>,
    #[serde(default)]
    summary: Option<Summary>,
}

#[derive(Deserialize)]
struct Summary {
    #[serde(default)]
    duration: Option<f64>,
}

#[derive(Deserialize)]
struct Example {
    #[serde(default)]
    description: String,
    #[serde(default)]
    full_description: Option<String>,
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    file_path: Option<String>,
    #[serde(default)]
    line_number: Option<u32>,
    #[serde(default)]
    exception: Option<Exception>,
}

#[derive(Deserialize)]
struct Exception {
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    backtrace: Option<Vec<String>>,
}

pub(crate) fn parse(text: &str, options: &ParseOptions) -> Result<TestReport, Error> {
    let report: Report = json::from_str(Format::RspecJson, text)?;
    let mut builder = ReportBuilder::new(Format::RspecJson, options);
    for example in &report.examples {
        let suite = builder.file_suite(example.file_path.as_deref());
        match example.status.as_deref() {
            Some("passed") => builder.passed(suite),
            Some("failed") => {
                let name = example.full_description.as_deref().unwrap_or(&example.description);
                let group = (name != example.description)
                    .then(|| name.strip_suffix(example.description.as_str()).map(str::trim_end))
                    .flatten();
                let exception = example.exception.as_ref();
                let details = exception
                    .and_then(|e| e.backtrace.as_ref())
                    .map(|lines| lines.join("\n"));
                builder.failed(
                    suite,
                    Failure {
                        group,
                        name,
                        message: exception.and_then(|e| e.message.as_deref()),
                        details: details.as_deref(),
                        syntaxes: &[Syntax::Ruby],
                        fallback: example
                            .file_path
                            .as_deref()
                            .map(|file| Candidate::new(file, example.line_number)),
                    },
                );
            }
            _ => builder.skipped(suite),
        }
    }
    Ok(builder.finish(report.summary.and_then(|s| s.duration).map(|seconds| seconds * 1000.0)))
}
