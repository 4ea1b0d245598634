import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * Issue 23: the shop's return takes whole lines (item_ids, no quantity). Played: "Return one of
 * the two mugs from my kettle order" showed `item_ids: [string]`; the model learnt both mugs
 * ($36.00) would go back only on the approval summary, then spent three dry runs looking for a
 * quantity field. Words that count fewer of a line than it holds are answered at once, typed,
 * with what the line holds and its amount; the field's shape says per line what goes.
 */
describe("a return takes whole lines (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("'one of the two mugs' is answered at once: the line holds 2 ($36.00) and goes whole; nothing is taken, the user is asked", async () => {
    const alice = await w.connect(w.keys.alice);
    for (const intent of [
      "Return one of the two mugs from my kettle order.",
      "Return a single mug from my kettle order",
    ]) {
      const res = await alice.callTool({ name: "start_action", arguments: { intent } });
      const out = sc(res);
      const body = text(res);
      expect(out.status).toBe("open");
      expect((out.from_words as Json).order_id).toBe("ord_delivered");
      expect((out.from_words as Json).item_ids).toBeUndefined();
      const error = (out.validation_errors as Json[]).find((e) => e.field === "item_ids");
      expect(error).toMatchObject({ code: "whole_lines_only" });
      // One line, at the top: the rule, what the line holds and its amount, and that a part is not possible.
      const head = body.split("\n")[0] ?? "";
      expect(head).toContain("a return takes whole lines");
      expect(head).toContain("Signpost Mug ×2 ($36.00)");
      expect(head).toContain("1 of 2");
      expect(head).toContain("ask the user");
      expect(body).toMatch(/next:\n- advance_action/);
    }
    expect(await w.db.action.count({ where: { status: "awaiting_approval" } })).toBe(0);
  });

  it("the mugs (no count), or both, still take the line; the shape of item_ids says per line what goes", async () => {
    const alice = await w.connect(w.keys.alice);
    const both = sc(
      await alice.callTool({
        name: "start_action",
        arguments: { intent: "Return both mugs from my kettle order", dry_run: true },
      }),
    );
    expect((both.from_words as Json).item_ids).toBe("ord_delivered_item_2");
    const vague = await alice.callTool({
      name: "start_action",
      arguments: {
        capability: "after_sales",
        entity_id: "ord_delivered",
        intent: "return something from it",
      },
    });
    expect(text(vague)).toContain(
      "- item_ids: [string]: a return takes whole lines (no quantity), each id all of its line: ord_delivered_item_1 = Electric Kettle ×1 ($150.00), ord_delivered_item_2 = Signpost Mug ×2 ($36.00)",
    );
  });
});
