import { z } from "zod";
import { withShown } from "../../sdk/decision-summary";
import { defineCapability } from "../../sdk/define-capability";
import { toEffectResult } from "../../sdk/effect-result";
import { sendWithRetries } from "../../sdk/http-client";
import type { ValidationError } from "../../sdk/outcome";
import { cartLine } from "../cart-line";
import type { ShopAdapter } from "../shop-adapter";
import { customerFor, noCustomer } from "../shop-customer";
import { SHOP_MONEY, SHOP_POLICY } from "../shop-policy";
import { shopSummary } from "../shop-summary-fields";

interface CartProduct {
  id: string;
  name: string;
  /** How many the cart holds now (0: not in it). */
  in_cart: number;
  /** Its price, in cents: what it adds to the cart's items once there. */
  unit_price: number;
}

/** A cart line the change leaves as it is: said beside the changed one, so the cart is whole. */
interface OtherLine {
  name: string;
  quantity: number;
  unit_price: number;
}

/**
 * The whole cart once changed, and its items' sum: set BZ's "add a desk lamp … and tell me what
 * the cart comes to" read "1 × Desk Lamp in the cart" as the only line and read the cart again.
 */
function cartAfter(product: CartProduct, quantity: number, others: OtherLine[]) {
  const changed =
    quantity === 0 ? `${product.name} taken out` : `${product.name} ×${quantity} (was ${product.in_cart})`;
  const rest = others.map((l) => `${l.name} ×${l.quantity}`);
  const sum = others.reduce((total, l) => total + l.quantity * l.unit_price, quantity * product.unit_price);
  return {
    cart_after: [changed, ...rest].join(", ") + (quantity === 0 && !rest.length ? ": the cart is empty" : ""),
    cart_subtotal_after: sum,
  };
}

/** How many of the product the caller's cart holds now (0 when none, or no cart). */
async function inCart(adapter: ShopAdapter, customerId: string, productId: string): Promise<number> {
  const cart = await adapter.cart(customerId);
  return cart?.items.find((l) => l.product_id === productId)?.quantity ?? 0;
}

/** Why the quantity asked cannot be set (none when it can). */
async function quantityRefusals(
  adapter: ShopAdapter,
  product: CartProduct,
  quantity: number,
  cartNames: string[],
): Promise<ValidationError[]> {
  if (quantity === product.in_cart)
    return [
      {
        field: "quantity",
        code: quantity === 0 ? "not_in_cart" : "unchanged",
        message:
          quantity === 0
            ? `${product.name} is not in your cart, so there is nothing to remove; the cart holds ${cartNames.join(", ") || "nothing"}`
            : `Your cart already holds ${quantity} × ${product.name}: nothing to change`,
        // Removing what is not there is refused (the user's words named the wrong thing);
        // the same quantity again is already so.
        ...(quantity === 0 ? { refused: true } : { already: true }),
      },
    ];
  if (quantity === 0) return [];
  const stock = await adapter.inventory(product.id);
  const left = stock?.available ?? 0;
  if (left >= quantity) return [];
  return [
    {
      field: "quantity",
      code: "insufficient_stock",
      message:
        left > 0
          ? `Only ${left} of ${product.name} in stock (asked ${quantity}); set at most ${left}`
          : `${product.name} is sold out`,
      choice_closed: true,
    },
  ];
}

