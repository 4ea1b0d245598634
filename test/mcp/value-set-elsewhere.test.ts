import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * Set CD (task 6): "change shipping method of unpaid order to express" was answered "3
 * capabilities match; the first fits best" with the delivery-address change first, and both
 * players opened the order to learn that nothing changes an order's shipping method. A value the
 * words set ("to express") that the best match takes in none of its inputs, while another match
 * does, is said instead of "fits best". Only the answer's words change: the ranking stays.
 */
describe("a value the words set that the best match does not take", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  const first = async (key: string, query: string) =>
    text(await (await w.connect(key)).callTool({ name: "search_capabilities", arguments: { query } })).split(
      "\n",
    )[0];

  it("express is checkout's shipping method, not the address change's", async () => {
    // Whichever order change ranks first (set CO: "shipping" no longer reads as the "shipped" a
    // payment is not for, and the unpaid order's payment may), the words' value is said as
    // checkout's.
    expect(await first(w.keys.alice, "change shipping method of unpaid order to express")).toMatch(
      /^3 capabilities match, none surely: `express` is a value of `shipping_method`, which `(change_delivery_address|pay_order)` does not take \(`checkout` does\); check each one's use before starting it$/,
    );
  });

  it("pending is a status, which a team move does not take", async () => {
    expect(await first(w.keys.sam, "Move the charged twice ticket to pending")).toContain(
      "`pending` is a value of `status`, which `move_ticket_to_team` does not take (`set_ticket_status` does)",
    );
  });

  it.each([
    [() => w.keys.alice, "send my kettle order to my home instead"],
    [() => w.keys.sam, "set the headphones ticket to urgent"],
    [() => w.keys.sam, "give the tee ticket to Sara"],
  ])("the best match that takes what the words set still fits best: %#", async (key, query) => {
    expect(await first(key(), query)).toBe("3 capabilities match; the first fits best");
  });
});
