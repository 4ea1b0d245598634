import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { renderSummary, summaryText } from "@/server/connectors/sdk/render-decision-summary";
import { confirmView } from "@/server/gateway/console/confirm-view";
import { approve } from "../gateway/gateway-world";
import { createMcpWorld, legacyRecord, type McpWorld, sc, text } from "./mcp-world";

type CartItem = { product_id: string; quantity: number };
type Json = Record<string, unknown>;

/**
 * Played as Alice: "Put two Logo Tees in size L in my cart", then "Buy just the Logo Tees L from
 * my cart, express to my home, pay with store credit." Paid, the cart still listed the two tees
 * (only the whole cart left the cart), and the model spent two calls learning whether the order had
 * taken them. The user's words decide now: bought "from my cart", the lines leave the cart once
 * paid, and the screen the person approves says what goes and what stays; "buy two mugs" (no cart
 * words) leaves the cart as it is, as before. Real MCP client, gateway and legacy service.
 */
describe("a checkout from the cart takes what it bought out of the cart, on the user's words", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const cart = async (): Promise<CartItem[]> => {
    return (await legacyRecord<{ items: CartItem[] }>(w, "customers/cus_alice/cart")).items.map(
      ({ product_id, quantity }) => ({
        product_id,
        quantity,
      }),
    );
  };
  /** What the person's confirm screen draws for the action (the console's one renderer). */
  const screen = async (actionId: string) => {
    const view = await confirmView(
      w.db,
      { ...w.person.alice, sessionId: "s", tenantName: "Acme", email: "alice@acme.test", name: "Alice" },
      actionId,
    );
    return summaryText(renderSummary(view?.approval?.summary, view?.title ?? ""));
  };
  const teesInCart = async () => {
    const alice = await w.connect(w.keys.alice);
    const add = await alice.callTool({
      name: "start_action",
      arguments: { capability: "update_cart", intent: "Put two Logo Tees in size L in my cart." },
    });
    expect((await approve(w, sc(add).action_id as string)).outcome).toBe("applied");
    expect(await cart()).toEqual([
      { product_id: "prod_mug", quantity: 2 },
      { product_id: "prod_tee", quantity: 1 },
      { product_id: "prod_tee_l", quantity: 2 },
    ]);
    return alice;
  };
  const LINE = "Your cart: Logo Tee (L) ×2 taken out once paid; Signpost Mug ×2, Logo Tee (M) ×1 stay";

  it('"buy just the Logo Tees L from my cart": the agent\'s text and the approval screen say what leaves the cart; once paid it has, and verify agrees', async () => {
    const alice = await teesInCart();
    const started = await alice.callTool({
      name: "start_action",
      arguments: {
        capability: "checkout",
        intent: "Buy just the Logo Tees L from my cart, express to my home, pay with store credit.",
      },
    });
    const s = sc(started);
    expect(s.status).toBe("awaiting_approval");
    expect(s.from_words).toMatchObject({ items: "2 × prod_tee_l", from_cart: "true" });
    expect(text(started)).toContain(LINE);
    expect(await screen(s.action_id as string)).toContain(LINE);

    expect((await approve(w, s.action_id as string)).outcome).toBe("applied");
    expect(await cart()).toEqual([
      { product_id: "prod_mug", quantity: 2 },
      { product_id: "prod_tee", quantity: 1 },
    ]);
    const verified = sc(
      await alice.callTool({ name: "verify_action", arguments: { action_id: s.action_id } }),
    );
    expect(verified).toMatchObject({ outcome: "applied" });
  });

  it('"buy two mugs" with no cart words leaves the cart as it is, as before', async () => {
    const alice = await teesInCart();
    const before = await cart();
    const started = await alice.callTool({
      name: "start_action",
      arguments: {
        capability: "checkout",
        intent: "Buy two mugs, express to my home, pay with store credit.",
      },
    });
    const s = sc(started);
    expect(s.status).toBe("awaiting_approval");
    expect(s.from_words).not.toHaveProperty("from_cart");
    expect(text(started)).not.toContain("Your cart");
    expect((await approve(w, s.action_id as string)).outcome).toBe("applied");
    expect(await cart()).toEqual(before);
  });

  it('"not from my cart" sets nothing; "keep my cart" keeps even the whole cart in it', async () => {
    const alice = await w.connect(w.keys.alice);
    const notFrom = sc(
      await alice.callTool({
        name: "start_action",
        arguments: {
          capability: "checkout",
          intent: "Buy two mugs, not from my cart, express to my home, pay with store credit.",
        },
      }),
    );
    expect(notFrom.from_words).not.toHaveProperty("from_cart");
    const kept = await alice.callTool({
      name: "start_action",
      arguments: {
        capability: "checkout",
        intent:
          "Buy everything in my cart but keep my cart as it is, express to my home, pay with store credit.",
      },
    });
    expect(sc(kept).from_words).toMatchObject({ from_cart: "false" });
    expect(text(kept)).toContain("Your cart: stays as it is (you keep it, though this order is all of it)");
    expect((await approve(w, sc(kept).action_id as string)).outcome).toBe("applied");
    expect(await cart()).toEqual([
      { product_id: "prod_mug", quantity: 2 },
      { product_id: "prod_tee", quantity: 1 },
    ]);
  });

  it("from_cart sent by the agent: part of a line leaves the cart, the rest of it stays", async () => {
    const alice = await w.connect(w.keys.alice);
    const started = await alice.callTool({
      name: "start_action",
      arguments: {
        capability: "checkout",
        patch: {
          items: [{ product_id: "prod_mug", quantity: 1 }],
          from_cart: true,
          address_id: "Home",
          shipping_method: "standard",
          payment_type: "balance",
        },
      },
    });
    expect(text(started)).toContain(
      "Your cart: Signpost Mug ×1 taken out once paid; Signpost Mug ×1, Logo Tee (M) ×1 stay",
    );
    expect((await approve(w, sc(started).action_id as string)).outcome).toBe("applied");
    expect(await cart()).toEqual([
      { product_id: "prod_mug", quantity: 1 },
      { product_id: "prod_tee", quantity: 1 },
    ]);
  });

  it("from the cart, an item it does not hold (or more than it holds) is a typed error naming what it holds; nothing is placed", async () => {
    const alice = await teesInCart();
    const holds = "your cart holds Signpost Mug ×2, Logo Tee (M) ×1, Logo Tee (L) ×2";
    const hoodie = sc(
      await alice.callTool({
        name: "start_action",
        arguments: {
          capability: "checkout",
          intent: "Buy a hoodie from my cart, express to my home, pay with store credit.",
        },
      }),
    );
    expect(hoodie.status).toBe("open");
    const notIn = (hoodie.validation_errors as Json[])[0];
    expect(notIn).toMatchObject({ field: "from_cart", code: "not_in_cart" });
    expect(notIn?.message).toContain(`Hoodie (M) (prod_hoodie) is not in your cart; ${holds}`);

    const three = await alice.callTool({
      name: "start_action",
      arguments: {
        capability: "checkout",
        patch: { items: [{ product_id: "prod_tee_l", quantity: 3 }], from_cart: true },
      },
    });
    expect(sc(three).validation_errors).toEqual([
      expect.objectContaining({ field: "from_cart", code: "more_than_in_cart" }),
    ]);
    expect(text(three)).toContain(`Logo Tee (L) ×3 is more than your cart's ×2; ${holds}`);

    // Set false, the same items are an order beside the cart: it goes on to the next step.
    const beside = sc(
      await alice.callTool({
        name: "advance_action",
        arguments: {
          action_id: sc(three).action_id,
          version: sc(three).version,
          patch: { from_cart: false },
        },
      }),
    );
    expect(beside.validation_errors).toEqual([]);
    expect(beside.node).not.toBe("ITEMS");
    const orders = await legacyRecord<{ data: Json[] }>(
      w,
      "orders?customer_id=cus_alice&status=pending_payment",
    );
    expect(orders.data.map((o) => o.id)).toEqual(["ord_pending"]);
  });
});
