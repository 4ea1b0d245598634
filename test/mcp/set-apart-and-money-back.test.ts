import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * Set R's stumbles (issue 23, played): words that name two labels, one set apart ("to my home
 * instead of the office"), took neither and asked; "money back" for a delivered order's item asked
 * which path, though only one path gives money back once an order is delivered.
 */
describe("words that set a label apart, and money back for what arrived", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const start = async (args: Json) =>
    (await w.connect(w.keys.alice)).callTool({ name: "start_action", arguments: { dry_run: true, ...args } });

  it.each([
    ["Send my unpaid kettle order to my home instead of the office.", "addr_alice_home"],
    ["Ship my unpaid order home rather than to the office.", "addr_alice_home"],
    ["Send my unpaid order home, not to the office.", "addr_alice_home"],
  ])("%s takes the label not set apart", async (intent, address) => {
    const out = sc(await start({ capability: "change_delivery_address", entity_id: "ord_pending", intent }));
    expect((out.from_words as Json | undefined)?.address_id).toBe(address);
  });

  it("two labels with none set apart still ask", async () => {
    const out = await start({
      capability: "change_delivery_address",
      entity_id: "ord_pending",
      intent: "Send my unpaid order to my home or the office, whichever.",
    });
    expect(sc(out).missing).toContain("address_id");
    expect(text(out)).toContain("addr_alice_office");
  });

  it("money back for a delivered item is its return; for an order not shipped, the refund without one", async () => {
    const mug = sc(
      await start({
        capability: "after_sales",
        entity_id: "ord_exchange",
        intent: "The mug from my tee order arrived chipped, I'd like my money back for it.",
      }),
    );
    expect(mug.from_words).toMatchObject({ kind: "return_refund", item_ids: "ord_exchange_item_2" });
    // "chipped" claims damage: evidence is what is left to ask, with the path already taken.
    expect(mug.missing).toEqual(["evidence"]);
    const lamp = sc(
      await start({
        capability: "after_sales",
        entity_id: "ord_paid",
        intent: "I want my money back for the lamp order.",
      }),
    );
    expect((lamp.from_words as Json).kind).toBe("refund_only");
  });
});
