import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asksForChange, CHANGE_REQUEST_LINE } from "@/mcp/change-request-line";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * A browse search whose words ask for a change says first that search only reads and that a
 * start by the same words does it (set Q: a purchase's words sent to search opened the orders
 * listing filtered by "card", then a capability search, then the start). Only where the caller
 * has the action face; reads and questions are answered as ever.
 */
describe("a search whose words ask for a change names the start that does it", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("tells requests for a change from reads and questions by their words alone", () => {
    for (const words of [
      "order Hoodie and mug, standard shipping to home, pay by card",
      "Return the backpack from my backpack order, it's too small.",
      "please cancel my lamp order",
      "assign tkt_2 to Sara",
      "add a note to tkt_3",
    ])
      expect(asksForChange(words), words).toBe(true);
    for (const words of [
      "tickets opened by Alice this week",
      "my orders paid with store credit",
      "Which open tickets are urgent or high priority?",
      "cheapest product in the shop",
      "find the ticket about the lamp and show its status",
      "coupon I can use on my cart",
      "when will my headphones arrive",
      "refund status of my kettle return",
      "status of ticket tkt_2",
      "refund policy",
      "team shipping tickets",
      "exchanges I made",
      "checkout",
    ])
      expect(asksForChange(words), words).toBe(false);
  });

  it("leads the answer for a caller with the action face; never on the browse face alone", async () => {
    const query = "order Hoodie and mug, standard shipping to home, pay by card";
    const both = text(
      await (await w.connect(w.keys.alice)).callTool({ name: "search", arguments: { query } }),
    );
    expect(both.startsWith(CHANGE_REQUEST_LINE)).toBe(true);
    const browseOnly = text(
      await (await w.connect(w.keys.alice, { faces: "browse" })).callTool({
        name: "search",
        arguments: { query },
      }),
    );
    expect(browseOnly).not.toContain(CHANGE_REQUEST_LINE);
    const read = text(
      await (await w.connect(w.keys.alice)).callTool({
        name: "search",
        arguments: { query: "my orders paid with store credit" },
      }),
    );
    expect(read).not.toContain(CHANGE_REQUEST_LINE);
  });
});
