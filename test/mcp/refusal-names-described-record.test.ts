import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * Set W (played): "I don't want the mug from my lamp order anymore, can you take it off?" matched
 * no capability, and the refusal named no order: the model searched the order, then previewed a
 * refund, to learn what could be done. Words no capability does, about a record they describe,
 * are refused naming it with what is possible there now, one call each. Real MCP client over HTTP.
 */
describe("a refusal of words no capability does names the record they describe (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("'take the mug off my lamp order': refused on ord_paid, with what it can take now", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = await alice.callTool({
      name: "start_action",
      arguments: { intent: "I don't want the mug from my lamp order anymore, can you take it off?" },
    });
    expect(sc(out).outcome).toBe("rejected");
    expect(text(out)).toContain("on ord_paid");
    const next = (sc(out).next_actions ?? []) as Json[];
    expect(next.map((n) => (n.args as Json | undefined)?.capability)).toContain("after_sales");
    expect(next.every((n) => (n.args as Json | undefined)?.entity_id === "ord_paid")).toBe(true);
    // Nothing was started.
    expect(await w.db.action.count()).toBe(0);
  });
});
