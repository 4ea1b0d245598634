import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * A listing scoped to the caller's own records says so above its rows, in a few words, so a model
 * knows every row is the user's without asking for an owner column (issue 23: "what did I spend
 * this month?" asked for `customer_id` to be sure). Only where the scope really is the caller's
 * own: staff read every customer's records, and their listing never calls them "yours".
 */
describe("a listing of the caller's own records says whose they are (real MCP client)", () => {
  let w: McpWorld;
  let alice: Client;
  let sam: Client;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    alice = await w.connect(w.keys.alice, { faces: "browse" });
    sam = await w.connect(w.keys.sam, { faces: "browse" });
  }, 120_000);
  afterAll(async () => w?.close());

  const nav = async (who: Client, uri: string) =>
    text(await who.callTool({ name: "navigate", arguments: { uri } }));

  it("a customer's orders are headed as theirs; support's listing of every customer's is not", async () => {
    const mine = await nav(alice, "shop://orders");
    expect(mine).toContain("Your orders. Newest first.");
    // Set BJ: what a total holds, so "shipping included?" needs no order opened.
    expect(mine).toContain(
      "Each total is items + shipping − coupon; a refund or coupon is said beside the status.",
    );
    expect(mine).not.toContain("placed_by");
    // Set DD: "which of my orders used a coupon?" re-read the listing with the coupon columns.
    expect(mine).toMatch(/^\| `ord_paid` \| paid · coupon SAVE30 −\$30\.00 \|/m);
    expect(mine).toMatch(/^\| `ord_delivered` \| delivered \|/m);
    const staff = await nav(sam, "shop://orders");
    expect(staff).toContain("Newest first.");
    expect(staff.toLowerCase()).not.toContain("your");
  });

  it("a member's tickets are headed as the ones they raised; support's are not", async () => {
    const mine = await nav(alice, "helpdesk://tickets");
    expect(mine).toContain("Tickets you raised. Most recently updated first");
    const staff = await nav(sam, "helpdesk://tickets");
    expect(staff).not.toContain("you raised");
  });
});
