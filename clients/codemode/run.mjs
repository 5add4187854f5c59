// Runs the Cloudflare codemode harness (worker.mjs) inside workerd through Miniflare, against an mcp-devtools
// server serving streamable HTTP at $MCP_URL (e.g. `mcp-devtools --http 127.0.0.1:8080` → http://127.0.0.1:8080/mcp):
//   node run.mjs types            prints the TypeScript declarations codemode generates from our tools/list
//   node run.mjs run PROGRAM      runs PROGRAM (an async arrow function) via McpConnector; prints its value as JSON
//   node run.mjs ai-sdk PROGRAM   runs PROGRAM via @ai-sdk/mcp + createCodeTool; prints its value as JSON
// A failed run (the program threw, or the host failed) prints the error on stderr and exits 1.
// Installed by `npm ci` in this folder (scripts/test does it); workerd comes with the miniflare package.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { Miniflare } from "miniflare";

const here = fileURLToPath(new URL(".", import.meta.url));
const [command, program] = process.argv.slice(2);
const routes = { types: "/types", run: "/run", "ai-sdk": "/ai-sdk" };
if (!routes[command] || (command !== "types" && !program)) {
  console.error("usage: node run.mjs types | run PROGRAM | ai-sdk PROGRAM   (with MCP_URL set)");
  process.exit(2);
}
if (!process.env.MCP_URL) {
  console.error("set MCP_URL to the server's streamable HTTP endpoint, e.g. http://127.0.0.1:8080/mcp");
  process.exit(2);
}

let mf;
try {
  const bundle = await build({
    entryPoints: [join(here, "worker.mjs")],
    bundle: true,
    format: "esm",
    platform: "browser",
    conditions: ["workerd", "worker", "browser"],
    external: ["cloudflare:workers", "node:*"],
    write: false,
    logLevel: "error",
  });
  mf = new Miniflare({
    modules: [{ type: "ESModule", path: "worker.mjs", contents: bundle.outputFiles[0].text }],
    compatibilityDate: "2025-06-01",
    compatibilityFlags: ["nodejs_compat"],
    workerLoaders: { LOADER: {} },
    bindings: { MCP_URL: process.env.MCP_URL },
  });
  const response = await mf.dispatchFetch(`http://harness${routes[command]}`, {
    method: command === "types" ? "GET" : "POST",
    body: command === "types" ? undefined : readFileSync(program, "utf8"),
  });
  const text = await response.text();
  if (command === "types") {
    if (!response.ok) throw new Error(text);
    process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
  } else {
    const outcome = JSON.parse(text);
    for (const line of outcome.logs ?? []) console.error(`[program] ${line}`);
    if (outcome.error) {
      console.error(`the program failed: ${outcome.error}`);
      process.exitCode = 1;
    } else {
      console.log(JSON.stringify(outcome.result, null, 2));
    }
  }
} finally {
  await mf?.dispose();
}
