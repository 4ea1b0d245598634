import type { BackendOutcome, Row } from "../sdk/browse-backend";
import { capabilityFormRoute } from "../sdk/capability-form-route";
import type { FilterSpec, RouteDefinition } from "../sdk/define-route";
import { formLinkLines, withFormFields } from "../sdk/form-links";
import { link, money } from "../sdk/markdown";
import { sumText } from "../sdk/render-decision-summary";
import { objectSections, rowsTable } from "../sdk/render-helpers";
import {
  filterValue,
  invalidFilterPage,
  isOutcome,
  listPage,
  NOT_FOUND_FOR,
  outcomePage,
  pageNumber,
  perPage,
  viewPage,
} from "../sdk/route-pages";
import { COUPONS_ROUTE } from "./coupons-route";
import { withAddressAndPaymentLines } from "./order-page-lines";
import { orderSum, sumTerms } from "./order-sum";
import { ORDERS_ROUTE } from "./orders-route";
import { PROFILE_ROUTE } from "./profile-route";
import { SHOP_MONEY } from "./shop-policy";
import { cart, heldInCart, listProducts, product } from "./shop-records";

/** Which forms an order offers now comes from the view's next_actions (the engine decides). */
function orderFormLinks(id: string, view: BackendOutcome): Array<[string, string]> {
  const capabilities = new Set(
    (view.next_actions ?? [])
      .map((n) => (n.args && typeof n.args.capability === "string" ? n.args.capability : undefined))
      .filter(Boolean) as string[],
  );
  const links: Array<[string, string]> = [];
  if (capabilities.has("pay_order")) links.push(["Pay this order", `shop://order/${id}/pay`]);
  if (capabilities.has("after_sales"))
    links.push(["After-sales (refund, return, exchange)", `shop://order/${id}/after-sales`]);
  if (capabilities.has("change_delivery_address"))
    links.push(["Change delivery address", `shop://order/${id}/address`]);
  if (capabilities.has("cancel_unpaid_order"))
    links.push(["Cancel this unpaid order", `shop://order/${id}/cancel`]);
  if (capabilities.has("track_shipment")) links.push(["Track shipment", `shop://order/${id}/tracking`]);
  return links;
}

/**
 * The order page states its totals as the arithmetic, once: "items $43.00 + shipping $5.00 −
 * coupon SAVE5 $5.00 = $43.00" (the view's numbers stay as they are for structured readers).
 */
function withTotalsLine(view: BackendOutcome): BackendOutcome {
  const order = view.view as Row | undefined;
  const t = order?.totals as
    | { subtotal: number; shipping: number; discount: number; total: number; coupon?: string | null }
    | undefined;
  if (!order || !t || typeof t.total !== "number") return view;
  const sum = orderSum({
    subtotal: t.subtotal,
    shipping: t.shipping,
    discount: t.discount,
    coupon: t.coupon,
  });
  return { ...view, view: { ...order, totals: sumText(sumTerms(sum), t.total) } };
}

/** A change's "eligible: true" line goes from the page: its link under Actions says it (the view keeps it). */
function withoutEligibleLines(view: BackendOutcome): BackendOutcome {
  const order = view.view as Row | undefined;
  if (!order) return view;
  const open = (v: unknown) =>
    !!v && typeof v === "object" && Object.keys(v).join() === "eligible" && (v as Row).eligible === true;
  return { ...view, view: Object.fromEntries(Object.entries(order).filter(([, v]) => !open(v))) };
}

/**
 * The order page's item rows: each false flag's reason in the last column (`why_not`), which also
 * says a settled line's status ("already exchanged"), so the legacy's `status` column goes; a line
 * with nothing to say leaves it empty, and no line with anything drops it. Eight columns, the
 * table's limit; the view keeps both fields for structured readers.
 */
