import { z } from "zod";
import { withShown } from "../../sdk/decision-summary";
import { defineCapability } from "../../sdk/define-capability";
import { toEffectResult } from "../../sdk/effect-result";
import { sendWithRetries } from "../../sdk/http-client";
import type { ValidationError } from "../../sdk/outcome";
import { cartAfterLine } from "../cart-after-line";
import { chargeOrder, paymentByReference } from "../charge-order";
import { type Coupon, eligibleCoupons, unusedCoupon } from "../eligible-coupons";
import { FROM_CART_WORDS, fromCartField } from "../from-cart-field";
import { fromCartRefusals } from "../from-cart-refusals";
import { isWholeCart } from "../is-whole-cart";
import { addressIdSchema, matchAddress, shopAddressLine } from "../match-address";
import { orderSum } from "../order-sum";
import { paymentNode } from "../payment-node";
import { OFFERED_PRODUCTS, productChoice } from "../product-choice";
import { shippingNode } from "../shipping-node";
import type { ShopAdapter, ShopAddress, ShopOrder, ShopPaymentMethod, ShopQuote } from "../shop-adapter";
import { customerFor, noCustomer } from "../shop-customer";
import { SHOP_MONEY, SHOP_POLICY } from "../shop-policy";
import { shopSummary } from "../shop-summary-fields";
import { stockRefusal } from "../stock-refusal";

const SHIPPING_LABELS: Record<ShopQuote["method"], string> = {
  standard: "Standard",
  express: "Express",
  same_day: "Same day",
};

interface Line {
  product_id: string;
  name: string;
  quantity: number;
  unit_price: number;
}

const itemSchema = z
  .object({
    product_id: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .describe("Product id, e.g. prod_mug (see options.cart or the catalog)"),
    quantity: z.number().int().min(1).max(99).describe("How many"),
  })
  .strict();

