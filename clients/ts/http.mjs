// Drives an `mcp-devtools --http` server with the official TypeScript SDK's StreamableHTTPClientTransport: every
// "on"-profile case of ../cases.json as principal alice (the SDK validates structuredContent against outputSchema),
// then the policy refusals (bob: denied, carol: approval required) and artifact isolation (bob cannot read alice's
// artifact). Every result must carry the enterprise _meta["mcp-devtools/upstream"].
//
// Env: MCP_URL (http://127.0.0.1:PORT/mcp), STRUCTURED (true/false: how the server was started), TOKEN_ALICE,
// TOKEN_BOB, TOKEN_CAROL. Exit code 0 = every check passed.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { check } from "./check.mjs";

const url = process.env.MCP_URL;
const structured = process.env.STRUCTURED === "true";
if (!url || !process.env.TOKEN_ALICE) {
  console.error("set MCP_URL, STRUCTURED and TOKEN_ALICE/BOB/CAROL");
  process.exit(2);
}
const spec = JSON.parse(readFileSync(new URL("../cases.json", import.meta.url), "utf8"));

async function connect(token) {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: "mcp-devtools-ts-http-test", version: "1.0.0" });
  await client.connect(transport);
  await client.listTools(); // the SDK caches outputSchemas for validation
  return client;
}

function fail(message) {
  throw new Error(message);
}

function checkUpstreamMeta(result, vendor) {
  const meta = result._meta?.["mcp-devtools/upstream"];
  if (!meta) fail(`no _meta["mcp-devtools/upstream"]: ${JSON.stringify(result).slice(0, 300)}`);
  if (meta.vendor !== vendor) fail(`upstream vendor ${meta.vendor}, expected ${vendor}`);
  if (vendor === "github" && meta.credentialLabel !== "GITHUB_TOKEN") fail(`credentialLabel ${meta.credentialLabel}`);
}

function checkRefusal(result, code, rule) {
  if (result.isError !== true) fail("a refusal is not isError");
  if ("structuredContent" in result) fail("a refusal carries structuredContent");
  if (result._meta?.code !== code) fail(`_meta.code ${result._meta?.code}, expected ${code}`);
  const d = result._meta?.decision;
  if (!d || d.rule !== rule || typeof d.reason !== "string" || typeof d.policyVersion !== "string") {
    fail(`bad _meta.decision: ${JSON.stringify(d)}`);
  }
  if (!result.content?.[0]?.text?.includes(rule)) fail("the refusal text does not name the rule");
  checkUpstreamMeta(result, "github");
}

let passed = 0;
let failed = 0;
async function step(name, body) {
  try {
    await body();
    passed += 1;
    console.log(`ok   ${name}`);
  } catch (err) {
    failed += 1;
    console.log(`FAIL ${name}: ${err?.stack ?? err}`);
  }
}

const alice = await connect(process.env.TOKEN_ALICE);
const bob = await connect(process.env.TOKEN_BOB);
const carol = await connect(process.env.TOKEN_CAROL);

const profile = structured ? "on" : "off";
let artifactId = null;
for (const c of spec.cases.filter((c) => c.profile === profile)) {
  await step(`alice: ${c.name}`, async () => {
    const result = await alice.callTool({ name: c.tool, arguments: c.args });
    check(c, result);
    checkUpstreamMeta(result, c.tool === "artifact_read" ? "none" : "github");
  });
}

if (structured) {
  await step("alice: oversized result gives an artifact", async () => {
    const result = await alice.callTool({ name: "github_list_workflow_runs", arguments: { owner: "octo-org", repo: "octo-repo", perPage: 100 } });
    artifactId = result.structuredContent?.incomplete?.artifactId;
    if (typeof artifactId !== "string") fail(`no artifactId: ${JSON.stringify(result.structuredContent).slice(0, 300)}`);
    const own = await alice.callTool({ name: "artifact_read", arguments: { artifactId, maxBytes: 16 } });
    if (own.isError) fail(`alice cannot read her artifact: ${own.content[0].text}`);
  });
  await step("bob cannot read alice's artifact", async () => {
    const other = await bob.callTool({ name: "artifact_read", arguments: { artifactId } });
    if (!other.isError || !other.content[0].text.includes("Artifact not found or expired")) fail(JSON.stringify(other));
    checkUpstreamMeta(other, "none");
  });
}

await step("bob: github is denied by policy", async () => {
  const result = await bob.callTool({ name: "github_list_workflow_runs", arguments: { owner: "octo-org", repo: "octo-repo" } });
  checkRefusal(result, "policy_denied", "bob-no-github");
});
await step("carol: jobs need approval", async () => {
  const result = await carol.callTool({ name: "github_list_workflow_jobs", arguments: { owner: "octo-org", repo: "octo-repo", runId: 1 } });
  checkRefusal(result, "approval_required", "carol-jobs-need-approval");
});
await step("carol: runs are allowed", async () => {
  const result = await carol.callTool({ name: "github_list_workflow_runs", arguments: { owner: "octo-org", repo: "octo-repo", jq: ".total_count" } });
  if (result.isError) fail(result.content[0].text);
  if (structured !== ("structuredContent" in result)) fail("structuredContent does not follow the switch");
  checkUpstreamMeta(result, "github");
});

for (const client of [alice, bob, carol]) await client.close();
console.log(`typescript-sdk-http: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
