import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createSignpostMcp, type SignpostMcp } from "@/mcp/signpost-mcp";
import { tenantConnectors } from "@/server/connectors/tenant-connectors";
import { createDb, type Db } from "@/server/db/client";
import { importOpenApiConnector } from "@/server/gateway/console/import-openapi-connector";
import { cliActor } from "@/server/gateway/console/record-console-audit";
import { setSecret } from "@/server/gateway/vault";
import { allowEgressTo } from "../helpers/allow-egress";
import { describeEachProvider } from "../helpers/database";
import { createWorld, type World } from "./gateway-world";

// biome-ignore lint/suspicious/noExplicitAny: the test reads whatever JSON-RPC answered
type Loose = any;

/**
 * Issue 22: each instance keeps its tenants' rules, connector settings, secrets and imported
 * connectors between calls. Two instances here are two database handles with their own caches
 * (as two processes have), on one database: a change made through one is seen by the very next
 * call on the other, with no wait — the stamp bumped by the database's triggers says so.
 */
describeEachProvider(
  "a tenant's setup changed on one instance is seen by the next call on another (%s)",
  (provider) => {
    let w: World;
    let dbA: Db;
    let dbB: Db;
    let b: SignpostMcp;

    beforeAll(async () => {
      w = await createWorld(provider);
      allowEgressTo(w.legacy.url);
      dbA = createDb(w.database.url);
      dbB = createDb(w.database.url);
      b = createSignpostMcp({ db: dbB, publicUrl: "http://localhost:3000", callsPerMinute: 0 });
    }, 120_000);
    afterAll(async () => {
      await b?.close();
      await dbA?.$disconnect();
      await dbB?.$disconnect();
      await w?.close();
    });

    async function callOnB(key: string, name: string, args: Record<string, unknown>): Promise<Loose> {
      const response = await b.handle(
        new Request("http://localhost:3000/mcp", {
          method: "POST",
          headers: {
            authorization: `Bearer ${key}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-protocol-version": "2025-11-25",
            host: "localhost:3000",
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: { name, arguments: args },
          }),
        }),
      );
      expect(response.status).toBe(200);
      const text = await response.text();
      const json = response.headers.get("content-type")?.includes("json")
        ? text
        : (text
            .split("\n")
            .find((l) => l.startsWith("data: "))
            ?.slice(6) ?? "{}");
      return (JSON.parse(json) as Loose).result.structuredContent;
    }
    const order = () => callOnB(w.keys.alice, "get_context", { entity: "order", entity_id: "ord_paid" });

    it("a replaced secret", async () => {
      expect((await order()).outcome).toBe("applied");
      expect((await order()).outcome).toBe("applied"); // served from B's cache now
      await setSecret(dbA, {
        tenantId: "acme",
        connector: "shop",
        name: "api_key",
        value: "not-the-key-123",
      });
      expect((await order()).outcome).not.toBe("applied");
      await setSecret(dbA, {
        tenantId: "acme",
        connector: "shop",
        name: "api_key",
        value: w.legacy.apiKeys.acme,
      });
      expect((await order()).outcome).toBe("applied");
    });

    it("a setting (the connector switched off, then on)", async () => {
      expect((await order()).outcome).toBe("applied");
      await dbA.connectorConfig.updateMany({
        where: { tenantId: "acme", connector: "shop" },
        data: { enabled: false },
      });
      const off = await order();
      expect(off.outcome).toBe("temporarily_unavailable");
      expect(off.message).toContain("disabled");
      await dbA.connectorConfig.updateMany({
        where: { tenantId: "acme", connector: "shop" },
        data: { enabled: true },
      });
      expect((await order()).outcome).toBe("applied");
    });

    it("a permission rule, added then removed", async () => {
      const page = () => callOnB(w.keys.alice, "navigate", { uri: "shop://order/ord_paid" });
      expect((await page()).outcome).toBe("applied");
      const rule = await dbA.permissionRule.create({
        data: {
          tenantId: "acme",
          subjectType: "tenant",
          verb: "navigate",
          pattern: "shop://order/*",
          decision: "deny",
          position: 0,
        },
      });
      expect((await page()).outcome).toBe("rejected");
      await dbA.permissionRule.delete({ where: { id: rule.id } });
      expect((await page()).outcome).toBe("applied");
    });

    it("an imported connector", async () => {
      const before = await tenantConnectors(dbB, "acme");
      expect(before.map((c) => c.id)).not.toContain("pets");
      const imported = await importOpenApiConnector(
        dbA,
        cliActor("acme", "test"),
        {
          text: readFileSync(
            join(process.cwd(), "node_modules/@readme/oas-examples/3.0/json/petstore-expanded.json"),
            "utf8",
          ),
          id: "pets",
          baseUrl: "http://127.0.0.1:4999",
          readRoles: ["admin"],
          secrets: {},
          self: { origins: [], ports: [] },
        },
        { apply: true },
      );
      expect(imported.ok).toBe(true);
      expect((await tenantConnectors(dbB, "acme")).map((c) => c.id)).toContain("pets");
      await dbA.importedConnector.deleteMany({ where: { tenantId: "acme", connector: "pets" } });
      expect((await tenantConnectors(dbB, "acme")).map((c) => c.id)).not.toContain("pets");
    });
  },
);
