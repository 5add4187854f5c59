"""Types for what triage.py reads, in the form a code-mode harness generates them: the envelopes from each tool's
`outputSchema` (tools/list of mcp-devtools with MCP_STRUCTURED_OUTPUT=true), and the shapes of `data` the program
asks for with `jq` (from the vendors' API documentation: GitHub Actions runs and jobs, CircleCI v2 pipelines, Jira
v3 issues). `data` itself has no declared type in the schemas: it is whatever the upstream (or the jq) returns.
The same declarations as ../code-mode-ts/tools.d.ts.
"""

from typing import Any, Literal, NotRequired, TypedDict


class Incomplete(TypedDict):
    """Present only when `data` is not the whole result."""

    reason: Literal["size", "binary", "unavailable"]  # size: over MCP_STRUCTURED_MAX_BYTES; binary: not text
    bytes: int  # length in bytes of the compact serialization of the full value
    limitBytes: int  # the bound in force, in bytes
    artifactId: str | None  # pass to artifact_read; None only if saving failed
    mimeType: NotRequired[str | None]  # the upstream media type, only for reason "binary"


class PagedEnvelope(TypedDict):
    """structuredContent of github_list_workflow_runs / github_list_workflow_jobs (schema title PagedEnvelope)."""

    data: Any
    nextPage: int | None  # the page to request next (pass it as `page`), or None
    incomplete: NotRequired[Incomplete]


class LinkedPagedEnvelope(PagedEnvelope):
    """structuredContent of github_get (schema title LinkedPagedEnvelope)."""

    nextLink: str | None  # the next page's URL in any form (a cursor too): pass it as `path` alone; None on the last


class Cache(TypedDict):
    hit: bool
    ageMs: int
    fetchedAt: str


class CircleCiEnvelope(TypedDict):
    """structuredContent of circleci_get (schema title CircleCiEnvelope)."""

    data: Any
    cache: Cache
    nextLink: str | None  # the next page (next_page_token as page-token): pass it as `path` alone; None on the last
    incomplete: NotRequired[Incomplete]


class AtlassianEnvelope(TypedDict):
    """structuredContent of jira_get, conf_get, bb_get (schema title AtlassianEnvelope)."""

    data: Any
    nextLink: str | None  # the next page (Jira nextPageToken/startAt, Confluence _links.next, Bitbucket next)
    incomplete: NotRequired[Incomplete]


class ArtifactReadResult(TypedDict):
    """structuredContent of artifact_read (schema title ArtifactReadResult); offsets and sizes in bytes."""

    artifactId: str
    mimeType: str
    offset: int
    nextOffset: int  # one past the last byte of this chunk; pass it as `offset` to continue
    totalBytes: int
    eof: bool  # nextOffset == totalBytes
    encoding: Literal["base64"]
    data: str  # the chunk's bytes, standard base64 with padding


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
