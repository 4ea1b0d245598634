import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * The words people use for a choice's value are that value: a connector declares them beside its
 * field (NodeDefinition.valueWords), and the engine reads them wherever it reads the value's own
 * name. Played (issue 23): "Pay whatever I still owe on my orders, from my store credit." set
 * payment_type = balance, then answered `not done: "from my store credit" (no capability does
 * it; tell the user)`; a patch of "account balance" or "credit card" was refused as no method.
 * Real MCP client, gateway and legacy shop.
 */
describe("the words people use for a choice's value", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("words that set a field are the action's own, never an ask left undone", async () => {
    const alice = await w.connect(w.keys.alice);
    const res = await alice.callTool({
      name: "start_action",
      arguments: { intent: "Pay whatever I still owe on my orders, from my store credit." },
    });
    const out = sc(res);
    expect(out).toMatchObject({ capability: "pay_order", status: "awaiting_approval" });
    expect(out.from_words).toMatchObject({ payment_type: "balance" });
    expect(out.also_asked).toBeUndefined();
    expect(text(res)).not.toContain("not done");
    // The gateway reads which words set fields; the answer never carries them.
    expect(out.field_words).toBeUndefined();
    // A clause that sets nothing is still said: only the words that set a field are the action's.
    const other = await alice.callTool({
      name: "start_action",
      arguments: {
        intent: "Pay whatever I still owe on my orders, from my store credit, and sing me a song.",
      },
    });
    expect(text(other)).toContain('not done: "sing me a song"');
    expect(text(other)).not.toContain('store credit" (no capability');
  });

  it("a value sent as the words people use for it is that value; words two values share name neither", async () => {
    const alice = await w.connect(w.keys.alice);
    const pay = async (payment_type: string) =>
      sc(
        await alice.callTool({
          name: "start_action",
          arguments: {
            capability: "pay_order",
            entity_id: "ord_pending",
            dry_run: true,
            patch: { payment_type },
          },
        }),
      );
    for (const said of ["account balance", "my balance", "store credit"])
      expect((await pay(said)).from_words, said).toMatchObject({ payment_type: "balance" });
    for (const said of ["credit card", "debit card"])
      expect((await pay(said)).from_words, said).toMatchObject({ payment_type: "card" });
    const either = await pay("credit");
    expect((either.validation_errors as Json[])[0]).toMatchObject({
      field: "payment_type",
      code: "ambiguous_choice",
    });
  });

  it("a start by words takes the value by its other words at a later step too", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = sc(
      await alice.callTool({
        name: "start_action",
        arguments: { intent: "Pay for my kettle order with my account balance", dry_run: true },
      }),
    );
    expect(out.from_words).toMatchObject({ order_id: "ord_pending", payment_type: "balance" });
  });
});
