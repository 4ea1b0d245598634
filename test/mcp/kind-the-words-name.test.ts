import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, legacyRecord, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set AR: "Refund me the shipping on my lamp order — it's taking forever." started the
 * cancel-and-refund of the whole $316 order (the one kind the unshipped order still allowed, named
 * by "refund" and by "order", the record's own noun), for the person to approve or decline. A
 * start given the shipping refund stayed open at its refusal, for the agent to cancel.
 */
describe("a start takes the kind the words name, and ends when the record refuses it (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("by words: the shipping refund is named, refused with its reason, and nothing is left open", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = await alice.callTool({
      name: "start_action",
      arguments: { intent: "Refund me the shipping on my lamp order — it's taking forever." },
    });
    expect(sc(out)).toMatchObject({ status: "refused", reason: "no_shipping_difference" });
    expect(text(out)).toContain("kind = shipping_refund");
    // What a shipping refund is, said with the no (set CK: a late parcel's "no shipping difference
    // to refund" sent the model to read the action and search to tell the user why).
    expect(text(out)).toContain("No shipping overcharge to refund on this order");
    expect(text(out)).toContain("nothing to cancel");
    expect(text(out)).not.toContain("approve at");
    expect((await legacyRecord<{ status: string }>(w, "orders/ord_paid")).status).toBe("paid");
  });

  it("given the kind: the same refusal ends the action", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = await alice.callTool({
      name: "start_action",
      arguments: { capability: "after_sales", entity_id: "ord_paid", patch: { kind: "shipping_refund" } },
    });
    expect(sc(out)).toMatchObject({ status: "refused" });
    expect(text(out)).toContain("Possible now: refund_only");
  });

  it("an order owed a shipping difference still gets its shipping refund by the same words", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = await alice.callTool({
      name: "start_action",
      arguments: { intent: "Refund me the shipping on my backpack order, it came late." },
    });
    expect(sc(out)).toMatchObject({ status: "awaiting_approval" });
    expect(text(out)).toContain("kind = shipping_refund");
    // Why this much (set AT: "$7.00" left the person unsure why not the $12.00 paid).
    expect(text(out)).toContain(
      "Shipping: paid $12.00; $7.00 of it is owed back (more than the delivery cost): that is what comes back",
    );
    // Part of it: said as part (review 55c: "only that comes back" beside a $3.00 refund).
    const part = await alice.callTool({
      name: "start_action",
      arguments: {
        capability: "after_sales",
        entity_id: "ord_shipdiff",
        patch: { kind: "shipping_refund", amount: 300, reason: "it came late" },
      },
    });
    expect(text(part)).toContain(
      "$7.00 of it is owed back (more than the delivery cost); this refunds $3.00 of it",
    );
  });

  it("words naming the cancel-and-refund still take it, and so does shipping said as a reason", async () => {
    // Review 55: the shipping said beside the ask ("…, the shipping is taking too long") read as
    // the shipping refund, refused where the user had asked for their money back.
    const alice = await w.connect(w.keys.alice);
    for (const intent of [
      "Cancel my lamp order and refund me.",
      "Refund my lamp order, the shipping is taking too long",
      "Refund my lamp order, shipping and all",
      "I want my money back for the lamp order, shipping too",
      // Review 55b: an ask that sets the shipping refund aside.
      "Forget the shipping refund, cancel my lamp order and give me my money back",
      "I'd like the shipping cost back; actually just cancel the whole lamp order",
    ]) {
      const out = await alice.callTool({ name: "start_action", arguments: { intent } });
      expect(sc(out), intent).toMatchObject({ status: "awaiting_approval" });
      expect(text(out), intent).toContain("Cancel the order and refund $316.00");
    }
  });

  it("a return refused until delivery says when delivery is expected", async () => {
    // Set AR: "I want to send back the headphones I ordered" (if not yet: tell me when) took a
    // read of the order after the refusal that said "once it is delivered".
    const alice = await w.connect(w.keys.alice);
    const out = await alice.callTool({
      name: "start_action",
      arguments: { intent: "I want to send back the headphones I ordered." },
    });
    expect(sc(out)).toMatchObject({ status: "refused", reason: "order_not_delivered" });
    expect(text(out)).toMatch(/once it is delivered; delivery expected about \d{4}-\d{2}-\d{2}/);
    // Said beside the paths that wait for delivery, never another's sentence (review 55).
    const refund = text(
      await alice.callTool({ name: "start_action", arguments: { intent: "Refund my headphones order" } }),
    );
    expect(refund).toContain("delivery expected about");
    expect(refund).not.toMatch(/to refund on this order; delivery expected/);
  });
});