function withItemReasons(view: BackendOutcome): BackendOutcome {
  const order = view.view as Row | undefined;
  if (!order || !Array.isArray(order.items)) return view;
  const rows = (order.items as Row[]).map(({ status: _status, why_not, ...line }) => ({
    ...line,
    why_not: typeof why_not === "string" ? why_not : "",
  }));
  const said = rows.some((r) => r.why_not);
  const items = said ? rows : rows.map(({ why_not: _none, ...line }) => line);
  return { ...view, view: { ...order, items } };
}

/**
 * The order page's fulfilment on one line with its shipment's carrier, tracking number,
 * status and, on its way, its latest scan: the view nests the shipment one level deeper than a page line shows, so a model
 * asked for the tracking number opened the tracking form for it. The view keeps its shape.
 */
function withShipmentLine(view: BackendOutcome): BackendOutcome {
  const order = view.view as Row | undefined;
  const fulfilment = order?.fulfilment as Row | undefined;
  const shipment = fulfilment?.shipment as Row | null | undefined;
  if (!order || !fulfilment || !shipment) return view;
  const { shipment: _nested, latest_scan, expected_delivery, ...rest } = fulfilment;
  // The latest scan (an order on its way) after the status it details: "in_transit, latest scan: …",
  // then when it should arrive.
  const line = {
    ...rest,
    carrier: shipment.carrier,
    tracking_number: shipment.tracking_number,
    shipment_status: shipment.status,
    ...(latest_scan ? { latest_scan } : {}),
    ...(expected_delivery ? { expected_delivery } : {}),
  };
  return { ...view, view: { ...order, fulfilment: line } };
}

/**
 * What the cart page offers: change it (issue 23: a removal found only checkout), or buy it. Set
 * AZ: "(add, set quantity, remove)" left the model unsure whether `quantity` was added or the new
 * count, and it opened the form to read it.
 */
const CART_ACTIONS: Array<[string, string]> = [
  ["Change the cart (quantity: the count it holds after; 0 removes)", "shop://cart/change"],
  ["Empty the cart", "shop://cart/empty"],
  ["Check out", "shop://checkout"],
];

/**
 * What a product's page offers: put it in the cart, or buy it (set BQ: "add one Desk Lamp to my
 * cart" opened the lamp's page, found only the checkout there, and searched for the cart's form).
 */
const PRODUCT_ACTIONS: Array<[string, string]> = [
  ["Add to cart (quantity: the count it holds after)", "shop://cart/change"],
  ["Buy (checkout form)", "shop://checkout"],
];

const PLACED_BY_YOU = "you (an action of this agent)";

/** The catalog's filters: its text search, and its `?sort=` (the legacy API's own values). */
const PRODUCT_FILTERS = {
  q: "free text",
  sort: ["price", "-price", "name"],
} as const satisfies FilterSpec;

/** The line that states each `?sort=`'s order, the default naming the others. */
const PRODUCT_ORDER: Record<(typeof PRODUCT_FILTERS.sort)[number], string> = {
  name: "By name (?sort=price: cheapest first; ?sort=-price: most expensive first)",
  price: "Cheapest first",
  "-price": "Most expensive first",
};

/**
 * `shop://` routes: orders, the profile (account), cart, products, checkout and the order forms. The start
 * page offers a connector's first three start points: orders, the profile and the cart, the
 * caller's own things; the catalog is the one record search always reads (any product's words
 * land on it), so it is the one left to search.
 */
