type GithubListWorkflowRunsInput = {
    owner: string;
    repo: string;
    workflowId?: number | string;
    branch?: string;
    status?: string;
    event?: string;
    actor?: string;
    perPage?: number;
    page?: number;
    allPages?: number;
    maxItems?: number;
    jq?: string;
    outputFormat?: "toon" | "json";
}
type GithubListWorkflowRunsOutput = {
    /** GitHub's body {total_count, workflow_runs: [{id, name, head_branch, head_sha, status, conclusion, html_url, head_commit: {message}, ...}]}, or the jq output; null when incomplete */
    data: unknown;
    /** Pass as page for the next page; null on the last */
    nextPage: number | null;
    /** With allPages: pages read, why reading stopped; nextPage/nextLink continue */
    pages?: {
        read: number;
        stoppedBy: "last_page" | "max_pages" | "max_items" | "repeated_link" | "upstream_error";
        error: string | null;
    };
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
    runId: number;
    filter?: "latest" | "all";
    perPage?: number;
    page?: number;
    allPages?: number;
    maxItems?: number;
    jq?: string;
    outputFormat?: "toon" | "json";
}
type GithubListWorkflowJobsOutput = {
    /** GitHub's body {total_count, jobs: [{id, name, conclusion, steps: [{name, conclusion, number}], html_url, ...}]}, or the jq output; null when incomplete */
    data: unknown;
    /** Pass as page for the next page; null on the last */
    nextPage: number | null;
    /** With allPages: pages read, why reading stopped; nextPage/nextLink continue */
    pages?: {
        read: number;
        stoppedBy: "last_page" | "max_pages" | "max_items" | "repeated_link" | "upstream_error";
        error: string | null;
    };
    incomplete?: {
        reason: "size" | "binary" | "unavailable";
        bytes: number;
        limitBytes: number;
        artifactId: string | null;
        mimeType?: string | null;
    };
}
type GithubGetInput = {
    path: string;
    queryParams?: {
        [key: string]: string;
    };
    mediaType?: "json" | "diff" | "patch";
    perPage?: number;
    page?: number;
    allPages?: number;
    maxItems?: number;
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
    /** With allPages: pages read, why reading stopped; nextPage/nextLink continue */
    pages?: {
        read: number;
        stoppedBy: "last_page" | "max_pages" | "max_items" | "repeated_link" | "upstream_error";
        error: string | null;
    };
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
    jobId?: number;
    runId?: number;
    jobName?: string;
    failedOnly?: boolean;
    tailLines?: number;
    grep?: string;
    context?: number;
    step?: number | string;
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
    incomplete?: {
        reason: "size" | "binary" | "unavailable";
        bytes: number;
        limitBytes: number;
        artifactId: string | null;
        mimeType?: string | null;
    };
}
type GithubWaitForRunInput = {
    owner: string;
    repo: string;
    runId: number;
    timeoutSeconds?: number;
    failedLogTail?: number;
}
type GithubWaitForRunOutput = {
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
    incomplete?: {
        reason: "size" | "binary" | "unavailable";
        bytes: number;
        limitBytes: number;
        artifactId: string | null;
        mimeType?: string | null;
    };
}
type GithubWaitForChecksInput = {
    owner: string;
    repo: string;
    ref?: string;
    pullNumber?: number;
    timeoutSeconds?: number;
    failedLogTail?: number;
}
type GithubWaitForChecksOutput = {
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
    incomplete?: {
        reason: "size" | "binary" | "unavailable";
        bytes: number;
        limitBytes: number;
        artifactId: string | null;
        mimeType?: string | null;
    };
}
type CircleciGetInput = {
    path: string;
    queryParams?: {
        [key: string]: string;
    };
    fresh?: boolean;
    allPages?: number;
    maxItems?: number;
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
    /** With allPages: pages read, why reading stopped; nextPage/nextLink continue */
    pages?: {
        read: number;
        stoppedBy: "last_page" | "max_pages" | "max_items" | "repeated_link" | "upstream_error";
        error: string | null;
    };
    incomplete?: {
        reason: "size" | "binary" | "unavailable";
        bytes: number;
        limitBytes: number;
        artifactId: string | null;
        mimeType?: string | null;
    };
}
type CircleciGetJobLogsInput = {
    projectSlug: string;
    jobNumber: number;
    failedOnly?: boolean;
    tailLines?: number;
    grep?: string;
    context?: number;
    step?: number | string;
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
    incomplete?: {
        reason: "size" | "binary" | "unavailable";
        bytes: number;
        limitBytes: number;
        artifactId: string | null;
        mimeType?: string | null;
    };
}
type CircleciWaitForPipelineInput = {
    pipelineId?: string;
    projectSlug?: string;
    branch?: string;
    timeoutSeconds?: number;
    failedLogTail?: number;
}
type CircleciWaitForPipelineOutput = {
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
    incomplete?: {
        reason: "size" | "binary" | "unavailable";
        bytes: number;
        limitBytes: number;
        artifactId: string | null;
        mimeType?: string | null;
    };
}
type ArtifactReadInput = {
    artifactId: string;
    offset?: number;
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
    ref?: string;
    sha?: string;
    pullNumber?: number;
    projectSlug?: string;
}
type CiStatusOutput = {
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
    incomplete?: {
        reason: "size" | "binary" | "unavailable";
        bytes: number;
        limitBytes: number;
        artifactId: string | null;
        mimeType?: string | null;
    };
}
type CiTestResultsInput = {
    owner?: string;
    repo?: string;
    artifactId?: number;
    projectSlug?: string;
    jobNumber?: number;
    artifactPath?: string;
    pathPattern?: string;
    maxFailed?: number;
}
type CiTestResultsOutput = {
    data: {
        source: string;
        totals: {
            passed: number;
            failed: number;
            skipped: number;
            total: number;
        };
        durationMs: number | null;
        reports: {
            entry: string | null;
            format: string;
            totals: {
                passed: number;
                failed: number;
                skipped: number;
                total: number;
            };
            durationMs: number | null;
        }[];
        skippedEntries: {
            entry: string;
            reason: string;
        }[];
        failed: {
            report: string | null;
            suite: string | null;
            group: string | null;
            name: string;
            file: string | null;
            line: number | null;
            message: string | null;
            details: string | null;
            messageFullChars: number | null;
            detailsFullChars: number | null;
            detailsArtifactId: string | null;
        }[];
        failedOmitted: number;
    } | null;
    incomplete?: {
        reason: "size" | "binary" | "unavailable";
        bytes: number;
        limitBytes: number;
        artifactId: string | null;
        mimeType?: string | null;
    };
}
type CiArtifactEntriesInput = {
    owner?: string;
    repo?: string;
    artifactId?: number;
    projectSlug?: string;
    jobNumber?: number;
    artifactPath?: string;
}
type CiArtifactEntriesOutput = {
    data: {
        source: string;
        archiveBytes: number;
        entries: {
            name: string;
            size: number;
            compressedSize: number;
        }[];
    } | null;
    incomplete?: {
        reason: "size" | "binary" | "unavailable";
        bytes: number;
        limitBytes: number;
        artifactId: string | null;
        mimeType?: string | null;
    };
}
type CiArtifactEntryInput = {
    owner?: string;
    repo?: string;
    artifactId?: number;
    projectSlug?: string;
    jobNumber?: number;
    artifactPath?: string;
    entry: string;
    format?: "text" | "json" | "jsonl";
}
type CiArtifactEntryOutput = {
    data: {
        source: string;
        entry: string;
        size: number;
        format: "text" | "json" | "jsonl";
        content: unknown;
    } | null;
    incomplete?: {
        reason: "size" | "binary" | "unavailable";
        bytes: number;
        limitBytes: number;
        artifactId: string | null;
        mimeType?: string | null;
    };
}
type JiraGetInput = {
    path: string;
    queryParams?: {
        [key: string]: string;
    };
    allPages?: number;
    maxItems?: number;
    jq?: string;
    outputFormat?: "toon" | "json";
}
type JiraGetOutput = {
    /** The body, or the jq output; null when incomplete */
    data: unknown;
    /** Next page: pass as path alone; null on the last */
    nextLink: string | null;
    /** With allPages: pages read, why reading stopped; nextPage/nextLink continue */
    pages?: {
        read: number;
        stoppedBy: "last_page" | "max_pages" | "max_items" | "repeated_link" | "upstream_error";
        error: string | null;
    };
    incomplete?: {
        reason: "size" | "binary" | "unavailable";
        bytes: number;
        limitBytes: number;
        artifactId: string | null;
        mimeType?: string | null;
    };
}
type JiraWriteInput = {
    method: "POST" | "PUT" | "PATCH" | "DELETE";
    path: string;
    queryParams?: {
        [key: string]: string;
    };
    body?: unknown;
    jq?: string;
    outputFormat?: "toon" | "json";
}
type JiraWriteOutput = unknown
type ConfGetInput = {
    path: string;
    queryParams?: {
        [key: string]: string;
    };
    allPages?: number;
    maxItems?: number;
    jq?: string;
    outputFormat?: "toon" | "json";
}
type ConfGetOutput = {
    /** The body, or the jq output; null when incomplete */
    data: unknown;
    /** Next page: pass as path alone; null on the last */
    nextLink: string | null;
    /** With allPages: pages read, why reading stopped; nextPage/nextLink continue */
    pages?: {
        read: number;
        stoppedBy: "last_page" | "max_pages" | "max_items" | "repeated_link" | "upstream_error";
        error: string | null;
    };
    incomplete?: {
        reason: "size" | "binary" | "unavailable";
        bytes: number;
        limitBytes: number;
        artifactId: string | null;
        mimeType?: string | null;
    };
}
type ConfWriteInput = {
    method: "POST" | "PUT" | "PATCH" | "DELETE";
    path: string;
    queryParams?: {
        [key: string]: string;
    };
    body?: unknown;
    jq?: string;
    outputFormat?: "toon" | "json";
}
type ConfWriteOutput = unknown
type BbGetInput = {
    path: string;
    queryParams?: {
        [key: string]: string;
    };
    allPages?: number;
    maxItems?: number;
    jq?: string;
    outputFormat?: "toon" | "json";
}
type BbGetOutput = {
    /** The body, or the jq output; null when incomplete */
    data: unknown;
    /** Next page: pass as path alone; null on the last */
    nextLink: string | null;
    /** With allPages: pages read, why reading stopped; nextPage/nextLink continue */
    pages?: {
        read: number;
        stoppedBy: "last_page" | "max_pages" | "max_items" | "repeated_link" | "upstream_error";
        error: string | null;
    };
    incomplete?: {
        reason: "size" | "binary" | "unavailable";
        bytes: number;
        limitBytes: number;
        artifactId: string | null;
        mimeType?: string | null;
    };
}
type BbWriteInput = {
    method: "POST" | "PUT" | "PATCH" | "DELETE";
    path: string;
    queryParams?: {
        [key: string]: string;
    };
    body?: unknown;
    jq?: string;
    outputFormat?: "toon" | "json";
}
type BbWriteOutput = unknown

