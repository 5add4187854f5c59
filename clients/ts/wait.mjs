// Drives github_wait_for_run with the official TypeScript MCP SDK client, over stdio or streamable HTTP, against a
// live run of the recorded upstream (recorded_upstream::live: in_progress for some polls, then completed/failure).
// Run by server/tests/it/sdk_waits.rs, which mounts the runs and reads their request counters.
//
//   node wait.mjs CASE...        CASE: progress | timeout | abort | close (close last: it ends the connection)
//
// - progress: a 1.5 s request timeout with resetTimeoutOnProgress and a wait of several seconds: it succeeds; the
//   progress notifications arrive, increase, carry total and the message; the SDK validates structuredContent
//   against the tool's outputSchema (Client.callTool, after listTools) and this script checks the result.
// - timeout: the same call without resetTimeoutOnProgress times out (-32001) although progress keeps coming.
// - abort: an AbortSignal aborts the call (the SDK sends notifications/cancelled).
// - close: the client closes while the call waits (HTTP: the response stream is dropped; stdio: the server's stdin
//   ends, and it exits at once rather than at the SIGTERM the SDK sends 2 s later).
// After timeout, abort and close the script prints `stopped RUN_ID [detail]` and waits for the line `next` on its
// stdin: meanwhile the test proves the server sends no request for that run any more.
//
// Env: RUNS (JSON: case -> run id), then either MCP_URL (streamable HTTP, the server already running) or
// MCP_DEVTOOLS_BIN and SERVER_ENV (JSON: the server's environment; stdio, the SDK spawns the server).
// Prints `ok CASE` / `FAIL CASE: ...` and ends with `typescript-sdk-wait: N passed, M failed`; exit 0 = all passed.
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

const TOOL = "github_wait_for_run";
/** The client's request timeout of every case. */
const REQUEST_TIMEOUT_MS = 1500;
const runs = JSON.parse(process.env.RUNS ?? "{}");
const http = Boolean(process.env.MCP_URL);
const stdin = createInterface({ input: process.stdin })[Symbol.asyncIterator]();

function check(condition, message) {
  if (!condition) throw new Error(message);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Tells the test that the call on `runId` ended (and how), then waits until it has checked the request log. */
async function stopped(runId, detail = "") {
  console.log(`stopped ${runId}${detail ? ` ${detail}` : ""}`);
  const { value, done } = await stdin.next();
  check(!done && value === "next", `the test answered ${JSON.stringify(value)}`);
}

async function connect() {
  const transport = http
    ? new StreamableHTTPClientTransport(new URL(process.env.MCP_URL))
    : new StdioClientTransport({
        command: process.env.MCP_DEVTOOLS_BIN,
        args: [],
        env: JSON.parse(process.env.SERVER_ENV),
        stderr: "inherit",
      });
  const client = new Client({ name: "mcp-devtools-wait-ts", version: "1.0.0" });
  await client.connect(transport);
  // The server advertises the tasks extension; this SDK (1.32.2) does not declare it, so its calls block.
  const extensions = client.getServerCapabilities()?.extensions ?? {};
  check("io.modelcontextprotocol/tasks" in extensions, `extensions advertised: ${JSON.stringify(extensions)}`);
  // listTools caches the outputSchemas: callTool then validates every structuredContent against its tool's.
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === TOOL);
  check(tool?.outputSchema?.type === "object", `${TOOL} has no outputSchema`);
  return client;
}

function args(runId, timeoutSeconds) {
  return { name: TOOL, arguments: { owner: "octo-org", repo: "octo-repo", runId, timeoutSeconds } };
}

/** Collects the progress notifications of one call, with the milliseconds since `started`. */
function recorder(started) {
  const seen = [];
  return { seen, onprogress: (p) => seen.push({ ...p, at: Date.now() - started }) };
}

/** Checks the notifications of a wait on a run that is in_progress with 1 of 2 jobs done (then maybe completed). */
function checkProgress(runId, seen, { finished }) {
  check(seen.length >= 3, `${seen.length} progress notifications: ${JSON.stringify(seen)}`);
  for (let i = 1; i < seen.length; i++) {
    check(seen[i].progress > seen[i - 1].progress, `progress does not increase: ${JSON.stringify(seen)}`);
  }
  check(
    seen[0].message === `waiting for workflow run ${runId} of octo-org/octo-repo`,
    `first message ${JSON.stringify(seen[0].message)}`,
  );
  for (const p of seen.slice(1)) {
    check(p.total === 2, `total ${p.total} in ${JSON.stringify(p)}`);
    check(/^(in_progress: 1|completed: 2) of 2 done$/.test(p.message), `message ${JSON.stringify(p.message)}`);
  }
  check(seen.some((p) => p.message === "in_progress: 1 of 2 done"), "no in_progress notification");
  const last = seen[seen.length - 1];
  if (finished && last.message !== "in_progress: 1 of 2 done") {
    // The server sends "completed: 2 of 2 done" before its response, but this SDK dispatches a notification on a
    // microtask (shared/protocol.js `_onnotification`: `Promise.resolve().then(() => handler(...))`) and a response
    // at once, which drops the progress handler: when both arrive in one read, the client never sees the last
    // notification. So it is checked when it arrived; the result itself says the wait finished.
    check(last.message === "completed: 2 of 2 done" && last.progress === 2, `last ${JSON.stringify(last)}`);
  }
}

