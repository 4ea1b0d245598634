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
    ]) {
      const out = await alice.callTool({ name: "start_action", arguments: { intent } });
      expect(sc(out).status, intent).not.toBe("completed");
      if (sc(out).capability === "cancel_unpaid_order")
        expect(text(out), intent).toMatch(/not run yet: the words ask to take "(coupon|mug)" from the order/);
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
