import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Played: "In my lamp order I only want to cancel the lamp and keep the mug." ord_paid (Desk Lamp +
 * Signpost Mug) is paid, not shipped: the shop cancels it whole or not at all. The order page said
 * "refund only: yes", the start went to Alice's approval as the whole order cancelled (she had to
 * decline what she never asked for), and item_ids beside refund_only was told to become a return,
 * which an unshipped order cannot take either. Now the page says it cancels the whole order, and
 * an ask for part of it stops before any approval, saying what is possible and to ask the user.
 */
describe("one item of an order not yet shipped (MCP over HTTP, real legacy service)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const LAMP_ONLY = "In my lamp order I only want to cancel the lamp and keep the mug.";
  const pendingApprovals = (actionId: unknown) =>
    w.db.approval.count({ where: { actionId: String(actionId), status: "pending" } });

  it("the order page and the search that opens it say refund-only cancels the whole order", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    for (const [tool, args] of [
      ["navigate", { uri: "shop://order/ord_paid" }],
      ["search", { query: "my lamp order" }],
    ] as const) {
      const page = text(await alice.callTool({ name: tool, arguments: args }));
      expect(page, tool).toContain(
        "**refund only:** yes — cancels the whole order; no single item before delivery",
      );
    }
  });

  it("the user's words asking for one item end the start before approval, with what is possible", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = await alice.callTool({ name: "start_action", arguments: { intent: LAMP_ONLY } });
    const s = sc(out);
    const t = text(out);
    expect(s).toMatchObject({ outcome: "rejected", status: "refused", reason: "whole_order_only" });
    expect(t).toMatch(/an order not yet shipped is cancelled whole \(Desk Lamp ×1, Signpost Mug ×1\)/);
    expect(t).toMatch(/Desk Lamp alone cannot be cancelled now/);
    expect(t).toMatch(/cancel and refund the whole order \(\$316\.00\), or return Desk Lamp once delivered/);
    expect(t).toMatch(/ask the user which they want/);
    expect(t).not.toMatch(/awaiting_approval|approve at/);
    expect(await pendingApprovals(s.action_id)).toBe(0);
    // The way on, if the user agrees: the whole order's cancellation, started again with their word.
    expect(s.next_actions).toContainEqual(
      expect.objectContaining({
        tool: "start_action",
        args: { capability: "after_sales", entity_id: "ord_paid" },
      }),
    );
  });

  it("other words for one item stop the same way; words for the whole order still reach approval", async () => {
    const alice = await w.connect(w.keys.alice);
    for (const intent of [
      "Refund the lamp from my lamp order",
      "Refund just the mug in my lamp order, I still want the lamp",
    ]) {
      const s = sc(await alice.callTool({ name: "start_action", arguments: { intent, dry_run: true } }));
      expect(s.validation_errors, intent).toContainEqual(
        expect.objectContaining({ code: "whole_order_only", refused: true }),
      );
    }
    for (const intent of [
      "cancel my lamp order",
      "Cancel the whole lamp order, I don't need the lamp any more",
    ]) {
      w.legacy.reset();
      const out = await alice.callTool({ name: "start_action", arguments: { intent } });
      expect(sc(out), intent).toMatchObject({ outcome: "applied", status: "awaiting_approval" });
      expect(text(out)).toMatch(/Cancel the order and refund \$316\.00 to Visa •••• 4242/);
    }
  });

  it("item_ids sent with refund_only on the form: the same refusal, short, never 'set kind to return_refund'", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const out = await alice.callTool({
      name: "submit",
      arguments: {
        uri: "shop://order/ord_paid/after-sales",
        fields: { kind: "refund_only", item_ids: ["ord_paid_item_1"], user_words: LAMP_ONLY },
      },
    });
    const page = text(out);
    expect(sc(out).outcome).toBe("rejected");
    expect(page).toMatch(/Desk Lamp alone cannot be cancelled now/);
    expect(page).toMatch(/return Desk Lamp once delivered/);
    expect(page).not.toMatch(/does not use item_ids|set kind to return_refund/);
    // Nothing there is to choose: the order's tables are not sent again, the message not twice.
    expect(page).not.toContain("## Choices");
    expect(page.match(/alone cannot be cancelled/g)).toHaveLength(1);
    expect(page).toMatch(/## Next\n\n- Cancel and refund the whole order/);
    expect(page.length).toBeLessThan(1400);
  });

  it("item_ids added to a whole-order cancellation awaiting approval: refused, and the approval is withdrawn", async () => {
    const alice = await w.connect(w.keys.alice);
    const started = sc(
      await alice.callTool({ name: "start_action", arguments: { intent: "cancel my lamp order" } }),
    );
    expect(started.status).toBe("awaiting_approval");
    const out = await alice.callTool({
      name: "advance_action",
      arguments: {
        action_id: started.action_id,
        version: started.version,
        patch: { item_ids: ["ord_paid_item_2"] },
      },
    });
    expect(sc(out)).toMatchObject({ outcome: "rejected", reason: "whole_order_only" });
    expect(text(out)).toMatch(/Signpost Mug alone cannot be cancelled now/);
    expect(await pendingApprovals(started.action_id)).toBe(0);
  });
});
