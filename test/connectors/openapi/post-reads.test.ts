import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { importOpenApiConnector } from "@/server/gateway/console/import-openapi-connector";
import { cliActor } from "@/server/gateway/console/record-console-audit";
import { allowEgressTo } from "../../helpers/allow-egress";
import { createMcpWorld, type McpWorld, sc, text } from "../../mcp/mcp-world";

/**
 * POSTs that only read (Plaid's `/accounts/balance/get`, a search): the import report suggests
 * them from their words and description, never assumes; an admin marks one with
 * `readOperations` (`--read-operation`, the console's checkboxes), and its form then sends at
 * once and shows the answer with no grant and no approval. One not marked stays a write; an
 * operationId that is no POST of the document is refused, nothing stored. Real HTTP API, real
 * MCP client.
 */

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const BANK = {
  openapi: "3.0.3",
  info: { title: "Bank", version: "1" },
  paths: {
    "/accounts/balance/get": {
      post: {
        operationId: "accountsBalanceGet",
        summary: "Retrieve real-time balance data",
        requestBody: {
          required: true,
          ...json({
            type: "object",
            required: ["account_ids"],
            properties: { account_ids: { type: "array", items: { type: "string" } } },
          }),
        },
        responses: {
          "200": {
            description: "ok",
            ...json({
              type: "object",
              properties: {
                accounts: {
                  type: "array",
                  items: {
                    type: "object",
                    properties: { account_id: { type: "string" }, current: { type: "number" } },
                  },
                },
              },
            }),
          },
        },
      },
    },
    "/transfers/search": {
      post: {
        operationId: "searchTransfers",
        summary: "Search transfers",
        requestBody: { ...json({ type: "object", properties: { query: { type: "string" } } }) },
        responses: { "200": { description: "ok" } },
      },
    },
    "/transfers": {
      post: {
        operationId: "createTransfer",
        summary: "Create a transfer",
        requestBody: {
          required: true,
          ...json({ type: "object", required: ["amount"], properties: { amount: { type: "integer" } } }),
        },
        responses: { "201": { description: "created" } },
      },
    },
  },
};

let w: McpWorld;
let api: Server;
let apiUrl: string;
let agent: Client;
const seen: Array<{ method: string; url: string; body: string }> = [];

const importBank = (readOperations: string[], apply: boolean) =>
  importOpenApiConnector(
    w.db,
    cliActor("acme", "test"),
    {
      text: JSON.stringify(BANK),
      id: "bank",
      baseUrl: apiUrl,
      readRoles: ["admin", "support"],
      readOperations,
      secrets: {},
      self: { origins: [w.url], ports: [] },
    },
    { apply },
  );

beforeAll(async () => {
  w = await createMcpWorld("sqlite");
  api = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", body });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ accounts: [{ account_id: "acc_7Qp", current: 1250.5 }] }));
    });
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  allowEgressTo(apiUrl);
  agent = await w.connect(w.keys.sam, { faces: "browse,actions" });
}, 60_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (api ? api.close(() => resolve()) : resolve()));
  await w?.close();
});

describe("POSTs that only read", () => {
  test("the preview suggests the reads from their words, never the create; an unknown id is refused, nothing stored", async () => {
    const preview = await importBank([], false);
    if (!preview.ok) throw new Error(preview.message);
    expect(preview.value.report.suggestedReads.map((r) => [r.id, r.marked]).sort()).toEqual([
      ["accountsBalanceGet", false],
      ["searchTransfers", false],
    ]);
    expect(preview.value.report.reads).toEqual([]);
    const wrong = await importBank(["createTransfers"], true);
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) expect(wrong.message).toMatch(/no POST form by that operationId.*accountsBalanceGet/);
    expect(await w.db.importedConnector.count({ where: { connector: "bank" } })).toBe(0);
  });

  test("a marked read answers at once with no grant or approval; the one not marked stays a write nothing sends", async () => {
    const done = await importBank(["accountsBalanceGet"], true);
    if (!done.ok) throw new Error(done.message);
    expect(done.value.report.reads).toEqual(["accountsBalanceGet"]);
    const actionsBefore = await w.db.action.count();

    const form = await agent.callTool({
      name: "navigate",
      arguments: { uri: "bank://accounts/balance/get/create" },
    });
    expect(text(form)).toMatch(/A read: submitting sends `POST \/accounts\/balance\/get`/);
    const read = await agent.callTool({
      name: "submit",
      arguments: { uri: "bank://accounts/balance/get/create", fields: { account_ids: ["acc_7Qp"] } },
    });
    expect(sc(read)).toMatchObject({ outcome: "applied" });
    expect(text(read)).toContain("acc_7Qp");
    expect(text(read)).toContain("1250.5");
    expect(seen).toEqual([
      { method: "POST", url: "/accounts/balance/get", body: JSON.stringify({ account_ids: ["acc_7Qp"] }) },
    ]);
    expect(await w.db.action.count()).toBe(actionsBefore);

    // Suggested but not marked: a write, refused at the permission step without a grant.
    const search = await agent.callTool({
      name: "submit",
      arguments: { uri: "bank://transfers/search/create", fields: { query: "rent" } },
    });
    expect(sc(search)).toMatchObject({ outcome: "rejected" });
    expect(text(search)).toMatch(/start on bank\\:\/\/transfers\/search\/create is not granted/);
    const create = await agent.callTool({
      name: "submit",
      arguments: { uri: "bank://transfers/create", fields: { amount: 500 } },
    });
    expect(text(create)).toMatch(/Reason: `permission_required`/);
    expect(seen).toHaveLength(1);
  });
});
