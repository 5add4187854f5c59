// The shapes of `data` triage.mjs asks for, written by hand from the vendors' API documentation (GitHub Actions runs
// and jobs, CircleCI v2 pipelines, Jira v3 issues) and the program's own jq: `data` has no declared type in the
// tools' schemas (it is whatever the upstream, or the jq, returns). The tools' arguments and structuredContent are
// generated from tools/list into tools.d.ts (scripts/gen-types).

/** The fields of a GitHub workflow run this program reads (`GET /repos/{owner}/{repo}/actions/runs`). */
export interface WorkflowRun {
  id: number;
  name: string;
  head_branch: string;
  head_sha: string;
  conclusion: string | null;
  head_commit: { id: string; message: string } | null;
}

/** `data` of `github_list_workflow_runs` without jq. */
export interface WorkflowRunsPage {
  total_count: number;
  workflow_runs: WorkflowRun[];
}

/** `data` of `github_list_workflow_jobs` with this program's FAILED_JOB jq. */
export type FailedJobs = { name: string; steps: string[] }[];

/** `data` of `github_get /repos/{o}/{r}/commits/{sha}/pulls` with this program's PULLS jq. */
export type CommitPulls = { number: number; state: string; merged: boolean }[];

/** `data` of `github_get /repos/{o}/{r}/actions/runs/{id}/artifacts` with this program's TEST_RESULTS_ARTIFACTS jq:
 * the ids of the run's `test-results` artifacts. */
export type ArtifactIds = number[];

/** `data` of `github_get_job_logs` ({jobs: [{job, steps: [{number, name, conclusion, lines: [{n, time, text, kind}]}],
 * totalLines}]}) with this program's WHY jq: the kept lines of each step that has some. */
export type FailedStepLines = { job: string; step: string; lines: string[] }[];

/** `data` of `circleci_get /project/{slug}/pipeline` with this program's PIPELINES jq. */
export interface PipelinePage {
  items: { revision: string | null; number: number; state: string }[];
  next: string | null;
}

/** `data` of `jira_get /rest/api/3/issue/{key}?fields=status,assignee` with this program's ISSUE jq. */
export interface IssueStatus {
  status: string | null;
  assignee: string | null;
}
