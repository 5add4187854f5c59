// @ts-check
// A three-vendor triage as a code-mode program, on the official TypeScript MCP SDK client. First it waits, then it
// triages: github_wait_for_run waits until a run completed (--run-id, default the newest run; at most
// --wait-seconds), so that the triage sees its outcome. Then, for each failed GitHub
// Actions run, the failing job and step, the CircleCI pipeline built from the same commit (`vcs.revision` = the
// run's `head_sha`), and the Jira issues named in the run's head commit message with their status and assignee.
// It reads `structuredContent` as data (types in tools.d.ts, generated from tools/list by scripts/gen-types; the
// shapes of `data` it asks for in shapes.d.ts) and prints one table, then each failure's reason: the failing steps'
// last error lines (github_get_job_logs, grep on the server), then its failed tests: the failing checks of its commit
// (ci_status) and the failed tests of their reports (ci_test_results), one line each; a model calling the tools
// itself would have read every text block instead. The same task as the Rust `triage` example and ../code-mode-py/triage.py, with the same output.
//
// Run (from the repository root, after `cargo build -p mcp-devtools-server -p recorded-upstream` and `npm ci` in
// this folder):  node examples/code-mode-ts/triage.mjs  [--live] [--owner O] [--repo R] [--circleci-project SLUG]
//                  [--run-id ID] [--wait-seconds S]
//
// Upstream: by default it starts target/debug/recorded-upstream (or $RECORDED_UPSTREAM_BIN), which serves recorded
// data for every vendor on 127.0.0.1, and points the server at it; with $UPSTREAM_URL set it uses that recorded
// upstream instead; with --live the server uses this process's environment (GITHUB_TOKEN, CIRCLECI_TOKEN,
// ATLASSIAN_SITE_NAME or JIRA_BASE_URL, ATLASSIAN_USER_EMAIL, ATLASSIAN_API_TOKEN). Server: $MCP_DEVTOOLS_BIN, else
// target/debug/mcp-devtools.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

/** @typedef {import("./tools").GithubListWorkflowRunsOutput} GithubListWorkflowRunsOutput */
/** @typedef {import("./tools").GithubListWorkflowJobsOutput} GithubListWorkflowJobsOutput */
/** @typedef {import("./tools").GithubGetOutput} GithubGetOutput */
/** @typedef {import("./tools").GithubGetJobLogsOutput} GithubGetJobLogsOutput */
/** @typedef {import("./tools").CircleciGetOutput} CircleciGetOutput */
/** @typedef {import("./tools").JiraGetOutput} JiraGetOutput */
/** @typedef {import("./tools").ArtifactReadOutput} ArtifactReadOutput */
/** @typedef {import("./tools").GithubWaitForRunOutput} GithubWaitForRunOutput */
/** @typedef {import("./tools").CiStatusOutput} CiStatusOutput */
/** @typedef {import("./tools").CiTestResultsOutput} CiTestResultsOutput */
/** @typedef {import("./tools").FailedItem} FailedTest */
/** @typedef {import("./tools").Data} WaitResult */
/** @typedef {import("./shapes").WorkflowRun} WorkflowRun */
/** @typedef {import("./shapes").WorkflowRunsPage} WorkflowRunsPage */
/** @typedef {import("./shapes").FailedJobs} FailedJobs */
/** @typedef {import("./shapes").FailedStepLines} FailedStepLines */
/** @typedef {import("./shapes").PipelinePage} PipelinePage */
/** @typedef {import("./shapes").IssueStatus} IssueStatus */
/** @typedef {import("./shapes").CommitPulls} CommitPulls */
/** @typedef {import("./shapes").ArtifactIds} ArtifactIds */
/** @typedef {{ content?: { type: string, text?: string }[], structuredContent?: any, isError?: boolean }} ToolResult */

const FAILED_JOB =
  '[.jobs[] | select(.conclusion == "failure") | {name, steps: [.steps[] | select(.conclusion == "failure") | .name]}]';
