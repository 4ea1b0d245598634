import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeFields } from "@/server/connectors/sdk/closest-field";
import { afterSales } from "@/server/connectors/shop/capabilities/after-sales";
import { allPatchFields } from "@/server/engine/describe-inputs";
import { fieldMeant } from "@/server/engine/field-meant";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * A field sent under a name the capability lacks, whose value the field meant would not take as
 * it is (issue 23 played: `items: [{item_id, quantity}]` to after_sales): the name still says
 * which field it is, so the next step renames it with its value kept, and never drops it (the
 * offered "The same start without items" lost which item to return). Two equally close fields
 * are both named; none is chosen.
 */
describe("a misnamed field is renamed in the next step, never dropped when a field is close", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("by name and the value's shape (a list goes to the list field); two close fields are both named", () => {
    const all = allPatchFields(afterSales);
    const lines = [{ item_id: "it_1", quantity: 1 }];
    expect(fieldMeant(afterSales, "items", lines, all)?.field).toBe("item_ids");
    expect(fieldMeant(afterSales, "order", 5, all)?.field).toBe("order_id");
    // An object fits neither the list nor the single id: both named, neither chosen.
    expect(fieldMeant(afterSales, "item", { id: "it_1" }, all)).toBeUndefined();
    expect(
      closeFields("item", { id: "it_1" }, [{ name: "item_ids", list: true }, { name: "item_id" }]).map(
        (f) => f.field,
      ),
    ).toEqual(["item_ids", "item_id"]);
    // Imported fields declare their shape too.
    expect(
      closeFields("tags", [{ name: "x" }], [{ name: "tag_ids", list: true }, { name: "tag" }]).map(
        (f) => f.field,
      ),
    ).toEqual(["tag_ids"]);
  });

  it("start_action: the same start with the field renamed, values kept; a field nothing means is dropped beside it", async () => {
    const alice = await w.connect(w.keys.alice);
    const before = await w.db.action.count();
    const items = [{ item_id: "it_1", quantity: 1 }];
    const res = await alice.callTool({
      name: "start_action",
      arguments: {
        capability: "after_sales",
        patch: { order_id: "ord_1001", kind: "return_refund", items, colour: "red" },
      },
    });
    expect(sc(res)).toMatchObject({ outcome: "rejected", reason: "field_not_allowed" });
    expect(sc(res).validation_errors).toEqual([
      expect.objectContaining({ field: "items", closest: "item_ids" }),
      expect.not.objectContaining({ closest: expect.anything() }),
    ]);
    expect(text(res)).toContain(
      `start_action {"capability":"after_sales","patch":{"order_id":"ord_1001","kind":"return_refund","item_ids":${JSON.stringify(items)}}} — The same start with item_ids for items, without colour`,
    );
    expect(text(res)).not.toContain("without items");
    expect(await w.db.action.count()).toBe(before);

    // Two close fields: both named, one next step each, none dropped and none chosen.
    const either = await alice.callTool({
      name: "start_action",
      arguments: { capability: "after_sales", patch: { order_id: "ord_1001", item: { id: "it_1" } } },
    });
    expect(text(either)).toContain("after_sales has no field item; closest: item_ids or item_id");
    expect(sc(either).validation_errors).toEqual([
      expect.objectContaining({ field: "item", closest_either: ["item_ids", "item_id"] }),
    ]);
    expect(text(either)).toContain(
      '"patch":{"order_id":"ord_1001","item_ids":{"id":"it_1"}}} — The same start with item_ids for item',
    );
    expect(text(either)).toContain(
      '"patch":{"order_id":"ord_1001","item_id":{"id":"it_1"}}} — The same start with item_id for item',
    );
    expect(text(either)).not.toContain("without item");
  });

  it("a slip the field meant takes as sent starts under that field, said so; the record field never", async () => {
    // Set AR: `payment_method: "card"` to pay_order was refused on both hosts, then started again.
    const alice = await w.connect(w.keys.alice);
    const out = await alice.callTool({
      name: "start_action",
      arguments: { capability: "pay_order", entity_id: "ord_pending", patch: { payment_method: "card" } },
    });
    expect(sc(out)).toMatchObject({
      status: "awaiting_approval",
      renamed: { payment_type: "payment_method" },
    });
    expect(text(out)).toContain("taken as named here: payment_method as payment_type");
    expect(text(out)).toContain("Pay with: Visa");
    // A value the field does not take, or the record named under another name: refused as before.
    // Nor a name whose other words turn its meaning (review 55b).
    for (const patch of [
      { payment_method: "cash" },
      { order: "ord_pending", payment_type: "card" },
      { not_payment_type: "card" },
      { avoid_payment_method: "balance" },
    ]) {
      const refused = await alice.callTool({
        name: "start_action",
        arguments: { capability: "pay_order", patch },
      });
      expect(sc(refused), JSON.stringify(patch)).toMatchObject({
        outcome: "rejected",
        reason: "field_not_allowed",
      });
    }
    // A change nobody approves: a name cannot tell the value now from the new one (review 55).
    const sam = await w.connect(w.keys.sam);
    const now = await sam.callTool({
      name: "start_action",
      arguments: {
        capability: "change_ticket_priority",
        entity_id: "tkt_2",
        intent: "raise the priority on tkt_2",
        patch: { current_priority: "low" },
      },
    });
    expect(sc(now)).toMatchObject({ outcome: "rejected", reason: "field_not_allowed" });
  });
});