export const updateCart = defineCapability<ShopAdapter>({
  id: "update_cart",
  connector: "shop",
  // Its own words are what is done to the cart (out of it, remove, delete, a quantity): "cart"
  // alone names checkout, which buys it (issue 23: "Take the tee out of my cart" found only
  // checkout). No bare "change" (a delivery address's), "take" (an item off an order) nor "add" in
  // its title ("add" alone names a ticket's note); it opens with setting a quantity, which adding
  // is (set AJ: "Remove from cart or set quantity is ready" read wrong for an add).
  title: "Set a cart quantity or remove from cart",
  description:
    "Add a product to the user's own cart, set how many of it, or remove it (quantity 0). Buys nothing and moves no money.",
  trigger: {
    use: "The user wants a product added to their cart or removed from it, or a different quantity of it there.",
    avoid: "Not for paying for the cart (that is checkout), nor for an order already placed.",
  },
  synonyms: [
    "add to cart",
    "remove from cart",
    "out of cart",
    "delete from cart",
    "cart quantity",
    "加入购物车",
    "加购",
    "删除购物车",
    "从购物车删除",
    "移出购物车",
  ],
  appliesTo: { entity: "Product", field: "product_id" },
  prerequisites: ["signed in as a shop customer"],
  sideEffects: ["changes the quantity of one product in the cart (0 takes it out)"],
  money: SHOP_MONEY,
  policy: {
    effect: "write",
    permission: "shop.cart.update",
    // It buys nothing, yet a person approves it: review 52c found words that did not ask for it
    // ran it at once ("should I remove the mug from my cart?", "remove the mug from Adam's cart"
    // on the caller's own, "don't remove the mug" with the capability named). The person's
    // screen shows exactly the line and the count; nothing the model says changes a cart.
    approval: "always",
    audit: "full",
    ...SHOP_POLICY,
  },
  nodes: [
    {
      id: "CART_LINE",
      description: "The product and how many of it the cart should hold (0 removes it)",
      fields: {
        product_id: z
          .string()
          .trim()
          .min(1)
          .max(64)
          .describe("Product id, e.g. prod_mug: one of options.cart, or any catalog product to add"),
        quantity: z
          .number()
          .int()
          .min(0)
          .max(99)
          .describe("How many the cart should hold after the change; 0 removes the product"),
      },
      // "Take the tee out of my cart" is 0; "add one more mug" is on top of the mugs it holds.
      counts: {
        quantity: {
          of: "product_id",
          none: ["remove", "take out", "out of my cart", "delete", "drop"],
          more: ["add", "another", "more", "extra"],
        },
      },
      listNames: { cart: ["basket", "trolley"] },
      // What the words may name beyond the cart: any catalog product, to add. Its cart lines come
      // first and only they are open to every change, so "the tee" is the one in the cart, not
      // every size the catalog has (the engine reads the first list carrying the field).
      async lookup({ adapter, actor, derived }): Promise<Record<string, unknown[]>> {
        const customer = await customerFor(adapter, actor, derived);
        if (!customer) return {};
        const [cart, catalog] = await Promise.all([
          adapter.cart(customer.id),
          adapter.products({ per_page: 100 }),
        ]);
        const lines = (cart?.items ?? []).map((l) => ({ ...cartLine(l), possible: "yes" }));
        const held = new Set(lines.map((l) => l.product_id));
        const others = catalog.data
          .filter((p) => !held.has(p.id))
          .map((p) => ({ product_id: p.id, name: p.name, unit_price: p.price, possible: "not in the cart" }));
        return { cart: [...lines, ...others] };
      },
      async resolve({ adapter, actor, values, derived }) {
        // Whose cart: the caller's own, always (no field names a customer).
        const customer = await customerFor(adapter, actor, derived);
        if (!customer) return { errors: [noCustomer] };
        const cart = await adapter.cart(customer.id);
        const lines = cart?.items ?? [];
        const options = { cart: lines.map(cartLine) };
        const id = values.product_id as string | undefined;
        if (!id) return { options };
        const line = lines.find((l) => l.product_id === id);
        const found = line ? null : await adapter.product(id);
        if (!line && !found)
          return {
            options,
            errors: [{ field: "product_id", code: "unknown_product", message: `No product ${id}` }],
          };
        const product: CartProduct = {
          id,
          name: line?.name ?? found?.name ?? id,
          in_cart: line?.quantity ?? 0,
          unit_price: line?.unit_price ?? found?.price ?? 0,
        };
        const quantity = values.quantity as number | undefined;
        if (quantity === undefined) return { options, derived: { product } };
        const names = lines.map((l) => `${l.name} ×${l.quantity}`);
        const others: OtherLine[] = lines
          .filter((l) => l.product_id !== id)
          .map((l) => ({ name: l.name, quantity: l.quantity, unit_price: l.unit_price }));
        return {
          options,
          derived: { product, quantity, others },
          errors: await quantityRefusals(adapter, product, quantity, names),
        };
      },
    },
    { id: "CONFIRM_CART", description: "Change the cart", requiresConfirmation: true },
  ],
  summarize: ({ derived }) => {
    const product = derived.product as CartProduct;
    const quantity = derived.quantity as number;
    return withShown(
      {
        product_id: product.id,
        name: product.name,
        from: product.in_cart,
        to: quantity,
        // The cart's other lines as they stand now: context, not what is approved (the change
        // sets one line), so another change to the cart does not void this approval (review 63).
        now: cartAfter(product, quantity, (derived.others as OtherLine[] | undefined) ?? []),
      },
      shopSummary(quantity === 0 ? "Remove from the cart" : "Set the quantity in the cart"),
    );
  },
  effect: {
    kind: "shop.cart_update",
    description: "Change the cart",
    async execute({ adapter, actor, derived, actionKey, timeoutMs, attempts }) {
      const customer = await customerFor(adapter, actor, derived);
      if (!customer) return { status: "rejected", code: noCustomer.code, message: noCustomer.message };
      const product = derived.product as CartProduct;
      const quantity = derived.quantity as number;
      const cartPath = `/v1/customers/${encodeURIComponent(customer.id)}/cart/items`;
      // Setting a quantity is idempotent in the legacy API; a removal of a line already gone
      // (a retry after a lost answer) is read back below, not taken as a failure.
      const res = await sendWithRetries(
        adapter.http,
        quantity === 0
          ? {
              method: "DELETE",
              path: `${cartPath}/${encodeURIComponent(product.id)}`,
              idempotencyKey: actionKey,
            }
          : {
              method: "POST",
              path: cartPath,
              idempotencyKey: actionKey,
              body: { product_id: product.id, quantity },
            },
        { attempts, timeoutMs },
      );
      return toEffectResult(res, async () => {
        const now = await inCart(adapter, customer.id, product.id);
        return now === quantity
          ? { applied: true, externalId: product.id }
          : { applied: false, message: `the cart holds ${now} × ${product.name}` };
      });
    },
    async verify({ adapter, actor, derived }) {
      const customer = await customerFor(adapter, actor, derived);
      const product = derived.product as CartProduct;
      const quantity = derived.quantity as number;
      if (!customer) return { happened: false, details: { status: "no_customer" } };
      const cart = await adapter.cart(customer.id);
      const now = cart?.items.find((l) => l.product_id === product.id)?.quantity ?? 0;
      // The cart's items' sum as the system reads it now: set CO's "add two more mugs and tell
      // me what the cart comes to" read the cart again after the approval to learn it.
      const details = {
        status: now === quantity ? "cart_updated" : "unchanged",
        product_id: product.id,
        quantity: now,
        subtotal: cart?.subtotal ?? 0,
      };
      return now === quantity
        ? { happened: true, externalId: product.id, details }
        : { happened: false, details };
    },
  },
});
