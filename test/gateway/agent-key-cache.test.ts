import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createSignpostMcp, type SignpostMcp } from "@/mcp/signpost-mcp";
import { createDb, type Db } from "@/server/db/client";
import { hashAgentKey } from "@/server/gateway/agent-keys";
import { createAgent, revokeAgent, setAgentFaces } from "@/server/gateway/console/manage-agents";
import { cliActor } from "@/server/gateway/console/record-console-audit";
import { allowEgressTo } from "../helpers/allow-egress";
import { describeEachProvider } from "../helpers/database";
import { handleNode } from "../helpers/serve-route";
import { createWorld, type World } from "./gateway-world";

// biome-ignore lint/suspicious/noExplicitAny: the test reads whatever the tool answered
type Loose = any;

/**
 * Issue 22: agent keys are resolved once per instance and checked against the tenant's config
 * stamp on every call (server/gateway/agent-key-cache.ts). Two instances here are two database
 * handles, each with its own MCP composition and caches, served on real ports to real MCP
 * clients: a key revoked, re-keyed or given other faces through one, or whose person's role
 * changed, is refused or seen changed on the very next call on the other. And the one SDK
 * handler now shared by every request never mixes two callers: two tenants' agents calling at
 * once each see only their own tenant.
 */
describeEachProvider("agent keys cached per instance, checked on every call (%s)", (provider) => {
  let w: World;
  let dbA: Db;
  let dbB: Db;
  let b: SignpostMcp;
  let server: Server;
  let endpoint: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    w = await createWorld(provider);
    allowEgressTo(w.legacy.url);
    dbA = createDb(w.database.url);
    dbB = createDb(w.database.url);
    b = createSignpostMcp({ db: dbB, publicUrl: "http://localhost:3000", callsPerMinute: 0 });
    server = createServer((req, res) => void handleNode(b.handle, req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    endpoint = `http://localhost:${(server.address() as AddressInfo).port}/mcp`;
  }, 120_000);
  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await new Promise<void>((resolve) => {
      server?.closeAllConnections();
      server ? server.close(() => resolve()) : resolve();
    });
    await b?.close();
    await dbA?.$disconnect();
    await dbB?.$disconnect();
    await w?.close();
  });

  async function connect(key: string): Promise<Client> {
    const client = new Client({ name: "key-cache-test", version: "1.0.0" }, { capabilities: {} });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(endpoint), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  async function mintKey(name: string) {
    const made = await createAgent(dbA, cliActor("acme", "test"), { name, userId: w.person.alice.userId });
    if (!made.ok) throw new Error(made.message);
    return { key: made.value.key, id: made.value.agent.id };
  }

  const order = async (client: Client, id: string): Promise<Loose> =>
    (await client.callTool({ name: "get_context", arguments: { entity: "order", entity_id: id } }))
      .structuredContent;

  /** A raw POST, for answers a client library turns into exceptions (401). */
  const rawList = (key: string) =>
    fetch(endpoint, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });

  it("a key revoked on one instance is refused by the next call on another", async () => {
    const minted = await mintKey("revoked on A");
    const client = await connect(minted.key);
    // Three calls: the first learns the key, the second confirms it against the stamp, the
    // third is served from B's cache.
    for (let i = 0; i < 3; i++) expect((await order(client, "ord_paid")).outcome).toBe("applied");
    expect((await rawList(minted.key)).status).toBe(200);
    const revoked = await revokeAgent(dbA, cliActor("acme", "test"), minted.id);
    expect(revoked.ok).toBe(true);
    const refused = await rawList(minted.key);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain("invalid_token");
  });

  it("a key whose hash is replaced (re-keyed) stops at once; the new key works", async () => {
    const minted = await mintKey("re-keyed on A");
    for (let i = 0; i < 3; i++) expect((await rawList(minted.key)).status).toBe(200);
    const next = `${minted.key}-rotated`;
    await dbA.agent.update({ where: { id: minted.id }, data: { keyHash: hashAgentKey(next) } });
    expect((await rawList(minted.key)).status).toBe(401);
    expect((await rawList(next)).status).toBe(200);
  });

  it("faces chosen on one instance are the next call's faces on another", async () => {
    const minted = await mintKey("faces on A");
    const client = await connect(minted.key);
    const names = async () => (await client.listTools()).tools.map((t) => t.name);
    for (let i = 0; i < 3; i++) expect(await names()).toContain("navigate");
    const set = await setAgentFaces(dbA, cliActor("acme", "test"), minted.id, { faces: ["actions"] });
    expect(set.ok).toBe(true);
    const after = await names();
    expect(after).toContain("get_context");
    expect(after).not.toContain("navigate");
  });

  it("a person's role changed on one instance is the role of the next call on another", async () => {
    const minted = await mintKey("role on A");
    for (let i = 0; i < 3; i++) expect((await b.authenticate(minted.key))?.context.role).toBe("member");
    await dbA.user.update({ where: { id: w.person.alice.userId }, data: { role: "support" } });
    try {
      expect((await b.authenticate(minted.key))?.context.role).toBe("support");
    } finally {
      await dbA.user.update({ where: { id: w.person.alice.userId }, data: { role: "member" } });
    }
    expect((await b.authenticate(minted.key))?.context.role).toBe("member");
  });

  it("the key's last use is still written (once a minute), and that write keeps the caches", async () => {
    const minted = await mintKey("last use");
    for (let i = 0; i < 3; i++) expect((await rawList(minted.key)).status).toBe(200);
    const before = await dbA.tenant.findUniqueOrThrow({ where: { id: "acme" } });
    await dbA.agent.update({ where: { id: minted.id }, data: { lastUsedAt: new Date(0) } });
    const after = await dbA.tenant.findUniqueOrThrow({ where: { id: "acme" } });
    expect(after.configVersion).toBe(before.configVersion);
    const row = await dbA.agent.findUniqueOrThrow({ where: { id: minted.id } });
    expect(row.lastUsedAt?.getTime()).toBe(0);
  });

  it("two tenants' agents calling at once each see only their own tenant", async () => {
    const alice = await connect(w.keys.alice);
    const gina = await connect(w.keys.gina);
    const since = new Date();
    const rounds = 15;
    const results = await Promise.all(
      Array.from({ length: rounds }, async () => ({
        aliceOwn: await order(alice, "ord_paid"),
        ginaOwn: await order(gina, "ord_globex_paid"),
        aliceOther: await order(alice, "ord_globex_paid"),
        ginaOther: await order(gina, "ord_paid"),
      })),
    );
    for (const r of results) {
      expect(r.aliceOwn.outcome).toBe("applied");
      expect(r.ginaOwn.outcome).toBe("applied");
      expect(r.aliceOther.outcome).toBe("not_found");
      expect(r.ginaOther.outcome).toBe("not_found");
    }
    // Every call is on record under its own caller's tenant.
    const rows = await dbA.auditEvent.findMany({
      where: {
        createdAt: { gte: since },
        agentId: { in: [w.agent.alice.agentId ?? "", w.agent.gina.agentId ?? ""] },
      },
      select: { tenantId: true, agentId: true, target: true },
    });
    const agentOf = { acme: w.agent.alice.agentId, globex: w.agent.gina.agentId };
    expect(rows.filter((r) => r.tenantId === "acme")).toHaveLength(rounds * 2);
    expect(rows.filter((r) => r.tenantId === "globex")).toHaveLength(rounds * 2);
    for (const row of rows) expect(row.agentId).toBe(agentOf[row.tenantId as "acme" | "globex"]);
  });
});
