import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withAgentRule } from "../helpers/agent-rule";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/**
 * Set BQ: "Add one Desk Lamp to my cart" opened the lamp's page, which offered only the checkout,
 * and the model searched the capabilities for the cart's form (an extra call). A product's page
 * links the cart's form beside the checkout's. Real MCP client over HTTP, gateway and legacy.
 */
describe("a product's page offers its cart form (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("links shop://cart/change with its fields, and the form's words fill the product", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const page = text(
      await alice.callTool({ name: "navigate", arguments: { uri: "shop://product/prod_lamp" } }),
    );
    expect(page).toContain(
      "- [Add to cart \\(quantity: the count it holds after\\)](shop://cart/change) — `product_id* · quantity*: integer`",
    );
    expect(page).toContain("[Buy \\(checkout form\\)](shop://checkout)");
    const sent = text(
      await alice.callTool({
        name: "submit",
        arguments: { uri: "shop://cart/change", fields: { user_words: "Add one Desk Lamp to my cart." } },
      }),
    );
    expect(sent).toContain("prod_lamp");
    expect(JSON.stringify(await legacyJson(w.legacy, "customers/cus_alice/cart"))).not.toContain("prod_lamp");
  });

  // Set BU: "Put two travel backpacks in my cart" read the cart before the form (which sets the
  // count it holds after) to learn whether some were in it already.
  it("says how many the caller's own cart holds", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const read = async (client: typeof alice, id: string) =>
      text(await client.callTool({ name: "navigate", arguments: { uri: `shop://product/${id}` } }));
    const cart = (await legacyJson(w.legacy, "customers/cus_alice/cart")) as {
      items: Array<{ product_id: string; quantity: number }>;
    };
    const mugs = cart.items.find((i) => i.product_id === "prod_mug")?.quantity;
    expect(mugs).toBeGreaterThan(0);
    expect(await read(alice, "prod_mug")).toContain(`- **in your cart:** ${mugs}\n`);
    expect(await read(alice, "prod_backpack")).toContain("- **in your cart:** 0\n");
  });

  it("says nothing of the cart where the caller may not read it (review 62)", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    await withAgentRule(
      w.db,
      { agentId: w.agent.alice.agentId ?? null, verb: "navigate", pattern: "shop://cart", decision: "deny" },
      async () => {
        const page = text(
          await alice.callTool({ name: "navigate", arguments: { uri: "shop://product/prod_mug" } }),
        );
        expect(page).toContain("Signpost Mug");
        expect(page).not.toContain("in your cart");
      },
    );
  });
});
