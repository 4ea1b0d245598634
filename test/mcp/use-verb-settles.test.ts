import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CapabilityHit } from "@/server/engine/capability-search";
import { opensWithOwnUseVerb, useVerbs } from "@/server/engine/top-match";
import { createMcpWorld, type McpWorld, sc } from "./mcp-world";

/**
 * Set BV: "Buy what's in my cart with the cheapest shipping to my office, paid from my balance."
 * tied checkout with an address change ("ship to the office instead" is its sentence) and both
 * players lost a call to "several capabilities match", though "buy" is a verb only checkout's
 * "when to use" names. Real MCP client over HTTP, gateway and legacy service.
 */
describe("a verb only the best match's own sentence names settles a near tie", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("reads the verbs after 'to' (and joined by 'or'), never a preposition's object", () => {
    expect([
      ...useVerbs("The user wants to buy or order items (from the cart or named products) and pay for them."),
    ]).toEqual(["buy", "order"]);
    expect([
      ...useVerbs("The user wants an order delivered to a different address (ship to the office instead)."),
    ]).toEqual([]);
    expect([
      ...useVerbs("The user wants money back, to cancel a paid order, to return or exchange items"),
    ]).toEqual(["cancel", "return", "exchange"]);
  });

  it("'Buy what's in my cart with standard shipping to my office, …' starts the checkout (a dry run)", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = sc(
      await alice.callTool({
        name: "start_action",
        arguments: {
          intent: "Buy what's in my cart with standard shipping to my office, paid from my balance.",
          dry_run: true,
        },
      }),
    );
    expect(out.reason).not.toBe("ambiguous_intent");
    expect(out.capability).toBe("checkout");
  });

  it("a verb a near rival also names, by its name or its sentence, settles nothing", () => {
    const hit = (capability: string, score: number, trigger: string) =>
      ({ capability, score, trigger }) as unknown as CapabilityHit;
    const best = hit("checkout", 10, "The user wants to buy or order items.");
    const address = hit(
      "change_delivery_address",
      6,
      "The user wants an order delivered to a different address.",
    );
    expect(opensWithOwnUseVerb("Buy my cart to the office", best, [best, address])).toBe(true);
    // A near rival named for the verb, or whose own sentence names it: no settling.
    expect(opensWithOwnUseVerb("Buy my cart", best, [best, hit("buy_gift_card", 6, "")])).toBe(false);
    expect(
      opensWithOwnUseVerb("Buy my cart", best, [best, hit("wishlist", 6, "The user wants to buy later.")]),
    ).toBe(false);
    // A rival far behind (past the clear lead) does not count; nor does a verb the sentence lacks.
    expect(opensWithOwnUseVerb("Buy my cart", best, [best, hit("buy_gift_card", 4, "")])).toBe(true);
    expect(opensWithOwnUseVerb("Purchase my cart", best, [best, address])).toBe(false);
  });
});