const WHY = "[.jobs[] | .job.name as $job | .steps[] | select(.lines != []) | {job: $job, step: .name, lines: [.lines[].text]}]";
const ERROR_LINES = "^(FAILED|ERROR:|E +|[A-Za-z]+Error:)";
const PIPELINES = "{items: [.items[] | {revision: .vcs.revision, number, state}], next: .next_page_token}";
const ISSUE = "{status: .fields.status.name, assignee: .fields.assignee.displayName}";
const PULLS = "[.[] | {number, state, merged: (.merged_at != null)}]";
const NEWEST_RUN = ".workflow_runs[0].id";
const TEST_RESULTS_ARTIFACTS = '[.artifacts[] | select(.name == "test-results") | .id]';

const { values: options } = parseArgs({
  options: {
    live: { type: "boolean", default: false },
    owner: { type: "string", default: "octo-org" },
    repo: { type: "string", default: "octo-repo" },
    "circleci-project": { type: "string" },
    "per-page": { type: "string", default: "100" },
    "max-pages": { type: "string", default: "3" },
    "max-circleci-pages": { type: "string", default: "3" },
    "run-id": { type: "string" },
    "wait-seconds": { type: "string", default: "60" },
  },
});
const root = fileURLToPath(new URL("../../", import.meta.url));

/** The settings that point the server at a recorded upstream whose base URL is `uri`. */
function recordedEnv(uri) {
  return {
    GITHUB_API_BASE: uri,
    GITHUB_TOKEN: "recorded-upstream-token",
    CIRCLECI_API_BASE: `${uri}/api/v2`,
    CIRCLECI_TOKEN: "recorded-upstream-token",
    JIRA_BASE_URL: uri,
    CONFLUENCE_BASE_URL: `${uri}/wiki`,
    BITBUCKET_BASE_URL: uri,
    ATLASSIAN_USER_EMAIL: "mia@example.com",
    ATLASSIAN_API_TOKEN: "recorded-upstream-token",
  };
}

