import { afterAll, beforeAll, expect, it } from "vitest";
import { createSignpostMcp, type SignpostMcp } from "@/mcp/signpost-mcp";
import { createDb, type Db } from "@/server/db/client";
import { createdByAgent, createdByAgentCacheSize } from "@/server/engine/created-by-agent";
import { readTenantRow } from "@/server/gateway/agent-key-cache";
import { checkoutToConfirmation, createWorld, type World } from "../gateway/gateway-world";
import { allowEgressTo } from "../helpers/allow-egress";
import { describeEachProvider } from "../helpers/database";

// biome-ignore lint/suspicious/noExplicitAny: the test reads whatever JSON-RPC answered
type Loose = any;

/**
 * Issue 22: "placed by you" (issue 23) is read from the action store once per agent and set of
 * records, then kept by each instance while the agent's applied-actions stamp, read with the
 * tenant row every call reads anyway, holds. Two instances here are two database handles with
 * their own caches on one database: an action applied, changed or removed through one is seen by
 * the very next call on the other, and another agent's cache never answers for this one.
 */
describeEachProvider(
  "placed by you, changed on one instance, seen by the next call on another (%s)",
  (provider) => {
    let w: World;
    let dbA: Db;
    let dbB: Db;
    let a: SignpostMcp;
    let b: SignpostMcp;
    let aliceAgentId: string;

    beforeAll(async () => {
      w = await createWorld(provider);
      allowEgressTo(w.legacy.url);
      await w.legacy.reset();
      dbA = createDb(w.database.url);
      dbB = createDb(w.database.url);
      a = createSignpostMcp({ db: dbA, publicUrl: "http://localhost:3000", callsPerMinute: 0 });
      b = createSignpostMcp({ db: dbB, publicUrl: "http://localhost:3000", callsPerMinute: 0 });
      aliceAgentId = w.agent.alice.agentId as string;
    }, 120_000);
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await dbA?.$disconnect();
      await dbB?.$disconnect();
      await w?.close();
    });

    async function navigateOnB(key: string, uri: string): Promise<string> {
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
            params: { name: "navigate", arguments: { uri } },
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
      const result = (JSON.parse(json) as Loose).result;
      expect(result.structuredContent?.outcome).toBe("applied");
      return result.content[0].text as string;
    }

    it("an order the agent places through one instance is marked on its next read on the other", async () => {
      // B has answered this agent's list and order pages before (its cache holds them).
      for (let i = 0; i < 2; i++) {
        expect(await navigateOnB(w.keys.alice, "shop://orders")).not.toContain(
          "Placed through this assistant",
        );
        expect(await navigateOnB(w.keys.alice, "shop://order/ord_paid")).not.toContain("placed by");
      }
      const world = { ...w, db: dbA, gw: a.gateway };
      const started = await checkoutToConfirmation(world);
      const decided = await a.gateway.decideApproval(w.person.alice, {
        action_id: started.action_id as string,
        version: started.version as number,
        decision: "approve",
      });
      expect(decided.outcome).toBe("applied");
      const placed = (await dbA.action.findUniqueOrThrow({ where: { id: started.action_id as string } }))
        .entityId as string;
      expect(placed).toMatch(/^ord_/);
      expect(await navigateOnB(w.keys.alice, "shop://orders")).toContain(
        `Placed through this assistant: \`${placed}\``,
      );
      expect(await navigateOnB(w.keys.alice, `shop://order/${placed}`)).toContain("**placed by:** you");
      // Another agent of the tenant: its own answer, not this agent's.
      expect(await navigateOnB(w.keys.adam, `shop://order/${placed}`)).not.toContain("placed by");
    });

    it("an action row applied, changed and removed on one instance (a hand-written fix too)", async () => {
      const page = () => navigateOnB(w.keys.alice, "shop://order/ord_paid");
      expect(await page()).not.toContain("placed by");
      expect(await page()).not.toContain("placed by"); // from B's cache now
      const row = await dbA.action.create({
        data: {
          tenantId: "acme",
          agentId: aliceAgentId,
          userId: w.agent.alice.userId,
          capability: "checkout",
          entityType: "Order",
          entityId: "ord_paid",
          node: "SUBMITTED",
          status: "applied",
          state: {},
        },
      });
      expect(await page()).toContain("**placed by:** you");
      expect(await navigateOnB(w.keys.adam, "shop://order/ord_paid")).not.toContain("placed by");
      await dbA.action.update({ where: { id: row.id }, data: { status: "failed" } });
      expect(await page()).not.toContain("placed by");
      await dbA.action.update({ where: { id: row.id }, data: { status: "completed" } });
      expect(await page()).toContain("**placed by:** you");
      await dbA.action.delete({ where: { id: row.id } });
      expect(await page()).not.toContain("placed by");
    });

    it("changes to the agent's open actions leave its stamp, and its cached answers, alone", async () => {
      const stamp = async () => (await readTenantRow(dbA, "acme", aliceAgentId))?.appliedActionsVersion;
      const before = await stamp();
      expect(before).toEqual(expect.any(Number));
      const started = await checkoutToConfirmation({ ...w, db: dbA, gw: a.gateway });
      await dbA.action.update({
        where: { id: started.action_id as string },
        data: { node: "CONFIRM_ORDER" },
      });
      expect(await stamp()).toBe(before);
      // Another tenant's row, and no agent: no stamp to read.
      expect((await readTenantRow(dbA, "globex", aliceAgentId))?.appliedActionsVersion).toBeNull();
      expect((await readTenantRow(dbA, "acme"))?.appliedActionsVersion).toBeNull();
    });

    it("a write the agent's own call made is seen by the rest of that call", async () => {
      // One call: the stamp read at its start, then (as a script does) a read, a write, a read.
      const stamp = (await readTenantRow(dbA, "acme", aliceAgentId))?.appliedActionsVersion as number;
      const call = { ...w.agent.alice, appliedActionsVersion: stamp };
      const ask = () => a.gateway.createdByAgent(call, "Order", ["ord_shipped"]);
      expect(await ask()).toEqual({});
      // What the call's own write does to the action store (an effect found applied by a verify).
      await dbA.action.create({
        data: {
          tenantId: "acme",
          agentId: aliceAgentId,
          userId: w.agent.alice.userId,
          capability: "checkout",
          entityType: "Order",
          entityId: "ord_shipped",
          node: "SUBMITTED",
          status: "applied",
          state: {},
        },
      });
      // The write step itself, through the gateway's pipeline, as this agent.
      await a.gateway.verifyAction(call, { action_id: "act_none" });
      expect(await ask()).toEqual({ ord_shipped: expect.any(String) });
    });

    it("keeps a bounded number of answers", async () => {
      const who = { tenantId: "acme", agentId: aliceAgentId, appliedActionsVersion: 0 };
      for (let i = 0; i < 5_100; i++) await createdByAgent(dbB, new Map(), who, "Order", [`ord_${i}`]);
      expect(createdByAgentCacheSize(dbB)).toBeLessThanOrEqual(5_000);
    }, 120_000);
  },
);
