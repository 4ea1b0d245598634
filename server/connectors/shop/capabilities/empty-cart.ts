import { withShown } from "../../sdk/decision-summary";
import { defineCapability } from "../../sdk/define-capability";
import { sendWithRetries } from "../../sdk/http-client";
import { type CartLine, cartLine } from "../cart-line";
import type { ShopAdapter } from "../shop-adapter";
import { customerFor, noCustomer } from "../shop-customer";
import { SHOP_MONEY, SHOP_POLICY } from "../shop-policy";
import { shopSummary } from "../shop-summary-fields";

/** The approved lines the cart still holds, and all it holds, as the system reads it now. */
async function linesLeft(adapter: ShopAdapter, customerId: string, lines: CartLine[]) {
  const items = (await adapter.cart(customerId))?.items ?? [];
  return { left: lines.filter((l) => items.some((i) => i.product_id === l.product_id)), items };
}

/** What a run left: "1 of 2 lines were taken out; the cart still holds Logo Tee (M)". */
function partlyOut(lines: CartLine[], left: CartLine[]): string {
  const still = `the cart still holds ${left.map((l) => l.name).join(", ")}`;
  return left.length < lines.length
    ? `${lines.length - left.length} of ${lines.length} lines were taken out; ${still}`
    : still;
}

/**
 * Takes every line out of the caller's own cart in one approval. Set CR: "Take everything out of
 * my cart" was one update_cart per line (three calls, two approvals), each stopping to ask which
 * product though the user had said "everything". The legacy API removes one line at a time; the
 * effect removes each, and the cart read back decides whether it happened.
 */
export const emptyCart = defineCapability<ShopAdapter>({
  id: "empty_cart",
  connector: "shop",
  title: "Empty the cart",
  // Its words are emptying's own ("empty", "clear"): "take the tee out of my cart" is one line's
  // removal (update_cart), never the whole cart.
  description: "Empties the user's own basket: every line goes at once; no money moves.",
  trigger: {
    use: "The user wants their basket emptied or cleared: every line gone at once.",
    // "Not to put into the cart": a placing phrase, as checkout's, so "put two tees in my cart"
    // and "add a lamp to my cart" are no emptying; a quantity is one line's (update_cart).
    avoid:
      "Not to put into the cart; not for setting or changing one product's quantity (that is update_cart); not for buying, purchasing, ordering or paying for what is in it (that is checkout).",
  },
  // No "remove", "take" or "delete": those are a line's (update_cart), and "remove the mug from
  // my cart" would tie with emptying it.
  // "Take everything out of my cart" reaches it by the shop's query phrases (searchSynonyms), never
  // by "everything" alone (review 66b: "I want a refund for everything" tied with it).
  synonyms: ["empty cart", "clear cart", "清空购物车"],
  prerequisites: ["signed in as a shop customer"],
  sideEffects: ["takes every product out of the cart"],
  // No record: the caller's own cart. Its lines are products, as update_cart's are.
  appliesTo: { entity: "Product" },
  money: SHOP_MONEY,
  policy: {
    effect: "write",
    permission: "shop.cart.update",
    // As update_cart: it buys nothing, yet the person approves it, so words that only mention a
    // cart never empty it on the model's reading.
    approval: "always",
    audit: "full",
    ...SHOP_POLICY,
  },
  nodes: [
    {
      id: "CART",
      description: "The cart's lines, every one of which goes",
      async resolve({ adapter, actor, derived }) {
        const customer = await customerFor(adapter, actor, derived);
        if (!customer) return { errors: [noCustomer] };
        const cart = await adapter.cart(customer.id);
        const lines = (cart?.items ?? []).map(cartLine);
        // Nothing to take out: refused, and the action ends (review 66b: "already" on a field no
        // start gives left it open, asking a fix that does not exist).
        if (!lines.length)
          return {
            errors: [
              { field: "cart", code: "cart_empty", message: "The cart is already empty", refused: true },
            ],
          };
        return { options: { cart: lines }, derived: { customer, lines, subtotal: cart?.subtotal ?? 0 } };
      },
    },
    { id: "CONFIRM_EMPTY", description: "Empty the cart", requiresConfirmation: true },
  ],
  summarize: ({ derived }) => {
    const lines = derived.lines as CartLine[];
    return withShown(
      {
        items: lines.map((l) => ({ product_id: l.product_id, name: l.name, quantity: l.quantity })),
        subtotal: derived.subtotal as number,
        cart_after: "empty",
      },
      shopSummary("Empty the cart"),
    );
  },
  effect: {
    kind: "shop.cart_empty",
    description: "Empty the cart",
    async execute({ adapter, actor, derived, actionKey, timeoutMs, attempts }) {
      const customer = await customerFor(adapter, actor, derived);
      if (!customer) return { status: "rejected", code: noCustomer.code, message: noCustomer.message };
      const lines = derived.lines as CartLine[];
      let removed = 0;
      for (const line of lines) {
        const res = await sendWithRetries(
          adapter.http,
          {
            method: "DELETE",
            path: `/v1/customers/${encodeURIComponent(customer.id)}/cart/items/${encodeURIComponent(line.product_id)}`,
            idempotencyKey: `${actionKey}:${line.product_id}`,
          },
          { attempts, timeoutMs },
        );
        // A line already gone (a retry after a lost answer, or taken out meanwhile) is out.
        if (res.kind === "ok" || (res.kind === "error" && res.status === 404)) {
          removed++;
          continue;
        }
        if (res.kind === "error") return { status: "rejected", code: res.code, message: res.message };
        // Nothing sent yet: nothing happened. Some lines out: the read-back settles it (verify).
        if (res.kind === "unavailable" && removed === 0)
          return { status: "unavailable", message: res.message };
        return {
          status: "unknown",
          message: `${removed} of ${lines.length} lines were taken out before: ${res.message}; verify_action reads the cart`,
        };
      }
      const { left, items } = await linesLeft(adapter, customer.id, lines);
      if (!left.length) return { status: "applied", externalId: customer.id, response: { items } };
      // Not done, said as it stands: some lines out is never "changed nothing" (review 66b), nor
      // left to a recovery that would re-send without the approved cart's check (review 66c: a
      // line added since was taken out). A retry is confirm's, which checks the cart first.
      return { status: "not_applied", message: partlyOut(lines, left) };
    },
    async verify({ adapter, actor, derived }) {
      const customer = await customerFor(adapter, actor, derived);
      if (!customer) return { happened: false, details: { status: "no_customer" } };
      const lines = derived.lines as CartLine[];
      const { left } = await linesLeft(adapter, customer.id, lines);
      const details = {
        status: !left.length ? "cart_emptied" : left.length < lines.length ? "partly_emptied" : "not_emptied",
        items_left: left.map((l) => l.name),
      };
      if (!left.length) return { happened: true, externalId: customer.id, details };
      // Some lines out: no proof of absence (a recovery would re-send on it), nor of the change.
      return left.length < lines.length
        ? { happened: "undecided", message: partlyOut(lines, left), details }
        : { happened: false, details };
    },
  },
});
