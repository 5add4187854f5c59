// A real OAuth 2.1 / OpenID Connect authorization server for the resource-server tests: oidc-provider (an OpenID
// Certified implementation) on 127.0.0.1, three instances in one process, each on its own random port:
//   main:   the issuer the MCP server trusts; dynamic client registration, authorization code + PKCE with
//           oidc-provider's development interactions (login and consent forms the test drives over HTTP),
//           client_credentials, introspection, resource indicators (RFC 8707) minting JWT access tokens whose `aud`
//           is the resource asked for.
//   other:  another issuer signing with the SAME keys (a token from it fails only on `iss`).
//   rogue:  claims main's issuer but signs with keys main does not publish (a token from it has an unknown `kid`).
// Static clients (client_credentials, secret = "<id>-secret"): machine-a, machine-b (two machine principals),
// short-lived (1 s access tokens), opaque (opaque access tokens, for introspection), mcp-devtools (the resource
// server's own credentials for introspection).
//
// Prints one JSON line on stdout, {"issuer", "other", "rogue"}, once all three listen; exits when stdin closes.
import { createServer } from "node:http";
import { generateKeyPairSync } from "node:crypto";
import Provider, { errors } from "oidc-provider";

const RESOURCE = /^http:\/\/127\.0\.0\.1:\d+\/mcp$/;
// A resource of another service: tokens for it carry the wrong audience for the MCP server.
const OTHER_RESOURCE = "http://127.0.0.1:1/other";
const SCOPES = "devtools:read devtools:write";

function signingKeys(kid) {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { keys: [{ ...privateKey.export({ format: "jwk" }), kid, alg: "RS256", use: "sig" }] };
}

function machine(id, extra = {}) {
  return {
    client_id: id,
    client_secret: `${id}-secret`,
    grant_types: ["client_credentials"],
    response_types: [],
    redirect_uris: [],
    ...extra,
  };
}

function provider(issuer, jwks) {
  const p = new Provider(issuer, {
    jwks,
    // Resource-server scopes must be known to the provider too: dynamic registration checks a client's `scope`.
    scopes: ["openid", "offline_access", "devtools:read", "devtools:write"],
    clients: [
      machine("machine-a"),
      machine("machine-b"),
      machine("short-lived"),
      machine("opaque"),
      machine("mcp-devtools"),
    ],
    features: {
      devInteractions: { enabled: true },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (ctx, resource, client) => {
          if (!RESOURCE.test(resource) && resource !== OTHER_RESOURCE) throw new errors.InvalidTarget();
          return {
            scope: SCOPES,
            audience: resource,
            accessTokenTTL: client?.clientId === "short-lived" ? 1 : 600,
            accessTokenFormat: client?.clientId === "opaque" ? "opaque" : "jwt",
            jwt: { sign: { alg: "RS256" } },
          };
        },
      },
    },
    pkce: { required: () => true },
    ttl: {
      AccessToken: (ctx, token) => token.resourceServer?.accessTokenTTL ?? 600,
      ClientCredentials: (ctx, token) => token.resourceServer?.accessTokenTTL ?? 600,
      Grant: 3600,
      Interaction: 600,
      Session: 3600,
      AuthorizationCode: 60,
      IdToken: 600,
    },
    // Quiet: no attention messages for development-only defaults on stdout.
    cookies: { keys: ["mcp-devtools-test-cookie-key"] },
  });
  p.on("server_error", (ctx, err) => console.error(`[${issuer}] server_error`, err));
  return p;
}

async function listen() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, issuer: `http://127.0.0.1:${server.address().port}` };
}

const [main, other, rogue] = await Promise.all([listen(), listen(), listen()]);
const shared = signingKeys("main-key");
main.server.on("request", provider(main.issuer, shared).callback());
other.server.on("request", provider(other.issuer, shared).callback());
rogue.server.on("request", provider(main.issuer, signingKeys("rogue-key")).callback());

console.log(JSON.stringify({ issuer: main.issuer, other: other.issuer, rogue: rogue.issuer }));
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
process.on("SIGTERM", () => process.exit(0));