export const SHOP_ROUTES: RouteDefinition[] = [
  ORDERS_ROUTE,
  PROFILE_ROUTE,
  {
    pattern: "shop://cart",
    title: "Cart",
    description: "What is in your cart now, and the link to check out.",
    keywords: ["cart", "basket", "checkout", "购物车"],
    startPoint: true,
    async render(_match, backend) {
      const found = await cart(backend);
      if (found === null) return NOT_FOUND_FOR("cart", "mine");
      if (isOutcome(found)) return outcomePage("Cart", found);
      const items = Array.isArray(found.items) ? (found.items as Row[]) : [];
      const coupons = Array.isArray(found.coupons) ? (found.coupons as Row[]) : [];
      const notYet = Array.isArray(found.coupons_not_yet) ? (found.coupons_not_yet as Row[]) : [];
      // Whether a coupon applies, an empty cart too (round 17: silence sent the model to search),
      // and what each other one still needs, so "which coupons could I use?" is answered whole.
      const others = notYet.length
        ? ` Not yet: ${notYet.map((c) => `${c.code} (needs ${money(c.needs)} more)`).join(", ")}.`
        : "";
      const offers = !items.length
        ? "\n\nThe cart is empty: no coupon applies to it now."
        : coupons.length
          ? `\n\n## Coupons that apply to this cart\n\n${rowsTable(coupons, ["code", "label", "discount"])}\n\nAt checkout, send its code as coupon_code (or say "use a coupon" in the request).${others}`
          : `\n\nNo coupon applies to this cart.${others}`;
      // Beside the subtotal, what each shipping method adds (and how soon): "what would my cart
      // cost?" is answered here, not after a checkout form that prices shipping only later.
      const shipping = Array.isArray(found.shipping) ? (found.shipping as Row[]) : [];
      const shipped = shipping.length
        ? `\n\n## What it costs with shipping (shipping · delivery · total before coupons, by address)\n\n${rowsTable(shipping)}`
        : "";
      return {
        title: "Cart",
        outcome: "applied",
        markdown: `${rowsTable(items, ["product_id", "name", "quantity", "unit_price"])}\n\n- **Subtotal:** ${money(found.subtotal)}${shipped}${offers}\n\n## Actions\n\n${formLinkLines(await withFormFields(backend, CART_ACTIONS))}`,
      };
    },
  },
  COUPONS_ROUTE,
  {
    pattern: "shop://order/{id}",
    title: "Order",
    description:
      "One order: items, payment, shipment, and which after-sales actions apply now and why the others do not.",
    keywords: ["order", "order details", "refund", "return", "exchange"],
    async render(match, backend) {
      const id = match.params.id ?? "";
      const [view, mine] = await Promise.all([
        backend.entityView("order", id),
        backend.createdByCaller?.("Order", [id]) ?? Promise.resolve<Record<string, string>>({}),
      ]);
      const page = withAddressAndPaymentLines(
        withoutEligibleLines(withItemReasons(withShipmentLine(withTotalsLine(view)))),
      );
      const order = page.view as Row | undefined;
      // "The order I placed": this agent's own checkout made it (from the action store).
      const shown = order && mine[id] ? { ...page, view: { ...order, placed_by: PLACED_BY_YOU } } : page;
      return viewPage("order", id, shown, await withFormFields(backend, orderFormLinks(id, view)));
    },
  },
  orderForm("after-sales", "after_sales", {
    title: "After-sales",
    description:
      "Form: refund, return-and-refund, exchange or shipping-difference refund — the one that fits the order's state.",
    keywords: ["after-sales", "refund", "return", "exchange", "money back", "退款", "退货", "换货"],
  }),
  orderForm("address", "change_delivery_address", {
    title: "Change delivery address",
    description: "Form: change where an order is delivered (only before it ships).",
    keywords: ["address", "delivery address", "ship to", "change address"],
  }),
  orderForm("pay", "pay_order", {
    title: "Pay order",
    description:
      "Form: pay an existing order that awaits payment (balance or card); places no new order, ends at a confirmation a person approves.",
    keywords: ["pay", "pay order", "pending payment", "unpaid", "settle", "付款", "待付款"],
  }),
  orderForm("cancel", "cancel_unpaid_order", {
    title: "Cancel unpaid order",
    description: "Form: cancel an order not paid yet (no money moves; a paid order is after-sales').",
    keywords: ["cancel", "cancel order", "unpaid", "don't need it anymore", "取消订单"],
  }),
  orderForm("tracking", "track_shipment", {
    title: "Track shipment",
    description: "Tracking of a shipped order (read-only: submit with no fields to look it up).",
    keywords: ["tracking", "where is my order", "shipment", "parcel", "delivery status"],
  }),
  {
    pattern: "shop://products",
    title: "Products",
    description:
      "The catalog with prices and stock. Search with ?q=; ?sort=price (cheapest first) or ?sort=-price (most expensive first).",
    keywords: ["products", "catalog", "items", "buy", "shop", "prices"],
    startPoint: true,
    example: "shop://products?q=mug",
    // Only for search: words left after "products" narrow the catalog ("mug products" → ?q=mug),
    // sort words sort it ("cheapest products" → ?sort=price).
    filters: PRODUCT_FILTERS,
    textSearches: "names, descriptions and SKUs of products",
    async render(match, backend) {
      const invalid = invalidFilterPage("Products", match.uri, PRODUCT_FILTERS);
      if (invalid) return invalid;
      const sort = (filterValue(match.uri, "sort") ?? "name") as keyof typeof PRODUCT_ORDER;
      const result = await listProducts(backend, {
        page: pageNumber(match.uri),
        perPage: perPage(match.uri),
        q: match.uri.query.q,
        sort,
      });
      return listPage(
        "Products",
        match.uri,
        result,
        ["id", "name", "price", "stock"],
        (row) => `shop://product/${row.id}`,
        PRODUCT_ORDER[sort],
        SHOP_MONEY,
      );
    },
  },
  {
    pattern: "shop://product/{id}",
    title: "Product",
    description: "One product: price, stock, whether it can be exchanged.",
    keywords: ["product", "price", "stock"],
    async render(match, backend) {
      const id = match.params.id ?? "";
      const found = await product(backend, id);
      if (found === null) return NOT_FOUND_FOR("product", id);
      if (isOutcome(found)) return outcomePage(`Product ${id}`, found);
      const held = await heldInCart(backend, id);
      const inCart = held === null ? "" : `\n- **in your cart:** ${held}`;
      return {
        title: String(found.name ?? `Product ${id}`),
        outcome: "applied",
        markdown: `${objectSections(found)}${inCart}\n\n## Actions\n\n- ${link("All products", "shop://products")}\n${formLinkLines(await withFormFields(backend, PRODUCT_ACTIONS))}`,
      };
    },
  },
  capabilityFormRoute(
    {
      pattern: "shop://cart/change",
      title: "Change cart",
      // The user approves it (review 52c); set CO's model read "no approval" here and was surprised.
      description:
        "Form: add a product to your cart, set how many, or take it out (quantity 0); buys nothing; the user approves it.",
      keywords: ["add to cart", "remove from cart", "cart quantity", "change cart", "加入购物车"],
    },
    { capability: "update_cart", back: () => ({ label: "Back to cart", uri: "shop://cart" }) },
  ),
  capabilityFormRoute(
    {
      pattern: "shop://cart/empty",
      title: "Empty cart",
      description: "Form: take every product out of your cart at once; buys nothing; the user approves it.",
      keywords: ["empty cart", "clear cart", "remove everything", "清空购物车"],
    },
    { capability: "empty_cart", back: () => ({ label: "Back to cart", uri: "shop://cart" }) },
  ),
  capabilityFormRoute(
    {
      pattern: "shop://checkout",
      title: "Checkout",
      description:
        "Form: buy items — items and quantities, address, shipping, coupon, payment method; ends at a confirmation a person approves.",
      keywords: ["checkout", "buy", "purchase", "order", "pay", "下单", "购买"],
      startPoint: true,
    },
    { capability: "checkout", back: () => ({ label: "Back to cart", uri: "shop://cart" }) },
  ),
];

/** A form on one order (`shop://order/{id}/<path>`) that starts `capability` on it, back to the order. */
function orderForm(
  path: string,
  capability: string,
  page: Omit<RouteDefinition, "render" | "submit" | "pattern">,
): RouteDefinition {
  return capabilityFormRoute(
    { pattern: `shop://order/{id}/${path}`, ...page },
    {
      capability,
      entity: { name: "order", param: "id" },
      back: (p) => ({ label: `Back to order ${p.id}`, uri: `shop://order/${p.id}` }),
    },
  );
}
