// Issue 26 through the official TypeScript MCP SDK client (which validates structuredContent against outputSchema):
// an echoed credential comes back redacted, control characters come back escaped, a failed Jira login is an
// error, and a JSON body after a byte-order mark is data. server/tests/upstream_trust.rs serves the upstream.
//
// Env: MCP_DEVTOOLS_BIN, UPSTREAM_URL, GITHUB_TOKEN, ATLASSIAN_USER_EMAIL, ATLASSIAN_API_TOKEN.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const { MCP_DEVTOOLS_BIN: bin, UPSTREAM_URL: upstream, GITHUB_TOKEN, ATLASSIAN_USER_EMAIL, ATLASSIAN_API_TOKEN } =
  process.env;
if (!bin || !upstream || !GITHUB_TOKEN || !ATLASSIAN_API_TOKEN) {
  console.error("set MCP_DEVTOOLS_BIN, UPSTREAM_URL, GITHUB_TOKEN and ATLASSIAN_API_TOKEN");
  process.exit(2);
}
const transport = new StdioClientTransport({
  command: bin,
  args: [],
  env: {
    GITHUB_API_BASE: upstream,
    GITHUB_TOKEN,
    JIRA_BASE_URL: upstream,
    ATLASSIAN_USER_EMAIL,
    ATLASSIAN_API_TOKEN,
    MCP_STRUCTURED_OUTPUT: "true",
    STREAMING_ARTIFACT_STORE: "memory",
    RUST_LOG: "warn",
  },
  stderr: "inherit",
});
const client = new Client({ name: "mcp-devtools-ts-trust-test", version: "1.0.0" });
await client.connect(transport);
await client.listTools(); // the SDK keeps the output schemas to validate structuredContent with

// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const secrets = [GITHUB_TOKEN, ATLASSIAN_API_TOKEN, JSON.stringify(ATLASSIAN_API_TOKEN).slice(1, -1)];
const clean = (result) => {
  const wire = JSON.stringify(result);
  for (const secret of secrets) if (wire.includes(secret)) throw new Error(`a secret came back: ${wire}`);
};
const cases = [
  ["credential echoed", "github_list_workflow_runs", { owner: "trust", repo: "echo" }, (r, text) => {
    if (!r.isError || !text.includes("[redacted GITHUB_TOKEN]")) throw new Error(`not redacted: ${text}`);
  }],
  ["terminal control", "github_list_workflow_runs", { owner: "trust", repo: "ansi" }, (r, text) => {
    if (!r.isError || RAW_CONTROL.test(text) || !text.includes("\\u001b[2J")) throw new Error(`raw: ${JSON.stringify(text)}`);
  }],
  ["failed login as data", "jira_get", { path: "/rest/api/3/search/jql", queryParams: { jql: "project = EX" } }, (r, text) => {
    if (!r.isError || !text.includes("AUTHENTICATED_FAILED") || r.structuredContent) throw new Error(`not an error: ${text}`);
  }],
  ["byte-order mark", "jira_get", { path: "/rest/api/3/issue/EX-1" }, (r, text) => {
    const data = r.structuredContent?.data;
    if (r.isError || data?.key !== "EX-1") throw new Error(`not data: ${text}`);
    if (data.fields.summary !== "token [redacted ATLASSIAN_API_TOKEN]") throw new Error(`summary ${data.fields.summary}`);
  }],
];
let passed = 0;
let failed = 0;
for (const [name, tool, args, check] of cases) {
  try {
    const result = await client.callTool({ name: tool, arguments: args });
    const text = result.content[0].text;
    clean(result);
    check(result, text);
    passed += 1;
    console.log(`ok ${name}`);
  } catch (err) {
    failed += 1;
    console.log(`FAIL ${name}: ${err.message}`);
  }
}
await client.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