export const checkout = defineCapability<ShopAdapter>({
  id: "checkout",
  connector: "shop",
  title: "Checkout",
  description:
    "Buy items: choose items and quantities, the delivery address, shipping, an optional coupon and the payment method, then pay after the user approves (its cost is shown first).",
  trigger: {
    use: "The user wants to buy or order items (from the cart or named products) and pay for them.",
    avoid:
      "Not for paying an existing unpaid order (pending payment): that is pay_order, which places no second order. Not for changing, cancelling, refunding or tracking an existing order. Not to add to the cart, take out of the cart, set a cart quantity, remove or delete (that is update_cart).",
  },
  synonyms: [
    "buy",
    "purchase",
    "order",
    "pay",
    "place order",
    "check out",
    "cart",
    "basket",
    "下单",
    "购买",
    "买",
    "结账",
    // The other common spelling (and what opencc makes of traditional 結帳).
    "结帐",
    "付款",
    "支付",
    "购物车",
  ],
  appliesTo: { entity: "Order" },
  prerequisites: ["signed in as a shop customer", "items in the cart or named products"],
  sideEffects: [
    "creates an order",
    "charges the payment method",
    "reserves inventory",
    "takes the bought items out of the cart once paid when they are the whole cart, or when bought from it (from_cart)",
  ],
  money: SHOP_MONEY,
  policy: {
    effect: "write",
    permission: "shop.order.pay",
    approval: "always",
    audit: "full",
    ...SHOP_POLICY,
  },
  nodes: [
    {
      id: "ITEMS",
      description: "Items and quantities; stock is checked",
      fields: {
        items: z
          .array(itemSchema)
          .min(1)
          .max(20)
          .describe("Items to buy with quantities, e.g. [{product_id, quantity}]"),
        // The user's words decide ("buy the tees from my cart"); unsaid, only the whole cart
        // leaves the cart. Never filled by a default: the cart changes only on their word.
        from_cart: fromCartField,
      },
      optInChoices: ["from_cart"],
      saidBy: { from_cart: FROM_CART_WORDS },
      listNames: { cart: ["basket", "trolley"] }, // what people call the cart too ("buy my basket")
      // Products named beyond the cart ("2 Logo Tee L"): the catalog's first 100, read only for words.
      async lookup({ adapter }) {
        const catalog = await adapter.products({ per_page: 100 });
        return { products: catalog.data.map(productChoice) };
      },
      async resolve({ adapter, actor, values, derived }) {
        const customer = await customerFor(adapter, actor, derived);
        if (!customer) return { errors: [noCustomer] };
        const cart = await adapter.cart(customer.id);
        const options: Record<string, unknown> = { cart: cart?.items ?? [] };
        const items = values.items as Array<{ product_id: string; quantity: number }> | undefined;
        // "Is there a coupon I can use?" is answered from the first step: the cart's coupons.
        if (!items) {
          const subtotal = cart?.subtotal ?? 0;
          if (subtotal > 0)
            options.available_coupons = eligibleCoupons(await adapter.coupons(customer.id, subtotal));
          // An empty cart leaves nothing to choose from: the catalog's cheapest few are offered
          // (round 20: "ITEMS needs items" with no list sent the model to search the catalog).
          else {
            const catalog = await adapter.products({ sort: "price", per_page: OFFERED_PRODUCTS });
            options.products = catalog.data.map(productChoice);
            options.order_of = {
              products: `cheapest first${catalog.next_page ? "; more: name one by its words, or shop://products" : ""}`,
            };
          }
          return { options };
        }
        const errors: ValidationError[] = [];
        const lines: Line[] = [];
        const seen = new Set<string>();
        for (const [i, item] of items.entries()) {
          if (seen.has(item.product_id)) {
            errors.push({
              field: `items.${i}.product_id`,
              code: "duplicate_item",
              message: `${item.product_id} is listed twice; give one quantity`,
            });
            continue;
          }
          seen.add(item.product_id);
          const product = await adapter.product(item.product_id);
          if (!product) {
            errors.push({
              field: `items.${i}.product_id`,
              code: "unknown_product",
              message: `No product ${item.product_id}`,
            });
            continue;
          }
          const stock = await adapter.inventory(item.product_id);
          const available = stock?.available ?? product.stock;
          if (available < item.quantity)
            errors.push(await stockRefusal(adapter, i, product, available, item.quantity));
          lines.push({
            product_id: product.id,
            name: product.name,
            quantity: item.quantity,
            unit_price: product.price,
          });
        }
        const subtotal = lines.reduce((s, l) => s + l.unit_price * l.quantity, 0);
        const coupons = subtotal > 0 ? eligibleCoupons(await adapter.coupons(customer.id, subtotal)) : [];
        if (subtotal > 0) options.available_coupons = coupons;
        // The whole cart, line for line, leaves the cart once paid unless the user said otherwise;
        // part of it, only when bought from it (the person's screen says what goes and what stays).
        const cartItems = cart?.items ?? [];
        const wholeCart = isWholeCart(lines, cartItems);
        const said = values.from_cart as boolean | undefined;
        if (said === true) errors.push(...fromCartRefusals(lines, cartItems));
        const from_cart = said ?? wholeCart;
        // What the person's screen says of the cart: what leaves it, or that all of it stays though
        // the order is all of it ("keep my cart"); an order beside the cart says nothing of it.
        const cart_line = from_cart
          ? cartAfterLine(lines, cartItems)
          : wholeCart
            ? "stays as it is (you keep it, though this order is all of it)"
            : null;
        // The coupons go down to SHIPPING, whose totals take off the one given. `defaults` only
        // lets the user's words be read for from_cart; an opt-in field is never filled from it.
        return {
          options,
          errors,
          defaults: { from_cart: wholeCart },
          derived: { lines, subtotal, from_cart, cart_line, coupons },
        };
      },
    },
    {
      id: "ADDRESS",
      description: "Delivery address, one of the customer's addresses",
      fields: {
        address_id: addressIdSchema,
      },
      async resolve({ adapter, values, derived }) {
        const customer = derived.customer as { id: string };
        const addresses = await adapter.addresses(customer.id);
        const options = {
          addresses: addresses.map((a) => ({ id: a.id, label: a.label, line1: a.line1, city: a.city })),
        };
        const wanted = values.address_id as string | undefined;
        if (!wanted) return { options };
        const address = matchAddress(addresses, wanted);
        if (!address)
          return {
            options,
            errors: [
              {
                field: "address_id",
                code: "unknown_address",
                message: `No address "${wanted}"; choose one of: ${addresses.map((a) => `${a.label} (${a.id})`).join(", ")}`,
              },
            ],
          };
        return { options, derived: { address } };
      },
    },
    shippingNode(),
    {
      id: "COUPON",
      description: "Optional coupon; the coupons available depend on the total",
      dependsOn: ["items", "address_id"],
      fields: {
        coupon_code: z
          .string()
          .trim()
          .min(1)
          .max(40)
          .optional()
          .describe("Code of one of options.available_coupons, or null to remove"),
      },
      // What the user pays depends on it, but it is optional: applied only on their word.
      optInChoices: ["coupon_code"],
      async resolve({ adapter, values, derived }) {
        const customer = derived.customer as { id: string };
        const subtotal = derived.subtotal as number;
        const coupons = await adapter.coupons(customer.id, subtotal);
        const options = { available_coupons: eligibleCoupons(coupons) };
        const code = values.coupon_code as string | undefined;
        if (!code) return { options, derived: { coupon: null, discount: 0 } };
        const coupon = coupons.find((c) => c.code.toLowerCase() === code.toLowerCase());
        if (!coupon)
          return {
            options,
            errors: [{ field: "coupon_code", code: "unknown_coupon", message: `No coupon ${code}` }],
          };
        if (!coupon.eligible)
          return {
            options,
            errors: [
              {
                field: "coupon_code",
                code: "coupon_not_eligible",
                message: coupon.reason ?? `${coupon.code} does not apply to this order`,
              },
            ],
          };
        return { options, derived: { coupon: coupon.code, discount: coupon.discount } };
      },
    },
    paymentNode(
      "How to pay: account balance or card",
      (derived) =>
        (derived.subtotal as number) + (derived.shipping as ShopQuote).price - (derived.discount as number),
      // How it adds up, shown while the payment method is asked (which changes none of it).
      (derived) => ({
        subtotal: derived.subtotal as number,
        shipping: (derived.shipping as ShopQuote).price,
        ...(derived.discount ? { discount: derived.discount as number } : {}),
      }),
    ),
    {
      id: "CONFIRM_ORDER",
      description: "Place the order and charge the payment method",
      requiresConfirmation: true,
    },
  ],
  summarize: ({ values, derived }) => {
    const address = derived.address as ShopAddress;
    const method = derived.payment_method as ShopPaymentMethod;
    const shipping = derived.shipping as ShopQuote;
    const total = derived.total as number;
    const balance =
      method.type === "balance" && typeof method.available === "number" ? method.available : null;
    return withShown(
      {
        title: "Place the order and pay",
        // What the person decides, in one sentence: "Pay $55.00 from Store credit".
        decision: { verb: "Pay", amount: total, currency: "USD", from: method.label },
        amount_label: "Total to be charged",
        items: (derived.lines as Line[]).map((l) => ({
          product_id: l.product_id,
          name: l.name,
          quantity: l.quantity,
          unit_price: l.unit_price,
          line_total: l.unit_price * l.quantity,
        })),
        // The arithmetic once, on one line (items + shipping − coupon = total), not four rows.
        sum: orderSum({
          subtotal: derived.subtotal as number,
          shipping: shipping.price,
          discount: derived.discount as number,
          coupon: derived.coupon as string | null,
        }),
        shipping_method: { value: shipping.method, label: SHIPPING_LABELS[shipping.method] },
        amount: total,
        currency: "USD",
        delivery_estimate: `About ${shipping.eta_days} ${shipping.eta_days === 1 ? "day" : "days"} after payment`,
        address: shopAddressLine(address),
        payment_method: { type: method.type, label: method.label },
        // A coupon that applies and was not asked for is said on the person's screen, before they
        // approve (set AT: $338 was approved with SAVE30 unsaid: the agent was to offer it in its
        // reply, after the approval); not where the user said no coupon (review 55c).
        ...(values.coupon_code === null
          ? {}
          : unusedCoupon(derived.coupon as string | null, derived.coupons as Coupon[] | undefined)),
        // Its items named: "these are its items" sent a played model to read the cart for them.
        ...(derived.cart_line ? { cart: derived.cart_line as string } : {}),
        // The balance as it is now: shown for context, not part of what is approved (a charge
        // elsewhere must not void this approval; the PAYMENT node re-checks it at confirm).
        ...(balance === null ? {} : { now: { balance_before: balance, balance_after: balance - total } }),
      },
      shopSummary("Place the order and pay", "Total to be charged"),
    );
  },
  effect: {
    kind: "shop.payment",
    description: "Place the order and charge the payment",
    async execute({ adapter, values, derived, actionKey, timeoutMs, attempts }) {
      const customer = derived.customer as { id: string };
      const budget = { attempts, timeoutMs };
      const orderRes = await sendWithRetries(
        adapter.http,
        {
          method: "POST",
          path: "/v1/orders",
          idempotencyKey: `${actionKey}.order`,
          body: {
            customer_id: customer.id,
            items: (derived.lines as Line[]).map((l) => ({ product_id: l.product_id, quantity: l.quantity })),
            address_id: (derived.address as ShopAddress).id,
            shipping_method: values.shipping_method,
            ...(derived.coupon ? { coupon_code: derived.coupon } : {}),
            ...(derived.from_cart ? { from_cart: true } : {}),
            reference: actionKey,
          },
        },
        budget,
      );
      if (orderRes.kind !== "ok")
        return toEffectResult(orderRes, async () => ({ applied: false, message: "no order" }));
      const order = orderRes.body as ShopOrder;
      if (!order?.id || order.total !== derived.total)
        return {
          status: "rejected",
          code: "amount_changed",
          message: `The order total is ${order?.total}, not the approved ${derived.total}; nothing was charged`,
        };
      return chargeOrder(
        adapter,
        {
          orderId: order.id,
          paymentMethodId: (derived.payment_method as ShopPaymentMethod).id,
          amount: order.total,
          actionKey,
          idempotencyKey: `${actionKey}.payment`,
        },
        budget,
      );
    },
    async verify({ adapter, actionKey }) {
      const paid = await paymentByReference(adapter, actionKey);
      if (paid) return paid;
      const orders = await adapter.ordersByReference(actionKey);
      return {
        happened: false,
        details: {
          status: "not_paid",
          order_id: orders[0]?.id ?? null,
          order_status: orders[0]?.status ?? null,
        },
      };
    },
  },
});
