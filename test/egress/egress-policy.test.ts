import { randomBytes } from "node:crypto";
import { lookup } from "node:dns/promises";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { hostname, networkInterfaces } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { fetch as undiciFetch } from "undici";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { POST as importRoute } from "@/app/api/console/config/import/route";
import { parseEgressAllow } from "@/server/egress/egress-allow-list";
import { EGRESS_FAILURE, egressDispatcher } from "@/server/egress/egress-fetch";
import { egressRefusal } from "@/server/egress/egress-policy";
import { importOpenApiConnector } from "@/server/gateway/console/import-openapi-connector";
import {
  replaceConnectorSecret,
  testConnectorConnection,
  updateConnectorSettings,
} from "@/server/gateway/console/manage-connectors";
import { cliActor } from "@/server/gateway/console/record-console-audit";
import type { ConsoleContext } from "@/server/gateway/console-session";
import { hashSessionToken } from "@/server/gateway/console-session";
import { checkReadiness } from "@/server/gateway/readiness";
import { allowEgressTo } from "../helpers/allow-egress";
import { createMcpWorld, type McpWorld, sc, text } from "../mcp/mcp-world";

/**
 * One egress policy for every request the server makes. A loopback "metadata service" (not
 * allowed) records whatever reaches it; each kind of request (import by URL, an imported
 * connector's base URL, its OAuth token URL, a demo connector's base URL, "Test connection",
 * the readiness probe) is pointed at it in every spelling an attacker tried — and at
 * link-local, private and CGNAT addresses — and nothing may arrive. The answers are the same
 * words for an open port, a closed port and a refused address.
 */

const jar = vi.hoisted(() => ({ token: "" }));
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (name === "sp_session" && jar.token ? { name, value: jar.token } : undefined),
  }),
}));

const PETS = join(process.cwd(), "node_modules/@readme/oas-examples/3.0/json/petstore-expanded.json");

let w: McpWorld;
let metadata: { server: Server; port: number; seen: string[] };
let redirector: { server: Server; url: string };
let closedPort: number;
let agent: Client;
let session = "";