/** Starts the recorded-upstream binary and reads the `NAME=value` lines it prints (up to the empty line). */
async function startRecordedUpstream() {
  const bin = process.env.RECORDED_UPSTREAM_BIN ?? `${root}target/debug/recorded-upstream`;
  if (!existsSync(bin)) throw new Error(`${bin} not found: run \`cargo build -p recorded-upstream\` or set RECORDED_UPSTREAM_BIN`);
  // Its stdin is our pipe: when this program ends, the pipe closes and the upstream stops.
  const child = spawn(bin, ["--until-stdin-closes"], { stdio: ["pipe", "pipe", "inherit"] });
  /** @type {Record<string, string>} */
  const env = {};
  for await (const line of createInterface({ input: /** @type {any} */ (child.stdout) })) {
    if (line === "") break;
    const eq = line.indexOf("=");
    env[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return { child, env };
}

let upstream = null;
/** @type {Record<string, string>} */
let env;
if (options.live) {
  env = /** @type {Record<string, string>} */ (process.env);
} else if (process.env.UPSTREAM_URL) {
  env = recordedEnv(process.env.UPSTREAM_URL);
} else {
  upstream = await startRecordedUpstream();
  env = upstream.env;
}
const bin = process.env.MCP_DEVTOOLS_BIN ?? `${root}target/debug/mcp-devtools`;
if (!existsSync(bin)) throw new Error(`${bin} not found: run \`cargo build -p mcp-devtools-server\` or set MCP_DEVTOOLS_BIN`);
const transport = new StdioClientTransport({
  command: bin,
  args: [],
  env: { ...env, MCP_STRUCTURED_OUTPUT: "true", STREAMING_ARTIFACT_STORE: "memory", RUST_LOG: "warn" },
  stderr: "inherit",
});
const client = new Client({ name: "mcp-devtools-triage-ts", version: "1.0.0" });
await client.connect(transport);

/** Every call made (tool, arguments), replayed without jq for the baseline. @type {[string, Record<string, any>][]} */
const calls = [];

/**
 * Calls a tool; the SDK validates `structuredContent` against the tool's outputSchema.
 * @param {string} name @param {Record<string, any>} args @returns {Promise<ToolResult>}
 */
async function callTool(name, args) {
  calls.push([name, args]);
  return /** @type {ToolResult} */ (await client.callTool({ name, arguments: args }));
}

/** @param {ToolResult} result */
const textOf = (result) => result.content?.[0]?.text ?? "";
/** @param {string} text */
const firstLine = (text) => text.split("\n")[0];

/**
 * `structuredContent.data`, or, when the value was over the bound (`incomplete`), the whole value read back with
 * `artifact_read`, chunk after chunk until `eof`.
 * @param {ToolResult} result
 */
async function dataOf(result) {
  /** @type {GithubListWorkflowRunsOutput | GithubListWorkflowJobsOutput | GithubGetOutput | GithubGetJobLogsOutput | CircleciGetOutput | JiraGetOutput | CiStatusOutput | CiTestResultsOutput} */
  const envelope = result.structuredContent;
  if (!envelope.incomplete) return envelope.data;
  const id = envelope.incomplete.artifactId;
  if (id === null) throw new Error("the oversized value could not be saved; narrow the jq");
  const chunks = [];
  for (let offset = 0; ; ) {
    const read = /** @type {ToolResult} */ (
      await client.callTool({ name: "artifact_read", arguments: { artifactId: id, offset, maxBytes: 1048576 } })
    );
    if (read.isError) throw new Error(`artifact_read failed: ${textOf(read)}`);
    /** @type {ArtifactReadOutput} */
    const chunk = read.structuredContent;
    chunks.push(Buffer.from(chunk.data, "base64"));
    offset = chunk.nextOffset;
    if (chunk.eof) break;
  }
  return JSON.parse(Buffer.concat(chunks).toString("utf8")).data;
}

const repo = { owner: options.owner, repo: options.repo };

/**
 * What the wait saw: the run's state and conclusion and its failed jobs, or the state a wait that timed out (or
 * stopped for another reason) last saw.
 * @param {WaitResult} wait @param {number} seconds
 */
function waitedLine(wait, seconds) {
  const failedJobs = wait.jobs.filter((job) => job.failed).length;
  const jobs = wait.jobs.length;
  if (wait.stoppedBy === "finished") {
    return `Waited for ${wait.target}: ${wait.state}, ${wait.conclusion ?? "-"}; ${failedJobs} of ${jobs} job(s) failed`;
  }
  if (wait.stoppedBy === "timeout") {
    return `Waited ${seconds} s for ${wait.target}: still ${wait.state}; ${failedJobs} of ${jobs} job(s) failed so far`;
  }
  return `Stopped waiting for ${wait.target} (${wait.stoppedBy}): ${wait.state}; ${failedJobs} of ${jobs} job(s) failed so far`;
}

// 0. Wait, then triage: the run (default the newest) until it completed, at most --wait-seconds. The server polls
//    for the program (one poll loop per run, however many wait on it) and answers once it finished.
let runId = options["run-id"] === undefined ? null : Number(options["run-id"]);
if (runId === null) {
  const result = await callTool("github_list_workflow_runs", { ...repo, perPage: Number(options["per-page"]), jq: NEWEST_RUN });
  if (result.isError) throw new Error(`listing runs failed: ${textOf(result)}`);
  runId = /** @type {number | null} */ (await dataOf(result));
}
let waited = "No run to wait for.";
if (runId !== null) {
  const waitSeconds = Number(options["wait-seconds"]);
  // Not in `calls`: the baseline leaves the wait out (its text holds waitedMs, which varies).
  const result = /** @type {ToolResult} */ (
    await client.callTool({ name: "github_wait_for_run", arguments: { ...repo, runId, timeoutSeconds: waitSeconds } })
  );
  if (result.isError) {
    waited = `Could not wait for run ${runId}: ${firstLine(textOf(result))}`;
  } else {
    /** @type {GithubWaitForRunOutput} */
    const envelope = result.structuredContent;
    waited = waitedLine(/** @type {WaitResult} */ (envelope.data), waitSeconds);
  }
}

// 1. Failed runs, page after page. No jq: the program keeps whole runs (it needs the head commit message), so a
//    100-run page is over the structured bound and comes back as an artifact.
/** @type {WorkflowRun[]} */
const failed = [];
let scanned = 0;
let pages = 0;
for (let page = 1; page !== null && pages < Number(options["max-pages"]); pages++) {
  const result = await callTool("github_list_workflow_runs", { ...repo, perPage: Number(options["per-page"]), page });
  if (result.isError) throw new Error(`listing runs failed: ${textOf(result)}`);
  /** @type {WorkflowRunsPage} */
  const data = await dataOf(result);
  scanned += data.workflow_runs.length;
  failed.push(...data.workflow_runs.filter((run) => run.conclusion === "failure"));
  page = /** @type {GithubListWorkflowRunsOutput} */ (result.structuredContent).nextPage;
}

// 2. The failing job and step of each failed run; the Jira keys of its head commit message.
const rows = [];
for (const run of failed) {
  const result = await callTool("github_list_workflow_jobs", { ...repo, runId: run.id, jq: FAILED_JOB });
  let failing;
  if (result.isError) {
    failing = `error: ${firstLine(textOf(result))}`;
  } else {
    /** @type {FailedJobs} */
    const jobs = await dataOf(result);
    failing = jobs.map((job) => `${job.name}: ${job.steps.join(", ")}`).join("; ");
  }
  const keys = [...new Set(run.head_commit?.message.match(/\b[A-Z][A-Z0-9]+-[0-9]+\b/g) ?? [])].sort();
  rows.push({ run, failing, pipeline: "", keys, pull: "" });
}

// 2b. The pull request each failed run's commit belongs to (any GitHub REST read goes through github_get).
for (const row of rows) {
  const path = `/repos/${options.owner}/${options.repo}/commits/${row.run.head_sha}/pulls`;
  const result = await callTool("github_get", { path, jq: PULLS });
  if (result.isError) {
    row.pull = `error: ${firstLine(textOf(result))}`;
  } else {
    /** @type {CommitPulls} */
    const pulls = await dataOf(result);
    row.pull = pulls.map((pull) => `#${pull.number} ${pull.merged ? "merged" : pull.state}`).join(", ") || "-";
  }
}

// 2b. Why: the last error lines of each failed run's failing steps, read from the job logs on the server.
/** @type {[number, string[]][]} */
const why = [];
for (const { run } of rows) {
  const result = await callTool("github_get_job_logs", { ...repo, runId: run.id, grep: ERROR_LINES, tailLines: 2, jq: WHY });
  /** @type {string[]} */
  const lines = [];
  if (result.isError) {
    lines.push(`error: ${firstLine(textOf(result))}`);
  } else {
    /** @type {FailedStepLines} */
    const steps = await dataOf(result);
    for (const step of steps) lines.push(`${step.job} / ${step.step}:`, ...step.lines.map((line) => `    ${line}`));
  }
  why.push([run.id, lines]);
}

// 3. CircleCI: the pipelines of each branch, matched on the commit.
const project = options["circleci-project"] ?? `gh/${options.owner}/${options.repo}`;
/** @type {Map<string, string>} */
const pipelineOf = new Map();
for (const branch of [...new Set(rows.map((row) => row.run.head_branch))].sort()) {
  const wanted = new Set(rows.filter((row) => row.run.head_branch === branch).map((row) => row.run.head_sha));
  let token = null;
  for (let n = 0; n < Number(options["max-circleci-pages"]); n++) {
    /** @type {Record<string, string>} */
    const query = { branch };
    if (token !== null) query["page-token"] = token;
    const result = await callTool("circleci_get", { path: `/project/${project}/pipeline`, queryParams: query, jq: PIPELINES });
    if (result.isError) {
      for (const sha of wanted) pipelineOf.set(sha, `error: ${firstLine(textOf(result))}`);
      break;
    }
    /** @type {PipelinePage} */
    const data = await dataOf(result);
    for (const item of data.items) {
      if (item.revision !== null && wanted.has(item.revision) && !pipelineOf.has(item.revision)) {
        pipelineOf.set(item.revision, `#${item.number} ${item.state ?? "?"}`);
      }
    }
    token = data.next ?? null;
    if (token === null || [...wanted].every((sha) => pipelineOf.has(sha))) break;
  }
}
for (const row of rows) row.pipeline = pipelineOf.get(row.run.head_sha) ?? "none";

// 3b. Failed tests: the failing checks of each failed run's commit (ci_status), and the failed tests of their reports
//     (ci_test_results of the run's test-results artifact, or of the CircleCI job).
/**
 * A failed test as `file:line name: message` (the message's first line), with what exists of it: `file name:
 * message` without a line, `name: message` without a file, `name` alone without a message.
 * @param {FailedTest} test
 */
function failedTestLine(test) {
  let line = "";
  if (test.file) line += `${test.file}${test.line !== null ? `:${test.line}` : ""} `;
  line += test.name;
  const message = test.message?.split("\n")[0];
  if (message) line += `: ${message}`;
  return line;
}
/** The test-results artifacts of a run, by run id. @type {Map<number, number[]>} */
const testArtifacts = new Map();
/** The ids of the `test-results` artifacts of run `runId`, listed once per run. @param {number} runId */
async function testArtifactsOf(runId) {
  if (!testArtifacts.has(runId)) {
    const path = `/repos/${options.owner}/${options.repo}/actions/runs/${runId}/artifacts`;
    const result = await callTool("github_get", { path, jq: TEST_RESULTS_ARTIFACTS });
    testArtifacts.set(runId, result.isError ? [] : /** @type {ArtifactIds} */ (await dataOf(result)));
  }
  return /** @type {number[]} */ (testArtifacts.get(runId));
}
/** The failed-test lines of a report source (ci_test_results arguments as JSON). @type {Map<string, string[]>} */
const testResults = new Map();
/** The failed tests of one report source, one line each, read once per source. @param {Record<string, any>} source */
async function testResultsOf(source) {
  const key = JSON.stringify(source);
  if (!testResults.has(key)) {
    const result = await callTool("ci_test_results", source);
    /** @type {string[]} */
    let lines;
    if (result.isError) {
      lines = [`error: ${firstLine(textOf(result))}`];
    } else {
      /** @type {NonNullable<CiTestResultsOutput["data"]>} */
      const results = await dataOf(result);
      lines = results.failed.map(failedTestLine);
      if (results.failedOmitted > 0) lines.push(`(${results.failedOmitted} more failed test(s) not listed)`);
    }
    testResults.set(key, lines);
  }
  return /** @type {string[]} */ (testResults.get(key));
}
/** The lines printed: per run, a heading and its failed tests (or a reference to an earlier run with the same). */
const testsPrinted = [];
/** The first run that printed a list of failed-test lines, by the lines joined. @type {Map<string, number>} */
const firstWith = new Map();
for (const { run } of rows) {
  const result = await callTool("ci_status", { ...repo, sha: run.head_sha, projectSlug: project });
  if (result.isError) {
    testsPrinted.push(`- run ${run.id}: error: ${firstLine(textOf(result))}`);
    continue;
  }
  /** @type {NonNullable<CiStatusOutput["data"]>} */
  const status = await dataOf(result);
  const slug = status.circleci?.projectSlug ?? project;
  /** @type {string[]} */
  const labels = [];
  /** @type {Record<string, any>[]} */
  const sources = [];
  for (const check of status.checks.filter((check) => check.state === "failure")) {
    let label;
    let found;
    if (check.kind === "check_run" && check.runId !== null) {
      label = check.name;
      found = (await testArtifactsOf(check.runId)).map((artifactId) => ({ ...repo, artifactId }));
    } else if (check.kind === "circleci_job" && check.jobNumber !== null) {
      label = `CircleCI job ${check.jobNumber} (${check.name})`;
      found = [{ projectSlug: slug, jobNumber: check.jobNumber }];
    } else {
      continue;
    }
    if (!labels.includes(label)) labels.push(label);
    for (const source of found) {
      if (!sources.some((known) => JSON.stringify(known) === JSON.stringify(source))) sources.push(source);
    }
  }
  if (labels.length === 0) {
    testsPrinted.push(`- run ${run.id}: no failing check with test reports`);
    continue;
  }
  const heading = `- run ${run.id}: ${labels.join(", ")}`;
  if (sources.length === 0) {
    testsPrinted.push(`${heading}: no test reports`);
    continue;
  }
  const lines = [];
  for (const source of sources) lines.push(...(await testResultsOf(source)));
  const key = lines.join("\n");
  if (lines.length === 0) {
    testsPrinted.push(`${heading}: no failed test in their reports`);
  } else if (firstWith.has(key)) {
    testsPrinted.push(`${heading}: the same ${lines.length} failed test(s) as run ${firstWith.get(key)}`);
  } else {
    firstWith.set(key, run.id);
    testsPrinted.push(heading, ...lines.map((line) => `    ${line}`));
  }
}

// 4. Jira: status and assignee of every key named, once per key.
/** @type {Map<string, string>} */
const issues = new Map();
for (const key of [...new Set(rows.flatMap((row) => row.keys))].sort()) {
  const result = await callTool("jira_get", {
    path: `/rest/api/3/issue/${key}`,
    queryParams: { fields: "status,assignee" },
    jq: ISSUE,
  });
  if (result.isError) {
    const message = textOf(result);
    issues.set(key, message.includes("404") ? "not found" : `error: ${firstLine(message)}`);
  } else {
    /** @type {IssueStatus} */
    const issue = await dataOf(result);
    issues.set(key, `${issue.status ?? "?"}, ${issue.assignee ?? "unassigned"}`);
  }
}

// 5. The table: all the program prints for the model.
let printed = `${waited}\n\n${rows.length} failed of ${scanned} runs of ${options.owner}/${options.repo} (${pages} page(s)); CircleCI project ${project}\n\n`;
printed += "| run | workflow | branch | failing job: step | CircleCI pipeline | Jira | pull request |\n|---|---|---|---|---|---|---|\n";
for (const { run, failing, pipeline, keys, pull } of rows) {
  const jira = keys.map((key) => `${key} (${issues.get(key)})`);
  printed += `| ${run.id} | ${run.name} | ${run.head_branch} | ${failing} | ${pipeline} | ${jira.length ? jira.join(", ") : "-"} | ${pull} |\n`;
}
printed += "\nWhy they failed (the failing steps' last error lines, from github_get_job_logs):\n";
for (const [run, lines] of why) printed += `- run ${run}\n${lines.map((line) => `  ${line}\n`).join("")}`;
printed +=
  "\nFailed tests (the failing checks ci_status finds for each failed run's commit, their reports read with ci_test_results):\n";
for (const line of testsPrinted) printed += `${line}\n`;
process.stdout.write(printed);

// 6. The baseline: the same calls made directly, each without its jq, as text blocks.
let direct = 0;
for (const [name, args] of calls) {
  const { jq, ...withoutJq } = args;
  direct += Buffer.byteLength(textOf(/** @type {ToolResult} */ (await client.callTool({ name, arguments: withoutJq }))), "utf8");
}
await client.close();
upstream?.child.stdin?.end();
upstream?.child.kill();
const program = Buffer.byteLength(printed, "utf8");
console.log();
console.log("| what a model reads | bytes |");
console.log("|---|---|");
console.log(`| text blocks of the ${calls.length} calls made directly (no jq) | ${direct} |`);
console.log(`| printed by this program | ${program} |`);
console.log(`ratio: ${(direct / Math.max(program, 1)).toFixed(1)}x`);
