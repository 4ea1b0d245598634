import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * A question asked beside an ask ("Where is my backpack order? I want to return it"): the ask
 * decides the change, the question is answered by what the change shows, and the question's own
 * words ("did the lamp order ship?") never unname the record the ask is about.
 */
describe("a question beside an ask (MCP over HTTP, real gateway and legacy service)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const start = async (intent: string) =>
    (await w.connect(w.keys.alice)).callTool({ name: "start_action", arguments: { intent } });

  it("'Where is my backpack order? I want to return it' starts the return, which says where the order stands", async () => {
    const out = await start("Where is my backpack order? I want to return it");
    expect(sc(out).capability).toBe("after_sales");
    expect(sc(out).from_words as Json).toMatchObject({ order_id: "ord_shipdiff", kind: "return_refund" });
    expect(sc(out).status).toBe("awaiting_approval");
    // The question is answered by what the change shows: where the order stands, beside why it was taken.
    expect(text(out)).toMatch(/order_id = ord_shipdiff \([^\n]*status delivered/);
  });

  it("'Did the lamp order ship? I want to cancel it' cancels the lamp order: what a question asks never unnames it", async () => {
    // A regression: the question's "ship" was read as describing the order ("the shipped lamp
    // order"), which the unshipped lamp order contradicted, so "lamp" named none and all 8 were listed.
    for (const intent of [
      "Did the lamp order ship? I want to cancel it",
      "Has my lamp order shipped yet? Cancel it please.",
    ]) {
      const out = sc(await start(intent));
      expect(out.capability).toBe("after_sales");
      expect(out.from_words as Json).toMatchObject({ order_id: "ord_paid", kind: "refund_only" });
    }
  });
});
