//! `circleci_get_job_logs`: a CircleCI job's step output (API v1.1's `output_url`s, fetched without the token),
//! filtered like `github_get_job_logs`.

use adapters_circleci::{CircleciClient, CircleciError};
use mcp_results::WithView;
use rmcp::model::CallToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::Principal;
use crate::app::App;
use crate::logs::{ActionOutput, JobPlan, LogsData};
use crate::tools::logs::{self, WithLogFilter};
use crate::tools::record_upstream_status;

/// Tool name.
pub const NAME: &str = "circleci_get_job_logs";

/// Arguments of `circleci_get_job_logs`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CircleciJobLogsArgs {
    /// e.g. gh/ORG/REPO.
    #[schemars(length(max = 512))]
    pub project_slug: String,
    /// Job number.
    #[serde(deserialize_with = "crate::args::integer::required")]
    pub job_number: u64,
}

/// Runs `circleci_get_job_logs`.
pub(super) async fn call(
    app: &App,
    principal: &Principal,
    args: WithView<WithLogFilter<CircleciJobLogsArgs>>,
) -> CallToolResult {
    let WithView { args, view } = args;
    let (args, wanted) = (args.args, args.group);
    let filter = match wanted
        .check(NAME, view.jq.as_deref(), app.results.bound().bytes())
        .await
    {
        Ok(filter) => filter,
        Err(err) => return mcp_results::coded_error(err, mcp_results::args::INVALID_ARGUMENT),
    };
    let circleci = match &app.circleci {
        Ok(circleci) => circleci,
        Err(setup) => return mcp_results::coded_error(format!("{NAME} failed: {setup}"), "invalid_setting"),
    };
    let details = match circleci.job_details(&args.project_slug, args.job_number).await {
        Ok(details) => details,
        Err(err) => return upstream_error(&err),
    };
    let Some((plan, outputs)) = JobPlan::circleci(&details) else {
        return mcp_results::error(format!(
            "{NAME}: CircleCI's job details for job {} have no build_num",
            args.job_number
        ));
    };
    let selected = match plan.select(filter.step.as_ref(), wanted.failed_only.unwrap_or(true)) {
        Ok(selected) => selected,
        Err(err) => return mcp_results::coded_error(format!("{NAME}: {err}"), mcp_results::args::INVALID_ARGUMENT),
    };
    let mut scanner = plan.scanner(filter.options.clone(), &selected, false);
    for output in &outputs {
        scanner.set_step(output.step);
        match read_output(circleci, output).await {
            Ok(text) => scanner.feed(&text),
            Err(err) => return upstream_error(&err),
        }
    }
    let scanned = scanner.finish();
    let overflow = scanned.overflow;
    let job_id = plan.job.id;
    let data = LogsData {
        jobs: vec![plan.assemble(scanned)],
    };
    record_upstream_status(Some(200));
    let view = view.into_view();
    logs::respond(app, principal, NAME, data, overflow, &view, || async move {
        let mut text = Vec::new();
        for output in &outputs {
            text.extend(read_output(circleci, output).await.map_err(|e| e.to_string())?);
            if text.len() > logs::MAX_LOG_ARTIFACT_BYTES {
                return Err(
                    "the job's output is too large to hand over whole: narrow it with tailLines, grep or step"
                        .to_owned(),
                );
            }
        }
        Ok(vec![(job_id, text)])
    })
    .await
}

/// The log text of one action's output, redacted across its messages.
async fn read_output(circleci: &CircleciClient, output: &ActionOutput) -> Result<Vec<u8>, CircleciError> {
    circleci.step_log(&output.output_url).await
}

fn upstream_error(err: &CircleciError) -> CallToolResult {
    record_upstream_status(err.status());
    tracing::info!(tool = NAME, status = err.status(), "upstream call failed");
    mcp_results::error_with_meta(format!("{NAME} failed: {err}"), err.info().to_meta())
}

/// The last `lines` lines of job `job_number`'s failed steps (every step when none failed), as text: what
/// `circleci_wait_for_pipeline`'s `failedLogTail` gives each failed job.
///
/// Errors: the upstream's answer, as text.
pub(super) async fn failed_tail(
    circleci: &CircleciClient,
    project_slug: &str,
    job_number: u64,
    lines: usize,
) -> Result<Vec<String>, String> {
    let details = circleci
        .job_details(project_slug, job_number)
        .await
        .map_err(|err| err.to_string())?;
    let Some((plan, outputs)) = JobPlan::circleci(&details) else {
        return Err(format!("CircleCI's job details for job {job_number} have no build_num"));
    };
    let selected = plan.select(None, true).or_else(|_| plan.select(None, false))?;
    let options = crate::logs::Options::new(logs::MAX_LOG_ARTIFACT_BYTES).with_tail(Some(lines));
    let mut scanner = plan.scanner(options, &selected, false);
    for output in &outputs {
        scanner.set_step(output.step);
        scanner.feed(&read_output(circleci, output).await.map_err(|err| err.to_string())?);
    }
    Ok(plan.assemble(scanner.finish()).last_lines(lines))
}
