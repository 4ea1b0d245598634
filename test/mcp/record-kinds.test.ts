import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * The kinds of record get_context takes are in answers a model already reads, and a kind named
 * the model's own way still reads the record: in a model-played round get_context
 * {"entity":"order"} worked only because the model guessed the name (nothing it saw said it).
 */
describe("get_context: the kinds of record, without a wasted call", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("search_capabilities names the best match's record kind, as get_context takes it", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "actions" });
    const found = await alice.callTool({
      name: "search_capabilities",
      arguments: { query: "refund my order" },
    });
    expect(text(found)).toMatch(/^1\. `after_sales` [^\n]* — record: order; use: /m);
    // For a key without the browse face, the way to read names the kinds.
    const agent = await w.db.agent.findFirstOrThrow({
      where: { userId: w.agent.alice.userId, revokedAt: null },
    });
    try {
      await w.db.agent.update({ where: { id: agent.id }, data: { faces: "actions" } });
      const actionsOnly = await w.connect(w.keys.alice);
      const read = await actionsOnly.callTool({
        name: "search_capabilities",
        arguments: { query: "list my orders" },
      });
      expect(text(read)).toContain(
        "To view a record: get_context with its entity (order, ticket) and entity_id",
      );
    } finally {
      await w.db.agent.update({ where: { id: agent.id }, data: { faces: null } });
    }
  });

  it("a kind spelt with a capital, a plural, or another word for an id with its prefix reads the record", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "actions" });
    const view = async (entity: string, entity_id: string) =>
      sc(await alice.callTool({ name: "get_context", arguments: { entity, entity_id } }));
    for (const entity of ["order", "Order", "orders", "purchase"]) {
      const out = await view(entity, "ord_paid");
      expect(out.outcome, entity).toBe("applied");
      expect(out.message).toBe("Order ord_paid: paid");
    }
    // A name that is no kind, for an id no kind's prefix starts: the kinds, as before.
    const unknown = await view("purchase", "x_1");
    expect(unknown.outcome).toBe("rejected");
    expect(unknown.message).toBe("No entity purchase; entities: order, ticket");
    // Another tenant's record is still not found, whatever the spelling.
    const other = await view("orders", "ord_globex_paid");
    expect(other.outcome).toBe("not_found");
    expect(other.message).toBe("No order ord_globex_paid");
  });
});
