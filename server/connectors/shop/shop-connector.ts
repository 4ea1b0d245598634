import { defaultLegacyUrl } from "../default-legacy-url";
import type { BrowseBackend, Row } from "../sdk/browse-backend";
import { defineConnector, type RecordQuery } from "../sdk/define-connector";
import { bearerHealthCheck } from "../sdk/http-client";
import { escapeText, link, money } from "../sdk/markdown";
import { moreRecordsLine, RECORDS_SHOWN } from "../sdk/more-records-line";
import { afterSales } from "./capabilities/after-sales";
import { cancelUnpaidOrder } from "./capabilities/cancel-unpaid-order";
import { changeDeliveryAddress } from "./capabilities/change-delivery-address";
import { checkout } from "./capabilities/checkout";
import { emptyCart } from "./capabilities/empty-cart";
import { payOrder } from "./capabilities/pay-order";
import { trackShipment } from "./capabilities/track-shipment";
import { updateCart } from "./capabilities/update-cart";
import { orderView } from "./order-view";
import { itemsText } from "./orders-route";
import { shippedTracking } from "./shipped-tracking";
import { createShopAdapter, type ShopAdapter } from "./shop-adapter";
import { CATALOG_WORDS, isStaff, listOrders, listProducts } from "./shop-records";
import { SHOP_ROUTES } from "./shop-routes";

const ORDER_STATUSES = ["pending_payment", "paid", "shipped", "delivered", "cancelled"];

/** The order status the query names, if any. */
function statusNamed(query: string): string | undefined {
  const lower = query.toLowerCase();
  return ORDER_STATUSES.find((s) => lower.includes(s.replace("_", " ")) || lower.includes(s));
}

/** Orders are looked through (by status, not by words) only when the query is about orders. */
const searchesOrders = ({ query, words }: RecordQuery) =>
  Boolean(statusNamed(query)) || words.includes("order");

/**
 * The listings a record search looks through: the catalog always, orders when asked about, or
 * when "my" may find the caller's orders holding a product (a rule refusing the orders listing
 * then holds for those too: review 60c).
 */
function searchedShop(query: RecordQuery): string[] {
  const status = statusNamed(query.query);
  return [
    "shop://products",
    ...(searchesOrders(query) || query.mine ? [`shop://orders${status ? `?status=${status}` : ""}`] : []),
  ];
}

/** Products named in the query, and orders when it names an order status or says "order". */
async function searchShop(record: RecordQuery, backend: BrowseBackend): Promise<string[]> {
  const { query, words } = record;
  const out: string[] = [];
  // The catalog's listing matches the words as listProducts says (one by one when together
  // they find nothing); the words that name the catalog are no product's text.
  const about = words.filter((w) => !CATALOG_WORDS.has(w));
  const page = await listProducts(backend, { page: 1, q: (about.length ? about : words).join(" ") || query });
  const products = "outcome" in page ? [] : page.data;
  // Each with its price and whether it can be bought now: set U's "which sizes of the tee are in
  // stock?" found the four sizes with prices only, and the model opened the catalog for stock.
  for (const p of products.slice(0, RECORDS_SHOWN)) {
    const facts = [
      p.price !== undefined ? money(Number(p.price)) : "",
      typeof p.stock === "number" ? (p.stock > 0 ? `${p.stock} in stock` : "sold out") : "",
    ];
    out.push(
      `- ${link(`Product ${String(p.name)}`, `shop://product/${p.id}`)} — ${facts.filter(Boolean).join(" · ")}`,
    );
  }
  const found = "outcome" in page ? 0 : (page.total ?? products.length);
  if (found > RECORDS_SHOWN) out.push(moreRecordsLine(found, "products", "shop://products", "Products"));
  const status = statusNamed(query);
  // "my lamp": the caller's orders holding a product the words found are looked through too; a
  // teammate's "my" is never a customer's orders (review 60c: support was shown Alice's).
  const ordered = products.length > 0 && record.mine && !isStaff(backend);
  if (searchesOrders(record) || ordered) {
    // One page of the most a listing shows: the orders holding the item are looked for among them.
    const orders = await listOrders(backend, { page: 1, status, perPage: ORDERS_LOOKED_THROUGH });
    if (!("outcome" in orders)) {
      // The orders holding what the words name come first, alone (set BL: "my lamp order
      // tracking" listed the first five orders, none said what it held, and the model opened the
      // whole listing to find the lamp); every order only where the words name none it holds.
      const holding = orders.data.filter((o) => holdsNamed(o, about));
      const shown = holding.length || !searchesOrders(record) ? holding : orders.data;
      // An order on its way says its tracking, as its row in the orders listing does; each says
      // what it holds, as people name an order by it.
      for (const o of shown.slice(0, RECORDS_SHOWN)) {
        const tracking = shippedTracking(o);
        out.push(
          `- ${link(`Order ${o.id} (${String(o.status)}${tracking ? `, ${tracking}` : ""})`, `shop://order/${o.id}`)} — ${escapeText(itemsText(o))}`,
        );
      }
      if (shown.length > RECORDS_SHOWN)
        // Every order where the words named none it holds: not "found" by them (review 66b).
        out.push(
          moreRecordsLine(
            shown.length,
            "orders",
            `shop://orders${status ? `?status=${status}` : ""}`,
            "Orders",
            shown === holding,
          ),
        );
    }
  }
  return out;
}

