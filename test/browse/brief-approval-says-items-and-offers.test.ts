import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { summaryMarkdown } from "@/server/connectors/sdk/summary-markdown";
import { createMcpWorld, type McpWorld, sc, text } from "../mcp/mcp-world";

const WORDS = "Buy two mugs, ship them express to the office, pay from my balance.";
const NAMED = {
  items: [{ product_id: "prod_mug", quantity: 2 }],
  address_id: "Office",
  shipping_method: "express",
  payment_type: "balance",
};

/**
 * Issue 23, set F task 6: a checkout submitted with its items named answered in brief ("waits for
 * the person") without the coupon that applied, so the model let the user approve $48, not $43;
 * and its summary said "items $36.00" without naming them. The brief answer now carries the
 * user's choices in the action face's words (and the one submit that takes one) and each list
 * entry on one short line, for any capability. Real MCP client over HTTP, gateway and legacy.
 */
describe("the brief answer waiting for a person offers the user's choices and names the items (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("a checkout naming its items offers the coupon that applies, lists the items, and takes the coupon on the user's word", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const out = text(
      await alice.callTool({
        name: "submit",
        arguments: { uri: "shop://checkout", fields: { ...NAMED, user_words: WORDS } },
      }),
    );
    expect(out).toMatch(/ · awaiting_approval · version \d/);
    expect(out).toContain("**Pay $48.00 from Store credit**");
    expect(out).toContain(
      "- coupon_code — optional: offer it in your reply, don't stop to ask; apply only on their word (or if they asked for the cheapest): `SAVE5` $5.00",
    );
    const id = /actions\\?:\/\/([a-z0-9]+)/.exec(out)?.[1] ?? "";
    expect(out).toContain(`On their word: submit \`actions://${id}\` with \`version\` 1 and \`coupon_code\``);
    // What the person approves, item by item, in a few words each.
    expect(out).toMatch(/^- \*\*Items:\*\*\n {2}- Signpost Mug ×2 · Line total: \$36\.00$/m);
    expect(out).not.toContain("Unit price");
    expect(out).not.toContain("## Choices");
    expect(encode(out).length).toBeLessThan(500);

    // The user says yes to the coupon: one submit, a new approval at the lower total.
    const taken = text(
      await alice.callTool({
        name: "submit",
        arguments: { uri: `actions://${id}`, fields: { version: 1, coupon_code: "SAVE5" } },
      }),
    );
    expect(taken).toContain("**Pay $43.00 from Store credit**");
    expect(taken).not.toContain("coupon_code — optional");
  });

  it("the action face says the same offer to a start naming the items", async () => {
    const alice = await w.connect(w.keys.alice);
    const started = await alice.callTool({
      name: "start_action",
      arguments: { capability: "checkout", intent: WORDS, patch: NAMED },
    });
    expect(sc(started).status).toBe("awaiting_approval");
    expect(text(started)).toMatch(
      /^- coupon_code — optional: offer it in your reply, don't stop to ask; .*`SAVE5` \$5\.00/m,
    );
  });

  it("another capability's list reads the same way: the returned line by name, count and price", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const out = text(
      await alice.callTool({
        name: "submit",
        arguments: {
          uri: "shop://order/ord_delivered/after-sales",
          fields: { kind: "return_refund", reason: "It is too loud", item_ids: ["ord_delivered_item_1"] },
        },
      }),
    );
    // Its one money part is the unit price: said with its label, so no count reads as a total.
    expect(out).toMatch(/^ {2}- Electric Kettle ×1 · Unit price: \$150\.00$/m);
  });

  it("an untyped summary's list (an imported request's body): each entry on one line, not part by part", () => {
    const md = summaryMarkdown(
      {
        body: {
          lines: [
            { sku: "A-1", note: "gift" },
            { sku: "B-2", note: "plain" },
          ],
        },
      },
      true,
    );
    expect(md).toContain("    - plain");
    expect(md.split("\n").length).toBeLessThan(8);
  });
});