async function listen(handler: (req: IncomingMessage, res: import("node:http").ServerResponse) => void) {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Every spelling of the metadata service, and the other refused ranges (nothing listens there). */
function refusedUrls(path = "/"): string[] {
  const p = metadata.port;
  return [
    `http://127.0.0.1:${p}${path}`,
    `http://[::ffff:7f00:1]:${p}${path}`,
    `http://[::ffff:127.0.0.1]:${p}${path}`,
    // IPv4-compatible (::/96): the IPv4 address it embeds, whatever ipaddr.js calls it.
    `http://[::127.0.0.1]:${p}${path}`,
    `http://[::7f00:1]:${p}${path}`,
    `http://localhost.:${p}${path}`,
    `http://LOCALHOST:${p}${path}`,
    `http://0x7f.1:${p}${path}`,
    `http://2130706433:${p}${path}`,
    `http://${hostname()}:${p}${path}`,
    `${redirector.url}/to-metadata`,
    `http://169.254.169.254${path}`,
    `http://10.0.0.1${path}`,
    `http://100.64.0.1${path}`,
    `http://[fd00::1]${path}`,
  ];
}

const adam = (): ConsoleContext => ({
  sessionId: "test",
  tenantId: "acme",
  tenantName: "Acme",
  userId: w.person.adam.userId as string,
  email: "adam@acme.test",
  name: "Adam",
  role: "admin",
});

async function importByUrl(url: string) {
  jar.token = session;
  const res = await importRoute(
    new Request("http://localhost:3000/api/console/config/import", {
      method: "POST",
      headers: {
        origin: "http://localhost:3000",
        host: "localhost:3000",
        "content-type": "application/json",
      },
      body: JSON.stringify({
        id: "fromurl",
        baseUrl: "https://api.example.com",
        readRoles: ["admin"],
        url,
        apply: false,
      }),
    }),
    { params: Promise.resolve({}) },
  );
  return { status: res.status, body: (await res.json()) as { error?: { message?: string } } };
}

/** A document whose one read needs an OAuth2 client-credentials token from `tokenUrl`. */
function oauthDocument(tokenUrl: string): string {
  return JSON.stringify({
    openapi: "3.0.3",
    info: { title: "Ledger", version: "1" },
    components: {
      securitySchemes: {
        ledger: { type: "oauth2", flows: { clientCredentials: { tokenUrl, scopes: {} } } },
      },
    },
    security: [{ ledger: [] }],
    paths: {
      "/entries": {
        get: {
          operationId: "listEntries",
          responses: {
            "200": {
              description: "entries",
              content: {
                "application/json": {
                  schema: {
                    type: "array",
                    items: { type: "object", properties: { id: { type: "string" } } },
                  },
                },
              },
            },
          },
        },
      },
    },
  });
}

beforeAll(async () => {
  w = await createMcpWorld("sqlite");
  (globalThis as { __signpostDb?: unknown }).__signpostDb = w.db;
  session = randomBytes(24).toString("hex");
  await w.db.session.create({
    data: {
      tokenHash: hashSessionToken(session),
      userId: w.person.adam.userId as string,
      tenantId: "acme",
      expiresAt: new Date(Date.now() + 3_600_000),
    },
  });
  const seen: string[] = [];
  const m = await listen((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    // What a metadata service answers an unauthenticated caller: a status worth scanning for.
    res.writeHead(401, { "content-type": "application/json" });
    res.end('{"openapi":"3.0.0"}');
  });
  metadata = { ...m, seen };
  const r = await listen((_req, res) => {
    res.writeHead(302, { location: `http://127.0.0.1:${metadata.port}/latest/meta-data/` });
    res.end();
  });
  redirector = { server: r.server, url: `http://127.0.0.1:${r.port}` };
  allowEgressTo(redirector.url); // the redirector is allowed; where it points is not
  const closed = await listen(() => undefined);
  closedPort = closed.port;
  await new Promise<void>((resolve) => closed.server.close(() => resolve()));
  agent = await w.connect(w.keys.adam, { faces: "browse,actions" });
}, 90_000);

afterAll(async () => {
  (globalThis as { __signpostDb?: unknown }).__signpostDb = undefined;
  await w?.close();
  for (const s of [metadata?.server, redirector?.server]) s?.closeAllConnections();
  await Promise.all(
    [metadata?.server, redirector?.server].map(
      (s) => new Promise<void>((resolve) => (s ? s.close(() => resolve()) : resolve())),
    ),
  );
});

describe("egress: nothing reaches a refused address, whatever the request", () => {
  test("the machine's own name resolves to loopback here (the 'name resolving to loopback' case)", async () => {
    const addresses = await lookup(hostname(), { all: true });
    expect(addresses.some((a) => a.address.startsWith("127.") || a.address === "::1")).toBe(true);
  });

  test("import by URL: every spelling is refused with one sentence; an open port reads as a closed one", async () => {
    const messages = new Set<string>();
    for (const url of [...refusedUrls("/openapi.json"), `http://127.0.0.1:${closedPort}/openapi.json`]) {
      const answer = await importByUrl(url);
      expect(answer.status, `${url}: ${JSON.stringify(answer.body)}`).toBe(422);
      messages.add(answer.body.error?.message ?? "");
    }
    expect([...messages]).toEqual([`Cannot fetch the document: ${EGRESS_FAILURE}.`]);
    expect(metadata.seen).toEqual([]);
  });

  test("an imported connector's base URL: reads never reach the address, with the same words", async () => {
    const texts = new Set<string>();
    const urls = [...refusedUrls(""), `http://127.0.0.1:${closedPort}`].filter(
      (u) => !u.includes("to-metadata"),
    );
    for (const [i, baseUrl] of urls.entries()) {
      const id = `pets${i}`;
      const imported = await importOpenApiConnector(
        w.db,
        cliActor("acme", "test"),
        {
          text: readFileSync(PETS, "utf8"),
          id,
          baseUrl,
          readRoles: ["admin"],
          secrets: {},
          self: { origins: [w.url], ports: [] },
        },
        { apply: true },
      );
      expect(imported.ok, `${baseUrl}: ${JSON.stringify(imported)}`).toBe(true);
      const page = await agent.callTool({ name: "navigate", arguments: { uri: `${id}://pets` } });
      expect(sc(page).outcome, text(page)).toBe("temporarily_unavailable");
      expect(text(page)).toContain(EGRESS_FAILURE);
      texts.add(
        text(page)
          .replaceAll(id, "ID")
          .replace(/ID:\/\/\S+/g, "")
          // The answer names the base URL the admin configured (which one failed), never why.
          .replace(/the API at \S+ did not answer/g, "the API at BASE did not answer"),
      );
      // "Test connection" on the same connector: one answer for an open port, a closed one, a refused range.
      const tested = await testConnectorConnection(w.db, adam(), id);
      expect(tested).toMatchObject({
        ok: true,
        value: {
          ok: false,
          result: "unreachable",
          status: null,
          message: `Could not reach the system: ${EGRESS_FAILURE}.`,
        },
      });
    }
    expect(texts.size, JSON.stringify([...texts], null, 1)).toBe(1);
    expect(metadata.seen).toEqual([]);
  }, 120_000);

  test("an OAuth2 token URL: the client secret is never posted to a refused address", async () => {
    const api = await listen((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("[]");
    });
    const apiSeen: string[] = [];
    api.server.on("request", (req: IncomingMessage) => apiSeen.push(req.url ?? ""));
    allowEgressTo(`http://127.0.0.1:${api.port}`);
    try {
      for (const [i, tokenUrl] of refusedUrls("/oauth/token").entries()) {
        const id = `ledger${i}`;
        const imported = await importOpenApiConnector(
          w.db,
          cliActor("acme", "test"),
          {
            text: oauthDocument(tokenUrl),
            id,
            baseUrl: `http://127.0.0.1:${api.port}`,
            readRoles: ["admin"],
            secrets: { ledger: "client-id:client-secret-value-123" },
            self: { origins: [w.url], ports: [] },
          },
          { apply: true },
        );
        expect(imported.ok, `${tokenUrl}: ${JSON.stringify(imported)}`).toBe(true);
        const page = await agent.callTool({ name: "navigate", arguments: { uri: `${id}://entries` } });
        expect(sc(page).outcome, `${tokenUrl}: ${text(page)}`).toBe("temporarily_unavailable");
        expect(text(page)).toContain(EGRESS_FAILURE);
      }
      expect(metadata.seen).toEqual([]);
      // No token, so nothing was sent to the API either.
      expect(apiSeen).toEqual([]);
    } finally {
      api.server.close();
    }
  }, 120_000);

  test("a demo connector's base URL, its Test connection and the readiness probe never reach it", async () => {
    for (const baseUrl of refusedUrls("").filter((u) => !u.includes("to-metadata"))) {
      expect((await updateConnectorSettings(w.db, adam(), "shop", { baseUrl })).ok).toBe(true);
      // The origin moved, so the key was cleared; set again for this address (what an admin would do).
      await replaceConnectorSecret(w.db, adam(), "shop", "api_key", w.legacy.apiKeys.acme);
      const page = await agent.callTool({ name: "navigate", arguments: { uri: "shop://orders" } });
      expect(sc(page).outcome, `${baseUrl}: ${text(page)}`).not.toBe("applied");
      const tested = await testConnectorConnection(w.db, adam(), "shop");
      expect(tested).toMatchObject({ ok: true, value: { result: "unreachable" } });
      // Globex's shop still answers at the demo address; Acme's address is refused.
      const ready = await checkReadiness(w.db, { provider: "sqlite", root: process.cwd() });
      expect(ready.connectors.shop, baseUrl).toMatchObject({
        status: "degraded",
        endpoints: 2,
        answering: 1,
      });
    }
    expect(metadata.seen).toEqual([]);
  }, 120_000);

  test("the check is made again on the address dialled (DNS rebinding): the dispatcher alone refuses", async () => {
    // undici's own fetch with the policy's dispatcher, skipping egressFetch's pre-check: the
    // connection's lookup is what refuses a name that resolves to loopback now.
    const error = await undiciFetch(`http://${hostname()}:${metadata.port}/`, {
      dispatcher: egressDispatcher,
    }).catch((e: unknown) => e);
    expect((error as { cause?: { code?: string } }).cause?.code).toBe("EGRESS_REFUSED");
    const literal = await undiciFetch(`http://[::ffff:7f00:1]:${metadata.port}/`, {
      dispatcher: egressDispatcher,
    }).catch((e: unknown) => e);
    expect((literal as { cause?: { code?: string } }).cause?.code).toBe("EGRESS_REFUSED");
    expect(metadata.seen).toEqual([]);
  });

  test("an operator allows an address explicitly; Signpost's own port stays refused even then", async () => {
    const before = process.env.SIGNPOST_EGRESS_ALLOW;
    process.env.SIGNPOST_EGRESS_ALLOW = `${before ?? ""},127.0.0.0/8`;
    try {
      // Allowed: the metadata service is reached (so the refusals above are the policy's doing).
      await importByUrl(`http://127.0.0.1:${metadata.port}/openapi.json`);
      expect(metadata.seen).toEqual(["GET /openapi.json"]);
      // Signpost itself (the port this test's server listens on) is never a destination.
      const self = await importByUrl(`${w.url}/mcp`);
      expect(self.body.error?.message).toBe(`Cannot fetch the document: ${EGRESS_FAILURE}.`);
      // Nor is this machine's own interface address on Signpost's port, inside an allowed range.
      const lan = Object.values(networkInterfaces())
        .flat()
        .find((a) => a && !a.internal && a.family === "IPv4")?.address;
      const selfPort = Number(new URL(w.url).port);
      if (lan) {
        process.env.SIGNPOST_EGRESS_ALLOW = `${before ?? ""},${lan}/32`;
        expect(egressRefusal(lan, lan, selfPort, "http:")).toMatch(/Signpost itself/);
        expect(egressRefusal(lan, lan, selfPort + 1, "http:")).toBeNull();
      }
    } finally {
      process.env.SIGNPOST_EGRESS_ALLOW = before;
      metadata.seen.length = 0;
    }
  });

  test("SIGNPOST_EGRESS_ALLOW is validated: a bad entry is named", () => {
    expect(parseEgressAllow("10.0.0.0/8, legacy.internal, 127.0.0.1:4010, [::1]:8080")).toHaveLength(4);
    expect(() => parseEgressAllow("10.0.0.0/40")).toThrow(/10\.0\.0\.0\/40/);
    expect(() => parseEgressAllow("http://x")).toThrow(/http:\/\/x/);
    expect(() => parseEgressAllow("127.0.0.1:99999")).toThrow(/port/);
  });
});
