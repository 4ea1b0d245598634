import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Review 62b: "Drop the coupon from my kettle order" cancelled the unpaid kettle order at once:
 * "drop" is the cancel's word, the kettle order its only field, and the words asked to take a
 * coupon off the order. A change that takes nothing but its record and needs no person's approval
 * waits for the user's word where the words ask to take a part from the record. Real MCP client
 * over HTTP, gateway and legacy service.
 */
describe("a part taken from a record is no change of the whole record", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const status = async (id: string) =>
    ((await legacyJson(w.legacy, `orders/${id}`)) as { status: string }).status;

  it("'Drop the coupon from my kettle order' cancels nothing; it says why and waits", async () => {
    const alice = await w.connect(w.keys.alice);
    for (const intent of [
      "Drop the coupon from my kettle order",
      "Take the mug off my kettle order, please",
      // Review 62c: a greeting, a want, another preposition, the record first, a second sentence.
      "Hey, drop the coupon from my kettle order",
      "I'd like to cancel the coupon on my kettle order",
      "Drop the coupon code applied to my unpaid order",
      "From my kettle order, drop the coupon",
      "Where are my headphones? Drop the coupon from my kettle order",
    ]) {
      const out = await alice.callTool({ name: "start_action", arguments: { intent } });
      expect(sc(out).status, intent).not.toBe("completed");
      if (sc(out).capability === "cancel_unpaid_order")
        expect(text(out), intent).toMatch(
          /not run yet: the words ask to take "(coupon|mug|coupon code)" from the order/,
        );
    }
    // The order's cancel form sent with the same words: the same wait.
    const browse = await w.connect(w.keys.alice, { faces: "browse" });
    const form = await browse.callTool({
      name: "submit",
      arguments: {
        uri: "shop://order/ord_pending/cancel",
        fields: { user_words: "Drop the coupon from my kettle order" },
      },
    });
    expect(text(form)).not.toMatch(/completed/);
    expect(await status("ord_pending")).toBe("pending_payment");
  });

  it("a held change stays held when the same words come again (review 62c: the resend ran it)", async () => {
    const alice = await w.connect(w.keys.alice);
    const intent = "Drop the coupon from my kettle order";
    await alice.callTool({ name: "start_action", arguments: { intent } });
    const again = await alice.callTool({ name: "start_action", arguments: { intent } });
    expect(sc(again).status).not.toBe("completed");
    expect(text(again)).toMatch(/not run yet/);
    expect(await status("ord_pending")).toBe("pending_payment");
    // The agent's own confirm, on the user's word, runs it.
    await w.legacy.reset();
    const held = sc(await alice.callTool({ name: "start_action", arguments: { intent: `${intent}.` } }));
    const confirmed = sc(
      await alice.callTool({
        name: "confirm_action",
        arguments: { action_id: held.action_id, version: held.version, idempotency_key: "user-said-yes" },
      }),
    );
    expect(confirmed.status).toBe("completed");
    expect(await status("ord_pending")).toBe("cancelled");
  });

  it("a ticket's close waits too where the words take a part off it (review 62c)", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: { intent: "Close the photo on the parcel damaged ticket" },
    });
    expect(sc(out).status).not.toBe("completed");
    expect(((await legacyJson(w.legacy, "tickets/tkt_6")) as { status: string }).status).toBe("resolved");
  });

  it("a record named by its id, or taken from a list, is the record itself: nothing held", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = await alice.callTool({
      name: "start_action",
      arguments: { intent: "Drop ord_pending from my orders" },
    });
    expect(text(out)).not.toMatch(/the words ask to take/);
  });

  it("the record itself named runs at once as before", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = await alice.callTool({
      name: "start_action",
      arguments: { intent: "Cancel my unpaid kettle order." },
    });
    expect(sc(out)).toMatchObject({ capability: "cancel_unpaid_order", status: "completed" });
    expect(await status("ord_pending")).toBe("cancelled");
  });
});
