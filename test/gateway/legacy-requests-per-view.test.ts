import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSignpostMcp, type SignpostMcp } from "@/mcp/signpost-mcp";
import { setSecret } from "@/server/gateway/vault";
import { type RunningLegacy, startLegacy } from "../helpers/legacy-server";
import { createWorld, type World } from "./gateway-world";

/**
 * Issue 22: the legacy requests one order view costs, through the whole MCP face. It was two GETs
 * every time: the shop customer the caller is (which decides which orders a member may see) and
 * the order. The customer is now remembered per tenant, connector, credentials and person, for
 * 30 s at most (server/gateway/lookup-cache.ts): a steady caller costs the order alone. A shipped
 * order (on its way) costs two more, read at once: its tracking, for the last scan its view shows
 * (issue 23), and its method's shipping quote, for the date it should arrive ("when will my
 * headphones arrive?" read the tracking too, hoping for one).
 */
describe("legacy requests per order view", () => {
  let w: World;
  let mcp: SignpostMcp;
  let legacy: RunningLegacy;
  let other: RunningLegacy | null = null;
  const seen: string[] = [];
  const otherSeen: string[] = [];

  beforeAll(async () => {
    legacy = await startLegacy({ onRequest: (e) => seen.push(`${e.method} ${e.path}`) });
    w = await createWorld("sqlite", legacy);
    mcp = createSignpostMcp({ db: w.db, publicUrl: "http://localhost:3000", callsPerMinute: 0 });
  }, 120_000);
  afterAll(async () => {
    await mcp?.close();
    await w?.close();
    await legacy?.stop();
    await other?.stop();
  });

  /** One tools/call through the MCP face; its structured result. */
  async function call(key: string, name: string, args: Record<string, unknown>) {
    const response = await mcp.handle(
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
    const text = await response.text();
    expect(response.status, text).toBe(200);
    return JSON.parse(text).result.structuredContent as Record<string, unknown>;
  }
  const getOrder = (key: string) => call(key, "get_context", { entity: "order", entity_id: "ord_paid" });
  // Who the caller is in the shop (by email); the label of the method that paid is read apart.
  const customerLookups = (log: string[]) => log.filter((l) => l === "GET /v1/customers").length;

  it("a steady caller's get_context and navigate of an order cost one legacy GET each (was two)", async () => {
    for (const view of [
      () => getOrder(w.keys.alice),
      () => call(w.keys.alice, "navigate", { uri: "shop://order/ord_paid" }),
    ]) {
      await view();
      seen.length = 0;
      const shown = await view();
      expect(shown.outcome).toBe("applied");
      expect(seen).toEqual(["GET /v1/orders/ord_paid"]);
    }
  });

  it("a shipped order's view costs its tracking (its last scan, issue 23) and its quote (when it should arrive)", async () => {
    for (const view of [
      () => call(w.keys.alice, "get_context", { entity: "order", entity_id: "ord_transit" }),
      () => call(w.keys.alice, "navigate", { uri: "shop://order/ord_transit" }),
    ]) {
      await view();
      seen.length = 0;
      expect((await view()).outcome).toBe("applied");
      // The order first, then its tracking and its quote at once (only once the order says shipped).
      expect(seen[0]).toBe("GET /v1/orders/ord_transit");
      expect(seen.slice(1).sort()).toEqual([
        "GET /v1/orders/ord_transit/tracking",
        "POST /v1/shipping/quotes",
      ]);
    }
  });

  it("another person and another tenant never get the customer remembered for someone else", async () => {
    await getOrder(w.keys.alice);
    seen.length = 0;
    // Sam (support, same tenant) is looked up as himself: not the order's customer, so he may not pay it.
    const sam = await getOrder(w.keys.sam);
    expect(customerLookups(seen)).toBe(1);
    expect((sam.view as { not_now: { pay_order: string } }).not_now.pay_order).toBe("not_your_order");
    // Gina (globex) is looked up in her own tenant, where that order is not hers to see.
    seen.length = 0;
    expect((await getOrder(w.keys.gina)).outcome).toBe("not_found");
    expect(customerLookups(seen)).toBe(1);
    // Alice's own entry is still hers.
    seen.length = 0;
    const alice = await getOrder(w.keys.alice);
    expect((alice.view as { not_now: { pay_order?: string } }).not_now.pay_order).toBe("order_already_paid");
    expect(customerLookups(seen)).toBe(0);
  });

  it("an admin pointing the connector at another system (address and key) makes the next view look the customer up there", async () => {
    await getOrder(w.keys.alice);
    other = await startLegacy({ onRequest: (e) => otherSeen.push(`${e.method} ${e.path}`) });
    await w.db.connectorConfig.update({
      where: { tenantId_connector: { tenantId: "acme", connector: "shop" } },
      data: { settings: { baseUrl: other.url } },
    });
    await setSecret(w.db, {
      tenantId: "acme",
      connector: "shop",
      name: "api_key",
      value: other.apiKeys.acme,
    });
    seen.length = 0;
    expect((await getOrder(w.keys.alice)).outcome).toBe("applied");
    expect(seen).toEqual([]);
    // There, the customer and the order, then (issue 23) the label of the method that paid it.
    expect(otherSeen.slice(0, 2)).toEqual(["GET /v1/customers", "GET /v1/orders/ord_paid"]);
    expect(otherSeen.slice(2).sort()).toEqual([
      "GET /v1/customers/cus_alice/payment-methods",
      "GET /v1/payments",
    ]);
  });
});
