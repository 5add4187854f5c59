// Drives the mcp-devtools binary with an official TypeScript MCP SDK client over stdio, for every case in
// ../cases.json: v1 (@modelcontextprotocol/sdk) by default, v2 (@modelcontextprotocol/client, installed as
// mcp-client-v2) with MCP_TS_SDK=v2. Each SDK's Client.callTool validates structuredContent against the tool's
// outputSchema (Ajv) and throws if it does not conform; this script then checks each case's expectations and reads
// every artifact back, with artifact_read and with resources/read of the result's resource_link block.
//
// Env: MCP_DEVTOOLS_BIN (the server binary), UPSTREAM_URL (the recorded upstream), MCP_TS_SDK (v1 or v2).
// Exit code 0 = every case passed.
import { readFileSync } from "node:fs";
import { check, readArtifact, readLinkedResource } from "./check.mjs";

const sdk = process.env.MCP_TS_SDK ?? "v1";
const { Client, StdioClientTransport } =
  sdk === "v2"
    ? { ...(await import("mcp-client-v2")), ...(await import("mcp-client-v2/stdio")) }
    : { ...(await import("@modelcontextprotocol/sdk/client/index.js")), ...(await import("@modelcontextprotocol/sdk/client/stdio.js")) };

const bin = process.env.MCP_DEVTOOLS_BIN;
const upstream = process.env.UPSTREAM_URL;
if (!bin || !upstream) {
  console.error("set MCP_DEVTOOLS_BIN and UPSTREAM_URL");
  process.exit(2);
}
const spec = JSON.parse(readFileSync(new URL("../cases.json", import.meta.url), "utf8"));

const clients = new Map();
async function clientFor(profile) {
  if (!clients.has(profile)) {
    const transport = new StdioClientTransport({
      command: bin,
      args: [],
      env: {
        GITHUB_API_BASE: upstream,
        CIRCLECI_API_BASE: `${upstream}/api/v2`,
        JIRA_BASE_URL: upstream,
        CONFLUENCE_BASE_URL: `${upstream}/wiki`,
        BITBUCKET_BASE_URL: upstream,
        STREAMING_ARTIFACT_STORE: "memory",
        RUST_LOG: "warn",
        ...spec.profiles[profile],
      },
      stderr: "inherit",
    });
    const client = new Client({ name: "mcp-devtools-ts-client-test", version: "1.0.0" });
    await client.connect(transport);
    const { tools } = await client.listTools();
    const structured = spec.profiles[profile].MCP_STRUCTURED_OUTPUT === "true";
    for (const tool of tools) {
      const hasSchema = tool.outputSchema !== undefined;
      const isWrite = tool.name.endsWith("_write"); // Atlassian writes: text only, never a schema
      if (hasSchema !== (structured && !isWrite)) throw new Error(`${profile}: ${tool.name} outputSchema present=${hasSchema}`);
      if (hasSchema && tool.outputSchema.type !== "object") throw new Error(`${tool.name}: outputSchema root is not an object`);
    }
    // Artifacts are resources only with the switch on: the capability and the one URI template.
    if (Boolean(client.getServerCapabilities()?.resources) !== structured) throw new Error(`${profile}: resources capability present=${!structured}`);
    if (structured) {
      const { resourceTemplates } = await client.listResourceTemplates();
      if (resourceTemplates.length !== 1 || resourceTemplates[0].uriTemplate !== "artifact://{artifactId}{?offset,maxBytes}") throw new Error(`${profile}: resources/templates/list ${JSON.stringify(resourceTemplates)}`);
    }
    clients.set(profile, client);
  }
  return clients.get(profile);
}

let passed = 0;
let failed = 0;
for (const c of spec.cases) {
  try {
    const client = await clientFor(c.profile);
    const result = await client.callTool({ name: c.tool, arguments: c.args });
    check(c, result);
    if (result.structuredContent?.incomplete) {
      const bytes = await readArtifact(c, result.structuredContent, (args) => client.callTool({ name: "artifact_read", arguments: args }));
      // The same artifact through resources/read of the result's resource_link (CONTRACT §5).
      if (typeof result.structuredContent.incomplete.artifactId === "string") {
        await readLinkedResource(result, bytes, (params) => client.readResource(params));
      }
    }
    passed += 1;
    console.log(`ok   ${c.name}`);
  } catch (err) {
    failed += 1;
    console.log(`FAIL ${c.name}: ${err?.stack ?? err}`);
  }
}
for (const client of clients.values()) await client.close();
console.log(`typescript-sdk ${sdk}: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
