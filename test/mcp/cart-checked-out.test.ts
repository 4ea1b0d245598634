import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { approve } from "../gateway/gateway-world";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type CartItem = { product_id: string; quantity: number };

/**
 * Set F, played on the wrapper: "buy two mugs, … (not what is in the cart)" — paying that order
 * took the cart's two mugs off the cart, a change the customer never asked for and no screen
 * showed. Only the whole cart checked out leaves the cart, and the person's screen says so before
 * they approve; an order beside the cart leaves it as it is.
 */
describe("a checkout takes its items off the cart only when it is the cart (real legacy, MCP client)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const cart = async (): Promise<CartItem[]> => {
    const res = await fetch(`${w.legacy.url}/v1/customers/cus_alice/cart`, {
      headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
    });
    return ((await res.json()) as { items: CartItem[] }).items.map(({ product_id, quantity }) => ({
      product_id,
      quantity,
    }));
  };

  const buyAndApprove = async (items: CartItem[]) => {
    const client = await w.connect(w.keys.alice);
    const started = await client.callTool({
      name: "start_action",
      arguments: {
        capability: "checkout",
        patch: { items, address_id: "Office", shipping_method: "standard", payment_type: "balance" },
      },
    });
    expect((await approve(w, sc(started).action_id as string)).outcome).toBe("applied");
    return text(started);
  };

  it("two mugs bought beside a cart that holds two mugs and a tee: the cart stays as it was", async () => {
    const before = await cart();
    expect(before).toEqual(expect.arrayContaining([{ product_id: "prod_mug", quantity: 2 }]));
    const shown = await buyAndApprove([{ product_id: "prod_mug", quantity: 2 }]);
    expect(shown).not.toContain("Your cart");
    expect(await cart()).toEqual(before);
  });

  it("the whole cart checked out: the screen says its items leave the cart, and once paid they do", async () => {
    const shown = await buyAndApprove(await cart());
    // The line names what the cart held: played, "these are its items" sent the model to read the cart.
    expect(shown).toContain("Your cart: all of it (Signpost Mug ×2, Logo Tee (M) ×1), emptied once paid");
    expect(await cart()).toEqual([]);
  });
});