/** How many of the newest orders a search looks through for the ones holding an item. */
const ORDERS_LOOKED_THROUGH = 50;

/** Whether one of the order's items is named by a word of the query ("lamp", "mugs"). */
function holdsNamed(order: Row, words: readonly string[]): boolean {
  const items = Array.isArray(order.items) ? (order.items as Row[]) : [];
  // Each side in the singular too: a word searched alone is ("found by `headphone`").
  const one = (w: string) => w.replace(/s$/, "");
  const named = new Set(
    items.flatMap((i) =>
      (
        String(i.name ?? "")
          .toLowerCase()
          .match(/[a-z0-9]+/g) ?? []
      ).map(one),
    ),
  );
  return words.some((w) => named.has(one(w)));
}

/** The demo shop: orders, products, cart, checkout and after-sales over its legacy API. */
export const shopConnector = defineConnector<ShopAdapter>({
  id: "shop",
  title: "Shop",
  scheme: "shop",
  description: "Orders, products, the cart, checkout and after-sales of the online shop.",
  secrets: [{ name: "api_key", description: "The shop API's key (Bearer)" }],
  createAdapter: ({ baseUrl, secrets, lookups }) =>
    createShopAdapter({ baseUrl, apiKey: secrets.api_key ?? "", ...(lookups ? { lookups } : {}) }),
  healthPath: "/health",
  defaultBaseUrl: defaultLegacyUrl,
  checkConnection: bearerHealthCheck("/v1/health"),
  capabilities: [
    checkout,
    payOrder,
    afterSales,
    changeDeliveryAddress,
    cancelUnpaidOrder,
    trackShipment,
    updateCart,
    emptyCart,
  ],
  entities: [
    {
      name: "order",
      label: "Order",
      idPrefix: "ord_",
      uri: (id) => `shop://order/${id}`,
      view: orderView,
    },
  ],
  routes: SHOP_ROUTES,
  searchSynonyms: {
    buy: ["checkout", "purchas", "order", "pay"],
    purchas: ["checkout", "buy"],
    pay: ["checkout", "payment"],
    order: ["checkout"],
    cart: ["checkout"],
    basket: ["cart"],
    // An order that waits for its payment is paid as it is (pay_order), not bought again.
    pend: ["pend payment"],
    unpaid: ["pay order", "pend", "pend payment"],
    settl: ["pay order"],
    // What is owed or due on an order already placed is paid as it is, not bought again.
    owe: ["pay order"],
    owed: ["pay order"],
    due: ["pay order"],
    money: ["refund"],
    // The whole cart out at once (empty_cart): phrases, never "everything" alone (review 66b).
    "take everyth": ["empti", "clear"],
    "remov everyth": ["empti", "clear"],
    "delet everyth": ["empti", "clear"],
    // A paid order's cancel is a refund (after_sales); "unpaid", "waiting for payment" say when
    // it is not (cancel_unpaid_order), and a bare "cancel my order" finds after_sales first.
    cancel: ["refund", "cancel order"],
    "call off": ["refund", "cancel order"],
    scrap: ["refund", "cancel order"],
    withdraw: ["refund", "cancel order"],
    // "I don't need it anymore" of an order: before it is paid, it is dropped.
    anymor: ["unpaid"],
    reimburs: ["refund"],
    // Sent back is returned; sent to an address is delivered there ("send my order to my home
    // instead" tied with a return when "send" alone meant return).
    "send back": ["return"],
    broken: ["return", "damag"],
    damag: ["return"],
    defect: ["return"],
    swap: ["exchang"],
    replac: ["exchang"],
    replacement: ["exchang"],
    // Crushed, smashed or cracked on arrival is damaged.
    crush: ["damag"],
    size: ["exchang"],
    where: ["track"],
    packag: ["shipment", "track"],
    parcel: ["shipment", "track"],
    deliveri: ["shipment", "address"],
    arriv: ["deliveri"],
    move: ["address", "chang"],
    wrong: ["address"],
  },
  // What shop requests are about; the outcome asked for (refund, change, track, buy) decides.
  searchTopics: [
    "parcel",
    "package",
    "shipment",
    "delivery",
    "item",
    "product",
    "包裹",
    "快递",
    "订单",
    "商品",
  ],
  forms: {
    checkout: "shop://checkout",
    update_cart: "shop://cart/change",
    empty_cart: "shop://cart/empty",
    after_sales: "shop://order/{id}/after-sales",
    change_delivery_address: "shop://order/{id}/address",
    track_shipment: "shop://order/{id}/tracking",
    pay_order: "shop://order/{id}/pay",
    cancel_unpaid_order: "shop://order/{id}/cancel",
  },
  searchRecords: searchShop,
  searchedListings: searchedShop,
});
