// The official TypeScript SDK client's OAuth support against an `mcp-devtools --http` server that trusts a real
// authorization server (oidc-provider, ../oauth/server.mjs): the SDK discovers the protected-resource metadata from
// the 401 challenge, reads the authorization server's metadata, registers a client dynamically, and runs the
// authorization code flow with PKCE (S256) and the resource indicator; the login and consent pages of
// oidc-provider's interactions are filled in over HTTP here, as a browser would. Then it lists and calls tools as
// alice and bob (an artifact of alice's stays hers), and as a client_credentials machine client.
//
// Env: MCP_URL (http://127.0.0.1:PORT/mcp). Prints "N passed, M failed"; exit code 0 = every check passed.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { ClientCredentialsProvider } from "@modelcontextprotocol/sdk/client/auth-extensions.js";

const url = new URL(process.env.MCP_URL ?? "");
const REDIRECT = "http://127.0.0.1:1/callback";
const SCOPES = "devtools:read devtools:write";

function fail(message) {
  throw new Error(message);
}

/// Follows the authorization request through oidc-provider's login and consent forms, keeping its cookies, until
/// it redirects to REDIRECT; returns the authorization code.
async function signIn(start, user) {
  const jar = new Map();
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  let next = new URL(start);
  let body;
  for (let hop = 0; hop < 20; hop += 1) {
    if (next.href.startsWith(REDIRECT)) {
      return next.searchParams.get("code") ?? fail(`no code in the redirect: ${next.search}`);
    }
    const headers = { cookie: cookie() };
    if (body) headers["content-type"] = "application/x-www-form-urlencoded";
    const res = await fetch(next, { method: body ? "POST" : "GET", body, headers, redirect: "manual" });
    for (const set of res.headers.getSetCookie()) {
      const pair = set.split(";")[0];
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    body = undefined;
    if (res.status >= 300 && res.status < 400) {
      next = new URL(res.headers.get("location"), next);
      continue;
    }
    const html = await res.text();
    if (res.status !== 200) fail(`${res.status} at ${next}: ${html.slice(0, 300)}`);
    const action = html.match(/<form[^>]*action="([^"]+)"/)?.[1];
    const prompt = html.match(/name="prompt" value="([^"]+)"/)?.[1];
    if (!action || !prompt) fail(`no interaction form at ${next}`);
    next = new URL(action.replaceAll("&amp;", "&"), next);
    const fields = prompt === "login" ? { prompt, login: user, password: "any" } : { prompt };
    body = new URLSearchParams(fields).toString();
  }
  fail("the authorization request did not come back within 20 redirects");
}

/// An OAuthClientProvider for a program without a browser: it keeps everything in memory and signs `user` in at
/// redirectToAuthorization.
class SignInProvider {
  constructor(user) {
    this.user = user;
  }
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata() {
    return {
      client_name: "mcp-devtools OAuth test",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens) {
    this.saved = tokens;
  }
  saveCodeVerifier(verifier) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  async redirectToAuthorization(authorizationUrl) {
    this.authorizationUrl = authorizationUrl;
    this.code = await signIn(authorizationUrl, this.user);
  }
}

function claims(jwt) {
  return JSON.parse(Buffer.from(jwt.split(".")[1], "base64url").toString("utf8"));
}

async function connect(provider) {
  const client = new Client({ name: "mcp-devtools-oauth-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  await client.listTools(); // the SDK caches outputSchemas for validation
  return client;
}

/// Signs `user` in through the whole flow; returns the connected client and the provider.
async function authorize(user) {
  const provider = new SignInProvider(user);
  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
  const first = new Client({ name: "mcp-devtools-oauth-test", version: "1.0.0" });
  try {
    await first.connect(transport);
    fail("connected without authorization");
  } catch (err) {
    if (!(err instanceof UnauthorizedError)) throw err;
  }
  if (!provider.code) fail("the SDK never asked to authorize");
  await transport.finishAuth(provider.code);
  return { client: await connect(provider), provider };
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

const runs = { owner: "octo-org", repo: "octo-repo" };
let alice;
let bob;
await step("alice: discovery, dynamic registration, authorization code with PKCE", async () => {
  alice = await authorize("alice");
  const request = alice.provider.authorizationUrl.searchParams;
  if (request.get("code_challenge_method") !== "S256") fail(`PKCE method ${request.get("code_challenge_method")}`);
  if (request.get("resource") !== url.href) fail(`resource ${request.get("resource")}, expected ${url.href}`);
  if (request.get("scope") !== SCOPES) fail(`scope ${request.get("scope")}`);
  if (!alice.provider.info?.client_id) fail("no dynamically registered client id");
  const token = claims(alice.provider.saved.access_token);
  if (token.aud !== url.href || token.sub !== "alice") fail(`access token claims ${JSON.stringify(token)}`);
});
await step("alice: calls a tool (structuredContent validated by the SDK)", async () => {
  const result = await alice.client.callTool({ name: "github_list_workflow_runs", arguments: runs });
  if (result.isError) fail(result.content[0].text);
  if (!result.structuredContent?.data) fail(`no structuredContent: ${JSON.stringify(result).slice(0, 300)}`);
});
let artifactId;
await step("alice: an oversized result is her artifact", async () => {
  const result = await alice.client.callTool({ name: "github_list_workflow_runs", arguments: { ...runs, perPage: 100 } });
  artifactId = result.structuredContent?.incomplete?.artifactId;
  if (typeof artifactId !== "string") fail(`no artifactId: ${JSON.stringify(result.structuredContent).slice(0, 300)}`);
  const own = await alice.client.callTool({ name: "artifact_read", arguments: { artifactId, maxBytes: 16 } });
  if (own.isError) fail(`alice cannot read her artifact: ${own.content[0].text}`);
});
await step("bob: his own sign-in, and alice's artifact is not his", async () => {
  bob = await authorize("bob");
  if (claims(bob.provider.saved.access_token).sub !== "bob") fail("bob's token is not bob's");
  const other = await bob.client.callTool({ name: "artifact_read", arguments: { artifactId } });
  if (!other.isError || !other.content[0].text.includes("Artifact not found or expired")) fail(JSON.stringify(other));
});
await step("machine: client_credentials", async () => {
  const provider = new ClientCredentialsProvider({
    clientId: "machine-a",
    clientSecret: "machine-a-secret",
    scope: SCOPES,
  });
  const client = await connect(provider);
  const result = await client.callTool({ name: "github_list_workflow_runs", arguments: runs });
  if (result.isError) fail(result.content[0].text);
  const token = claims(provider.tokens().access_token);
  if (token.aud !== url.href || token.sub !== "machine-a") fail(`access token claims ${JSON.stringify(token)}`);
  await client.close();
});
for (const who of [alice, bob]) await who?.client.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
