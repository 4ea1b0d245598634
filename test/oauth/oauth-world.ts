import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  Client,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import { createSignpostMcp, type SignpostMcp } from "@/mcp/signpost-mcp";
import type { Db } from "@/server/db/client";
import { hashSessionToken, SESSION_COOKIE } from "@/server/gateway/console-session";
import { masterKey } from "@/server/gateway/vault";
import { createAuthorizationServers } from "@/server/oauth/create-authorization-server";
import { allowEgressTo } from "../helpers/allow-egress";
import { handleNode } from "../helpers/serve-route";

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

async function listen(server: ReturnType<typeof createHttpServer>, host = "127.0.0.1") {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as AddressInfo).port;
}

function closer(server: ReturnType<typeof createHttpServer>) {
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

/**
 * One Signpost instance as `npm start` serves it, without Next: the authorization server in
 * front (server/oauth, as scripts/serve.ts mounts it) and the MCP endpoint behind, on a real
 * port, on the given database. Several on one database are several instances.
 */
export async function startSignpostInstance(
  db: Db,
  /** `publicUrl`: the URL hosts use, when it is not this instance's own (instances behind a balancer). */
  options: { accessTokenTtlS?: number; publicUrl?: string } = {},
): Promise<{ url: string; mcp: SignpostMcp; close(): Promise<void> }> {
  let dispatch: NodeHandler = (_req, res) => res.end();
  const server = createHttpServer((req, res) => dispatch(req, res));
  const port = await listen(server);
  const url = `http://127.0.0.1:${port}`;
  const publicUrl = options.publicUrl ?? url;
  const mcp = createSignpostMcp({ db, publicUrl, allowedHostnames: ["127.0.0.1", "localhost"] });
  const oauth = createAuthorizationServers({
    db,
    publicUrl,
    masterKey: masterKey(),
    callsPerMinute: 600,
    accessTokenTtlS: options.accessTokenTtlS,
  });
  dispatch = (req, res) => {
    oauth(req, res)
      .then((answered) => (answered ? undefined : handleNode(mcp.handle, req, res)))
      .catch((error: unknown) => {
        console.error(error);
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
  };
  return { url, mcp, close: closer(server) };
}

/**
 * What a host runs on its side: its Client ID Metadata Document on https (self-signed, trusted
 * by Signpost through SIGNPOST_EGRESS_CA_FILE) and its loopback redirect URI catching the code.
 */
export async function startHostSide(
  document: (clientId: string, redirectUri: string) => Record<string, unknown>,
) {
  const dir = mkdtempSync(join(tmpdir(), "signpost-cimd-"));
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:P-256",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
      "-keyout",
      join(dir, "key.pem"),
      "-out",
      join(dir, "cert.pem"),
    ],
    { stdio: "ignore" },
  );
  const cert = readFileSync(join(dir, "cert.pem"), "utf8");
  const codes: { code?: string; error?: string; params: URLSearchParams }[] = [];
  const callback = createHttpServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname === "/callback")
      codes.push({
        code: url.searchParams.get("code") ?? undefined,
        error: url.searchParams.get("error") ?? undefined,
        params: url.searchParams,
      });
    res.writeHead(200, { "content-type": "text/plain" });
    res.end("You can close this window.");
  });
  const callbackPort = await listen(callback);
  const redirectUri = `http://127.0.0.1:${callbackPort}/callback`;
  let fetches = 0;
  let current: Record<string, unknown> = {};
  const https = createHttpsServer({ key: readFileSync(join(dir, "key.pem")), cert }, (req, res) => {
    fetches += 1;
    if (req.url !== "/client.json") {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { "content-type": "application/json", "cache-control": "max-age=60" });
    res.end(JSON.stringify(current));
  });
  const httpsPort = await listen(https as unknown as ReturnType<typeof createHttpServer>);
  const clientId = `https://localhost:${httpsPort}/client.json`;
  // A host's document on this machine: refused by the egress policy unless the operator allows it.
  allowEgressTo(clientId);
  current = document(clientId, redirectUri);
  return {
    clientId,
    redirectUri,
    caFile: join(dir, "cert.pem"),
    codes,
    fetches: () => fetches,
    async close() {
      await closer(callback)();
      await closer(https as unknown as ReturnType<typeof createHttpServer>)();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A console session for a person, as signing in makes one; returns the cookie's value. */
export async function consoleSessionFor(db: Db, email: string): Promise<string> {
  const user = await db.user.findUniqueOrThrow({ where: { email } });
  const token = randomBytes(32).toString("base64url");
  await db.session.create({
    data: {
      tokenHash: hashSessionToken(token),
      userId: user.id,
      tenantId: user.tenantId,
      expiresAt: new Date(Date.now() + 3_600_000),
    },
  });
  return token;
}

export const SESSION_COOKIE_NAME = SESSION_COOKIE;

/** The host's OAuth state, kept in memory: what the SDK v2 client asks of a host. */
export class MemoryOAuthProvider implements OAuthClientProvider {
  authorizationUrl?: URL;
  saved?: { access_token: string; refresh_token?: string; token_type: string };
  private verifier = "";
  private discovery?: OAuthDiscoveryState;
  private info?: { client_id: string };
  constructor(
    readonly clientMetadataUrl: string,
    private readonly redirect: string,
  ) {}
  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata() {
    return {
      client_name: "Test Host",
      redirect_uris: [this.redirect],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: { client_id: string }) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: { access_token: string; refresh_token?: string; token_type: string }) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}

/**
 * Connects the SDK client and lists tools (the handshake needs no credential; the list does);
 * returns the client and its tools, or the UnauthorizedError that means "go and sign in".
 */
export async function connectWithOAuth(endpoint: string, provider: OAuthClientProvider) {
  const transport = new StreamableHTTPClientTransport(new URL(endpoint), { authProvider: provider });
  const client = new Client({ name: "oauth-test-host", version: "1.0.0" });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    return { client, transport, tools };
  } catch (error) {
    await client.close().catch(() => undefined);
    if (error instanceof UnauthorizedError) return { unauthorized: error, transport };
    throw error;
  }
}

/**
 * What a browser does between the authorization URL and the host's redirect URI, over plain
 * HTTP with a cookie jar: the person (by their console session) allows or denies on the
 * consent page. Returns the redirect URI's query, or the page where the flow stopped.
 */
export async function authorizeOverHttp(
  authorizationUrl: string,
  sessionCookie: string,
  decision: "allow" | "deny" = "allow",
): Promise<{ callback?: URLSearchParams; stoppedAt?: { status: number; url: string; text: string } }> {
  const jar = new Map<string, string>([[SESSION_COOKIE, sessionCookie]]);
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  let url = authorizationUrl;
  let method = "GET";
  let body: string | undefined;
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, {
      method,
      redirect: "manual",
      headers: {
        cookie: cookieHeader(),
        ...(body ? { "content-type": "application/x-www-form-urlencoded", origin: new URL(url).origin } : {}),
      },
      body,
    });
    for (const set of res.headers.getSetCookie()) {
      const [pair = ""] = set.split(";");
      const [name = "", ...value] = pair.split("=");
      jar.set(name.trim(), value.join("="));
    }
    const location = res.headers.get("location");
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, url);
      if (!next.pathname.startsWith("/oauth/") && !next.pathname.startsWith("/sign-in"))
        return { callback: next.searchParams };
      url = next.href;
      method = "GET";
      body = undefined;
      continue;
    }
    const text = await res.text();
    if (res.status === 200 && new URL(url).pathname.startsWith("/oauth/consent/") && method === "GET") {
      method = "POST";
      body = `decision=${decision}`;
      continue;
    }
    return { stoppedAt: { status: res.status, url, text } };
  }
  throw new Error("too many redirects");
}

