import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * A choice that cannot be taken is refused at once, with why and the choices that can be taken.
 * Played (issue 23): "The tee from my delivered order is too tight. Swap it for an XL." took 4
 * calls: the form pointed at `options.replacements` without showing them, the list said
 * `in_stock: false` without saying whether that blocks it, and a dry run then said "out of stock"
 * with an action left to cancel. Real MCP client, gateway and legacy shop.
 */
describe("a choice whose row says it cannot be taken", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("a start whose words name a sold-out size ends at once, naming the sizes that can be taken", async () => {
    const alice = await w.connect(w.keys.alice);
    const res = await alice.callTool({
      name: "start_action",
      arguments: { intent: "The tee from my delivered order is too tight. Swap it for an XL." },
    });
    const out = sc(res);
    // Resolved through the node's own choices, then refused for what that choice's row says.
    expect(out.from_words).toMatchObject({ order_id: "ord_exchange", replacement_product_id: "prod_tee_xl" });
    expect(out).toMatchObject({ outcome: "rejected", status: "refused", reason: "out_of_stock" });
    expect(text(res)).toContain(
      "Logo Tee (XL) is out of stock; can be taken instead: prod_tee_l (Logo Tee (L)), prod_tee_s (Logo Tee (S)); ask the user which",
    );
    // Nothing held: no cancel owed, and the way on is the same start with the user's other pick.
    expect(text(res)).toContain("nothing is held or left open, nothing to cancel");
    expect(out.next_actions).toEqual([
      expect.objectContaining({
        tool: "start_action",
        args: { capability: "after_sales", entity_id: "ord_exchange" },
      }),
    ]);
    const again = sc(
      await alice.callTool({
        name: "start_action",
        arguments: {
          capability: "after_sales",
          entity_id: "ord_exchange",
          intent: "The tee is too tight, swap it for an L instead.",
        },
      }),
    );
    expect(again.status).toBe("awaiting_approval");
    expect(again.from_words).toMatchObject({ replacement_product_id: "prod_tee_l" });
  });

  it("an advance to a sold-out choice keeps the action open, and says why and what can be taken", async () => {
    const alice = await w.connect(w.keys.alice);
    const started = sc(
      await alice.callTool({
        name: "start_action",
        arguments: {
          capability: "after_sales",
          entity_id: "ord_exchange",
          patch: { kind: "exchange", item_id: "ord_exchange_item_1", reason: "too tight" },
        },
      }),
    );
    // The list the field points at is there, each choice with its verdict.
    expect((started.options as Json).replacements).toContainEqual({
      product_id: "prod_tee_xl",
      name: "Logo Tee (XL)",
      possible: "out of stock",
    });
    const res = await alice.callTool({
      name: "advance_action",
      arguments: {
        action_id: started.action_id,
        version: started.version,
        patch: { replacement_product_id: "Logo Tee XL" },
      },
    });
    const out = sc(res);
    expect(out).toMatchObject({ outcome: "input_required", status: "open" });
    expect(text(res)).toContain("can be taken instead: prod_tee_l (Logo Tee (L)), prod_tee_s (Logo Tee (S))");
    expect(out.next_actions.map((n) => n.tool)).toContain("advance_action");
  });

  it("the form never points at a list it does not show, and its submit by a size word is refused in one page", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const form = text(
      await alice.callTool({ name: "navigate", arguments: { uri: "shop://order/ord_exchange/after-sales" } }),
    );
    expect(form).not.toContain("options.replacements");
    expect(form).toContain("exchange: one of replacements (listed once kind is sent)");
    const open = { capability: "after_sales", status: { in: ["open", "awaiting_approval"] } };
    const before = await w.db.action.count({ where: open });
    const res = await alice.callTool({
      name: "submit",
      arguments: {
        uri: "shop://order/ord_exchange/after-sales",
        fields: {
          kind: "exchange",
          reason: "too tight",
          item_id: "ord_exchange_item_1",
          replacement_product_id: "XL",
        },
      },
    });
    const page = text(res);
    expect(page).toContain("Logo Tee \\(XL\\) is out of stock; can be taken instead");
    expect(page).toContain(
      "| [prod_tee_xl](shop://product/prod_tee_xl) | Logo Tee \\(XL\\) | out of stock |",
    );
    // The same form again, with what was sent: the other size goes in the next submit.
    expect(page).toContain('replacement_product_id: "XL"');
    expect(page).toContain("uri: shop://order/ord_exchange/after-sales");
    // Only the refused field's list comes back, not every list of the order.
    expect(page).not.toContain("### after sales");
    // Nothing left open to cancel.
    expect(await w.db.action.count({ where: open })).toBe(before);
  });
});
