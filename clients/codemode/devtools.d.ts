type GithubListWorkflowRunsInput = {
    owner: string;
    repo: string;
    /** Workflow id or file name (e.g. ci.yml). */
    workflowId?: number | string;
    /** Branch name. */
    branch?: string;
    /** A status or conclusion, e.g. failure, in_progress. */
    status?: string;
    /** Triggering event, e.g. push, pull_request. */
    event?: string;
    /** Login of the user who started the run. */
    actor?: string;
    /** 1..=100 (default 30). */
    perPage?: number;
    page?: number;
    jq?: string;
    outputFormat?: "toon" | "json";
}
type GithubListWorkflowRunsOutput = {
    /** GitHub's body {total_count, workflow_runs: [{id, name, head_branch, head_sha, status, conclusion, html_url, head_commit: {message}, ...}]}, or the jq output; null when incomplete */
    data: unknown;
    /** Pass as page for the next page; null on the last */
    nextPage: number | null;
    /** Only when data is null (too large): read the whole result with artifact_read */
    incomplete?: {
        reason: "size" | "binary" | "unavailable";
        bytes: number;
        limitBytes: number;
        artifactId: string | null;
        mimeType?: string | null;
    };
}
type GithubListWorkflowJobsInput = {
    owner: string;
    repo: string;
    /** The run's id. */
    runId: number;
    /** latest (default): the latest attempt's jobs; all: every attempt's. */
    filter?: "latest" | "all";
    /** 1..=100 (default 30). */
    perPage?: number;
    page?: number;
    jq?: string;
    outputFormat?: "toon" | "json";
}
type GithubListWorkflowJobsOutput = {
    /** GitHub's body {total_count, jobs: [{id, name, conclusion, steps: [{name, conclusion, number}], html_url, ...}]}, or the jq output; null when incomplete */
    data: unknown;
    /** Pass as page for the next page; null on the last */
    nextPage: number | null;
    /** Only when data is null (too large): read the whole result with artifact_read */
    incomplete?: {
        reason: "size" | "binary" | "unavailable";
        bytes: number;
        limitBytes: number;
        artifactId: string | null;
        mimeType?: string | null;
    };
}
type GithubGetInput = {
    /** REST path, e.g. `/repos/{o}/{r}/commits/{sha}/pulls`; an absolute URL only on the API host. */
    path: string;
    queryParams?: {
        [key: string]: string;
    };
    /** diff, patch: the text as a string. */
    mediaType?: "json" | "diff" | "patch";
    /** 1..=100 (default 30). */
    perPage?: number;
    page?: number;
    jq?: string;
    outputFormat?: "toon" | "json";
}
type GithubGetOutput = {
    /** The body, or the jq output; null when incomplete */
    data: unknown;
    /** Pass as page for the next page; null on the last */
    nextPage: number | null;
    /** Next page: pass as path alone; null on the last */
    nextLink: string | null;
    /** Only when data is null (too large): read the whole result with artifact_read */
    incomplete?: {
        reason: "size" | "binary" | "unavailable";
        bytes: number;
        limitBytes: number;
        artifactId: string | null;
        mimeType?: string | null;
    };
}
type GithubGetJobLogsInput = {
    owner: string;
    repo: string;
    /** One job by id. */
    jobId?: number;
    /** A run's jobs. */
    runId?: number;
    /** With runId: this job. */
    jobName?: string;
    /** Failed jobs and steps only (default true). */
    failedOnly?: boolean;
    /** Last lines per step (200; 0: all). */
    tailLines?: number;
    /** Regex: matching lines only. */
    grep?: string;
    /** Lines around matches. */
    context?: number;
    /** Step number or name. */
    step?: number | string;
    /** Keep ANSI codes. */
    raw?: boolean;
    jq?: string;
    outputFormat?: "toon" | "json";
}
type GithubGetJobLogsOutput = {
    /** The body, or the jq output; null when incomplete */
    data: unknown;
    /** Each job's log in the artifact. */
    logs?: {
        jobId: number;
        offset: number;
        bytes: number;
    }[] | null;
    /** Only when data is null (too large): read the whole result with artifact_read */
    incomplete?: {
        reason: "size" | "binary" | "unavailable";
        bytes: number;
        limitBytes: number;
        artifactId: string | null;
        mimeType?: string | null;
    };
}
type GithubWaitForRunInput = {
    /** Repository owner. */
    owner: string;
    /** Repository name. */
    repo: string;
    /** Workflow run id. */
    runId: number;
    /** Seconds (default 600; 0: the current state). */
    timeoutSeconds?: number;
    /** Log lines of each failed job to include (default 0). */
    failedLogTail?: number;
}
type GithubWaitForRunOutput = {
    /** The body, or the jq output; null when incomplete */
    data: {
        target: string;
        stoppedBy: "finished" | "timeout" | "shutdown" | "upstream_error";
        timedOut: boolean;
        state: string;
        conclusion: string | null;
        url: string | null;
        durationMs: number | null;
        waitedMs: number;
        polls: number;
        projectSlug: string | null;
        jobs: {
            kind: "job" | "check_run" | "status" | "workflow" | "circleci_job";
            id: string;
            name: string;
            status: string;
            conclusion: string | null;
            failed: boolean;
            url: string | null;
            jobId: number | null;
            runId: number | null;
            jobNumber: number | null;
            logTail: string[] | null;
            logError: string | null;
        }[];
        lastError: string | null;
    } | null;
    /** Only when data is null (too large): read the whole result with artifact_read */
    incomplete?: {
        reason: "size" | "binary" | "unavailable";
        bytes: number;
        limitBytes: number;
        artifactId: string | null;
        mimeType?: string | null;
    };
}
type GithubWaitForChecksInput = {
    /** Repository owner. */
    owner: string;
    /** Repository name. */
    repo: string;
    /** Commit SHA, branch or tag. */
    ref?: string;
    /** Or a pull request: its head commit. */
    pullNumber?: number;
    /** Seconds (default 600; 0: the current state). */
    timeoutSeconds?: number;
    /** Log lines of each failed job to include (default 0). */
    failedLogTail?: number;
}
type GithubWaitForChecksOutput = {
    /** The body, or the jq output; null when incomplete */
    data: {
        target: string;
        stoppedBy: "finished" | "timeout" | "shutdown" | "upstream_error";
        timedOut: boolean;
        state: string;
        conclusion: string | null;
        url: string | null;
        durationMs: number | null;
        waitedMs: number;
        polls: number;
        projectSlug: string | null;
        jobs: {
            kind: "job" | "check_run" | "status" | "workflow" | "circleci_job";
            id: string;
            name: string;
            status: string;
            conclusion: string | null;
            failed: boolean;
            url: string | null;
            jobId: number | null;
            runId: number | null;
            jobNumber: number | null;
            logTail: string[] | null;
            logError: string | null;
        }[];
        lastError: string | null;
    } | null;
    /** Only when data is null (too large): read the whole result with artifact_read */
    incomplete?: {
        reason: "size" | "binary" | "unavailable";
        bytes: number;
        limitBytes: number;
        artifactId: string | null;
        mimeType?: string | null;
    };
}
type CircleciGetInput = {
    /** API v2 path, e.g. /project/gh/ORG/REPO/pipeline, /pipeline/{id}/workflow, /workflow/{id}/job. */
    path: string;
    /** Query parameters, unencoded; continue a list with page-token = the body's next_page_token. */
    queryParams?: {
        [key: string]: string;
    };
    /** Bypass the HTTP cache (default false). */
    fresh?: boolean;
    jq?: string;
    outputFormat?: "toon" | "json";
}
type CircleciGetOutput = {
    /** CircleCI's body (a list: {items, next_page_token}), or the jq output; null when incomplete */
    data: unknown;
    /** The server's HTTP cache: hit, age (ms), fetch time */
    cache: {
        hit: boolean;
        ageMs: number;
        fetchedAt: string;
    };
    /** Next page: pass as path alone; null on the last */
    nextLink: string | null;
    /** Only when data is null (too large): read the whole result with artifact_read */
    incomplete?: {
        reason: "size" | "binary" | "unavailable";
        bytes: number;
        limitBytes: number;
        artifactId: string | null;
        mimeType?: string | null;
    };
}
type CircleciGetJobLogsInput = {
    /** e.g. gh/ORG/REPO. */
    projectSlug: string;
    /** Job number. */
    jobNumber: number;
    /** Failed jobs and steps only (default true). */
    failedOnly?: boolean;
    /** Last lines per step (200; 0: all). */
    tailLines?: number;
    /** Regex: matching lines only. */
    grep?: string;
    /** Lines around matches. */
    context?: number;
    /** Step number or name. */
    step?: number | string;
    /** Keep ANSI codes. */
    raw?: boolean;
    jq?: string;
    outputFormat?: "toon" | "json";
}
type CircleciGetJobLogsOutput = {
    /** The body, or the jq output; null when incomplete */
    data: unknown;
    /** Each job's log in the artifact. */
    logs?: {
        jobId: number;
        offset: number;
        bytes: number;
    }[] | null;
    /** Only when data is null (too large): read the whole result with artifact_read */
    incomplete?: {
        reason: "size" | "binary" | "unavailable";
        bytes: number;
        limitBytes: number;
        artifactId: string | null;
        mimeType?: string | null;
    };
}
type CircleciWaitForPipelineInput = {
    /** Pipeline id (a UUID). */
    pipelineId?: string;
    /** Or a project (gh/ORG/REPO) with branch: its newest pipeline. */
    projectSlug?: string;
    /** With projectSlug. */
    branch?: string;
    /** Seconds (default 600; 0: the current state). */
    timeoutSeconds?: number;
    /** Log lines of each failed job to include (default 0). */
    failedLogTail?: number;
}
type CircleciWaitForPipelineOutput = {
    /** The body, or the jq output; null when incomplete */
    data: {
        target: string;
        stoppedBy: "finished" | "timeout" | "shutdown" | "upstream_error";
        timedOut: boolean;
        state: string;
        conclusion: string | null;
        url: string | null;
        durationMs: number | null;
        waitedMs: number;
        polls: number;
        projectSlug: string | null;
        jobs: {
            kind: "job" | "check_run" | "status" | "workflow" | "circleci_job";
            id: string;
            name: string;
            status: string;
            conclusion: string | null;
            failed: boolean;
            url: string | null;
            jobId: number | null;
            runId: number | null;
            jobNumber: number | null;
            logTail: string[] | null;
            logError: string | null;
        }[];
        lastError: string | null;
    } | null;
    /** Only when data is null (too large): read the whole result with artifact_read */
    incomplete?: {
        reason: "size" | "binary" | "unavailable";
        bytes: number;
        limitBytes: number;
        artifactId: string | null;
        mimeType?: string | null;
    };
}
type ArtifactReadInput = {
    /** The `incomplete.artifactId` of an oversized result. */
    artifactId: string;
    /** Default 0. */
    offset?: number;
    /** Default 65536, at most 1048576. */
    maxBytes?: number;
}
type ArtifactReadOutput = {
    /** The artifact's id. */
    artifactId: string;
    /** The artifact's MIME type, e.g. `application/json`. */
    mimeType: string;
    /** First byte of this chunk. */
    offset: number;
    /** One past this chunk's last byte. */
    nextOffset: number;
    /** The artifact's full length in bytes. */
    totalBytes: number;
    /** nextOffset == totalBytes. */
    eof: boolean;
    encoding: "base64";
    /** The chunk's bytes, standard base64 with padding. */
    data: string;
}
type CiStatusInput = {
    owner: string;
    repo: string;
    /** A branch or tag (or a SHA). */
    ref?: string;
    /** A commit SHA. */
    sha?: string;
    /** A pull request: its head commit. */
    pullNumber?: number;
    /** CircleCI project (default gh/OWNER/REPO). */
    projectSlug?: string;
}
type CiStatusOutput = {
    /** The commit's checks; null when too large (incomplete) */
    data: {
        sha: string;
        branch: string | null;
        state: "success" | "failure" | "pending" | "neutral";
        counts: {
            success: number;
            failure: number;
            pending: number;
            neutral: number;
        };
        checks: {
            kind: "job" | "check_run" | "status" | "workflow" | "circleci_job";
            name: string;
            state: "success" | "failure" | "pending" | "neutral";
            conclusion: string | null;
            url: string | null;
            attempts: number;
            jobId: number | null;
            runId: number | null;
            jobNumber: number | null;
            pipelineId: string | null;
        }[];
        circleci: {
            projectSlug: string;
            pipelines: {
                id: string;
                number: number | null;
                state: string | null;
            }[];
            error: string | null;
        } | null;
    } | null;
    /** Only when data is null (too large): read the whole result with artifact_read */
    incomplete?: {
        reason: "size" | "binary" | "unavailable";
        bytes: number;
        limitBytes: number;
        artifactId: string | null;
        mimeType?: string | null;
    };
}
type JiraGetInput = {
    /** Path from the product's base; a body's next link works as is. */
    path: string;
    /** Query parameters, unencoded. */
    queryParams?: {
        [key: string]: string;
    };
    jq?: string;
    outputFormat?: "toon" | "json";
}
type JiraGetOutput = {
    /** The body, or the jq output; null when incomplete */
    data: unknown;
    /** Next page: pass as path alone; null on the last */
    nextLink: string | null;
    /** Only when data is null (too large): read the whole result with artifact_read */
    incomplete?: {
        reason: "size" | "binary" | "unavailable";
        bytes: number;
        limitBytes: number;
        artifactId: string | null;
        mimeType?: string | null;
    };
}
type JiraPostInput = {
    path: string;
    queryParams?: {
        [key: string]: string;
    };
    body?: unknown;
    jq?: string;
    outputFormat?: "toon" | "json";
}
type JiraPostOutput = unknown
type JiraPutInput = {
    path: string;
    queryParams?: {
        [key: string]: string;
    };
    body?: unknown;
    jq?: string;
    outputFormat?: "toon" | "json";
}
type JiraPutOutput = unknown
type JiraPatchInput = {
    path: string;
    queryParams?: {
        [key: string]: string;
    };
    body?: unknown;
    jq?: string;
    outputFormat?: "toon" | "json";
}
type JiraPatchOutput = unknown
type JiraDeleteInput = {
    /** Path from the product's base; a body's next link works as is. */
    path: string;
    /** Query parameters, unencoded. */
    queryParams?: {
        [key: string]: string;
    };
    jq?: string;
    outputFormat?: "toon" | "json";
}
type JiraDeleteOutput = unknown
type ConfGetInput = {
    /** Path from the product's base; a body's next link works as is. */
    path: string;
    /** Query parameters, unencoded. */
    queryParams?: {
        [key: string]: string;
    };
    jq?: string;
    outputFormat?: "toon" | "json";
}
type ConfGetOutput = {
    /** The body, or the jq output; null when incomplete */
    data: unknown;
    /** Next page: pass as path alone; null on the last */
    nextLink: string | null;
    /** Only when data is null (too large): read the whole result with artifact_read */
    incomplete?: {
        reason: "size" | "binary" | "unavailable";
        bytes: number;
        limitBytes: number;
        artifactId: string | null;
        mimeType?: string | null;
    };
}
type ConfPostInput = {
    path: string;
    queryParams?: {
        [key: string]: string;
    };
    body?: unknown;
    jq?: string;
    outputFormat?: "toon" | "json";
}
type ConfPostOutput = unknown
type ConfPutInput = {
    path: string;
    queryParams?: {
        [key: string]: string;
    };
    body?: unknown;
    jq?: string;
    outputFormat?: "toon" | "json";
}
type ConfPutOutput = unknown
type ConfPatchInput = {
    path: string;
    queryParams?: {
        [key: string]: string;
    };
    body?: unknown;
    jq?: string;
    outputFormat?: "toon" | "json";
}
type ConfPatchOutput = unknown
type ConfDeleteInput = {
    /** Path from the product's base; a body's next link works as is. */
    path: string;
    /** Query parameters, unencoded. */
    queryParams?: {
        [key: string]: string;
    };
    jq?: string;
    outputFormat?: "toon" | "json";
}
type ConfDeleteOutput = unknown
type BbGetInput = {
    /** Path from the product's base; a body's next link works as is. */
    path: string;
    /** Query parameters, unencoded. */
    queryParams?: {
        [key: string]: string;
    };
    jq?: string;
    outputFormat?: "toon" | "json";
}
type BbGetOutput = {
    /** The body, or the jq output; null when incomplete */
    data: unknown;
    /** Next page: pass as path alone; null on the last */
    nextLink: string | null;
    /** Only when data is null (too large): read the whole result with artifact_read */
    incomplete?: {
        reason: "size" | "binary" | "unavailable";
        bytes: number;
        limitBytes: number;
        artifactId: string | null;
        mimeType?: string | null;
    };
}
type BbPostInput = {
    path: string;
    queryParams?: {
        [key: string]: string;
    };
    body?: unknown;
    jq?: string;
    outputFormat?: "toon" | "json";
}
type BbPostOutput = unknown
type BbPutInput = {
    path: string;
    queryParams?: {
        [key: string]: string;
    };
    body?: unknown;
    jq?: string;
    outputFormat?: "toon" | "json";
}
type BbPutOutput = unknown
type BbPatchInput = {
    path: string;
    queryParams?: {
        [key: string]: string;
    };
    body?: unknown;
    jq?: string;
    outputFormat?: "toon" | "json";
}
type BbPatchOutput = unknown
type BbDeleteInput = {
    /** Path from the product's base; a body's next link works as is. */
    path: string;
    /** Query parameters, unencoded. */
    queryParams?: {
        [key: string]: string;
    };
    jq?: string;
    outputFormat?: "toon" | "json";
}
type BbDeleteOutput = unknown

