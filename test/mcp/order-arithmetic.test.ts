import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { idem } from "../gateway/gateway-world";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Round 23: "shipping ($5.00) included" beside a $5.00 coupon discount made the player add the
 * sum again. An order's money is stated once, as the arithmetic on one line, wherever an agent
 * reads it: the checkout it approves, the order page, and a refund of that order.
 */
describe("an order's totals read as one sum (real legacy, real MCP client)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    await w.legacy.reset();
  });
  afterAll(async () => w?.close());

  it("checkout with a coupon, its order page and its refund each show items + shipping − coupon = total once", async () => {
    const client = await w.connect(w.keys.alice);
    const line = "items $36.00 + shipping $5.00 − coupon SAVE5 $5.00 = $36.00";
    const started = await client.callTool({
      name: "start_action",
      arguments: {
        capability: "checkout",
        patch: {
          items: [{ product_id: "prod_mug", quantity: 2 }],
          address_id: "Office",
          shipping_method: "standard",
          coupon_code: "SAVE5",
          payment_type: "balance",
        },
      },
    });
    const shown = text(started);
    expect(shown).toContain(`Sum: ${line}`);
    // The arithmetic once: no separate rows for its terms.
    expect(shown).not.toMatch(/Subtotal:|Shipping price:|Discount:/);
    const actionId = sc(started).action_id as string;
    const ctx = await w.gw.getContext(w.agent.alice, { action_id: actionId });
    const decided = await w.gw.decideApproval(w.person.alice, {
      action_id: actionId,
      version: ctx.version as number,
      decision: "approve",
    });
    expect(decided.outcome).toBe("applied");
    // The order just placed is the newest.
    const orders = text(await client.callTool({ name: "navigate", arguments: { uri: "shop://orders" } }));
    const newest = /^\| `(ord_[a-z0-9]+)` \|/m.exec(orders)?.[1];
    expect(newest).not.toBe("ord_pending");
    const page = text(
      await client.callTool({ name: "navigate", arguments: { uri: `shop://order/${newest}` } }),
    );
    expect(page).toContain(`**totals:** ${line}`);

    const refund = text(
      await client.callTool({
        name: "start_action",
        arguments: {
          capability: "after_sales",
          entity_id: newest,
          patch: { kind: "refund_only", reason: "changed my mind" },
          idempotency_key: idem(),
        },
      }),
    );
    expect(refund).toContain(`Refund: ${line}`);
    expect(refund).not.toContain("included");
  });
});
