//! What to read of a job: its description and steps (from the vendor's job JSON), which steps keep lines, and the
//! assembled [`JobLog`] once the log was scanned.

use serde_json::Value;

use super::model::{JobInfo, JobLog, StepLog};
use super::scan::Scanned;

/// A step as the vendor lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct StepMeta {
    /// Step number.
    pub number: u64,
    /// Step name.
    pub name: String,
    /// Conclusion (or status), vendor's term.
    pub conclusion: Option<String>,
    /// When it started (GitHub: ties lines to steps); `None` when it did not run.
    pub started_at: Option<jiff::Timestamp>,
}

/// A job and its steps.
#[derive(Debug, Clone, PartialEq)]
pub struct JobPlan {
    /// The job.
    pub job: JobInfo,
    /// Its steps, in order.
    pub steps: Vec<StepMeta>,
}

/// `step`: a step by number or by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepChoice {
    /// Step `number`.
    Number(u64),
    /// The step with this name (exact, else ignoring case).
    Name(String),
}

/// Conclusions that count as failed: GitHub's `failure`, `timed_out`, `cancelled`, `startup_failure`; CircleCI's
/// `failed`, `timedout`, `infrastructure_fail`.
pub fn is_failed(conclusion: Option<&str>) -> bool {
    matches!(
        conclusion,
        Some("failure" | "timed_out" | "cancelled" | "startup_failure" | "failed" | "timedout" | "infrastructure_fail")
    )
}

/// A failed job (cancelled ones are not: fail-fast cancels a matrix's other jobs).
pub fn is_failed_job(conclusion: Option<&str>) -> bool {
    is_failed(conclusion) && conclusion != Some("cancelled") && conclusion != Some("canceled")
}

impl JobPlan {
    /// A GitHub job from the jobs API (`id`, `name`, `conclusion` else `status`, `html_url`, `steps`).
    pub fn github(job: &Value) -> Option<Self> {
        let steps = job["steps"]
            .as_array()
            .map(|steps| {
                steps
                    .iter()
                    .map(|step| StepMeta {
                        number: step["number"].as_u64().unwrap_or_default(),
                        name: text(&step["name"]).unwrap_or_default(),
                        conclusion: text(&step["conclusion"]).or_else(|| text(&step["status"])),
                        started_at: if step["conclusion"] == "skipped" {
                            None
                        } else {
                            step["started_at"].as_str().and_then(|t| t.parse().ok())
                        },
                    })
                    .collect()
            })
            .unwrap_or_default();
        Some(Self {
            job: JobInfo {
                id: job["id"].as_u64()?,
                name: text(&job["name"]).unwrap_or_default(),
                conclusion: text(&job["conclusion"]).or_else(|| text(&job["status"])),
                url: text(&job["html_url"]),
            },
            steps,
        })
    }

    /// Which steps keep lines: the chosen one; else with `failed_only` the failed steps (every step when none
    /// failed); else every step.
    ///
    /// # Errors
    /// The text naming the steps there are, when `choice` matches none.
    pub fn select(&self, choice: Option<&StepChoice>, failed_only: bool) -> Result<Vec<bool>, String> {
        if let Some(choice) = choice {
            let exact: Vec<bool> = self
                .steps
                .iter()
                .map(|step| match choice {
                    StepChoice::Number(number) => step.number == *number,
                    StepChoice::Name(name) => step.name == *name,
                })
                .collect();
            let chosen = if exact.contains(&true) {
                exact
            } else {
                self.steps
                    .iter()
                    .map(|step| matches!(choice, StepChoice::Name(name) if step.name.eq_ignore_ascii_case(name.trim())))
                    .collect()
            };
            if chosen.contains(&true) {
                return Ok(chosen);
            }
            let names: Vec<String> = self
                .steps
                .iter()
                .map(|s| format!("{} {:?}", s.number, s.name))
                .collect();
            return Err(format!(
                "job {} ({}) has no step {}: its steps are {}",
                self.job.id,
                self.job.name,
                match choice {
                    StepChoice::Number(n) => n.to_string(),
                    StepChoice::Name(name) => format!("{name:?}"),
                },
                names.join(", ")
            ));
        }
        let failed: Vec<bool> = self.steps.iter().map(|s| is_failed(s.conclusion.as_deref())).collect();
        if failed_only && failed.contains(&true) {
            Ok(failed)
        } else {
            Ok(vec![true; self.steps.len()])
        }
    }

    /// The job's log data from a scan made with [`JobPlan::select`]'s steps.
    pub fn assemble(self, scanned: Scanned) -> JobLog {
        let mut lines = scanned.steps.into_iter();
        let steps = if self.steps.is_empty() {
            let only = lines.next().unwrap_or_default();
            vec![StepLog {
                number: 0,
                name: "(log)".to_owned(),
                conclusion: self.job.conclusion.clone(),
                total_lines: only.total,
                first_line: only.first,
                lines: only.lines,
            }]
        } else {
            self.steps
                .into_iter()
                .map(|step| {
                    let kept = lines.next().unwrap_or_default();
                    StepLog {
                        number: step.number,
                        name: step.name,
                        conclusion: step.conclusion,
                        total_lines: kept.total,
                        first_line: kept.first,
                        lines: kept.lines,
                    }
                })
                .collect()
        };
        JobLog {
            job: self.job,
            steps,
            total_lines: scanned.total_lines,
        }
    }
}

fn text(value: &Value) -> Option<String> {
    value.as_str().map(str::to_owned)
}

/// One CircleCI step action's output: its step (index into [`JobPlan::steps`]) and its `output_url`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionOutput {
    /// Index of the step in [`JobPlan::steps`].
    pub step: usize,
    /// Where the output is (another host; fetched without the token).
    pub output_url: String,
}

impl JobPlan {
    /// A CircleCI job from API v1.1's job details (`build_num`, `workflows.job_name`, `status`, `build_url`,
    /// `steps[].actions[]`), with the output URL of every action that has output, in order. A step's conclusion is
    /// its first failed action's status, else its first action's.
    pub fn circleci(job: &Value) -> Option<(Self, Vec<ActionOutput>)> {
        let mut outputs = Vec::new();
        let mut steps = Vec::new();
        for (index, step) in job["steps"].as_array().into_iter().flatten().enumerate() {
            let actions = step["actions"].as_array().cloned().unwrap_or_default();
            let status = actions
                .iter()
                .find(|a| is_failed(a["status"].as_str()))
                .or_else(|| actions.first())
                .and_then(|a| text(&a["status"]));
            for action in &actions {
                if let Some(url) = action["output_url"].as_str()
                    && action["has_output"] != false
                {
                    outputs.push(ActionOutput {
                        step: index,
                        output_url: url.to_owned(),
                    });
                }
            }
            steps.push(StepMeta {
                number: index as u64 + 1,
                name: text(&step["name"]).unwrap_or_default(),
                conclusion: status,
                started_at: None,
            });
        }
        let name = text(&job["workflows"]["job_name"])
            .or_else(|| text(&job["job_name"]))
            .unwrap_or_default();
        Some((
            Self {
                job: JobInfo {
                    id: job["build_num"].as_u64()?,
                    name,
                    conclusion: text(&job["status"]),
                    url: text(&job["build_url"]),
                },
                steps,
            },
            outputs,
        ))
    }
}