const cases = {
  // The 300 s case scaled down: a 1.5 s request timeout, reset by each notification, outlives a wait of seconds.
  async progress(client) {
    const runId = runs.progress;
    const started = Date.now();
    const { seen, onprogress } = recorder(started);
    const result = await client.callTool(args(runId, 30), undefined, {
      onprogress,
      timeout: REQUEST_TIMEOUT_MS,
      resetTimeoutOnProgress: true,
      maxTotalTimeout: 15_000,
    });
    const elapsed = Date.now() - started;
    check(elapsed > 2 * REQUEST_TIMEOUT_MS, `the wait took ${elapsed} ms: not longer than the request timeout`);
    check(result.isError !== true, `isError: ${JSON.stringify(result.content)}`);
    const data = result.structuredContent?.data;
    check(data?.stoppedBy === "finished" && data.timedOut === false, `stoppedBy ${data?.stoppedBy}`);
    check(data.state === "completed" && data.conclusion === "failure", `${data.state} ${data.conclusion}`);
    const failed = data.jobs.filter((job) => job.failed);
    check(failed.length === 1 && failed[0].jobId === runId * 10 + 2, `failed jobs ${JSON.stringify(failed)}`);
    checkProgress(runId, seen, { finished: true });
    const gaps = seen.map((p, i) => p.at - (i === 0 ? 0 : seen[i - 1].at)).concat(elapsed - seen[seen.length - 1].at);
    check(Math.max(...gaps) < REQUEST_TIMEOUT_MS, `a silence of ${Math.max(...gaps)} ms: ${JSON.stringify(seen)}`);
    return `waited ${elapsed} ms, ${seen.length} notifications, longest silence ${Math.max(...gaps)} ms`;
  },

  // Without resetTimeoutOnProgress the same request times out, progress or not; the SDK then cancels it.
  async timeout(client) {
    const runId = runs.timeout;
    const started = Date.now();
    const { seen, onprogress } = recorder(started);
    const error = await client.callTool(args(runId, 30), undefined, { onprogress, timeout: REQUEST_TIMEOUT_MS }).then(
      (result) => {
        throw new Error(`no timeout: ${JSON.stringify(result).slice(0, 300)}`);
      },
      (err) => err,
    );
    const elapsed = Date.now() - started;
    check(error instanceof McpError && error.code === ErrorCode.RequestTimeout, `not a timeout: ${error}`);
    check(elapsed >= REQUEST_TIMEOUT_MS - 50 && elapsed < 2 * REQUEST_TIMEOUT_MS, `timed out after ${elapsed} ms`);
    checkProgress(runId, seen, { finished: false });
    await stopped(runId, `timedOutAfterMs=${elapsed}`);
  },

  // An AbortSignal ends the call: the SDK rejects it and sends notifications/cancelled.
  async abort(client) {
    const runId = runs.abort;
    const started = Date.now();
    const { seen, onprogress } = recorder(started);
    const controller = new AbortController();
    const call = client
      .callTool(args(runId, 30), undefined, { onprogress, signal: controller.signal, timeout: 15_000 })
      .then(
        (result) => ({ result }),
        (error) => ({ error }),
      );
    await sleep(1000);
    controller.abort("the user moved on");
    const outcome = await Promise.race([call, sleep(1000).then(() => ({ pending: true }))]);
    check(!outcome.pending && !outcome.result, `the aborted call did not end: ${JSON.stringify(outcome)}`);
    check(String(outcome.error).includes("the user moved on"), `rejected with ${outcome.error}`);
    checkProgress(runId, seen, { finished: false });
    await stopped(runId);
  },

  // Closing the client while a call waits: the HTTP response stream is dropped, or the server's stdin ends.
  async close(client) {
    const runId = runs.close;
    const call = client.callTool(args(runId, 30), undefined, { timeout: 15_000 }).then(
      (result) => ({ result }),
      (error) => ({ error }),
    );
    await sleep(1000);
    const started = Date.now();
    await client.close();
    const closeMs = Date.now() - started;
    const outcome = await Promise.race([call, sleep(1000).then(() => ({ pending: true }))]);
    check(!outcome.pending && !outcome.result, `the call did not end with the connection: ${JSON.stringify(outcome)}`);
    if (!http) {
      // StdioClientTransport.close() ends the server's stdin, waits 2 s for it to exit, then sends SIGTERM.
      check(closeMs < 1500, `the server took ${closeMs} ms to exit after its stdin closed`);
    }
    await stopped(runId, `closeMs=${closeMs}`);
  },
};

let passed = 0;
let failed = 0;
const client = await connect();
for (const name of process.argv.slice(2)) {
  try {
    check(cases[name], `unknown case ${name}`);
    const detail = await cases[name](client);
    passed += 1;
    console.log(`ok   ${name}${detail ? ` (${detail})` : ""}`);
  } catch (err) {
    failed += 1;
    console.log(`FAIL ${name}: ${err?.stack ?? err}`);
  }
}
await client.close();
console.log(`typescript-sdk-wait: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
