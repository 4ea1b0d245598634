import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "../mcp/mcp-world";

/**
 * Set CW (played): "Send my headphones order to my office instead", submitted on the shipped
 * order's address form, answered the refusal and then "Problems — order_id: said above", the order
 * as a choice, and the form again with the user's words: the model was unsure another submit was
 * expected. A start its record refuses, or that nothing any field could change, ends there: the
 * page says why and where to go, with no form. A refusal some field can change keeps its form.
 */
describe("a form's refused start answers in a few lines, no form (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  const submit = async (uri: string, words: string) =>
    (await w.connect(w.keys.alice)).callTool({
      name: "submit",
      arguments: { uri, fields: { user_words: words } },
    });

  it("refused for its record, or for nothing a field changes: the refusal, the way on, no form", async () => {
    for (const [uri, words, why] of [
      [
        "shop://order/ord_transit/address",
        "Send my headphones order to my office instead.",
        /already shipped/,
      ],
      ["shop://order/ord_cancelled/pay", "Pay it by card", /cancelled; there is nothing to pay/],
      ["shop://order/ord_delivered_old/after-sales", "Return the mug.", /return window closed/],
    ] as const) {
      const out = await submit(uri, words);
      const shown = text(out);
      expect(sc(out).outcome, shown).toBe("rejected");
      expect(shown).toMatch(why);
      expect(shown).not.toMatch(/```yaml|## Form|### Problems|## Choices|said above/);
      expect(shown).toMatch(/Back to order/);
      expect(shown.length, shown).toBeLessThan(600);
    }
  });

  it("refused for a choice another value of a field can take keeps the form and that field's choices", async () => {
    const out = await submit("shop://order/ord_paid/after-sales", "Return the lamp from my lamp order.");
    const shown = text(out);
    expect(sc(out).outcome).toBe("rejected");
    expect(shown).toMatch(/refund_only \| true/);
    expect(shown).toContain("uri: shop://order/ord_paid/after-sales");
  });
});
