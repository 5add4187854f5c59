// Types for what triage.mjs reads, in the form a code-mode harness generates them: the envelopes from each tool's
// `outputSchema` (tools/list of mcp-devtools with MCP_STRUCTURED_OUTPUT=true), and the shapes of `data` this program
// asks for with `jq` (from the vendors' API documentation: GitHub Actions runs and jobs, CircleCI v2 pipelines, Jira
// v3 issues). `data` itself has no declared type in the schemas: it is whatever the upstream (or the jq) returns.

/** `incomplete` (outputSchema of every read tool): present only when `data` is not the whole result. */
export interface Incomplete {
  /** `size`: the value was over MCP_STRUCTURED_MAX_BYTES and is saved as an artifact; `binary`: the body is not
   * text (saved as an artifact with its media type); `unavailable`: server defect. */
  reason: "size" | "binary" | "unavailable";
  /** Length in bytes of the compact serialization of the full value (0 for `unavailable`). */
  bytes: number;
  /** The bound in force, in bytes (0 for `unavailable`). */
  limitBytes: number;
  /** Id to pass to `artifact_read`; `null` only if saving the artifact failed. */
  artifactId: string | null;
  /** The upstream media type, only for `reason: "binary"`. */
  mimeType?: string | null;
}

/** structuredContent of `github_list_workflow_runs` and `github_list_workflow_jobs` (schema title `PagedEnvelope`). */
export interface PagedEnvelope<T = unknown> {
  /** The (projected) upstream body; `null` when `incomplete` is present. */
  data: T | null;
  /** The page to request next (pass it as `page`), or `null` when there is none. */
  nextPage: number | null;
  incomplete?: Incomplete;
}

/** structuredContent of `github_get` (schema title `LinkedPagedEnvelope`). */
export interface LinkedPagedEnvelope<T = unknown> extends PagedEnvelope<T> {
  /** The next page's URL in any form (a cursor too): pass it as `path` alone; `null` on the last page. */
  nextLink: string | null;
}

/** structuredContent of `circleci_get` (schema title `CircleCiEnvelope`). */
export interface CircleCiEnvelope<T = unknown> {
  data: T | null;
  /** Whether the body came from the server's HTTP cache, and how old it is. */
  cache: { hit: boolean; ageMs: number; fetchedAt: string };
  /** The next page (`next_page_token` as `page-token`): pass it as `path` alone; `null` on the last page. */
  nextLink: string | null;
  incomplete?: Incomplete;
}

/** structuredContent of `jira_get`, `conf_get`, `bb_get` (schema title `AtlassianEnvelope`). */
export interface AtlassianEnvelope<T = unknown> {
  data: T | null;
  /** The next page (Jira `nextPageToken`/`startAt`, Confluence `_links.next`, Bitbucket `next`): pass it as `path`
   * alone; `null` on the last page. */
  nextLink: string | null;
  incomplete?: Incomplete;
}

/** structuredContent of `artifact_read` (schema title `ArtifactReadResult`); offsets and sizes in bytes. */
export interface ArtifactReadResult {
  artifactId: string;
  mimeType: string;
  offset: number;
  /** One past the last byte of this chunk; pass it as `offset` to continue. */
  nextOffset: number;
  totalBytes: number;
  /** `true` when `nextOffset == totalBytes`. */
  eof: boolean;
  encoding: "base64";
  /** The chunk's bytes, standard base64 with padding. */
  data: string;
}

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
