import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Issue 23: get_context answered "applied: Order ord_transit: shipped" and the model wondered
 * whether reading the order had changed it. A read that answered is headed by its message alone;
 * the typed outcome stays in structuredContent.
 */
describe("reads are not headed 'applied'", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("get_context and search_capabilities: the message first, the outcome still typed", async () => {
    const alice = await w.connect(w.keys.alice);
    for (const [name, args] of [
      ["get_context", { entity: "order", entity_id: "ord_transit" }],
      ["search_capabilities", { query: "refund" }],
    ] as const) {
      const res = await alice.callTool({ name, arguments: args });
      expect(sc(res).outcome, name).toBe("applied");
      expect(text(res), name).not.toMatch(/^applied\b/);
    }
    expect(
      text(
        await alice.callTool({
          name: "get_context",
          arguments: { entity: "order", entity_id: "ord_transit" },
        }),
      ),
    ).toMatch(/^Order ord_transit/);
    // A read that did not answer keeps its word.
    const gina = await w.connect(w.keys.gina);
    expect(
      text(
        await gina.callTool({
          name: "get_context",
          arguments: { entity: "order", entity_id: "ord_transit" },
        }),
      ),
    ).toMatch(/^not_found: /);
  });
});
