import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * get_context of a record by its id alone: the id's prefix names the entity, as a model that read
 * `ord_transit` in a listing expects (issue 23: `{"entity_id":"ord_transit"}` was refused and
 * cost a call). An id no entity's prefix fits is refused with the entities to name; another
 * tenant's record stays not_found.
 */
describe("get_context by entity_id alone", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());

  it("reads the record the id's prefix names, the same view as with its entity", async () => {
    const alice = await w.connect(w.keys.alice);
    const alone = await alice.callTool({ name: "get_context", arguments: { entity_id: "ord_transit" } });
    const named = await alice.callTool({
      name: "get_context",
      arguments: { entity: "order", entity_id: "ord_transit" },
    });
    expect(sc(alone).outcome).toBe("applied");
    expect(text(alone)).toContain("Order ord_transit");
    expect(text(alone)).toBe(text(named));
  });

  it("an id no entity's prefix fits asks for the entity, naming the entities", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = sc(await alice.callTool({ name: "get_context", arguments: { entity_id: "zz_nothing" } }));
    expect(out).toMatchObject({ outcome: "rejected", reason: "unknown_entity" });
    expect(out.message).toMatch(/name it in entity; entities: .*order/);
    expect(out.message).not.toContain("undefined");
  });

  // Set BU: get_context of a product (linked by search) was refused naming only the entities, and
  // the model spent a call finding the product's page.
  it("a record that is no entity but has a page names the page to navigate", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = sc(
      await alice.callTool({ name: "get_context", arguments: { entity: "product", entity_id: "prod_mug" } }),
    );
    expect(out).toMatchObject({ outcome: "rejected", reason: "unknown_entity" });
    expect(out.message).toMatch(/entities: .*; a product's page: navigate shop:\/\/product\/\{id\}$/);
    const none = sc(
      await alice.callTool({ name: "get_context", arguments: { entity: "produc", entity_id: "prod_mug" } }),
    );
    expect(none.message).not.toContain("page");
    const plural = sc(
      await alice.callTool({ name: "get_context", arguments: { entity: "products", entity_id: "prod_mug" } }),
    );
    expect(plural.message).toMatch(/a product's page: navigate shop:\/\/product\/\{id\}$/);
  });

  it("neither an action nor a record is still a typed refusal", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = sc(await alice.callTool({ name: "get_context", arguments: { entity: "order" } }));
    expect(out).toMatchObject({ outcome: "rejected", reason: "invalid_arguments" });
  });

  it("another tenant's record by id alone is not_found", async () => {
    const gina = await w.connect(w.keys.gina);
    const out = sc(await gina.callTool({ name: "get_context", arguments: { entity_id: "ord_paid" } }));
    expect(out.outcome).toBe("not_found");
  });
});