/** The authorization code + PKCE token exchange a host makes, by hand (for refusals the SDK would not send). */
export async function exchangeCode(
  base: string,
  input: { code: string; verifier: string; clientId: string; redirectUri: string; resource?: string },
) {
  const res = await fetch(`${base}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: input.code,
      code_verifier: input.verifier,
      client_id: input.clientId,
      redirect_uri: input.redirectUri,
      ...(input.resource ? { resource: input.resource } : {}),
    }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

/** A PKCE pair (RFC 7636, S256). */
export function pkcePair() {
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  return { verifier, challenge };
}

/** An authorization URL as a host builds it. */
export function authorizationUrlFor(
  base: string,
  input: { clientId: string; redirectUri: string; challenge: string; scope?: string; resource?: string },
) {
  const url = new URL(`${base}/oauth/auth`);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: input.clientId,
    redirect_uri: input.redirectUri,
    code_challenge: input.challenge,
    code_challenge_method: "S256",
    scope: input.scope ?? "signpost:actions signpost:browse",
    resource: input.resource ?? `${base}/mcp`,
    state: randomBytes(8).toString("hex"),
  }).toString();
  return url.href;
}

/** A tools/list on /mcp with a bearer, by hand: status, challenge and body. */
export async function listToolsWith(endpoint: string, token: string) {
  const res = await fetch(endpoint, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${token}`,
      "mcp-protocol-version": "2025-11-25",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });
  return { status: res.status, challenge: res.headers.get("www-authenticate") ?? "", text: await res.text() };
}
