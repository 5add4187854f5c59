"""The shapes of `data` triage.py asks for, written by hand from the vendors' API documentation (GitHub Actions runs
and jobs, CircleCI v2 pipelines, Jira v3 issues) and the program's own jq: `data` has no declared type in the tools'
schemas (it is whatever the upstream, or the jq, returns). The tools' arguments and structuredContent are generated
from tools/list into tools.py (scripts/gen-types). The same declarations as ../code-mode-ts/shapes.d.ts.
"""

from typing import TypedDict


class HeadCommit(TypedDict):
    id: str
    message: str


class WorkflowRun(TypedDict):
    """The fields of a GitHub workflow run this program reads (GET /repos/{owner}/{repo}/actions/runs)."""

    id: int
    name: str
    head_branch: str
    head_sha: str
    conclusion: str | None
    head_commit: HeadCommit | None


class WorkflowRunsPage(TypedDict):
    """`data` of github_list_workflow_runs without jq."""

    total_count: int
    workflow_runs: list[WorkflowRun]


class FailedJob(TypedDict):
    """An item of `data` of github_list_workflow_jobs with the program's FAILED_JOB jq."""

    name: str
    steps: list[str]


class CommitPull(TypedDict):
    """An item of `data` of github_get /repos/{o}/{r}/commits/{sha}/pulls with the program's PULLS jq."""

    number: int
    state: str
    merged: bool


# `data` of github_get /repos/{o}/{r}/actions/runs/{id}/artifacts with the program's TEST_RESULTS_ARTIFACTS jq: the ids
# of the run's `test-results` artifacts.
ArtifactIds = list[int]


class FailedStepLines(TypedDict):
    """An item of `data` of github_get_job_logs ({jobs: [{job, steps: [{number, name, conclusion, lines: [{n, time,
    text, kind}]}], totalLines}]}) with the program's WHY jq: the kept lines of each step that has some."""

    job: str
    step: str
    lines: list[str]


class PipelineItem(TypedDict):
    revision: str | None
    number: int
    state: str


class PipelinePage(TypedDict):
    """`data` of circleci_get /project/{slug}/pipeline with the program's PIPELINES jq."""

    items: list[PipelineItem]
    next: str | None


class IssueStatus(TypedDict):
    """`data` of jira_get /rest/api/3/issue/{key}?fields=status,assignee with the program's ISSUE jq."""

    status: str | None
    assignee: str | None
