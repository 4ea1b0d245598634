import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Issue 23: asked "what's the tracking number of my headphones, and where are they now?", a model
 * read the order (tracking number, "in_transit", no place), then its tracking page for the last
 * scan. An order on its way now says its latest scan on its page and in its get_context view.
 */
describe("an order on its way says its last scan", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  const SCAN = /Arrived at destination depot, Shelbyville depot, \d{4}-\d\d-\d\d/;

  it("the order page and the get_context view of a shipped order show it; a paid one none", async () => {
    const alice = await w.connect(w.keys.alice);
    const page = text(
      await alice.callTool({ name: "navigate", arguments: { uri: "shop://order/ord_transit" } }),
    );
    // On the fulfilment line, after the status it details, said to be the latest and read now
    // (set N: a model shown a "last scan" tracked the parcel again to be sure it was current).
    expect(page).toMatch(
      new RegExp(
        `shipment status: in_transit · latest scan: ${SCAN.source}[^\n]*(read from the carrier just now)`,
      ),
    );
    const context = await alice.callTool({
      name: "get_context",
      arguments: { entity: "order", entity_id: "ord_transit" },
    });
    const fulfilment = (sc(context).view as { fulfilment: { latest_scan?: string } }).fulfilment;
    expect(fulfilment.latest_scan).toMatch(SCAN);
    expect(text(context)).toMatch(SCAN);
    expect(JSON.stringify(sc(context).next_actions)).toContain("the latest is on this order");

    const paidPage = text(
      await alice.callTool({ name: "navigate", arguments: { uri: "shop://order/ord_paid" } }),
    );
    expect(paidPage).not.toMatch(/latest_scan|last scan/i);
    const paid = await alice.callTool({
      name: "get_context",
      arguments: { entity: "order", entity_id: "ord_paid" },
    });
    expect((sc(paid).view as { fulfilment: Record<string, unknown> }).fulfilment).not.toHaveProperty(
      "latest_scan",
    );
  });

  it("a tracking read that fails leaves the line out, never the order", async () => {
    const alice = await w.connect(w.keys.alice);
    await w.legacy.injectFault({ match: "GET /v1/orders/ord_transit/tracking", mode: "error", count: 20 });
    try {
      const page = await alice.callTool({ name: "navigate", arguments: { uri: "shop://order/ord_transit" } });
      expect(sc(page).outcome).toBe("applied");
      expect(text(page)).toMatch(/tracking number: 1Z999AA\d+ · shipment status: in_transit/);
      expect(text(page)).not.toMatch(/latest scan/);
      const context = await alice.callTool({
        name: "get_context",
        arguments: { entity: "order", entity_id: "ord_transit" },
      });
      expect(sc(context).outcome).toBe("applied");
      expect((sc(context).view as { fulfilment: Record<string, unknown> }).fulfilment).not.toHaveProperty(
        "latest_scan",
      );
    } finally {
      await w.legacy.clearFaults();
    }
  });
});