declare const devtools: {
	/**
	 * List GitHub Actions workflow runs of a repository, newest first. workflowId: Workflow id or file name (e.g. ci.yml). branch: Branch name. status: A status or conclusion, e.g. failure, in_progress. event: Triggering event, e.g. push, pull_request. actor: Login of the user who started the run. perPage: 1..=100 (default 30). allPages: Read and merge up to this many pages. maxItems: With allPages: stop at this many items.
	 */
	github_list_workflow_runs: (input: GithubListWorkflowRunsInput) => Promise<GithubListWorkflowRunsOutput>;

	/**
	 * List the jobs of one GitHub Actions workflow run, with their steps, conclusions and runner. runId: The run's id. filter: latest (default): the latest attempt's jobs; all: every attempt's. perPage: 1..=100 (default 30). allPages: Read and merge up to this many pages. maxItems: With allPages: stop at this many items.
	 */
	github_list_workflow_jobs: (input: GithubListWorkflowJobsInput) => Promise<GithubListWorkflowJobsOutput>;

	/**
	 * GET a GitHub REST path (pull requests of a commit, its check-runs, a run's artifacts, ...). path: REST path, e.g. `/repos/{o}/{r}/commits/{sha}/pulls`; an absolute URL only on the API host. mediaType: diff, patch: the text as a string. perPage: 1..=100 (default 30). allPages: Read and merge up to this many pages. maxItems: With allPages: stop at this many items.
	 */
	github_get: (input: GithubGetInput) => Promise<GithubGetOutput>;

	/**
	 * GitHub Actions job log lines by step, for jobId, runId + jobName, or runId (failed jobs). jobId: One job by id. runId: A run's jobs. jobName: With runId: this job. failedOnly: Failed jobs and steps only (default true). tailLines: Last lines per step (200; 0: all). grep: Regex: matching lines only. context: Lines around matches. step: Step number or name. raw: Keep ANSI codes.
	 */
	github_get_job_logs: (input: GithubGetJobLogsInput) => Promise<GithubGetJobLogsOutput>;

	/**
	 * Wait until a GitHub Actions workflow run completed: conclusion and jobs (failed ones with jobId for github_get_job_logs). Sends progress; can run as a task. timeoutSeconds: Seconds (default 600; 0: the current state). failedLogTail: Log lines of each failed job to include (default 0).
	 */
	github_wait_for_run: (input: GithubWaitForRunInput) => Promise<GithubWaitForRunOutput>;

	/**
	 * Wait until no check run or commit status of a commit (ref or pullNumber) is pending, late checks included. Sends progress; can run as a task. ref: Commit SHA, branch or tag. pullNumber: Or a pull request: its head commit. timeoutSeconds: Seconds (default 600; 0: the current state). failedLogTail: Log lines of each failed job to include (default 0).
	 */
	github_wait_for_checks: (input: GithubWaitForChecksInput) => Promise<GithubWaitForChecksOutput>;

	/**
	 * GET a CircleCI API v2 path (pipelines, workflows, jobs, insights, /me); pipeline, workflow and job paths are never cached; fresh: true forces a new read. path: API v2 path, e.g. /project/gh/ORG/REPO/pipeline, /pipeline/{id}/workflow, /workflow/{id}/job. queryParams: Query parameters, unencoded; continue a list with page-token = the body's next_page_token. fresh: Bypass the HTTP cache (default false). allPages: Read and merge up to this many pages. maxItems: With allPages: stop at this many items.
	 */
	circleci_get: (input: CircleciGetInput) => Promise<CircleciGetOutput>;

	/**
	 * CircleCI job output lines by step (projectSlug, jobNumber), as github_get_job_logs. projectSlug: e.g. gh/ORG/REPO. jobNumber: Job number. failedOnly: Failed jobs and steps only (default true). tailLines: Last lines per step (200; 0: all). grep: Regex: matching lines only. context: Lines around matches. step: Step number or name. raw: Keep ANSI codes.
	 */
	circleci_get_job_logs: (input: CircleciGetJobLogsInput) => Promise<CircleciGetJobLogsOutput>;

	/**
	 * Wait until every workflow of a CircleCI pipeline (pipelineId, or projectSlug + branch: the newest) is terminal: workflows and jobs (jobNumber for circleci_get_job_logs). Sends progress; can run as a task. pipelineId: Pipeline id (a UUID). projectSlug: Or a project (gh/ORG/REPO) with branch: its newest pipeline. branch: With projectSlug. timeoutSeconds: Seconds (default 600; 0: the current state). failedLogTail: Log lines of each failed job to include (default 0).
	 */
	circleci_wait_for_pipeline: (input: CircleciWaitForPipelineInput) => Promise<CircleciWaitForPipelineOutput>;

	/**
	 * Read an oversized tool result saved as an artifact (incomplete.artifactId), one chunk at a time. Each chunk's data is base64 of bytes [offset, nextOffset); continue with offset = nextOffset until eof is true, then decode and concatenate the chunks. artifactId: The `incomplete.artifactId` of an oversized result. offset: Default 0. maxBytes: Default 65536, at most 1048576.
	 */
	artifact_read: (input: ArtifactReadInput) => Promise<ArtifactReadOutput>;

	/**
	 * One CI state for a commit (ref, sha or pullNumber): every GitHub check run and commit status and, with CircleCI configured, its pipelines' workflows and jobs, each with the ids the log and wait tools take. ref: A branch or tag (or a SHA). sha: A commit SHA. pullNumber: A pull request: its head commit. projectSlug: CircleCI project (default gh/OWNER/REPO).
	 */
	ci_status: (input: CiStatusInput) => Promise<CiStatusOutput>;

	/**
	 * Test results of a GitHub Actions artifact, a CircleCI job or its artifactPath: counts, failed tests with file, line, message. Reads JUnit, TRX, NUnit, mocha, RSpec, go, dart. artifactId: GitHub Actions artifact id. projectSlug: CircleCI, e.g. gh/ORG/REPO. jobNumber: CircleCI job number. artifactPath: A CircleCI job artifact's path. pathPattern: Glob over entry names, e.g. `**\/junit*.xml`; default: all. maxFailed: Default 100.
	 */
	ci_test_results: (input: CiTestResultsInput) => Promise<CiTestResultsOutput>;

	/**
	 * List the files of a zip artifact (GitHub Actions, or a CircleCI artifactPath). artifactId: GitHub Actions artifact id. projectSlug: CircleCI, e.g. gh/ORG/REPO. jobNumber: CircleCI job number. artifactPath: A CircleCI job artifact's path.
	 */
	ci_artifact_entries: (input: CiArtifactEntriesInput) => Promise<CiArtifactEntriesOutput>;

	/**
	 * Read one file of a zip artifact as text, json or jsonl. artifactId: GitHub Actions artifact id. projectSlug: CircleCI, e.g. gh/ORG/REPO. jobNumber: CircleCI job number. artifactPath: A CircleCI job artifact's path. entry: A name ci_artifact_entries lists. format: Default text.
	 */
	ci_artifact_entry: (input: CiArtifactEntryInput) => Promise<CiArtifactEntryOutput>;

	/**
	 * GET a Jira REST path, e.g. /rest/api/3/search/jql with queryParams {jql, fields, maxResults, nextPageToken}, /rest/api/3/issue/EX-1 (Data Center: /rest/api/2/..., search with startAt). Ask only for the fields you need. path: Path from the product's base; a body's next link works as is. queryParams: Query parameters, unencoded. allPages: Read and merge up to this many pages. maxItems: With allPages: stop at this many items.
	 */
	jira_get: (input: JiraGetInput) => Promise<JiraGetOutput>;

	/**
	 * POST, PUT, PATCH or DELETE (method) a Jira path with a JSON body, e.g. POST /rest/api/3/issue (create), PUT /rest/api/3/issue/EX-1 {fields} (edit), POST .../EX-1/comment, DELETE .../EX-1 (for good). Clears cached Jira reads. method: The method of a write, as HTTP spells it.
	 */
	jira_write: (input: JiraWriteInput) => Promise<JiraWriteOutput>;

	/**
	 * GET a Confluence REST path, e.g. /wiki/api/v2/pages, /wiki/api/v2/pages/{id} with queryParams {body-format: storage}, /wiki/rest/api/search with {cql}; continue with its _links.next as path. path: Path from the product's base; a body's next link works as is. queryParams: Query parameters, unencoded. allPages: Read and merge up to this many pages. maxItems: With allPages: stop at this many items.
	 */
	conf_get: (input: ConfGetInput) => Promise<ConfGetOutput>;

	/**
	 * POST, PUT, PATCH or DELETE (method) a Confluence path with a JSON body, e.g. POST /wiki/api/v2/pages {spaceId, title, body}, PUT .../pages/{id} {id, status, title, body, version: {number: current + 1}}, DELETE .../pages/{id} (queryParams {purge: true}: for good). Clears cached Confluence reads. method: The method of a write, as HTTP spells it.
	 */
	conf_write: (input: ConfWriteInput) => Promise<ConfWriteOutput>;

	/**
	 * GET a Bitbucket path, e.g. /repositories/{workspace}/{repo}/pullrequests, .../diff/{spec} (Data Center: /projects/{key}/repos/{repo}/pull-requests). A diff or raw file is a string; continue with nextLink as path. path: Path from the product's base; a body's next link works as is. queryParams: Query parameters, unencoded. allPages: Read and merge up to this many pages. maxItems: With allPages: stop at this many items.
	 */
	bb_get: (input: BbGetInput) => Promise<BbGetOutput>;

	/**
	 * POST, PUT, PATCH or DELETE (method) a Bitbucket path with a JSON body, e.g. POST /repositories/{workspace}/{repo}/pullrequests, POST or DELETE .../pullrequests/{id}/approve. Clears cached Bitbucket reads. method: The method of a write, as HTTP spells it.
	 */
	bb_write: (input: BbWriteInput) => Promise<BbWriteOutput>;
}
