// The host side of a Cloudflare codemode harness, run inside workerd (Miniflare 4) by run.mjs and bundled by it with
// esbuild. It connects to the mcp-devtools server over streamable HTTP (env.MCP_URL) with the official TypeScript
// MCP SDK client, and serves three routes:
//   GET  /types   the TypeScript declarations codemode's McpConnector generates from our tools/list (inputSchema,
//                 outputSchema, descriptions): what a model reads before it writes a program;
//   POST /run     runs the program in the body (an async arrow function) the McpConnector way: each tool is a
//                 method of the `devtools` global, returning structuredContent (an isError result throws);
//   POST /ai-sdk  runs the program in the body the AI SDK way: @ai-sdk/mcp's tools handed to codemode's
//                 createCodeTool, whose methods (on the `codemode` global) return the whole CallToolResult.
// Both run the program with codemode's own DynamicWorkerExecutor on the Worker Loader binding env.LOADER: a
// dynamic worker of its own, with no network access (globalOutbound null), whose tool calls come back here over
// Workers RPC.
import { DynamicWorkerExecutor, McpConnector } from "@cloudflare/codemode";
import { createCodeTool } from "@cloudflare/codemode/ai";
import { createMCPClient } from "@ai-sdk/mcp";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";

/** Our server as a codemode connector: its tools become `devtools.<tool name>(input)`. */
class Devtools extends McpConnector {
  constructor(ctx, env, connection) {
    super(ctx, env);
    this.connection = connection;
  }
  name() {
    return "devtools";
  }
  createConnection() {
    return this.connection;
  }
}

const EXECUTION_TIMEOUT_MS = 60_000;

async function connectorRoute(request, env, ctx, path) {
  // The SDK client validates structuredContent against each tool's outputSchema; Ajv cannot compile code inside
  // workerd, so it uses the SDK's Cloudflare Workers validator.
  const client = new Client(
    { name: "codemode-harness", version: "1.0.0" },
    { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(env.MCP_URL)));
  try {
    const { tools } = await client.listTools();
    const connector = new Devtools(ctx, env, { client, tools });
    if (path === "/types") return new Response(await connector.getTypeScriptTypes());
    const names = Object.keys(await connector.resolvedTools());
    const fns = Object.fromEntries(names.map((name) => [name, (input) => connector.executeTool(name, input)]));
    const executor = new DynamicWorkerExecutor({ loader: env.LOADER, timeout: EXECUTION_TIMEOUT_MS });
    return Response.json(await executor.execute(await request.text(), [{ name: "devtools", fns }]));
  } finally {
    await client.close();
  }
}

async function aiSdkRoute(request, env) {
  // @ai-sdk/mcp's default `redirect: "error"` is refused by workerd's fetch ("must be one of follow or manual").
  const mcp = await createMCPClient({ transport: { type: "http", url: env.MCP_URL, redirect: "follow" } });
  try {
    const tools = await mcp.tools();
    const executor = new DynamicWorkerExecutor({ loader: env.LOADER, timeout: EXECUTION_TIMEOUT_MS });
    const codemode = createCodeTool({ tools, executor });
    const outcome = await codemode.execute({ code: await request.text() }, { toolCallId: "harness", messages: [] });
    return Response.json(outcome);
  } finally {
    await mcp.close();
  }
}

export default {
  async fetch(request, env, ctx) {
    const path = new URL(request.url).pathname;
    try {
      if (path === "/types" || path === "/run") return await connectorRoute(request, env, ctx, path);
      if (path === "/ai-sdk") return await aiSdkRoute(request, env);
      return new Response("not found", { status: 404 });
    } catch (err) {
      return Response.json({ error: `host: ${err?.stack ?? err}` }, { status: 500 });
    }
  },
};
