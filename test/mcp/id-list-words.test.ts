import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * The lines a request names for a list-of-ids field are taken from its words. Round 25: "Return
 * the mugs from my kettle order — they arrived chipped" took the order and the kind, then asked
 * for item_ids with the mug's line in plain view; the dash kept "arrived" in the request, which
 * made tracking the parcel the best match.
 */
describe("a list of lines named by the user's words", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("'the mugs from my kettle order' is the mug line, not the kettle's; the refund per line is money on the person's screen", async () => {
    const alice = await w.connect(w.keys.alice);
    const res = await alice.callTool({
      name: "start_action",
      arguments: { intent: "Return the mugs from my kettle order — they arrived chipped." },
    });
    const out = sc(res);
    // "Chipped" claims damage: the photo or file the shop asks for comes first.
    expect(out).toMatchObject({ capability: "after_sales", status: "open", missing: ["evidence"] });
    expect(out.from_words).toMatchObject({
      order_id: "ord_delivered",
      kind: "return_refund",
      item_ids: "ord_delivered_item_2",
    });
    const ready = await alice.callTool({
      name: "advance_action",
      arguments: {
        action_id: out.action_id,
        version: out.version,
        patch: { evidence: ["photo of the chips"] },
      },
    });
    expect(sc(ready).status).toBe("awaiting_approval");
    expect(text(ready)).toContain("Item: Signpost Mug · Quantity: 2 · Refund: $36.00");
  });

  it("each part names its line; a part that names several, or none, names nothing", async () => {
    const alice = await w.connect(w.keys.alice);
    const both = sc(
      await alice.callTool({
        name: "start_action",
        arguments: { intent: "Return the kettle and the mug from my delivered order, both broken" },
      }),
    );
    expect((both.from_words as Json).item_ids).toBe("ord_delivered_item_1, ord_delivered_item_2");
    const vague = sc(
      await alice.callTool({
        name: "start_action",
        arguments: {
          capability: "after_sales",
          entity_id: "ord_delivered",
          intent: "return something from it",
        },
      }),
    );
    expect((vague.from_words as Json | undefined)?.item_ids).toBeUndefined();
    // What the order holds, said of it, names no line: the line the rest of the words single
    // out does (set CF: the tee's line was taken beside the chipped mug's).
    for (const intent of [
      "One of my orders had a tee and a mug — the mug arrived chipped. I want to send it back and get the money on my store balance.",
      "Return the mug from my order with the tee and the mug, it is chipped",
      // Review 64: a word saying what happened ends what the order holds.
      "My order with the tee and the mug arrived and the mug is chipped so I want to return it",
    ]) {
      const out = sc(await alice.callTool({ name: "start_action", arguments: { intent, dry_run: true } }));
      expect((out.from_words as Json | undefined)?.item_ids, intent).toBe("ord_exchange_item_2");
    }
    // Review 64b: what is said of a line it holds ("that was too small") is still the order's.
    const tee = sc(
      await alice.callTool({
        name: "start_action",
        arguments: {
          intent:
            "Return the tee from my order with the tee that was too small and the mug, refund to my balance",
          dry_run: true,
        },
      }),
    );
    expect((tee.from_words as Json | undefined)?.item_ids).toBe("ord_exchange_item_1");
    // A review: the words that say which order never name its lines, wherever they stand.
    for (const intent of [
      "Find my kettle order and return the mugs",
      "I want a large refund for my kettle order",
    ]) {
      const out = sc(await alice.callTool({ name: "start_action", arguments: { intent, dry_run: true } }));
      const ids = String((out.from_words as Json | undefined)?.item_ids ?? "");
      expect(ids).not.toContain("ord_delivered_item_1");
    }
  });
});
