import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { importOpenApiConnector } from "@/server/gateway/console/import-openapi-connector";
import { cliActor } from "@/server/gateway/console/record-console-audit";
import { allowEgressTo } from "../../helpers/allow-egress";
import { createMcpWorld, type McpWorld, sc, text } from "../../mcp/mcp-world";

/**
 * A secret is bound to every place it may be sent: the base URL, the token URL, any `servers`
 * entry. Re-importing the same document with only its OAuth2 `tokenUrl` moved used to preview as
 * "unchanged" and send `Basic client_id:client_secret` to the new host on the next read. Now the
 * preview says what moved and names the secret it clears, the import clears it, and nothing
 * reaches the new host. Read through a real MCP client; what each server received is recorded.
 */

const CLIENT = "ledger-client:ledger-secret-5Tq9Wm2Kx";

interface Recorder {
  server: Server;
  url: string;
  seen: Array<{ path: string; headers: IncomingHttpHeaders }>;
}

async function recorder(answer: (path: string) => unknown): Promise<Recorder> {
  const seen: Recorder["seen"] = [];
  const server = createServer((req, res) => {
    seen.push({ path: req.url ?? "", headers: req.headers });
    req.resume();
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(answer(req.url ?? "")));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  allowEgressTo(url);
  return { server, url, seen };
}

function ledger(tokenUrl: string, servers?: string[]): string {
  return JSON.stringify({
    openapi: "3.0.3",
    info: { title: "Ledger", version: "1" },
    ...(servers ? { servers: servers.map((url) => ({ url })) } : {}),
    components: {
      securitySchemes: { ledger: { type: "oauth2", flows: { clientCredentials: { tokenUrl, scopes: {} } } } },
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

let w: McpWorld;
let api: Recorder;
let tokensA: Recorder;
let tokensB: Recorder;
let agent: Client;

const tokenAnswer = () => ({ access_token: "at_entries_read", token_type: "Bearer", expires_in: 60 });

const importLedger = (document: string, apply: boolean, secrets: Record<string, string> = {}) =>
  importOpenApiConnector(
    w.db,
    cliActor("acme", "test"),
    {
      text: document,
      id: "ledger",
      baseUrl: api.url,
      readRoles: ["admin"],
      secrets,
      self: { origins: [], ports: [] },
    },
    { apply },
  );

const storedSecrets = () =>
  w.db.secret.findMany({ where: { tenantId: "acme", connector: "ledger" }, select: { name: true } });

beforeAll(async () => {
  [w, api, tokensA, tokensB] = await Promise.all([
    createMcpWorld("sqlite"),
    recorder(() => [{ id: "e_1" }]),
    recorder(tokenAnswer),
    recorder(tokenAnswer),
  ]);
  agent = await w.connect(w.keys.adam, { faces: "browse,actions" });
}, 90_000);

afterAll(async () => {
  await w?.close();
  for (const r of [api, tokensA, tokensB]) r?.server.close();
});

describe("secrets bound to every origin they may be sent to", () => {
  test("re-import with only tokenUrl moved: the preview says so and names the secret; applied, it is cleared and the new host gets nothing", async () => {
    const first = await importLedger(ledger(`${tokensA.url}/oauth/token`), true, { ledger: CLIENT });
    expect(first.ok, JSON.stringify(first)).toBe(true);
    const read = await agent.callTool({ name: "navigate", arguments: { uri: "ledger://entries" } });
    expect(sc(read).outcome, text(read)).toBe("applied");
    expect(tokensA.seen).toHaveLength(1);
    expect(String(tokensA.seen[0]?.headers.authorization)).toMatch(/^Basic /);

    const moved = ledger(`${tokensB.url}/oauth/token`);
    const preview = await importLedger(moved, false);
    if (!preview.ok) throw new Error(preview.message);
    expect(preview.value.diff?.security.join("\n")).toContain(
      `token URL ${tokensA.url}/oauth/token → ${tokensB.url}/oauth/token`,
    );
    expect(preview.value.secretChanges).toEqual([
      { secret: "ledger", change: expect.stringContaining(`+${tokensB.url}`) },
    ]);
    expect(preview.value.secretsToClear).toEqual(["ledger"]);
    expect(await storedSecrets()).toEqual([{ name: "ledger" }]); // a preview changes nothing

    const applied = await importLedger(moved, true);
    if (!applied.ok) throw new Error(applied.message);
    expect(applied.value.secretsCleared).toEqual(["ledger"]);
    expect(await storedSecrets()).toEqual([]);

    const after = await agent.callTool({ name: "navigate", arguments: { uri: "ledger://entries" } });
    expect(sc(after).outcome).not.toBe("applied");
    expect(text(after)).toMatch(/no secret is set/);
    expect(tokensB.seen).toEqual([]);
  });

  test("a new `servers` entry clears the secret too; a re-import that changes nothing keeps it", async () => {
    const doc = ledger(`${tokensB.url}/oauth/token`);
    expect((await importLedger(doc, true, { ledger: CLIENT })).ok).toBe(true);
    const same = await importLedger(doc, true);
    if (!same.ok) throw new Error(same.message);
    expect(same.value.secretChanges).toEqual([]);
    expect(same.value.secretsCleared).toEqual([]);
    expect(await storedSecrets()).toEqual([{ name: "ledger" }]);

    const withServer = await importLedger(
      ledger(`${tokensB.url}/oauth/token`, ["https://mirror.example.test/v1"]),
      true,
    );
    if (!withServer.ok) throw new Error(withServer.message);
    expect(withServer.value.diff?.security).toContain("the document's servers changed");
    expect(withServer.value.secretChanges[0]?.change).toContain("+https://mirror.example.test");
    expect(withServer.value.secretsCleared).toEqual(["ledger"]);
    expect(await storedSecrets()).toEqual([]);
  });
});
