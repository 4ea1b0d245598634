import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { importOpenApiConnector } from "@/server/gateway/console/import-openapi-connector";
import { listAuditEvents } from "@/server/gateway/console/list-audit-events";
import { cliActor } from "@/server/gateway/console/record-console-audit";
import type { ConsoleContext } from "@/server/gateway/console-session";
import { redactText } from "@/server/redact-secrets";
import { allowEgressTo } from "../helpers/allow-egress";
import { createMcpWorld, type McpWorld, sc, text } from "../mcp/mcp-world";

/**
 * The tenant's vault key never reaches an agent, a log or a record: an imported API that echoes
 * the key it was sent (as is, base64, URL-encoded, under `api_key`, as a `signing_secret` table
 * column) is read through a real MCP client — pages, a script's value — and the audit rows and
 * their export are read back. None may hold the key in any of those forms.
 */

const KEY = `vk${randomBytes(12).toString("hex")}`;
const FORMS = [
  KEY,
  Buffer.from(KEY).toString("base64"),
  Buffer.from(KEY).toString("base64").replace(/=+$/, ""),
  encodeURIComponent(`${KEY}/x`).slice(0, -4),
];

const DOC = JSON.stringify({
  openapi: "3.0.3",
  info: { title: "Vaulty", version: "1" },
  components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "X-API-Key" } } },
  security: [{ key: [] }],
  paths: {
    "/account": {
      get: {
        operationId: "getAccount",
        responses: {
          "200": {
            description: "the account",
            content: { "application/json": { schema: { type: "object" } } },
          },
        },
      },
    },
    "/webhooks": {
      get: {
        operationId: "listWebhooks",
        responses: {
          "200": {
            description: "webhooks",
            content: {
              "application/json": {
                schema: {
                  type: "array",
                  items: {
                    type: "object",
                    properties: {
                      id: { type: "string" },
                      url: { type: "string" },
                      signing_secret: { type: "string" },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
});

let w: McpWorld;
let api: Server;
let agent: Client;
const received: string[] = [];

function containsKey(value: unknown): string | null {
  const s = typeof value === "string" ? value : JSON.stringify(value);
  return FORMS.find((f) => s.includes(f)) ?? null;
}

beforeAll(async () => {
  w = await createMcpWorld("sqlite");
  api = createServer((req, res) => {
    const key = String(req.headers["x-api-key"] ?? "");
    received.push(key);
    res.writeHead(200, { "content-type": "application/json" });
    if (req.url?.startsWith("/webhooks"))
      res.end(
        JSON.stringify([
          { id: "wh_1", url: "https://example.test/hook", signing_secret: "whs_Q7tLx9vPz3" },
          { id: "wh_2", url: "https://example.test/other", signing_secret: "whs_K2mNb8cRt5" },
        ]),
      );
    else
      res.end(
        JSON.stringify({
          id: "acct_1",
          name: "Acme Corp",
          api_key: key,
          note: `your key is ${key}`,
          encoded: Buffer.from(key).toString("base64"),
          link: `https://example.test/?k=${encodeURIComponent(key)}`,
          plan: "gold",
        }),
      );
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  allowEgressTo(url);
  const imported = await importOpenApiConnector(
    w.db,
    cliActor("acme", "test"),
    {
      text: DOC,
      id: "vaulty",
      baseUrl: url,
      readRoles: ["admin"],
      secrets: { key: KEY },
      self: { origins: [], ports: [] },
    },
    { apply: true },
  );
  if (!imported.ok) throw new Error(JSON.stringify(imported));
  agent = await w.connect(w.keys.adam, { faces: "browse,actions,script" });
}, 90_000);

afterAll(async () => {
  await w?.close();
  api?.closeAllConnections();
  await new Promise<void>((resolve) => (api ? api.close(() => resolve()) : resolve()));
});

describe("secrets by value", () => {
  test("a page of an API that echoes the key shows none of it; the record's other fields stay", async () => {
    const start = await agent.callTool({ name: "navigate", arguments: { uri: "vaulty://" } });
    const account = ((sc(start).links ?? []) as string[]).find((l) => /account/.test(l));
    expect(account, text(start)).toBeTruthy();
    const page = await agent.callTool({ name: "navigate", arguments: { uri: account as string } });
    expect(sc(page).outcome, text(page)).toBe("applied");
    expect(received).toContain(KEY); // the key was really sent, and echoed
    expect(containsKey(page), text(page)).toBeNull();
    expect(text(page)).toContain("Acme Corp");
    expect(text(page)).toContain("gold");
    expect(text(page)).toMatch(/api\\?_key:\*\* \[redacted\]/);
  });

  test("credential-named columns are redacted in table cells; the other columns are shown", async () => {
    const start = await agent.callTool({ name: "navigate", arguments: { uri: "vaulty://" } });
    const hooks = ((sc(start).links ?? []) as string[]).find((l) => /webhook/.test(l));
    const page = await agent.callTool({ name: "navigate", arguments: { uri: hooks as string } });
    expect(sc(page).outcome, text(page)).toBe("applied");
    expect(text(page)).not.toContain("whs_Q7tLx9vPz3");
    expect(text(page)).not.toContain("whs_K2mNb8cRt5");
    expect(text(page)).toContain("example.test/hook");
  });

  test("a script that re-encodes what it read returns no form of the key", async () => {
    const start = await agent.callTool({ name: "navigate", arguments: { uri: "vaulty://" } });
    const account = ((sc(start).links ?? []) as string[]).find((l) => /account/.test(l)) as string;
    const run = await agent.callTool({
      name: "run_script",
      arguments: {
        code: `const page = await navigate(${JSON.stringify(account)}); return { page, again: ${JSON.stringify(KEY)}, b64: ${JSON.stringify(Buffer.from(KEY).toString("base64"))} };`,
      },
    });
    expect(containsKey(run), text(run)).toBeNull();
  });

  test("audit rows, their export view and the console's listing hold no form of the key", async () => {
    const rows = await w.db.auditEvent.findMany({ where: { tenantId: "acme" } });
    expect(rows.length).toBeGreaterThan(0);
    expect(containsKey(rows)).toBeNull();
    const ctx: ConsoleContext = {
      sessionId: "t",
      tenantId: "acme",
      tenantName: "Acme",
      userId: w.person.adam.userId as string,
      email: "adam@acme.test",
      name: "Adam",
      role: "admin",
    };
    expect(containsKey(await listAuditEvents(w.db, ctx, { limit: 1000 }))).toBeNull();
  });

  test("text of any surface: exact, base64, URL-encoded and Basic forms go; short values and ordinary text stay", () => {
    const basic = Buffer.from(`client-one:${KEY}`).toString("base64");
    expect(redactText(`a ${KEY} b`)).toBe("a [redacted] b");
    expect(redactText(`x=${encodeURIComponent(`${KEY}`)}`)).not.toContain(KEY);
    expect(redactText(Buffer.from(KEY).toString("base64"))).toBe("[redacted]");
    expect(redactText(`Authorization: Basic ${basic}`)).not.toContain(basic);
    expect(redactText("Order ord_123 for Acme: 2 × Kettle")).toBe("Order ord_123 for Acme: 2 × Kettle");
    // The `**` of markdown is not the value: the value after it is redacted.
    expect(redactText("- **api_key:** abcdef123456\n- **plan:** gold")).toBe(
      "- **api_key:** [redacted]\n- **plan:** gold",
    );
  });
});
