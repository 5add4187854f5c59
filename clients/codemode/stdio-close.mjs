// @ai-sdk/mcp's own stdio transport (the way AI SDK hosts start a local server: a Node child whose stdin is one end
// of a socket pair) against $MCP_DEVTOOLS_BIN: list the tools, call one, close(). close() aborts the child
// (SIGTERM) and keeps no handle of its own, so this process ends only once the server has exited; a server that
// ignored SIGTERM while its stdin socket stayed open kept its host alive until SIGKILL. Prints one JSON line.
import { createMCPClient } from "@ai-sdk/mcp";
import { Experimental_StdioMCPTransport } from "@ai-sdk/mcp/mcp-stdio";

const started = Date.now();
const transport = new Experimental_StdioMCPTransport({
  command: process.env.MCP_DEVTOOLS_BIN,
  args: [],
  env: { ...process.env, MCP_STRUCTURED_OUTPUT: "true", STREAMING_ARTIFACT_STORE: "memory", RUST_LOG: "error" },
});
const client = await createMCPClient({ transport });
const tools = await client.tools();
const runs = await tools.github_list_workflow_runs.execute(
  { owner: "octo-org", repo: "octo-repo", jq: "[.workflow_runs[] | .id] | length" },
  { toolCallId: "stdio", messages: [] },
);
const closing = Date.now();
await client.close();
process.on("exit", () => {
  const line = { tools: Object.keys(tools).length, runs: runs.structuredContent?.data, readyMs: closing - started };
  console.log(JSON.stringify({ ...line, exitedAfterCloseMs: Date.now() - closing }));
});
