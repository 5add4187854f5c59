// The floor of the latency benchmark (server/benches/ts_latency.rs, issue 12 point 1): an MCP "server" that does no
// work, answering every request with a canned result recorded from the real server by latency.mjs, over stdio or
// over streamable HTTP framed as the real server frames it (an SSE `message` event per answer, `Mcp-Session-Id`,
// 202 for notifications, 405 for the optional GET stream). What the official TypeScript SDK client takes against it
// is the client's and the transport's own cost, which no server can go below.
//
// Usage: node replay-server.mjs stdio|http CANNED.json   (http: prints "LISTENING <port>" on stdout, on 127.0.0.1)
// CANNED.json: {"initialize": result, "tools/list": result, "tools/call": result}
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";

const [mode, file] = process.argv.slice(2);
const canned = JSON.parse(readFileSync(file, "utf8"));

// The answer to one JSON-RPC message, as text; null for a notification.
function answer(message) {
  if (message.id === undefined) return null;
  const result = canned[message.method] ?? {};
  return JSON.stringify({ jsonrpc: "2.0", id: message.id, result });
}

if (mode === "stdio") {
  const lines = createInterface({ input: process.stdin });
  lines.on("line", (line) => {
    const reply = answer(JSON.parse(line));
    if (reply !== null) process.stdout.write(reply + "\n");
  });
} else {
  const server = createServer((req, res) => {
    if (req.method !== "POST") {
      res.writeHead(req.method === "DELETE" ? 200 : 405).end();
      return;
    }
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const reply = answer(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      if (reply === null) {
        res.writeHead(202).end();
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream", "mcp-session-id": "replay" });
      res.end(`event: message\ndata: ${reply}\n\n`);
    });
  });
  server.listen(0, "127.0.0.1", () => console.log(`LISTENING ${server.address().port}`));
}
