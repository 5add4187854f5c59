// Latency of one cached `circleci_get /me` through the official TypeScript SDK client, over stdio and over
// streamable HTTP in the same run (issue 12 point 1). Started by server/benches/ts_latency.rs, which runs the HTTP
// server and the recorded upstream; this script starts the stdio server itself. Not part of the test run.
//
// Env: MCP_DEVTOOLS_BIN (the server binary, for stdio), UPSTREAM_URL (the recorded upstream), MCP_URL
// (http://127.0.0.1:PORT/mcp) and TOKEN (its bearer token), CALLS (measured calls per transport, default 500).
// Prints one JSON line: per transport, the measured calls, cache misses and latency statistics in milliseconds; and
// the same for the floor (`replay-stdio`, `replay-http`): replay-server.mjs answering with the real server's recorded
// results and doing no work, so the SDK client's own cost per transport shows beside the server's.
import { performance } from "node:perf_hooks";
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const { MCP_DEVTOOLS_BIN: bin, UPSTREAM_URL: upstream, MCP_URL: url, TOKEN: token } = process.env;
if (!bin || !upstream || !url || !token) {
  console.error("set MCP_DEVTOOLS_BIN, UPSTREAM_URL, MCP_URL and TOKEN");
  process.exit(2);
}
const calls = Number(process.env.CALLS ?? 500);
const rounds = 10;
const perRound = Math.max(1, Math.floor(calls / rounds));

async function connect(transport) {
  const client = new Client({ name: "mcp-devtools-ts-latency", version: "1.0.0" });
  await client.connect(transport);
  await client.listTools(); // the SDK caches outputSchemas and validates every result, on both transports alike
  return client;
}

const stdio = await connect(
  new StdioClientTransport({
    command: bin,
    args: [],
    env: {
      CIRCLECI_API_BASE: `${upstream}/api/v2`,
      CIRCLECI_TOKEN: "recorded-upstream-token",
      STREAMING_ARTIFACT_STORE: "memory",
      MCP_STRUCTURED_OUTPUT: "true",
      RUST_LOG: "error",
    },
    stderr: "inherit",
  }),
);
const http = await connect(
  new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  }),
);

const request = { name: "circleci_get", arguments: { path: "/me" } };

// The replay servers' canned answers: the real server's own, recorded over stdio (the call's from the cache, like
// the measured ones).
await stdio.callTool(request);
const canned = {
  initialize: {
    protocolVersion: "2025-06-18",
    capabilities: stdio.getServerCapabilities(),
    serverInfo: stdio.getServerVersion(),
  },
  "tools/list": await stdio.listTools(),
  "tools/call": await stdio.callTool(request),
};
const cannedFile = join(mkdtempSync(join(tmpdir(), "ts-latency-")), "canned.json");
writeFileSync(cannedFile, JSON.stringify(canned));
const replayScript = join(dirname(fileURLToPath(import.meta.url)), "replay-server.mjs");
const replayStdio = await connect(
  new StdioClientTransport({ command: process.execPath, args: [replayScript, "stdio", cannedFile], stderr: "inherit" }),
);
const replayHttpProcess = spawn(process.execPath, [replayScript, "http", cannedFile], {
  stdio: ["ignore", "pipe", "inherit"],
});
const replayPort = await new Promise((resolve, reject) => {
  replayHttpProcess.stdout.once("data", (d) => resolve(Number(/LISTENING (\d+)/.exec(String(d))[1])));
  replayHttpProcess.once("exit", (code) => reject(new Error(`replay-server exited ${code}`)));
});
const replayHttp = await connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${replayPort}/mcp`)));

const clients = { stdio, http, "replay-stdio": replayStdio, "replay-http": replayHttp };
const samples = Object.fromEntries(Object.keys(clients).map((k) => [k, []]));
const misses = Object.fromEntries(Object.keys(clients).map((k) => [k, 0]));

async function once(name, client, record) {
  const start = performance.now();
  const result = await client.callTool(request);
  const ms = performance.now() - start;
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
  if (!record) return;
  if (result.structuredContent?.cache?.hit !== true) misses[name] += 1;
  samples[name].push(ms);
}

// Warm-up (fills each server's cache, JIT-compiles the client), then alternate blocks so that load on the machine
// affects both transports alike.
for (let i = 0; i < 50; i++) {
  for (const [name, client] of Object.entries(clients)) await once(name, client, false);
}
for (let r = 0; r < rounds; r++) {
  for (const [name, client] of Object.entries(clients)) {
    for (let i = 0; i < perRound; i++) await once(name, client, true);
  }
}

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  return { calls: sorted.length, median: at(50), p90: at(90), p99: at(99), mean };
}

const out = {};
for (const name of Object.keys(clients)) out[name] = { ...stats(samples[name]), misses: misses[name] };
console.log(JSON.stringify(out));
for (const client of Object.values(clients)) await client.close();
replayHttpProcess.kill();