declare const devtools: {
	/**
	 * List GitHub Actions workflow runs of a repository (newest first), optionally of one workflow and filtered by branch, status, event or actor.
	 * @param input.workflowId - Workflow id or file name (e.g. ci.yml).
	 * @param input.branch - Branch name.
	 * @param input.status - A status or conclusion, e.g. failure, in_progress.
	 * @param input.event - Triggering event, e.g. push, pull_request.
	 * @param input.actor - Login of the user who started the run.
	 * @param input.perPage - 1..=100 (default 30).
	 */
	github_list_workflow_runs: (input: GithubListWorkflowRunsInput) => Promise<GithubListWorkflowRunsOutput>;

	/**
	 * List the jobs of one GitHub Actions workflow run, with their steps, conclusions and runner.
	 * @param input.runId - The run's id.
	 * @param input.filter - latest (default): the latest attempt's jobs; all: every attempt's.
	 * @param input.perPage - 1..=100 (default 30).
	 */
	github_list_workflow_jobs: (input: GithubListWorkflowJobsInput) => Promise<GithubListWorkflowJobsOutput>;

	/**
	 * GET a GitHub REST path (pull requests of a commit, its check-runs, a run's artifacts, ...).
	 * @param input.path - REST path, e.g. `/repos/{o}/{r}/commits/{sha}/pulls`; an absolute URL only on the API host.
	 * @param input.mediaType - diff, patch: the text as a string.
	 * @param input.perPage - 1..=100 (default 30).
	 */
	github_get: (input: GithubGetInput) => Promise<GithubGetOutput>;

	/**
	 * GitHub Actions job log lines by step, for jobId, runId + jobName, or runId (failed jobs). Default: failed steps' last 200 lines.
	 * @param input.jobId - One job by id.
	 * @param input.runId - A run's jobs.
	 * @param input.jobName - With runId: this job.
	 * @param input.failedOnly - Failed jobs and steps only (default true).
	 * @param input.tailLines - Last lines per step (200; 0: all).
	 * @param input.grep - Regex: matching lines only.
	 * @param input.context - Lines around matches.
	 * @param input.step - Step number or name.
	 * @param input.raw - Keep ANSI codes.
	 */
	github_get_job_logs: (input: GithubGetJobLogsInput) => Promise<GithubGetJobLogsOutput>;

	/**
	 * Wait until a GitHub Actions workflow run completed: conclusion and jobs (failed ones with jobId for github_get_job_logs). Sends progress; with the tasks extension, a task kept for its ttlMs.
	 * @param input.owner - Repository owner.
	 * @param input.repo - Repository name.
	 * @param input.runId - Workflow run id.
	 * @param input.timeoutSeconds - Seconds (default 600; 0: the current state).
	 * @param input.failedLogTail - Log lines of each failed job to include (default 0).
	 */
	github_wait_for_run: (input: GithubWaitForRunInput) => Promise<GithubWaitForRunOutput>;

	/**
	 * Wait until no check run or commit status of a commit (ref or pullNumber) is pending, late checks included. Sends progress; with the tasks extension, a task kept for its ttlMs.
	 * @param input.owner - Repository owner.
	 * @param input.repo - Repository name.
	 * @param input.ref - Commit SHA, branch or tag.
	 * @param input.pullNumber - Or a pull request: its head commit.
	 * @param input.timeoutSeconds - Seconds (default 600; 0: the current state).
	 * @param input.failedLogTail - Log lines of each failed job to include (default 0).
	 */
	github_wait_for_checks: (input: GithubWaitForChecksInput) => Promise<GithubWaitForChecksOutput>;

	/**
	 * GET a CircleCI API v2 path (pipelines, workflows, jobs, insights, /me); pipeline, workflow and job paths are never cached; fresh: true forces a new read.
	 * @param input.path - API v2 path, e.g. /project/gh/ORG/REPO/pipeline, /pipeline/{id}/workflow, /workflow/{id}/job.
	 * @param input.queryParams - Query parameters, unencoded; continue a list with page-token = the body's next_page_token.
	 * @param input.fresh - Bypass the HTTP cache (default false).
	 */
	circleci_get: (input: CircleciGetInput) => Promise<CircleciGetOutput>;

	/**
	 * CircleCI job output lines by step (projectSlug, jobNumber), as github_get_job_logs.
	 * @param input.projectSlug - e.g. gh/ORG/REPO.
	 * @param input.jobNumber - Job number.
	 * @param input.failedOnly - Failed jobs and steps only (default true).
	 * @param input.tailLines - Last lines per step (200; 0: all).
	 * @param input.grep - Regex: matching lines only.
	 * @param input.context - Lines around matches.
	 * @param input.step - Step number or name.
	 * @param input.raw - Keep ANSI codes.
	 */
	circleci_get_job_logs: (input: CircleciGetJobLogsInput) => Promise<CircleciGetJobLogsOutput>;

	/**
	 * Wait until every workflow of a CircleCI pipeline (pipelineId, or projectSlug + branch: the newest) is terminal: workflows and jobs (jobNumber for circleci_get_job_logs). Sends progress; with the tasks extension, a task kept for its ttlMs.
	 * @param input.pipelineId - Pipeline id (a UUID).
	 * @param input.projectSlug - Or a project (gh/ORG/REPO) with branch: its newest pipeline.
	 * @param input.branch - With projectSlug.
	 * @param input.timeoutSeconds - Seconds (default 600; 0: the current state).
	 * @param input.failedLogTail - Log lines of each failed job to include (default 0).
	 */
	circleci_wait_for_pipeline: (input: CircleciWaitForPipelineInput) => Promise<CircleciWaitForPipelineOutput>;

	/**
	 * Read an oversized tool result saved as an artifact (incomplete.artifactId), one chunk at a time. Each chunk's data is base64 of bytes [offset, nextOffset); continue with offset = nextOffset until eof is true, then decode and concatenate the chunks.
	 * @param input.artifactId - The `incomplete.artifactId` of an oversized result.
	 * @param input.offset - Default 0.
	 * @param input.maxBytes - Default 65536, at most 1048576.
	 */
	artifact_read: (input: ArtifactReadInput) => Promise<ArtifactReadOutput>;

	/**
	 * One CI state for a commit (ref, sha or pullNumber): every GitHub check run and commit status and, with CircleCI configured, its pipelines' workflows and jobs, each with the ids the log and wait tools take.
	 * @param input.ref - A branch or tag (or a SHA).
	 * @param input.sha - A commit SHA.
	 * @param input.pullNumber - A pull request: its head commit.
	 * @param input.projectSlug - CircleCI project (default gh/OWNER/REPO).
	 */
	ci_status: (input: CiStatusInput) => Promise<CiStatusOutput>;

	/**
	 * GET a Jira REST path, e.g. /rest/api/3/search/jql with queryParams {jql, fields, maxResults, nextPageToken}, /rest/api/3/issue/EX-1. Ask only for the fields you need.
	 * @param input.path - Path from the product's base; a body's next link works as is.
	 * @param input.queryParams - Query parameters, unencoded.
	 */
	jira_get: (input: JiraGetInput) => Promise<JiraGetOutput>;

	/**
	 * POST a JSON body to a Jira path, e.g. /rest/api/3/issue (create), /rest/api/3/issue/EX-1/comment. Clears cached Jira reads.
	 */
	jira_post: (input: JiraPostInput) => Promise<JiraPostOutput>;

	/**
	 * PUT a JSON body to a Jira path, e.g. /rest/api/3/issue/EX-1 with {fields} (edit). Clears cached Jira reads.
	 */
	jira_put: (input: JiraPutInput) => Promise<JiraPutOutput>;

	/**
	 * PATCH a Jira path with a JSON body. Clears cached Jira reads.
	 */
	jira_patch: (input: JiraPatchInput) => Promise<JiraPatchOutput>;

	/**
	 * DELETE a Jira path, e.g. /rest/api/3/issue/EX-1. Cannot be undone. Clears cached Jira reads.
	 * @param input.path - Path from the product's base; a body's next link works as is.
	 * @param input.queryParams - Query parameters, unencoded.
	 */
	jira_delete: (input: JiraDeleteInput) => Promise<JiraDeleteOutput>;

	/**
	 * GET a Confluence REST path, e.g. /wiki/api/v2/pages, /wiki/api/v2/pages/{id} with queryParams {body-format: storage}, /wiki/rest/api/search with {cql}; continue with its _links.next as path.
	 * @param input.path - Path from the product's base; a body's next link works as is.
	 * @param input.queryParams - Query parameters, unencoded.
	 */
	conf_get: (input: ConfGetInput) => Promise<ConfGetOutput>;

	/**
	 * POST a JSON body to a Confluence path, e.g. /wiki/api/v2/pages with {spaceId, title, body}. Clears cached Confluence reads.
	 */
	conf_post: (input: ConfPostInput) => Promise<ConfPostOutput>;

	/**
	 * PUT a JSON body to a Confluence path, e.g. /wiki/api/v2/pages/{id} with {id, status, title, body, version: {number: current + 1}}. Clears cached Confluence reads.
	 */
	conf_put: (input: ConfPutInput) => Promise<ConfPutOutput>;

	/**
	 * PATCH a Confluence path with a JSON body. Clears cached Confluence reads.
	 */
	conf_patch: (input: ConfPatchInput) => Promise<ConfPatchOutput>;

	/**
	 * DELETE a Confluence path, e.g. /wiki/api/v2/pages/{id} ({purge: true}: for good). Clears cached Confluence reads.
	 * @param input.path - Path from the product's base; a body's next link works as is.
	 * @param input.queryParams - Query parameters, unencoded.
	 */
	conf_delete: (input: ConfDeleteInput) => Promise<ConfDeleteOutput>;

	/**
	 * GET a Bitbucket 2.0 path, e.g. /repositories/{workspace}/{repo}/pullrequests, .../diff/{spec}. A diff or raw file is a string; continue with its next URL as path.
	 * @param input.path - Path from the product's base; a body's next link works as is.
	 * @param input.queryParams - Query parameters, unencoded.
	 */
	bb_get: (input: BbGetInput) => Promise<BbGetOutput>;

	/**
	 * POST a JSON body to a Bitbucket path, e.g. /repositories/{workspace}/{repo}/pullrequests, .../pullrequests/{id}/approve. Clears cached Bitbucket reads.
	 */
	bb_post: (input: BbPostInput) => Promise<BbPostOutput>;

	/**
	 * PUT a JSON body to a Bitbucket path, e.g. a pull request. Clears cached Bitbucket reads.
	 */
	bb_put: (input: BbPutInput) => Promise<BbPutOutput>;

	/**
	 * PATCH a Bitbucket path with a JSON body. Clears cached Bitbucket reads.
	 */
	bb_patch: (input: BbPatchInput) => Promise<BbPatchOutput>;

	/**
	 * DELETE a Bitbucket path, e.g. .../pullrequests/{id}/approve. Cannot be undone. Clears cached Bitbucket reads.
	 * @param input.path - Path from the product's base; a body's next link works as is.
	 * @param input.queryParams - Query parameters, unencoded.
	 */
	bb_delete: (input: BbDeleteInput) => Promise<BbDeleteOutput>;
}
